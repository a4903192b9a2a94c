/**
 * Issue 15 item 6 in Chromium: the Repetitions control runs every configuration N times (seeds
 * seed..seed+N-1); the table shows min ≤ median ≤ max of each metric, the charts the median, and
 * the histogram the distribution over the N seeds (N values per configuration).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, runAndWait, screenshot, selectCpus, shownResults, chartInfo, type Session } from "./harness.js";

let s: Session;
let page: Page;

type Hooks = {
  runConfig(): { repeat?: number; seed: number };
};
const runConfig = (p: Page): Promise<ReturnType<Hooks["runConfig"]>> => p.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.runConfig());

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

describe("repetitions (seeds) in the app", () => {
  it("runs lat_ctx 5 times per configuration: min ≤ median ≤ max in the table, 5 samples per configuration in the histogram", async () => {
    await page.click('[data-example="lat_ctx"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_ctx");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    const iterations = page.locator('[data-param="iterations"]');
    await iterations.fill("300");
    await iterations.dispatchEvent("change");
    await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
    expect(await page.inputValue('[data-param="__repeat"]')).toBe("1");
    const rep = page.locator('[data-param="__repeat"]');
    await rep.fill("5");
    await rep.dispatchEvent("change");
    expect((await runConfig(page)).repeat).toBe(5);

    const status = await runAndWait(page, 60_000);
    expect(status).toMatch(/^Done: 2 runs × 5 seeds in /);
    const results = await shownResults(page);
    expect(results).toHaveLength(2);
    for (const r of results as unknown as { repeat: { n: number; seeds: number[] }; timeline?: unknown }[]) {
      expect(r.repeat.n).toBe(5);
      expect(r.repeat.seeds).toEqual([1, 2, 3, 4, 5]);
    }

    // the histogram: the distribution over the 5 seeds, one dataset per configuration
    const metric = "context switch cycles";
    const id = `histogram:${metric}`;
    await page.waitForSelector(`canvas[data-chart="${id}"]`);
    const info = (await chartInfo(page, id))!;
    expect(info.xTitle).toBe(`${metric} (cycles) over 5 seeds, bin start`);
    expect(info.yTitle).toBe("repetitions (seeds)");
    expect(info.datasets.map((d) => d.label)).toEqual(["P4 2.2 GHz · baseline", "PIII 733 MHz · baseline"]);
    expect(info.datasets.map((d) => d.total)).toEqual([5, 5]);
    expect(await page.locator(`[data-chart-card="${id}"] figcaption`).textContent()).toContain(`${metric}: distribution over 5 seeds`);
    await screenshot(page, "repeat-histogram");

    // the table: min ≤ median ≤ max of every metric, the median being the charted value
    await page.click('[data-tab="table"]');
    const table = page.locator("table.results-table").first();
    expect(await table.getAttribute("data-repetitions")).toBe("5");
    const heads = await table.locator("th").allTextContents();
    expect(heads).toEqual(expect.arrayContaining([`${metric} min (cycles)`, `${metric} median (cycles)`, `${metric} max (cycles)`, "seeds"]));
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      const row = rows.nth(i);
      expect(await row.locator("td").nth(1).textContent()).toBe("1..5");
      const v = async (stat: string): Promise<number> => Number(await row.locator(`td[data-metric="${metric}"][data-stat="${stat}"]`).getAttribute("data-value"));
      const [min, median, max] = [await v("min"), await v("median"), await v("max")];
      expect(min).toBeLessThanOrEqual(median);
      expect(median).toBeLessThanOrEqual(max);
      const r = results[i]!.metrics.find((m) => m.name === metric)!;
      expect(r.value).toBe(median);
    }
    await screenshot(page, "repeat-table");

    // kept across a reload
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
    expect(await page.inputValue('[data-param="__repeat"]')).toBe("5");
    expect(s.errors).toEqual([]);
  });
});
