import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/common/index.js";
import { boxesOverlap, figureDataCsv, LMBENCH_BENCHMARKS, lmbenchFigure, OKABE_ITO, renderBarFigure, runsFigure, summaryRows, type Box, type SummaryRow } from "../../src/figure/index.js";

function result(row: SummaryRow, metric: string, us: number): RunResult {
  return { workload: "x", cpu: row.cpu, variants: row.variants, params: {}, seed: 1, metrics: [{ name: metric, value: us, unit: "us" }], phases: {}, counters: {}, findings: [], totalCycles: 0, simSeconds: 0, paths: [] } as RunResult;
}

/** A summary with every benchmark on every row, values spread over two orders of magnitude. */
function summary(rows: SummaryRow[]) {
  const results: Record<string, RunResult[]> = {};
  LMBENCH_BENCHMARKS.forEach((b, bi) => (results[b.example] = rows.map((r, ri) => result(r, b.metric, 0.5 + bi * 1.7 + ri * 0.37 + (bi === 4 ? 40 : 0)))));
  return { rows, results };
}

const inside = (a: Box, b: Box): boolean => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.w <= b.x + b.w + 0.5 && a.y + a.h <= b.y + b.h + 0.5;

function checkLayout(svg: string, layout: ReturnType<typeof renderBarFigure>["layout"]): void {
  const boxes = layout.labels.filter((l) => l.kind !== "legend");
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    if (boxesOverlap(boxes[i]!.box, boxes[j]!.box)) throw new Error(`labels overlap: ${boxes[i]!.kind} '${boxes[i]!.text}' and ${boxes[j]!.kind} '${boxes[j]!.text}'`);
  }
  for (const p of layout.plots) expect(boxesOverlap(layout.legend, p)).toBe(false);
  // every value label stands inside a plot
  for (const l of layout.labels.filter((x) => x.kind === "value")) expect(layout.plots.some((p) => inside(l.box, p)), `value label ${l.text} outside the plots`).toBe(true);
  expect(svg).toContain("latency (µs)");
}

function checkLayoutFor(_svg: string, layout: ReturnType<typeof renderBarFigure>["layout"]): void {
  const boxes = layout.labels.filter((l) => l.kind !== "legend");
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(boxesOverlap(boxes[i]!.box, boxes[j]!.box)).toBe(false);
  for (const p of layout.plots) expect(boxesOverlap(layout.legend, p)).toBe(false);
}

describe("the LMbench figure", () => {
  const p4 = { id: "p4-northwood", mhz: 2200 };
  const rows = summaryRows([p4], [[], [{ id: "sa-nofp", options: { forceAll: true } }]]);

  it("draws the simulated bars per stack and the measured calibration figures beside them, hatched in black", () => {
    const { figure, data } = lmbenchFigure(summary(rows));
    expect(figure.facets.map((f) => f.label)).toEqual(["P4 2.2 GHz"]);
    expect(figure.series.map((s) => s.id)).toEqual(["baseline", "sa-nofp(forceAll=true)", "measured"]);
    const sig = figure.facets[0]!.groups.find((g) => g.label === "Signal handler overhead")!;
    expect(sig.bars.map((b) => b.series)).toEqual(["baseline", "sa-nofp(forceAll=true)", "measured"]);
    // the syscall has no measured figure in the calibration set: two bars only
    expect(figure.facets[0]!.groups[0]!.bars.map((b) => b.series)).toEqual(["baseline", "sa-nofp(forceAll=true)"]);
    const measured = data.filter((d) => d.kind === "measured");
    expect(measured.map((d) => d.example).sort()).toEqual(["lat_ctx", "lat_sig_catch"]);
    expect(measured.every((d) => /Molnar/.test(d.source))).toBe(true);
    const { svg, layout } = renderBarFigure(figure);
    expect(svg).toContain(`fill="${OKABE_ITO.blue}"`);
    expect(svg).toContain(`fill="${OKABE_ITO.orange}"`);
    expect((svg.match(/fill="url\(#measured-hatch\)"/g) ?? []).length).toBe(3); // two bars and the legend's swatch
    expect(svg).toMatch(/viewBox="0 0 1920 1080"/);
    checkLayout(svg, layout);
    expect(layout.valueLabelsOmitted).toBe(0);
  });

  it("keeps its labels apart and its legend outside the plots with 3 CPUs × 8 stacks", () => {
    const cpus = [p4, { id: "p6-coppermine", mhz: 1000 }, { id: "k7-palomino", mhz: 1400 }];
    const stacks = Array.from({ length: 8 }, (_v, i) => (i === 0 ? [] : [{ id: `variant-with-a-long-name-${i}` }]));
    const { figure } = lmbenchFigure(summary(summaryRows(cpus, stacks)));
    expect(figure.facets).toHaveLength(3);
    const { svg, layout } = renderBarFigure(figure);
    checkLayout(svg, layout);
    // the legend wrapped onto more than one row, and the plots keep most of the slide's height
    expect(layout.legend.h).toBeGreaterThan(24 * 1.6 + 1);
    expect(layout.plots[0]!.h).toBeGreaterThan(1080 * 0.4);
  });

  it("escapes labels and writes its data as CSV with the unit in the header", () => {
    const evil = summaryRows([p4], [[{ id: "x", options: { k: '<script>"' } }]]);
    const { figure, data } = lmbenchFigure(summary(evil));
    const { svg } = renderBarFigure(figure);
    expect(svg).not.toContain("<script>");
    const csv = figureDataCsv(data);
    expect(csv.split("\n")[0]).toBe("cpu,stack,benchmark,example,kind,us,source");
    expect(csv).toContain('"x(k=<script>"")"'); // quoted, quotes doubled
  });

  it("leaves a failed run's bar out and says so in its tooltip", () => {
    const s = summary(rows);
    s.results["lat_ctx"]![1] = { ...s.results["lat_ctx"]![1]!, metrics: [], error: { kind: "workload", message: "boom" } };
    const { figure, data } = lmbenchFigure(s);
    const ctx = figure.facets[0]!.groups.find((g) => g.label === "2p/0K ctxsw")!;
    expect(ctx.bars[1]).toMatchObject({ value: null, title: "failed: boom" });
    expect(data.find((d) => d.example === "lat_ctx" && d.stack !== "baseline" && d.kind === "simulated")?.us).toBeNull();
  });
});

describe("any set of runs as a slide figure", () => {
  it("groups one metric by CPU, a bar per stack and sweep value, in the metric's unit; failed runs left out", () => {
    const rows = summaryRows([{ id: "p4-northwood", mhz: 2200 }, { id: "p6-coppermine", mhz: 1000 }], [[], [{ id: "sysenter" }]]);
    const results = rows.map((r, i) => ({ ...result(r, "Simple syscall", 0.2 + i * 0.1), params: { iterations: 100 } }));
    results.push({ ...results[0]!, metrics: [], error: { kind: "workload", message: "x" } });
    const fig = runsFigure(results, "Simple syscall", { sweepParam: "iterations" });
    expect(fig.unit).toBe("µs");
    expect(fig.facets[0]!.groups.map((g) => [g.label, g.bars.map((b) => b.series)])).toEqual([
      ["P4 2.2 GHz", ["baseline · iterations=100", "sysenter · iterations=100"]],
      ["PIII 1 GHz", ["baseline · iterations=100", "sysenter · iterations=100"]],
    ]);
    const { svg, layout } = renderBarFigure(fig);
    expect(svg).toContain("Simple syscall (µs)");
    checkLayoutFor(svg, layout);
  });
});
