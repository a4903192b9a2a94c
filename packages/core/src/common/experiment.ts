/** What one run needs. Plain data: structured-clone-able, JSON-serialisable. */

import type { CpuRef, ParamValue, VariantSpec } from "@siglab/plugin-api";

export type { CpuRef, ParamValue, VariantSpec };

/** The workload to run: its id (example id or file name) and its TypeScript source. */
export interface WorkloadRef {
  id: string;
  /** Display path for error messages (e.g. "examples/lat_sig_catch.ts" or a user file). */
  file: string;
  source: string;
}

export interface RunBudget {
  /** Max simulated cycles before the run is stopped ("runaway"). */
  maxCycles?: number;
  /** Max workload steps (API calls) before the run is stopped. */
  maxSteps?: number;
  /** Host wall-clock milliseconds (enforced by the host that owns the sandbox). */
  maxHostMs?: number;
}

export interface RunSpec {
  workload: WorkloadRef;
  cpu: CpuRef;
  variants: VariantSpec[];
  params: Record<string, ParamValue>;
  seed: number;
  /** Record a bounded per-task timeline (off by default: memory stays flat). */
  timeline?: boolean;
  /** the most timeline events a run records (default TIMELINE_LIMIT, 20,000); the rest are counted as dropped */
  timelineLimit?: number;
  budget?: RunBudget;
}

/** An experiment: workload × CPUs × variant stacks (× one swept parameter). */
export interface ExperimentConfig {
  workload: WorkloadRef;
  cpus: CpuRef[];
  /** Each entry is one variant stack (an ordered list of plugins). [] = baseline. */
  stacks: VariantSpec[][];
  params: Record<string, ParamValue>;
  sweep?: { param: string; values: ParamValue[] };
  seed: number;
  timeline?: boolean;
  timelineLimit?: number;
  budget?: RunBudget;
}

/** The most runs one experiment may expand to, unless a host says otherwise (--max-runs). */
export const DEFAULT_MAX_RUNS = 10_000;

/** How many runs an experiment expands to (computed without expanding it). */
export function countRuns(cfg: Pick<ExperimentConfig, "cpus" | "stacks" | "sweep">): number {
  const n = (a: unknown): number => (Array.isArray(a) ? a.length : 0);
  return n(cfg.cpus) * n(cfg.stacks) * (cfg.sweep ? n(cfg.sweep.values) : 1);
}

export class ExperimentSizeError extends RangeError {}

/** Refuses an experiment larger than `maxRuns` runs, before anything is expanded. */
export function checkExperimentSize(cfg: Pick<ExperimentConfig, "cpus" | "stacks" | "sweep">, maxRuns = DEFAULT_MAX_RUNS): void {
  const runs = countRuns(cfg);
  if (runs > maxRuns) {
    const parts = `${cfg.cpus.length} CPUs x ${cfg.stacks.length} variant stacks${cfg.sweep ? ` x ${cfg.sweep.values.length} sweep values` : ""}`;
    throw new ExperimentSizeError(`the experiment expands to ${runs.toLocaleString("en")} runs (${parts}), over the limit of ${maxRuns.toLocaleString("en")} runs (--max-runs)`);
  }
}

/**
 * The cross product of an experiment, in a stable order: cpu-major, then stack, then sweep value.
 * Its size is checked first (maxRuns), so an experiment cannot expand into a memory bomb.
 */
export function expandExperiment(cfg: ExperimentConfig, maxRuns = DEFAULT_MAX_RUNS): RunSpec[] {
  checkExperimentSize(cfg, maxRuns);
  const out: RunSpec[] = [];
  const sweepValues = cfg.sweep ? cfg.sweep.values : [undefined];
  for (const cpu of cfg.cpus) {
    for (const variants of cfg.stacks) {
      for (const v of sweepValues) {
        const params = { ...cfg.params };
        if (cfg.sweep && v !== undefined) params[cfg.sweep.param] = v;
        out.push({
          workload: cfg.workload,
          cpu,
          variants,
          params,
          seed: cfg.seed,
          timeline: cfg.timeline,
          ...(cfg.timelineLimit !== undefined ? { timelineLimit: cfg.timelineLimit } : {}),
          budget: cfg.budget,
        });
      }
    }
  }
  return out;
}
