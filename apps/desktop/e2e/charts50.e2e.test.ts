/**
 * Issue 32, item 5: the charts of a 48-run sweep (3 CPUs × 2 variant stacks × 8 log-spaced values)
 * stay readable at 1440×900 and 1920×1080 — a phase chart per CPU (facets) whose bars lie down with
 * a row per run, legends outside the plots (wrapping, a series picker), units on the value axes, the
 * log-spaced sweep on a log axis labelled so, µs or cycles, the Okabe–Ito palette. Screenshots of
 * both sizes go to test-artifacts/desktop (32-05-sweep-50-*.png); the layout facts are asserted.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, runAndWait, screenshot, selectCpus, type Session } from "./harness.js";

type Box = { x: number; y: number; w: number; h: number };
type Layout = {
  card: Box; canvas: Box; legend: Box | null; area: Box; indexAxis: string; palette: string | null; hidden: boolean[]; markers: string[];
  scales: { id: string; type: string; horizontal: boolean; title: string; font: number; ticks: { label: string; pos: number }[] }[];
};
const layout = (p: Page, id: string): Promise<Layout | null> => p.evaluate((c) => (window as unknown as { __siglabTest: { chartLayout(id: string): Layout | null } }).__siglabTest.chartLayout(c), id);
const overlap = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

const CPUS = ["p4-northwood", "p6-coppermine", "k7-palomino"];
const VALUES = [100, 200, 400, 800, 1600, 3200, 6400, 12800];

let s: Session;
let page: Page;
beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

async function checkPhaseFacets(p: Page, size: string): Promise<void> {
  const ids = await p.$$eval("canvas[data-chart^='phases']", (els) => els.map((e) => e.getAttribute("data-chart")!));
  expect(ids).toHaveLength(3); // a chart per CPU
  for (const id of ids) {
    await p.locator(`canvas[data-chart="${id}"]`).scrollIntoViewIfNeeded();
    const l = (await layout(p, id))!;
    expect(l.indexAxis, id).toBe("y"); // 16 runs: the bars lie down, a row each
    const runs = l.scales.find((x) => x.id === "y")!;
    expect(runs.ticks).toHaveLength(16);
    expect(runs.ticks.every((t) => /^(baseline|no-cli-exit) · iterations=\d+$/.test(t.label)), runs.ticks.map((t) => t.label).join("|")).toBe(true);
    // labels never overlap: each row is at least a line of its font high
    const gaps = runs.ticks.slice(1).map((t, i) => Math.abs(t.pos - runs.ticks[i]!.pos));
    expect(Math.min(...gaps), `${size} ${id}: rows ${gaps.join(",")}`).toBeGreaterThanOrEqual(runs.font * 1.2);
    // the plot keeps the card: most of its height, and the legend is below it, outside
    expect(l.area.h / l.card.h, `${size} ${id}: plot ${l.area.h} of card ${l.card.h}`).toBeGreaterThan(0.55);
    expect(l.legend).not.toBeNull();
    expect(overlap(l.legend!, l.area)).toBe(false);
    expect(l.legend!.y).toBeGreaterThanOrEqual(l.canvas.y + l.canvas.h - 1);
    expect(l.scales.find((x) => x.id === "x")!.title).toMatch(/^(cycles|µs) per iteration \(÷ iterations\)$/);
    expect(l.palette).toBe("Okabe–Ito");
  }
}

describe("issue 32: charts readable at 50 runs", () => {
  it("a 48-run sweep: facets by CPU, lying bars with rows that never overlap, legends outside, a log axis labelled, µs or cycles", async () => {
    await page.click('[data-example="lat_syscall"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_syscall");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await selectCpus(page, CPUS);
    await page.selectOption("[data-add-stack]", "no-cli-exit");
    await page.locator(".run-config label", { hasText: "Sweep one parameter" }).locator("input").check();
    await page.selectOption('select[aria-label="Sweep parameter"]', "iterations");
    await page.fill('input[aria-label="Sweep values"]', VALUES.join(", "));
    await page.dispatchEvent('input[aria-label="Sweep values"]', "change");
    expect(await runAndWait(page, 300_000)).toMatch(/^Done: 48 runs/);
    await page.click('[data-tab="charts"]');
    await page.locator("canvas[data-chart^='phases@']").first().waitFor();

    await page.selectOption('select[aria-label="Phase chart normalisation"] >> nth=0', "iterations");
    await checkPhaseFacets(page, "1440×900");
    await page.locator("canvas[data-chart^='phases@']").first().scrollIntoViewIfNeeded();
    await screenshot(page, "32-05-sweep-50-1440x900");

    // the sweep: a chart per CPU, a line per stack, on a log axis that says so
    const sweepIds = await page.$$eval("canvas[data-chart^='sweep:']", (els) => els.map((e) => e.getAttribute("data-chart")!));
    expect(sweepIds.length % 3).toBe(0);
    expect(sweepIds.length).toBeGreaterThanOrEqual(3);
    const sw = (await layout(page, sweepIds[0]!))!;
    const x = sw.scales.find((a) => a.id === "x")!;
    expect(x.type).toBe("logarithmic");
    expect(x.title).toBe("iterations (log scale)");
    expect(sw.scales.find((a) => a.id === "y")!.title).toMatch(/\((µs|us|cycles)\)$/);
    expect(sw.hidden).toEqual([false, false]);
    // lines that coincide stay apart: a marker of their own, every other one dashed
    expect(sw.markers).toEqual(["circle", "rect dashed"]);
    // the legend is a series picker: untick a series, it is hidden; "all" brings it back
    const card = page.locator(`[data-chart-card="${sweepIds[0]}"]`);
    await card.locator(".legend-item", { hasText: "no-cli-exit" }).locator("input").uncheck();
    expect((await layout(page, sweepIds[0]!))!.hidden).toEqual([false, true]);

    // µs instead of cycles (cycles mislead across clocks)
    await page.selectOption('select[aria-label="Phase chart unit"] >> nth=0', "us");
    const first = await page.$eval("canvas[data-chart^='phases@']", (e) => e.getAttribute("data-chart")!);
    expect((await layout(page, first))!.scales.find((a) => a.id === "x")!.title).toBe("µs per iteration (÷ iterations)");

    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForTimeout(300);
    await checkPhaseFacets(page, "1920×1080");
    await page.locator("canvas[data-chart^='phases@']").first().scrollIntoViewIfNeeded();
    await screenshot(page, "32-05-sweep-50-1920x1080");
    expect(s.errors).toEqual([]);
  }, 400_000);
});
