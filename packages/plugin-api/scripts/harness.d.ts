/**
 * `@siglab/plugin-api/harness`: the in-process test harness of plugin API 2.0-2.2.
 * @deprecated Since plugin API 2.3 the harness is the package `@siglab/plugin-harness` (the same
 * `runWorkload`, plus runs with a host-time budget); this entry stays for 2.x plugins' tests and
 * goes with 3.0.
 * @packageDocumentation
 */
import type { RunWorkload } from "./index.js";
export type { HarnessOptions } from "./index.js";
/**
 * Runs one workload in process; returns the run's result (with `error` set when it failed).
 * @deprecated Use `runWorkload` of `@siglab/plugin-harness`.
 */
export declare const runWorkload: RunWorkload;
