/**
 * The shipped example plugin, examples/third-party-plugins/getpid-cache, in the app: built with its
 * own `pnpm run build`, installed into the served workspace's plugin folder through the Plugins
 * view, its example (from the plugin's examples/ folder) listed and run with the getpid-cache
 * variant on p4-northwood@2200 — and the numbers must equal what the CLI's execution host gives
 * for the same run.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { RunResult } from "../src/common/contracts.js";
import { downloaded, openSession, rerunTrustedBundle, runAndWait, screenshot, selectCpus, shownResults, type Session } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PLUGIN = fileURLToPath(new URL("../../../examples/third-party-plugins/getpid-cache", import.meta.url));

let s: Session;
let page: Page;
let cli: RunResult;

beforeAll(async () => {
  execFileSync("pnpm", ["run", "build"], { cwd: PLUGIN, stdio: "pipe" });
  const out = execFileSync("pnpm", ["-s", "siglab", "run", "getpid_cache", "--plugin-dir", "examples/third-party-plugins", "--variant", "getpid-cache", "--cpu", "p4-northwood@2200", "--json"], { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const runs = (JSON.parse(out) as { runs: RunResult[] }).runs;
  expect(runs).toHaveLength(1);
  cli = runs[0]!;
  expect(cli.error).toBeUndefined();
  s = await openSession();
  page = s.page;
}, 180_000);
afterAll(async () => {
  await s?.close();
});

describe("a third-party plugin in the app", () => {
  it("installs getpid-cache, lists its example and runs it with the CLI's numbers", async () => {
    await page.click('[data-view="plugins"]');
    await page.click('[data-action="install-plugin"]');
    await page.fill(".modal input", PLUGIN);
    await page.click('[data-testid="modal-ok"]');
    await page.waitForSelector('[data-plugin="getpid-cache"][data-status="ok"]');
    await page.click('[data-view="workload"]');
    // the plugin's examples/getpid_cache.ts is in the example list
    await page.click('[data-example="getpid_cache"]', { timeout: 20_000 });
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:getpid_cache");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await selectCpus(page, ["p4-northwood"]);
    await page.locator(".cpu-row", { has: page.locator('[data-cpu="p4-northwood"]') }).locator("select").selectOption("2200");
    await page.selectOption('[data-add-plugin="0"]', "getpid-cache");
    await page.waitForSelector('[data-stack="0"] [data-variant="getpid-cache"]');
    expect(await runAndWait(page)).toMatch(/Done: 1 run/);
    const [app] = await shownResults(page);
    expect(app!.error).toBeUndefined();
    expect(app!.workload).toBe(cli.workload);
    expect(app!.cpu).toEqual({ id: "p4-northwood", mhz: 2200 });
    expect(app!.variants).toEqual(cli.variants);
    expect(app!.metrics).toEqual(cli.metrics);
    expect(app!.phases).toEqual(cli.phases);
    expect(app!.counters).toEqual(cli.counters);
    expect(app!.totalCycles).toBe(cli.totalCycles);
    expect(app!.simSeconds).toBe(cli.simSeconds);
    expect(app!.findings).toEqual(cli.findings);
    expect(app!.paths).toEqual(cli.paths);
    expect(app!.metrics.find((m) => m.name === "pid page registered")?.value).toBe(1);
    await page.click('[data-tab="table"]');
    await screenshot(page, "12-getpid-cache");
  });

  it("exports the run as a bundle that a fresh workspace re-runs bit for bit once the user trusts its plugin code (issue 31)", async () => {
    const bundle = await downloaded(page, () => page.click("#export-bundle"));
    const file = path.join(s.workspace, "..", `getpid-cache-${Date.now()}.siglab`);
    writeFileSync(file, bundle.bytes);
    const fresh = await openSession();
    try {
      const p = fresh.page;
      // the plugin is not installed there: the bundle's own code, after consent
      const { notice, verdict, results: [again] } = await rerunTrustedBundle(p, file, "getpid-cache");
      expect(notice).toMatch(/carries third-party plugin code: getpid-cache@[0-9.]+ \(sha256 [0-9a-f]{12}…\)/);
      expect(verdict).toMatch(/identical to the bundle's, bit for bit/);
      expect(again!.metrics).toEqual(cli.metrics);
      expect(again!.totalCycles).toBe(cli.totalCycles);
      // the plugin list of the workspace is untouched: nothing was installed
      await p.click('[data-view="plugins"]');
      expect(await p.locator('[data-plugin="getpid-cache"]').count()).toBe(0);
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it("logged no errors to the console", () => {
    expect(s.errors).toEqual([]);
  });
});
