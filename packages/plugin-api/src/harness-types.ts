/** The types of the test harness (@siglab/plugin-api/harness). */
import type { PluginModule } from "./plugin-module.js";
import type { CpuProfileFile } from "./profile-types.js";
import type { ParamValue, RunResult, VariantSpec } from "./results.js";

export interface HarnessOptions {
  /** your plugin(s): their entry's exports plus the manifest (plugin.json) */
  plugins?: PluginModule[];
  /** CPU profile and clock, "id" or "id@MHz" (default p4-northwood@2200) */
  cpu?: string;
  /** the variant stack: plugin ids (with options "id:key=value,...") or VariantSpecs; default the baseline */
  variant?: string | (string | VariantSpec)[];
  /** an example id (the core's, a built-in plugin's, or one your plugin ships), or a workload's source */
  workload: string | { file?: string; source: string };
  params?: Record<string, ParamValue>;
  seed?: number;
  timeline?: boolean;
  /** extra CPU profiles (e.g. one you are writing) */
  profiles?: CpuProfileFile[];
  budget?: { maxSteps?: number; maxCycles?: number };
}

/** The harness's entry: one run, in process; the result as `siglab run --json` prints it. */
export type RunWorkload = (o: HarnessOptions) => RunResult;
