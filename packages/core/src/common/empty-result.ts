/** A run's result before anything ran: what it was asked (workload, CPU, stack, params, seed) and zeros. */
import type { RunSpec } from "./experiment.js";
import type { RunResult } from "./results.js";

export function emptyResult(spec: RunSpec): RunResult {
  return {
    workload: spec.workload.id,
    cpu: { ...spec.cpu },
    variants: spec.variants,
    params: { ...spec.params },
    seed: spec.seed,
    metrics: [],
    phases: {},
    counters: {},
    findings: [],
    totalCycles: 0,
    simSeconds: 0,
    paths: [],
  };
}
