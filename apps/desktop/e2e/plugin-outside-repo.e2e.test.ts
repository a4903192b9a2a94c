/**
 * Issue 31's author path, whole, ending in the app (siglab serve in Chromium): a plugin scaffolded
 * by `siglab plugin new` in a folder outside the checkout, depending on the packed API tarballs
 * (apps/cli/test/outside-plugin.ts, the CLI test's own setup), builds with its build script, passes
 * its own tests and is packed by `siglab plugin pack`; the app installs the archive through "Install
 * from file…", runs the plugin's example with it, exports the run as a bundle, and a fresh
 * workspace opens that bundle, runs its embedded plugin only once trusted, and reproduces the
 * exported results bit for bit.
 *
 * One scaffold and build for the file (~20 s of its ~30: pnpm's store serves the author's
 * dependencies). The tarballs are packed from the plugin-api and plugin-harness dist/ already built
 * (`pnpm typecheck` builds them, `pnpm test` runs it first); without them pack-api's refusal names
 * the missing file.
 */
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { RunResult } from "../src/common/contracts.js";
import { ROOT, runAsAuthor, scaffoldOutsidePlugin } from "../../cli/test/outside-plugin.js";
import { downloaded, openExample, openSession, rerunTrustedBundle, runAndWait, selectCpus, shownResults, type Session } from "./harness.js";

const ID = "outside-e2e";
const SIGLAB = path.join(ROOT, "apps/cli/bin/siglab.mjs");
let tmp = "";
let archive = "";
let s: Session;
let page: Page;
let exported: RunResult;

const metric = (r: RunResult, name: string) => r.metrics.find((m) => m.name === name)?.value;
/** what the simulation computed (not when or where it ran) */
const simulated = (r: RunResult) => ({ workload: r.workload, cpu: r.cpu, variants: r.variants, metrics: r.metrics, phases: r.phases, counters: r.counters, paths: r.paths, findings: r.findings, totalCycles: r.totalCycles, simSeconds: r.simSeconds });

beforeAll(async () => {
  const author = scaffoldOutsidePlugin(SIGLAB, ID);
  tmp = author.tmp;
  const build = runAsAuthor("pnpm", ["run", "build"], author.plugin);
  expect(build.status, build.out).toBe(0);
  const test = runAsAuthor("pnpm", ["test"], author.plugin);
  expect(test.status, test.out).toBe(0);
  expect(test.stdout).toMatch(/# fail 0/);
  const packed = runAsAuthor(process.execPath, [SIGLAB, "plugin", "pack", author.plugin], tmp);
  expect(packed.status, packed.out).toBe(0);
  const file = readdirSync(tmp).find((f) => f.startsWith(`${ID}-`) && f.endsWith(".siglab-plugin"));
  expect(file, packed.out).toBeDefined();
  archive = path.join(tmp, file!);
  s = await openSession();
  page = s.page;
}, 300_000);
afterAll(async () => {
  await s?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("a plugin written outside the repository, in the app", () => {
  it("installs from its packed archive and runs its example with the plugin", async () => {
    await page.click('[data-view="plugins"]');
    const chooser = page.waitForEvent("filechooser");
    await page.click('[data-action="install-plugin-file"]');
    await (await chooser).setFiles(archive);
    await page.locator(`[data-plugin="${ID}"][data-status="ok"]`).waitFor({ timeout: 20_000 });
    await page.click('[data-view="workload"]');
    await openExample(page, `${ID}-demo`);
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await selectCpus(page, ["p4-northwood"]);
    await page.selectOption('[data-add-plugin="0"]', ID);
    await page.waitForSelector(`[data-stack="0"] [data-variant="${ID}"]`);
    expect(await runAndWait(page)).toMatch(/Done: 1 run/);
    const [run] = await shownResults(page);
    expect(run!.error).toBeUndefined();
    // the plugin acted: without it the demo's gettid fails with ENOSYS (0)
    expect(metric(run!, "gettid available")).toBe(1);
    expect(metric(run!, "gettid is the tid")).toBe(1);
    expect(run!.paths.find((p) => p.name === "sys_gettid")?.origin).toBe(ID);
    exported = run!;
  });

  it("exports the run as a bundle that a fresh workspace re-runs bit for bit once its embedded plugin is trusted", async () => {
    const bundle = await downloaded(page, () => page.click("#export-bundle"));
    const file = path.join(tmp, `${ID}.siglab`);
    writeFileSync(file, bundle.bytes);
    const fresh = await openSession();
    try {
      const p = fresh.page;
      const { notice, verdict, results: [again] } = await rerunTrustedBundle(p, file, ID);
      expect(notice).toMatch(new RegExp(`carries third-party plugin code: ${ID}@[0-9.]+ \\(sha256 [0-9a-f]{12}…\\)`));
      expect(verdict).toMatch(/identical to the bundle's, bit for bit/);
      expect(again!.error).toBeUndefined();
      expect(simulated(again!)).toEqual(simulated(exported));
      expect(metric(again!, "gettid available")).toBe(1);
      // the fresh workspace ran the bundle's copy: nothing was installed there
      await p.click('[data-view="plugins"]');
      expect(await p.locator(`[data-plugin="${ID}"]`).count()).toBe(0);
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it("logged no errors to the console", () => {
    expect(s.errors).toEqual([]);
  });
});
