/**
 * Repetitions in the app (the CLI's `--repeat N`): each configuration runs N times with seeds seed,
 * seed+1, … (core's repeatSeeds) and is summarised by core's summarizeRepeats (min, median as the
 * value, max of each metric; the first repetition's phases, paths and timeline). The app also keeps
 * each metric's N values, which the histogram draws. Memory stays bounded: only the first
 * repetition is kept whole; the others are reduced to their seed, error and metric values at once.
 */
import { repeatSeeds, summarizeRepeats, type RepeatedRun } from "@siglab/core/common";
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
 * returns one summarised result per configuration. Runs (configurations × repetitions) start in
 * order, up to `jobs` at a time: `runOne` is told each run's overall index and the lane (0 ..
 * jobs-1) it runs in, and a lane starts its next run only when its last one is done. Whatever order
 * runs finish in, `onResult` is called once per configuration in configuration order, as soon as
 * that configuration and every one before it are done (out-of-order completions wait), so the
 * results are the same as with jobs = 1. A rejected run (a cancel, an internal failure: run errors
 * are results) stops starting new runs; the call rejects with it once the runs in flight have ended.
 */
export async function runRepeated<S extends { seed: number }>(
  specs: readonly S[],
  repeat: number,
  runOne: (spec: S, runIndex: number, lane: number) => Promise<RunResult>,
  onResult: (index: number, result: RunResult) => void,
  opts: { jobs?: number } = {},
): Promise<RunResult[]> {
  const reps = Math.max(1, Math.trunc(repeat));
  const total = specs.length * reps;
  const jobs = Math.max(1, Math.min(Math.trunc(opts.jobs ?? 1) || 1, total));
  const results: RunResult[] = [];
  const have: boolean[] = specs.map(() => false);
  /** each configuration's repetitions so far (the first whole, the others compacted), until it is summarised */
  const parts: RunResult[][] = specs.map(() => []);
  const left: number[] = specs.map(() => reps);
  let next = 0;
  let flushed = 0;
  let failed = false;
  let firstError: unknown;
  const lane = async (l: number): Promise<void> => {
    while (!failed && next < total) {
      const i = next++;
      const c = Math.floor(i / reps);
      const k = i % reps;
      const spec = specs[c]!;
      // everything after the run is in the try too (summarising, onResult's rendering): a lane that
      // threw past it would reject Promise.all while other lanes' runs are still in flight
      try {
        const r = await runOne(reps <= 1 ? spec : { ...spec, seed: repeatSeeds(spec.seed, reps)[k]! }, i, l);
        if (failed) return; // the experiment is failing: nothing more is reported
        if (reps <= 1) results[c] = r;
        else {
          parts[c]![k] = k === 0 ? r : compactRepetition(r);
          if (--left[c]! === 0) {
            results[c] = summarizeForApp(parts[c]!);
            parts[c] = [];
          }
        }
        if (results[c] !== undefined) have[c] = true;
        while (flushed < specs.length && have[flushed]) {
          onResult(flushed, results[flushed]!);
          flushed++;
        }
      } catch (e) {
        if (!failed) firstError = e;
        failed = true;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: jobs }, (_, l) => lane(l)));
  if (failed) throw firstError;
  return results;
}
