/**
 * @siglab/plugin-harness — the test harness for SigLab plugin authors: run a workload with your
 * plugin (and SigLab's built-in plugins, CPU profiles and examples) and get the result object
 * `siglab run --json` prints. It carries the simulator; the plugin API it runs your plugin against
 * is the `@siglab/plugin-api` your plugin depends on (a peer dependency).
 *
 * - runWorkload: in your test's process, synchronous, with your plugin's module objects;
 * - runInWorker: in a worker thread, with your plugin by folder or module, and a host-time
 *   budget: a hook or workload that loops ends with a budget error naming the plugin and hook.
 * Both return refusals (a bad manifest, another plugin-API version, an unknown example) as the
 * result's error, as the CLI reports them.
 */
export { runWorkload } from "./in-process.js";
export { runInWorker, DEFAULT_HOST_MS } from "./in-worker.js";
export type { HarnessBudget, PluginRef, WorkerHarnessOptions } from "./types.js";
export type { HarnessOptions, RunWorkload } from "@siglab/plugin-api";
