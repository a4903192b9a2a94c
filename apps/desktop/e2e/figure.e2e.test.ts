/**
 * Issue 32, item 3: the LMbench summary as a figure in the app — the grouped bar chart (the one
 * `siglab summary --plot` writes), simulated bars per stack with the measured calibration figures
 * hatched beside them, its legend outside the plot and labels that do not overlap (as drawn by
 * Chromium, not only as estimated), exported as SVG, PNG at 1920×1080 and the data.
 */
import { readFileSync } from "node:fs";
import type { Download, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloaded, openSession, runAndWait, screenshot, selectCpus, type Session } from "./harness.js";

type Box = { x: number; y: number; w: number; h: number };
type Figure = { svg: string; layout: { plots: Box[]; legend: Box; labels: { text: string; kind: string; box: Box }[]; valueLabelsOmitted: number } };
type Hooks = { summary: { figure(): Figure | null; figurePng(): Promise<{ bytes: number; width: number; height: number }> } };

let s: Session;
let page: Page;
const hooks = <T>(p: Page, fn: (h: Hooks) => T | Promise<T>): Promise<T> => p.evaluate(`(${fn.toString()})(window.__siglabTest)`) as Promise<T>;
const overlap = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

/** The file a click hands to the browser's downloads (siglab serve's exports are downloads): its name and bytes. */
async function exported(p: Page, button: string, suffix: string): Promise<Buffer> {
  const d = await downloaded(p, () => p.click(button));
  expect(d.name.endsWith(suffix), d.name).toBe(true);
  return d.bytes;
}

