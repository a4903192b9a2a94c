/**
 * Repetitions in the app (the CLI's `--repeat N`): each configuration runs N times with seeds seed,
 * seed+1, … (core's repeatSeeds) and is summarised by core's summarizeRepeats (min, median as the
 * value, max of each metric; the first repetition's phases, paths and timeline). The app also keeps
 * each metric's N values, which the histogram draws. Memory stays bounded: only the first
 * repetition is kept whole; the others are reduced to their seed, error and metric values at once.
 */
import { summarizeRepeats, type RepeatedRun } from "@siglab/core/common/repeat.js";
import type { RunResult } from "../../common/contracts.js";

/** The most repetitions the app runs per configuration (lmbench's TRIES is 11). */
export const MAX_REPEAT = 101;

/** A configuration's result over N repetitions, with every metric's value in each repetition. */
export interface AppRepeatedRun extends RepeatedRun {
  repeat: RepeatedRun["repeat"] & {
    /** metric name -> its value in each repetition that reported it (in seed order) */
    values: Record<string, number[]>;
  };
}

/** What is kept of a repetition after the first: its seed, its error and its metric values (no samples, paths or timeline). */
export function compactRepetition(r: RunResult): RunResult {
  const out: RunResult = {
    workload: r.workload,
    cpu: r.cpu,
    variants: r.variants,
    params: r.params,
    seed: r.seed,
    metrics: r.metrics.map((m) => ({ name: m.name, value: m.value, unit: m.unit })),
    phases: {},
    counters: {},
    findings: [],
    totalCycles: r.totalCycles,
    simSeconds: r.simSeconds,
    paths: [],
  };
  if (r.error) out.error = r.error;
  return out;
}

/** summarizeRepeats plus each metric's values over the repetitions (the histogram's data). */
export function summarizeForApp(runs: readonly RunResult[]): AppRepeatedRun {
  const s = summarizeRepeats(runs);
  const values: Record<string, number[]> = {};
  for (const m of s.metrics) {
    values[m.name] = runs.map((r) => r.metrics.find((x) => x.name === m.name)?.value).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  }
  return { ...s, repeat: { ...s.repeat, values } };
}

/** The repetitions of a result (1 for a plain run). */
export function repeatCount(r: RunResult): number {
  const n = (r as Partial<RepeatedRun>).repeat?.n;
  return typeof n === "number" && n > 1 ? n : 1;
}

/** A metric's values over the repetitions of a result, or null for a plain run. */
export function repeatValues(r: RunResult, metric: string): number[] | null {
  if (repeatCount(r) < 2) return null;
  const v = (r as Partial<AppRepeatedRun>).repeat?.values?.[metric];
  return Array.isArray(v) ? v : null;
}

/** A metric's min / median / max over the repetitions, or null for a plain run. */
export function metricStats(r: RunResult, metric: string): { min: number; median: number; max: number } | null {
  if (repeatCount(r) < 2) return null;
  const m = r.metrics.find((x) => x.name === metric) as Partial<RepeatedRun["metrics"][number]> | undefined;
  if (!m || typeof m.min !== "number" || typeof m.median !== "number" || typeof m.max !== "number") return null;
  return { min: m.min, median: m.median, max: m.max };
}

/**
 * Runs every configuration `repeat` times through `runOne` (seeds from the spec's seed on) and
 * returns one summarised result per configuration; `onRun` is told each run's overall index.
 */
export async function runRepeated<S extends { seed: number }>(
  specs: readonly S[],
  repeat: number,
  runOne: (spec: S, runIndex: number) => Promise<RunResult>,
  onResult: (index: number, result: RunResult) => void,
): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (const [index, spec] of specs.entries()) {
    if (repeat <= 1) {
      results[index] = await runOne(spec, index);
    } else {
      const reps: RunResult[] = [];
      for (let k = 0; k < repeat; k++) {
        const r = await runOne({ ...spec, seed: (spec.seed + k) >>> 0 }, index * repeat + k);
        reps.push(k === 0 ? r : compactRepetition(r));
      }
      results[index] = summarizeForApp(reps);
    }
    onResult(index, results[index]!);
  }
  return results;
}
