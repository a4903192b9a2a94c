/**
 * The execution host's budgets. Every budget is enforced from outside the foreign code: host time
 * by the supervisor (which terminates the sandbox worker), memory by the worker's heap limit and
 * the supervisor's watch, steps and simulated cycles by the kernel, output by the collector, and
 * experiment size before expansion. What a bundle or an experiment asks for is a request, capped
 * by these local limits.
 */
import type { RunBudget } from "../common/experiment.js";

export interface HostLimits {
  /** host milliseconds for evaluating a module's top level (a workload, a plugin, an inspection) */
  moduleMs: number;
  /** host milliseconds for one run (evaluation and simulation) */
  runMs: number;
  /** memory of the sandbox, in MiB */
  memoryMb: number;
  /** simulated workload steps per run */
  maxSteps: number;
  /** simulated cycles per run */
  maxCycles: number;
  /** runs one command may expand to */
  maxRuns: number;
}

export const DEFAULT_HOST_LIMITS: Readonly<HostLimits> = Object.freeze({
  moduleMs: 5_000,
  runMs: 120_000,
  memoryMb: 2_048,
  maxSteps: 200_000_000,
  maxCycles: 2e12,
  maxRuns: 10_000,
});

function capped(requested: unknown, limit: number): number {
  return typeof requested === "number" && requested > 0 && requested < limit ? requested : limit;
}

/** A run's budget as it will be enforced: what the experiment asks, never above the local limits. */
export function effectiveBudget(requested: RunBudget | undefined, limits: HostLimits): Required<RunBudget> {
  return {
    maxHostMs: capped(requested?.maxHostMs, limits.runMs),
    maxSteps: capped(requested?.maxSteps, limits.maxSteps),
    maxCycles: capped(requested?.maxCycles, limits.maxCycles),
  };
}

/** Checks a limit given on a command line or in settings: a positive finite number. */
export function checkLimit(name: string, v: unknown): number {
  const n = typeof v === "number" ? v : Number(v);
  if (!(Number.isFinite(n) && n > 0)) throw new RangeError(`${name}: expected a positive number, got '${String(v)}'`);
  return n;
}