describe("issue 32: the LMbench summary as a figure", () => {
  it("draws lat_sig catch … lat_pipe with and without SA_NOFP, the measured figures hatched beside them, and exports SVG, PNG and data", async () => {
    await selectCpus(page, ["p4-northwood"]);
    await page.selectOption("[data-add-stack]", "sa-nofp");
    await page.locator('[data-stack="1"] [data-variant="sa-nofp"] label.option', { hasText: "forceAll" }).locator("input").check();
    await page.click('[data-view="summary"]');
    await page.waitForSelector("#summary-view");
    expect(await page.locator("#summary-figure").isHidden()).toBe(true); // nothing to draw yet
    await page.locator("#summary-quick").check();
    const before = await page.evaluate(() => Number(document.body.dataset.summaryRuns ?? 0));
    await page.click("#summary-run");
    await page.waitForFunction((n) => Number(document.body.dataset.summaryRuns ?? 0) > n, before, { timeout: 90_000 });
    expect(await page.textContent("#summary-status")).toMatch(/^Done: 5 benchmarks × 2 rows/);

    const fig = (await hooks(page, (h) => h.summary.figure()))!;
    expect(fig).not.toBeNull();
    const svg = fig.svg;
    expect(svg).toMatch(/viewBox="0 0 1920 1080"/);
    expect(svg).toContain("latency (µs)");
    expect(svg).toContain('data-palette="Okabe–Ito"');
    // bars: a series per stack, then the measured ones (hatched), only on the P4's baseline benchmarks measured
    const series = [...svg.matchAll(/data-series="([^"]+)" data-value="([^"]+)"/g)].map((m) => [m[1], Number(m[2])] as const);
    expect(series.filter(([k]) => k === "baseline")).toHaveLength(5);
    expect(series.filter(([k]) => k === "sa-nofp(forceAll=true)")).toHaveLength(5);
    expect(series.filter(([k]) => k === "measured").map(([, v]) => v)).toEqual([3.091, 0.9]);
    // SA_NOFP (forced) lowers the signal bar: the experiment the figure is for
    const sig = series.filter(([k]) => k !== "measured").map(([, v]) => v);
    expect(sig[3]!).toBeLessThan(sig[2]! * 0.8);
    // layout: legend outside the plot, no two labels overlap, every value labelled
    expect(fig.layout.plots).toHaveLength(1);
    expect(overlap(fig.layout.legend, fig.layout.plots[0]!)).toBe(false);
    const boxes = fig.layout.labels.filter((l) => l.kind !== "legend");
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(overlap(boxes[i]!.box, boxes[j]!.box), `${boxes[i]!.text} / ${boxes[j]!.text}`).toBe(false);
    expect(fig.layout.valueLabelsOmitted).toBe(0);

    // the estimated text widths hold for the fonts Chromium draws with: every text fits its box
    const measured = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const el = document.importNode(doc.documentElement, true) as unknown as SVGSVGElement;
      el.style.position = "absolute";
      el.style.left = "-5000px";
      document.body.append(el);
      const out = Array.from(el.querySelectorAll("text"), (t) => ({ text: t.textContent ?? "", w: t.getComputedTextLength() }));
      el.remove();
      return out;
    }, svg);
    for (const l of fig.layout.labels) {
      const m = measured.find((x) => x.text === l.text);
      if (!m || l.kind === "legend") continue;
      const drawn = l.box.w > l.box.h || l.kind !== "value" ? l.box.w : l.box.h; // a vertical value label's length is its box's height
      expect(m.w, `'${l.text}' (${l.kind}) is drawn ${m.w.toFixed(1)} px wide, laid out for ${drawn.toFixed(1)}`).toBeLessThanOrEqual(drawn + 0.5);
    }

    // shown in the view, at a readable size
    const img = page.locator("#summary-figure-img");
    await img.scrollIntoViewIfNeeded();
    expect(await img.evaluate((e) => (e as HTMLImageElement).naturalWidth)).toBe(1920);
    const shown = (await img.boundingBox())!;
    expect(shown.width).toBeGreaterThan(800);
    expect(shown.height / shown.width).toBeCloseTo(1080 / 1920, 2);
    await screenshot(page, "32-01-summary-figure");

    // exports: the SVG as drawn, a PNG at slide resolution, the data as CSV
    expect((await exported(page, "#summary-figure-svg", "lmbench-summary.svg")).toString("utf8")).toBe(svg);
    const png = await exported(page, "#summary-figure-png", "lmbench-summary.png");
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1920, 1080]);
    const csv = (await exported(page, "#summary-figure-data", "lmbench-summary.csv")).toString("utf8").trim().split("\n");
    expect(csv[0]).toBe("cpu,stack,benchmark,example,kind,us,source");
    expect(csv.filter((r) => r.includes(",measured,"))).toHaveLength(2);
    expect(csv.filter((r) => r.includes(",simulated,"))).toHaveLength(10);
    expect(s.errors).toEqual([]);
  });

  it("exports a metric chart of any set of runs as a slide figure (SVG and PNG at 1920×1080, the unit on the axis)", async () => {
    await page.click('[data-view="workload"]');
    await page.click('[data-example="lat_syscall"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_syscall");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
    expect(await runAndWait(page)).toMatch(/^Done: 4 runs/);
    await page.click('[data-tab="charts"]');
    const card = page.locator('[data-chart-card="metric:Simple syscall"]');
    await card.waitFor();
    // two downloads: the SVG, then the PNG
    const got: { name: string; bytes: Buffer }[] = [];
    const onDownload = async (d: Download): Promise<void> => {
      got.push({ name: d.suggestedFilename(), bytes: readFileSync(await d.path()) });
    };
    page.on("download", (d) => void onDownload(d));
    await card.locator('[data-action="slide"]').click();
    await expect.poll(() => got.length, { timeout: 30_000 }).toBe(2);
    const svgFile = got.find((g) => g.name.endsWith(".slide.svg"))!;
    const pngFile = got.find((g) => g.name.endsWith(".slide.png"))!;
    expect(svgFile.name).toBe("lat_syscall.Simple_syscall.slide.svg");
    const svg = svgFile.bytes.toString("utf8");
    expect(svg).toMatch(/viewBox="0 0 1920 1080"/);
    expect(svg).toContain("Simple syscall (µs)");
    expect((svg.match(/data-series="/g) ?? []).length).toBe(4); // 2 CPUs × 2 stacks
    expect([pngFile.bytes.readUInt32BE(16), pngFile.bytes.readUInt32BE(20)]).toEqual([1920, 1080]);
    expect(s.errors).toEqual([]);
  });
});
