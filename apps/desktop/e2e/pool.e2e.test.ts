/**
 * Issue 12 in Chromium: the app runs a sweep's runs on a pool of sandbox workers (the CLI's
 * --jobs), and what it shows and exports is the same as one run at a time. The sweep runs with the
 * pool forced to 2 (local storage "siglab.sweep-workers"), then to 1, then to 2 again; the results
 * the host returned, the results table's text and the CSV export must be identical. The wall time
 * of pool = 1 and pool = 2 is logged (on a 2-core machine the ratio is the speed-up of the pool;
 * SIGLAB_POOL_SCALE=10 makes the runs long enough for the simulation to dominate).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloaded, hostRun, openSession, runAndWait, screenshot, selectCpus, shownResults, workerStarts, type Session } from "./harness.js";

let s: Session;
let page: Page;
/** SIGLAB_POOL_SCALE=k multiplies the sweep's iterations (longer runs, for measuring the speed-up; default 1) */
const SCALE = Math.max(1, Math.trunc(Number(process.env.SIGLAB_POOL_SCALE ?? 1)) || 1);
const VALUES = [400, 420, 440].map((v) => v * SCALE);

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

async function setPool(n: number): Promise<void> {
  await page.evaluate((v) => localStorage.setItem("siglab.sweep-workers", String(v)), n);
}

/** Runs the sweep with the pool forced to `pool`: wall time, results, table text and CSV export. */
async function sweepWith(pool: number) {
  await setPool(pool);
  const startsBefore = (await workerStarts(page)).length;
  const t0 = Date.now();
  const status = await runAndWait(page, 90_000);
  const ms = Date.now() - t0;
  const results = await shownResults(page);
  await page.click('[data-tab="table"]');
  const table = (await page.locator("table.results-table").first().innerText()).trim();
  // siglab serve's exports are the browser's downloads
  const d = await downloaded(page, () => page.click("#export-csv"));
  expect(d.name.endsWith(".csv"), d.name).toBe(true);
  const csv = d.bytes.toString("utf8");
  return { status, ms, results, table, csv, newWorkers: (await workerStarts(page)).length - startsBefore };
}

describe("a sweep on the app's pool of sandbox workers", () => {
  it("gives the same results, table and CSV with 2 workers as with 1", async () => {
    await page.click('[data-example="lat_ctx"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_ctx");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
    await page.locator(".run-config label", { hasText: "Sweep one parameter" }).locator("input").check();
    await page.selectOption('select[aria-label="Sweep parameter"]', "iterations");
    await page.fill('input[aria-label="Sweep values"]', VALUES.join(", "));
    await page.dispatchEvent('input[aria-label="Sweep values"]', "change");

    // the first sweep also starts the workers (the page has one from inspecting the workload)
    const warm = await sweepWith(2);
    expect(warm.status).toMatch(/^Done: 6 runs in /);
    const one = await sweepWith(1);
    const two = await sweepWith(2);
    await screenshot(page, "pool-sweep-table");
    console.log(`sweep of 6 runs (lat_ctx, 2 CPUs × iterations ${VALUES.join("/")}): pool=1 ${one.ms} ms, pool=2 ${two.ms} ms, ratio ${(one.ms / two.ms).toFixed(2)} (warm-up with pool=2: ${warm.ms} ms; navigator.hardwareConcurrency ${await page.evaluate(() => navigator.hardwareConcurrency)})`);

    for (const r of [warm, one, two]) {
      expect(r.status).toMatch(/^Done: 6 runs in .* · \d+ findings?$/);
      expect(r.results).toHaveLength(6);
      for (const x of r.results) expect(x.error).toBeUndefined();
    }
    // in run order (CPU-major, then the swept value), whatever order they finished in
    expect(two.results.map((r) => `${r.cpu.id}:${String(r.params["iterations"])}`)).toEqual(["p4-northwood", "p6-coppermine"].flatMap((c) => VALUES.map((v) => `${c}:${v}`)));
    expect(JSON.stringify(two.results)).toBe(JSON.stringify(one.results));
    expect(JSON.stringify(warm.results)).toBe(JSON.stringify(one.results));
    expect(two.table).toBe(one.table);
    expect(two.table.split("\n").length).toBeGreaterThan(6);
    expect(two.csv).toBe(one.csv);
    expect(two.csv).toMatch(/lat_ctx/);
    // the pool of 2 had a second worker; one at a time used only the first
    expect(warm.newWorkers).toBeGreaterThanOrEqual(1);
    expect(one.newWorkers).toBe(0);
    expect(two.newWorkers).toBe(0);
    await page.evaluate(() => localStorage.removeItem("siglab.sweep-workers"));
    await page.locator(".run-config label", { hasText: "Sweep one parameter" }).locator("input").uncheck();
    expect(s.errors).toEqual([]);
  });

  // SIGLAB_POOL_BENCH=n: the same sweep through the app's execution host alone (no table or charts
  // drawn), pool = 1 and pool = 2 alternately n times each; logs each wall time, the medians and
  // their ratio. Off by default (it is a measurement, not a check).
  const BENCH = Math.trunc(Number(process.env.SIGLAB_POOL_BENCH ?? 0)) || 0;
  it.runIf(BENCH > 0)(`measures the sweep's wall time with pool = 1 and 2 (${BENCH} times each)`, async () => {
    const source = await page.evaluate(() => (window as unknown as { __siglabTest: { source(): string } }).__siglabTest.source());
    const config = { workload: { id: "lat_ctx", file: "examples/lat_ctx.ts", source }, cpus: [{ id: "p4-northwood", mhz: 2200 }, { id: "p6-coppermine", mhz: 733 }], stacks: [[]], params: {}, sweep: { param: "iterations", values: VALUES }, seed: 1 };
    const times: Record<number, number[]> = { 1: [], 2: [] };
    let first: string | null = null;
    for (let k = 0; k < BENCH; k++) {
      for (const pool of [2, 1]) {
        await setPool(pool);
        const t0 = Date.now();
        const results = await hostRun(page, config);
        times[pool]!.push(Date.now() - t0);
        const json = JSON.stringify(results);
        first ??= json;
        expect(json).toBe(first);
      }
    }
    await page.evaluate(() => localStorage.removeItem("siglab.sweep-workers"));
    const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;
    console.log(`host only, 6 runs (iterations ${VALUES.join("/")}): pool=1 ${JSON.stringify(times[1])} ms, pool=2 ${JSON.stringify(times[2])} ms; medians ${median(times[1]!)} / ${median(times[2]!)} ms, ratio ${(median(times[1]!) / median(times[2]!)).toFixed(2)}`);
  });
});
