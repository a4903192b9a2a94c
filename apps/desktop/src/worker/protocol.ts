/**
 * Messages between the renderer and the compile worker (compile.worker.ts): plain,
 * structured-clone-able data. The simulation itself speaks core's sandbox protocol
 * (@siglab/core/host) through core's Supervisor.
 */
import type { WorkloadInfo } from "@siglab/core/host";

export type { WorkloadInfo };

export type ToCompile =
  /** TypeScript -> CommonJS for the sandbox, every allocation metered (meter-transform.ts) */
  | { type: "transpile"; reqId: number; source: string; file: string }
  /** a third-party plugin's JavaScript file, every allocation metered */
  | { type: "instrument"; reqId: number; js: string; file: string }
  /** a workload's name, description and parameters, read from its text (workload-outline.ts) */
  | { type: "outline"; reqId: number; source: string; file: string }
  /** builds .siglab bytes from an experiment and its results */
  | { type: "bundle-write"; reqId: number; input: unknown }
  /** parses and validates .siglab bytes (untrusted data; nothing in it is executed here) */
  | { type: "bundle-read"; reqId: number; fileName: string; bytes: Uint8Array };

export type FromCompile =
  | { type: "ready" }
  | { type: "reply"; reqId: number; ok: true; value: unknown }
  /** line/column are set for a compile error (message is then "file:line:column: detail") */
  | { type: "reply"; reqId: number; ok: false; error: string; line?: number; column?: number };
