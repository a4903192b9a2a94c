/**
 * The run's budgets (no Linux counterpart: the simulator's own limits): the workload steps and
 * simulated cycles a run may use, cancellation from outside, and the error that ends the run.
 */
import type { KernelConfig } from "./core.js";
import { SimError } from "./sim-error.js";
import type { Task } from "./task.js";

/** What the budget reads of the kernel: the clock and the task to blame. */
interface Metered {
  readonly ex: { readonly cycles: number };
  readonly current: Task;
}

export class RunBudget {
  /** workload steps (API calls) so far */
  steps = 0;
  /** a violation that ends the run (see stopWith) */
  stopError: SimError | null = null;
  /** budgets, copied out of the config for the per-step check */
  private readonly maxSteps: number;
  private readonly maxCycles: number;
  #cancelCheck: (() => boolean | string) | undefined;

  constructor(private readonly config: KernelConfig) {
    this.maxSteps = config.maxSteps;
    this.maxCycles = config.maxCycles;
  }

  setCancelCheck(f: (() => boolean | string) | undefined): void {
    this.#cancelCheck = f;
  }

  private pollCancel(): void {
    const c = this.#cancelCheck!();
    if (c === true) throw (this.stopError = new SimError("cancelled", "run cancelled"));
    if (typeof c === "string" && c) throw (this.stopError = new SimError("budget", c));
  }

  /**
   * Ends the run with an error at the next step: for a violation found where throwing would be
   * swallowed (a `finally` on a generator that foreign code stepped by hand).
   */
  stopWith(k: Metered, kind: string, message: string): void {
    this.stopError ??= new SimError(kind, message, k.current.pid);
  }

  /** One workload step (API call): enforces the step and cycle budgets and cancellation. */
  step(k: Metered): void {
    const s = ++this.steps;
    if (this.stopError) throw this.stopError;
    // budget errors are sticky: a workload that catches one cannot go on simulating
    if (s > this.maxSteps) throw (this.stopError = new SimError("budget", `step budget exhausted after ${this.config.maxSteps} workload steps (runaway workload?)`, k.current.pid));
    if (k.ex.cycles > this.maxCycles) throw (this.stopError = new SimError("budget", `cycle budget exhausted: ${k.ex.cycles} > ${this.config.maxCycles} simulated cycles (runaway workload?)`, k.current.pid));
    if ((s & 0xfff) === 0 && this.#cancelCheck) this.pollCancel();
  }
}
