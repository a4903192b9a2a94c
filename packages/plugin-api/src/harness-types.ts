/** The types of the test harness (@siglab/plugin-harness; the 2.x entry @siglab/plugin-api/harness). */
import type { PluginModule } from "./plugin-module.js";
import type { CpuProfileFile } from "./profile-types.js";
import type { ParamValue, RunResult, VariantSpec } from "./results.js";

/**
 * One run of the test harness: your plugin(s), a CPU, a variant stack and a workload. What
 * `runWorkload` of @siglab/plugin-harness takes (which adds a host-time budget and plugins by
 * folder); the deprecated 2.x entry @siglab/plugin-api/harness takes the same.
 * @category Harness
 */
export interface HarnessOptions {
  /** your plugin(s): their entry's exports plus the manifest (plugin.json) */
  plugins?: PluginModule[];
  /** CPU profile and clock, "id" or "id@MHz" (default p4-northwood@2200) */
  cpu?: string;
  /** the variant stack: plugin ids (with options "id:key=value,...") or VariantSpecs; default the baseline */
  variant?: string | (string | VariantSpec)[];
  /** an example id (the core's, a built-in plugin's, or one your plugin ships), or a workload's source */
  workload:
    | string
    | {
        /** The file name errors name (default "workload.ts"); its base name is the workload's id. */
        file?: string;
        /** The workload's TypeScript source (it imports "siglab"). */
        source: string;
      };
  /** Workload parameters by name (the others take the workload's defaults). */
  params?: Record<string, ParamValue>;
  /** The run's seed (default 1): the same seed gives the same run. */
  seed?: number;
  /** Record the timeline (RunResult.timeline). */
  timeline?: boolean;
  /** extra CPU profiles (e.g. one you are writing) */
  profiles?: CpuProfileFile[];
  /** The run's budgets: it stops with a "budget" error when it exceeds one (defaults: the CLI's). */
  budget?: {
    /** Workload steps: each system call and each user-mode operation (a load, a store, a compute, a library path) is one. */
    maxSteps?: number;
    /** Simulated cycles. */
    maxCycles?: number;
  };
}

/**
 * The harness's entry: one run, in process; the result as `siglab run --json` prints it.
 * @category Harness
 */
export type RunWorkload = (o: HarnessOptions) => RunResult;
