/**
 * The RunEnvironment of the Node host: built-in profiles and plugins, third-party plugins from
 * plugin folders, TypeScript transpiling and the V8-context sandbox for workload code.
 */
import type { RunEnvironment } from "@siglab/core";
import { BUILTIN_PROFILE_FILES, type CpuProfileFile } from "@siglab/cpu-profiles";
import { transpileWorkload } from "./compile.js";
import { evaluateInSandbox } from "./evaluate.js";
import { loadPlugins } from "../plugins/load.js";

export interface NodeEnvOptions {
  pluginDirs?: string[];
  /** exact profiles to use (e.g. a bundle's embedded ones) in place of the built-in files */
  profiles?: CpuProfileFile[];
}

export async function createNodeEnvironment(opts: NodeEnvOptions = {}): Promise<RunEnvironment> {
  const plugins = await loadPlugins(opts.pluginDirs ?? []);
  const profiles = opts.profiles?.length ? [...opts.profiles, ...BUILTIN_PROFILE_FILES.filter((b) => !opts.profiles!.some((p) => p.id === b.id))] : [...BUILTIN_PROFILE_FILES];
  return {
    profiles,
    plugins,
    transpile: transpileWorkload,
    evaluate: (js, file, siglab) => evaluateInSandbox(js, file, { siglab }),
  };
}
