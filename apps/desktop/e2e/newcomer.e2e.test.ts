/**
 * Issue 32's newcomer check: the README's "From a fresh clone to that figure on a slide" steps,
 * read from the README itself and walked as written, must give the headline figure (lat_sig catch
 * with and without SA_NOFP, the measured figure beside it) as a slide — the CLI's SVG and CSV in
 * the folder the command is typed in, and the app's PNG at 1920×1080 — within five minutes.
 * Step 1 (scripts/setup.sh) is what CI ran before this suite; the walk starts after it, and the
 * `siglab` command of step 2 is the shim setup.sh installs (its target, apps/cli/bin/siglab.mjs).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloaded, openSession, type Session } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const FIVE_MINUTES = 5 * 60_000;

/** The numbered steps under the README's "From a fresh clone to that figure on a slide". */
function steps(): string[] {
  const at = README.indexOf("**From a fresh clone to that figure on a slide**");
  expect(at, "the README's newcomer section").toBeGreaterThan(0);
  const section = README.slice(at).split("\n\n").slice(1).join("\n\n").split(/\n(?=\S)(?!\d\. )/)[0]!;
  return section.split(/\n(?=\d\. )/).map((s) => s.replace(/\s*\n\s*/g, " ").trim());
}

let s: Session;
let page: Page;
const started = Date.now();

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

describe("a newcomer, following the README alone", () => {
  it("gets the headline figure with and without SA_NOFP onto a slide, from the CLI and from the app, within five minutes", async () => {
    const [setup, cli, app] = steps();
    expect(setup).toMatch(/^1\. `bash scripts\/setup\.sh`/);

    // step 2: the command as written, typed in a folder of the user's own
    const command = /`(siglab summary [^`]+)`/.exec(cli!)![1]!;
    const args = command.split(/\s+/).slice(1);
    const folder = mkdtempSync(path.join(os.tmpdir(), "siglab-newcomer-"));
    execFileSync(process.execPath, [path.join(ROOT, "apps/cli/bin/siglab.mjs"), ...args], { cwd: folder, stdio: "pipe", env: { ...process.env, SIGLAB_NO_CACHE: "1" } });
    const svg = readFileSync(path.join(folder, "headline.svg"), "utf8");
    expect(svg).toMatch(/viewBox="0 0 1920 1080"/);
    expect(svg).toContain("Signal handler overhead");
    const bars = [...svg.matchAll(/data-series="([^"]+)" data-value="([^"]+)"/g)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(new Set(bars.map(([k]) => k))).toEqual(new Set(["baseline", "sa-nofp(forceAll=true)", "measured"]));
    const csv = readFileSync(path.join(folder, "headline.csv"), "utf8");
    const us = (stack: string): number => Number(csv.split("\n").find((r) => r.includes(`,${stack},`) && r.includes("lat_sig_catch") && r.includes(",simulated,"))!.split(",")[5]);
    // the headline: SA_NOFP takes the FPU save and restore out of a signal's round trip
    expect(us("sa-nofp(forceAll=true)")).toBeLessThan(us("baseline") * 0.8);

    // step 3: the app, as the README says it (the server is the one `siglab serve` runs)
    const cpuName = /tick only "([^"]+)" under CPU profiles/.exec(app!)![1]!;
    const stackLabel = /pick "([^"]+)" in "\+ stack…"/.exec(app!)![1]!;
    const option = /tick its `([^`]+)`/.exec(app!)![1]!;
    const runLabel = /press "([^"]+)"/.exec(app!)![1]!;
    const exportLabel = /then "([^"]+)" under the figure/.exec(app!)![1]!;
    for (const row of await page.locator(".cpu-row").all()) {
      const box = row.locator("input[type=checkbox]");
      if ((await box.isChecked()) !== (await row.textContent())!.includes(cpuName)) await box.click();
    }
    const choice = (await page.locator("[data-add-stack] option").allTextContents()).find((t) => t.startsWith(stackLabel));
    expect(choice, `"${stackLabel}" in + stack…`).toBeTruthy();
    await page.selectOption("[data-add-stack]", { label: choice! });
    await page.locator('[data-stack="1"] label.option', { hasText: option }).locator("input").check();
    await page.click('[data-view="summary"]');
    const before = await page.evaluate(() => Number(document.body.dataset.summaryRuns ?? 0));
    await page.getByRole("button", { name: runLabel }).click();
    await page.waitForFunction((n) => Number(document.body.dataset.summaryRuns ?? 0) > n, before, { timeout: FIVE_MINUTES });
    expect(await page.textContent("#summary-status")).toMatch(/^Done: 5 benchmarks × 2 rows/);
    const png = (await downloaded(page, () => page.locator("#summary-figure").getByRole("button", { name: exportLabel, exact: true }).click())).bytes;
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1920, 1080]);

    expect(Date.now() - started, "the walk after setup takes under five minutes").toBeLessThan(FIVE_MINUTES);
    expect(s.errors).toEqual([]);
  });
});
