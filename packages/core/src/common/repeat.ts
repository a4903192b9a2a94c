/**
 * `--repeat N`: the same run with N seeds, as lmbench repeats a benchmark (benchmp: TRIES = 11, the
 * median reported). Each seed puts the timer ticks at another phase against the workload, so the
 * repetitions differ where a tick can land in a measured loop; the summary keeps the first run's
 * detail and gives every metric its min, median and max, the median as `value`.
 */
import type { Metric, RunResult } from "./results.js";

export interface MetricStats {
  min: number;
  median: number;
  max: number;
}

export type RepeatedMetric = Metric & MetricStats;

export interface RepeatedRun extends RunResult {
  metrics: RepeatedMetric[];
  /** the seeds of the repetitions, in order (the first is the run's own seed) */
  repeat: { n: number; seeds: number[] };
}

/** The seeds of N repetitions: seed, seed+1, … (unsigned 32-bit, wrapping). */
export function repeatSeeds(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (seed + i) >>> 0);
}

/** lmbench's save_median: the middle value, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const i = v.length >> 1;
  return v.length % 2 ? v[i]! : (v[i - 1]! + v[i]!) / 2;
}

/**
 * One result for N repetitions of a run (same spec, seeds from repeatSeeds): the first repetition's
 * phases, counters, paths and findings, and each metric's min/median/max over the repetitions that
 * report it. A failed repetition makes the whole result failed (its error is kept).
 */
export function summarizeRepeats(runs: readonly RunResult[]): RepeatedRun {
  if (!runs.length) throw new RangeError("summarizeRepeats: no runs");
  const first = runs[0]!;
  const failed = runs.find((r) => r.error);
  const out: RepeatedRun = { ...first, metrics: [], repeat: { n: runs.length, seeds: runs.map((r) => r.seed) } };
  if (failed) {
    out.error = failed.error;
    out.metrics = first.metrics.map((m) => ({ ...m, min: m.value, median: m.value, max: m.value }));
    return out;
  }
  out.metrics = first.metrics.map((m) => {
    const values = runs.map((r) => r.metrics.find((x) => x.name === m.name)?.value).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
    const med = values.length ? median(values) : m.value;
    const r: RepeatedMetric = { name: m.name, value: med, unit: m.unit, min: Math.min(...values, med), median: med, max: Math.max(...values, med) };
    if (m.samples) r.samples = m.samples;
    return r;
  });
  return out;
}
