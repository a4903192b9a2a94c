/** Messages between the renderer and the simulation worker: plain, structured-clone-able data. */
import type { CpuProfileFile, ExperimentConfig, RunProgress, RunResult } from "../common/contracts.js";
import type { PluginCode } from "../common/host-api.js";

export type ToWorker =
  | {
      type: "run";
      runId: number;
      config: ExperimentConfig;
      profiles: CpuProfileFile[];
      /** Third-party plugins named by the stacks (built-ins are bundled in the worker). */
      plugins: PluginCode[];
    }
  | { type: "bundle-write"; reqId: number; input: unknown }
  | { type: "bundle-read"; reqId: number; fileName: string; bytes: Uint8Array }
  /** Evaluate a workload only to read its name, description and default params. */
  | { type: "inspect"; reqId: number; source: string; file: string };

export interface WorkloadInfo {
  name: string;
  description?: string;
  params: Record<string, number | string | boolean>;
}

export type FromWorker =
  | { type: "ready" }
  | { type: "progress"; runId: number; index: number; total: number; progress: RunProgress }
  | { type: "result"; runId: number; index: number; total: number; result: RunResult }
  | { type: "done"; runId: number; ms: number }
  | { type: "failed"; runId: number; message: string }
  | { type: "bundle"; reqId: number; ok: true; value: unknown }
  | { type: "bundle"; reqId: number; ok: false; error: string };
