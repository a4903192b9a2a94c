/**
 * @siglab/plugin-harness — the test harness for SigLab plugin authors: run a workload with your
 * plugin (and SigLab's built-in plugins, CPU profiles and examples) and get the result object
 * `siglab run --json` prints. It carries the simulator; the plugin API it runs your plugin against
 * is the `@siglab/plugin-api` your plugin depends on (a peer dependency).
 */
export { runWorkload } from "./in-process.js";
export type { HarnessOptions, RunWorkload } from "@siglab/plugin-api";
