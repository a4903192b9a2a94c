/**
 * Issue 33 item 2 in the app: a run identical to one simulated before is answered from the result
 * cache (the status line says how many, the table marks each with a "cached" badge, the results
 * are the same bit for bit); the setting in the run configuration turns it off; a re-run of an
 * opened bundle is always simulated.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, runAndWait, selectCpus, shownResults, type Session } from "./harness.js";

let s: Session;
let page: Page;

beforeAll(async () => {
  s = await openSession({ resultCache: true });
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

const cachedBadges = (p: Page): Promise<number> => p.locator("table.results-table .badge.cached").count();
/** the results without what says where they came from */
const plain = (rs: unknown[]): unknown[] => rs.map((r) => {
  const { cached: _, ...rest } = r as Record<string, unknown>;
  return rest;
});

describe("the result cache in the app", () => {
  it("answers a repeated run from the cache, says so, and simulates again when the setting is off", async () => {
    await page.click('[data-example="lat_syscall"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_syscall");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    const iterations = page.locator('[data-param="iterations"]');
    await iterations.fill("400");
    await iterations.dispatchEvent("change");
    await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
    const box = page.locator('[data-setting="result-cache"] input[type=checkbox]');
    await page.waitForFunction(() => !(document.querySelector('[data-setting="result-cache"] input[type=checkbox]') as HTMLInputElement | null)?.disabled);
    expect(await box.isChecked()).toBe(true);

    const first = await runAndWait(page, 60_000);
    expect(first).toMatch(/^Done: 2 runs in /);
    expect(first).not.toContain("cached");
    const simulated = await shownResults(page);
    await page.click('[data-tab="table"]');
    expect(await cachedBadges(page)).toBe(0);
    // the cache now holds both runs, and the setting says so
    await page.waitForFunction(() => /\b2 results stored\b/.test(document.querySelector('[data-setting="result-cache"] p')?.textContent ?? ""));

    const second = await runAndWait(page, 60_000);
    expect(second).toMatch(/^Done: 2 runs in .* · all cached · /);
    const cached = await shownResults(page);
    expect(plain(cached)).toEqual(plain(simulated));
    expect((cached as { cached?: boolean }[]).every((r) => r.cached === true)).toBe(true);
    await page.click('[data-tab="table"]');
    expect(await cachedBadges(page)).toBe(2);

    // a changed parameter misses: one configuration changes, both runs are simulated
    await iterations.fill("401");
    await iterations.dispatchEvent("change");
    expect(await runAndWait(page, 60_000)).not.toContain("cached");

    // the setting off: the same runs are simulated again
    await box.uncheck();
    await page.waitForFunction(() => !(document.querySelector('[data-setting="result-cache"] input[type=checkbox]') as HTMLInputElement).checked);
    await iterations.fill("400");
    await iterations.dispatchEvent("change");
    const off = await runAndWait(page, 60_000);
    expect(off).not.toContain("cached");
    await page.click('[data-tab="table"]');
    expect(await cachedBadges(page)).toBe(0);
    expect(s.errors).toEqual([]);
  });
});
