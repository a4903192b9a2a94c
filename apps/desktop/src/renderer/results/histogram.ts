/**
 * The histogram chart's data (no chart.js here, so it is tested without a browser). Results made
 * with repetitions (N seeds) give the distribution of a metric's value over the seeds, one dataset
 * per configuration (at most 12); otherwise each run's per-iteration samples (at most 6 runs).
 */
import type { CpuProfileFile, RunResult } from "../../common/contracts.js";
import { runLabel, shortRunLabels } from "./labels.js";
import { repeatCount, repeatValues } from "./repeat.js";

export interface HistogramData {
  /** bin starts */
  labels: string[];
  datasets: { label: string; counts: number[] }[];
  xTitle: string;
  yTitle: string;
  /** repetitions the distribution is over (1: per-iteration samples) */
  seeds: number;
}

/** A number for a label: integers as they are, others to 4 significant digits. */
export function fmtNum(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString("en-US") : Number(v.toPrecision(4)).toLocaleString("en-US", { maximumFractionDigits: 6 });
}

/** The repetitions of results (the largest), 1 when none was repeated. */
export function repetitionsOf(results: readonly RunResult[]): number {
  return Math.max(1, ...results.map(repeatCount));
}

/** Counts of `values` in `n` equal bins from `lo` (width `width`). */
function binCounts(values: readonly number[], lo: number, width: number, n: number): number[] {
  const counts = new Array<number>(n).fill(0);
  for (const v of values) counts[Math.max(0, Math.min(n - 1, Math.floor((v - lo) / width)))]!++;
  return counts;
}

export function histogramData(metric: string, results: RunResult[], profiles: CpuProfileFile[], bins = 30): HistogramData | null {
  const unit = results.flatMap((r) => r.metrics).find((m) => m.name === metric)?.unit ?? "";
  const repeated = results.map((r) => ({ r, s: repeatValues(r, metric) ?? [] })).filter((x) => x.s.length > 0).slice(0, 12);
  const seeds = repeated.length ? repetitionsOf(results) : 1;
  const runs = repeated.length ? repeated : results.map((r) => ({ r, s: r.metrics.find((m) => m.name === metric)?.samples ?? [] })).filter((x) => x.s.length > 0).slice(0, 6);
  if (runs.length === 0) return null;
  const all = runs.flatMap((x) => x.s);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  // over seeds: few values, so fewer bins (about √N, at least 5), labelled precisely
  const want = repeated.length ? Math.min(bins, Math.max(5, Math.ceil(Math.sqrt(seeds)))) : bins;
  const n = hi > lo ? want : 1;
  const width = hi > lo ? (hi - lo) / n : 1;
  const labels = Array.from({ length: n }, (_, i) => (repeated.length ? fmtNum(lo + i * width) : Math.round(lo + i * width).toString()));
  const short = repeated.length ? shortRunLabels(runs.map((x) => x.r), profiles) : [];
  return {
    labels,
    datasets: runs.map((x, i) => ({ label: repeated.length ? short[i]! : runLabel(x.r, profiles), counts: binCounts(x.s, lo, width, n) })),
    xTitle: repeated.length ? `${metric}${unit ? ` (${unit})` : ""} over ${seeds} seeds, bin start` : `${metric} per sample${unit ? ` (${unit})` : ""}, bin start`,
    yTitle: repeated.length ? "repetitions (seeds)" : "samples",
    seeds,
  };
}
