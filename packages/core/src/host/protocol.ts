/**
 * Messages between an execution host's supervisor and its sandbox worker: plain,
 * structured-clone-able data. The supervisor never receives anything but these; results are built
 * by the sandbox from simulator state (see runner/run-workload.ts), never by foreign code.
 */
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import type { RunSpec } from "../common/experiment.js";
import type { RunProgress, RunResult } from "../common/results.js";

/** A third-party plugin's code as the sandbox receives it (read from a folder or a bundle). */
export interface PluginSource {
  id: string;
  /** plugin.json as parsed JSON (validated again in the sandbox) */
  manifest: unknown;
  /** where it came from, for messages (a folder name or "bundle:<file>") */
  origin: string;
  /** entry file, relative to the plugin folder */
  main: string;
  /** relative path -> source text of the plugin's .js/.cjs/.json files (and .map: its source maps, for error positions) */
  files: Record<string, string>;
  /** set when the host refused the plugin (bad manifest, API version, id taken): runs naming it fail with this */
  refused?: string;
}

export interface WorkloadInfo {
  name: string;
  description?: string;
  params: Record<string, number | string | boolean>;
}

export type ToSandbox =
  | {
      type: "run";
      id: number;
      spec: RunSpec;
      /** the workload already transpiled to CommonJS (otherwise the sandbox transpiles) */
      js?: string;
      /** third-party plugins the run's stack may name */
      plugins: PluginSource[];
      /** profiles to use in place of the built-in ones with the same id (a bundle's, a user's) */
      profiles: CpuProfileFile[];
    }
  | { type: "inspect"; id: number; file: string; source: string; js?: string };

export type FromSandbox =
  | { type: "ready" }
  | { type: "phase"; id: number; phase: "evaluate" | "simulate" }
  | { type: "progress"; id: number; progress: RunProgress }
  | { type: "result"; id: number; result: RunResult }
  | { type: "inspected"; id: number; ok: true; info: WorkloadInfo }
  | { type: "inspected"; id: number; ok: false; error: string }
  /** the text of the next mark label (mark.ts): kept by the Node sandbox process, never sent on to the host */
  | { type: "label"; text: string };

/**
 * Between the Node host and its sandbox process (node/child.ts), never the worker: which plugin
 * code the stuck worker is in ("plugin 'id' (Hook)", or null: none).
 */
export type BlameQuery = { type: "blame" };
export type BlameAnswer = { type: "blame"; where: string | null };
