/** The options of a run in a worker thread (runInWorker). */
import type { HarnessOptions } from "@siglab/plugin-api";
import type { PluginRef } from "./plugin-refs.js";

export type { PluginRef };

/** The budgets of a run: simulated (steps, cycles) and host time. */
export interface HarnessBudget {
  /** Workload steps (each system call and user-mode operation is one); past it the run stops with a "budget" error. */
  maxSteps?: number;
  /** Simulated cycles; past them the run stops with a "budget" error. */
  maxCycles?: number;
  /**
   * Milliseconds of host (wall-clock) time for the whole run in its worker thread, loading the
   * plugins included (default 30 000): past it the worker is stopped and the result's error
   * (kind "budget") names the plugin code that was running (plugin id and hook), or the workload.
   */
  hostMs?: number;
}

/** One run in a worker thread: HarnessOptions with the plugins given by where they are. */
export interface WorkerHarnessOptions extends Omit<HarnessOptions, "plugins" | "budget"> {
  /** Your plugin(s): plugin folders (plugin.json + the built main) or modules with their manifest. */
  plugins?: PluginRef[];
  /** The run's budgets, host time included. */
  budget?: HarnessBudget;
}
