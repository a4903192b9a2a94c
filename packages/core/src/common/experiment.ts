/** What one run needs. Plain data: structured-clone-able, JSON-serialisable. */

export type ParamValue = number | string | boolean;

/** One plugin in a variant stack, with its options. */
export interface VariantSpec {
  id: string;
  options?: Record<string, ParamValue>;
}

/** The workload to run: its id (example id or file name) and its TypeScript source. */
export interface WorkloadRef {
  id: string;
  /** Display path for error messages (e.g. "examples/lat_sig_catch.ts" or a user file). */
  file: string;
  source: string;
}

export interface CpuRef {
  id: string;
  mhz: number;
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
  budget?: RunBudget;
}

/** The cross product of an experiment, in a stable order: cpu-major, then stack, then sweep value. */
export function expandExperiment(cfg: ExperimentConfig): RunSpec[] {
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
          budget: cfg.budget,
        });
      }
    }
  }
  return out;
}
