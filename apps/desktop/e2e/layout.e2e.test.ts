/**
 * Issue 32 item 6 in Chromium at 1440×900: after a run the results pane takes the room (the editor
 * keeps a few lines), resizable and remembered apart from the height while editing; the timeline
 * is as wide as the pane; the status line and the path inspector's columns are not cut.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openSession, runAndWait, screenshot, selectCpus, type Session } from "./harness.js";

let s: Session;
let page: Page;

const paneHeight = async (p: Page): Promise<number> => (await p.locator("#results").boundingBox())!.height;
/** An element's content wider than its box (cut or scrolled sideways): how many pixels. */
const overflowX = (p: Page, selector: string): Promise<number[]> => p.$$eval(selector, (els) => els.map((e) => e.scrollWidth - e.clientWidth));

async function reload(p: Page): Promise<void> {
  await p.reload();
  await p.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
}

beforeAll(async () => {
  s = await openSession();
  page = s.page;
  expect(page.viewportSize()).toEqual({ width: 1440, height: 900 });
});
afterAll(async () => {
  await s?.close();
});

describe("issue 32 item 6: results that take the room at 1440×900", () => {
  it("gives the results most of the window after a run, a full-width timeline and a whole status line", async () => {
    const editing = await paneHeight(page);
    expect(editing).toBeLessThan(900 * 0.4);
    await page.click('[data-example="lat_sig_catch"]');
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    const it = page.locator('[data-param="iterations"]');
    await it.fill("60");
    await it.dispatchEvent("change");
    await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
    await page.selectOption("[data-add-stack]", "sa-nofp");
    await page.locator(".run-config label", { hasText: "Record per-task timeline" }).locator("input").check();
    const status = await runAndWait(page);
    expect(status).toMatch(/^Done: 4 runs in [\d.]+ s · 0 findings$/);
    expect(await paneHeight(page)).toBeGreaterThan(900 * 0.6);
    // the status line is whole
    expect(await overflowX(page, "#run-status")).toEqual([0]);
    // a timeline as wide as the charts grid
    const grid = (await page.locator(".chart-grid").boundingBox())!;
    const timeline = (await page.locator('[data-chart-card="timeline:0"]').boundingBox())!;
    expect(timeline.width).toBeGreaterThan(grid.width * 0.97);
    await page.locator('[data-chart-card="timeline:0"]').scrollIntoViewIfNeeded();
    await screenshot(page, "32-06-results-room");
    // the path inspector: nothing cut sideways in either column
    await page.click('[data-tab="inspector"]');
    await page.waitForSelector("#inspector table.paths tr[data-path]");
    await page.click("#inspector table.paths tr[data-path]");
    await page.waitForSelector("#inspector .ops-table");
    expect(await overflowX(page, ".inspector-split > *")).toEqual([0, 0]);
    await screenshot(page, "32-06-inspector");
    await page.click('[data-tab="charts"]');
  });

  it("remembers the pane's height with results apart from the height while editing", async () => {
    const bar = (await page.locator("#results-splitter").boundingBox())!;
    await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width / 2, bar.y - 100, { steps: 4 });
    await page.mouse.up();
    const withResults = await paneHeight(page);
    expect(withResults).toBeGreaterThan(900 * 0.6);
    await reload(page);
    // no results yet: the editing height, not the one chosen over results
    expect(await paneHeight(page)).toBeLessThan(900 * 0.4);
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await runAndWait(page);
    expect(Math.abs((await paneHeight(page)) - withResults)).toBeLessThan(3);
  });
});
