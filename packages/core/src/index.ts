// @siglab/core — the simulator: machine, kernel, executor, workload runtime, runner, results.
// No DOM, no Node: the same code runs in the CLI's worker and in the app's Web Worker.
export * from "./common/index.js";
export { runWorkload, DEFAULT_BUDGET, type RunEnvironment } from "./runner/run-workload.js";
export { EXAMPLES } from "./examples/index.js";
export { createSiglabModule, asWorkload, SIGLAB_CONSTANTS, workload } from "./api/runtime-module.js";
export { PLUGIN_API_VERSION, type PluginManifest, type PluginOptionSpec } from "./plugin-api/manifest.js";
export { checkApiVersion, checkConflicts, resolveOptions, PluginError, type LoadedPlugin } from "./plugin-api/loaded-plugin.js";
export * from "./plugin-api/extension-points.js";
export { contributionProviderToken, bindContributionProvider, type ContributionProvider } from "./di/contribution-provider.js";
export { op, type OpLine, type PathDef } from "./exec/path.js";
export type { PathTransform } from "./exec/registry.js";
export { CORE_PHASES } from "./exec/phases.js";
export { Kernel, SimError, SWITCH } from "./kernel/kernel.js";
export type { Task, SignalFrameK, SigAction } from "./kernel/task.js";
export { Sigset } from "./kernel/sigset.js";
export { NR } from "./kernel/syscall-nr.js";
export * as signal from "./kernel/signal.js";
export * as i387 from "./kernel/i387.js";
export * as sched from "./kernel/sched.js";
export { ThreadImpl } from "./runtime/thread.js";
export type { ThreadLibrary, LibcModel, ThreadBody } from "./runtime/libraries.js";
export { Gate, type Gen } from "./runtime/gate.js";
