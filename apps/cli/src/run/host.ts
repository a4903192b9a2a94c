/**
 * The CLI's execution host: every run of every command goes through one NodeExecutionHost per
 * command (a separate, permission-restricted process supervising sandbox workers; see
 * @siglab/core host/). Workloads are transpiled here, plugin folders read here; no foreign code
 * runs in the CLI's own process.
 */
import type { RunProgress, RunResult, RunSpec } from "@siglab/core";
import type { HostLimits } from "@siglab/core/host/limits.js";
import type { PluginSource } from "@siglab/core/host/protocol.js";
import { createNodeHost, type NodeExecutionHost } from "@siglab/builtin-plugins/host/node";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { pluginSources } from "../plugins/load.js";
import { transpileWorkloadWithMap } from "./compile.js";

export interface SandboxRunOptions {
  pluginDirs?: string[];
  /** plugin code given directly (a bundle's embedded plugins) instead of folders */
  plugins?: PluginSource[];
  /** exact profiles to use in place of the built-in ones with the same id (a bundle's) */
  profiles?: CpuProfileFile[];
  onProgress?(p: RunProgress): void;
}

let host: NodeExecutionHost | null = null;
let settings: { limits?: Partial<HostLimits>; verbose?: boolean } = {};
const sourcesByDirs = new Map<string, PluginSource[]>();

/** Limits and verbosity for the rest of this command (before its first run). */
export function configureHost(s: { limits?: Partial<HostLimits>; verbose?: boolean }): void {
  settings = { limits: { ...settings.limits, ...s.limits }, verbose: s.verbose ?? settings.verbose };
  if (host) {
    host.close();
    host = null;
  }
}

export function executionHost(): NodeExecutionHost {
  host ??= createNodeHost({ transpile: transpileWorkloadWithMap, ...(settings.limits ? { limits: settings.limits } : {}), ...(settings.verbose ? { verbose: true } : {}) });
  return host;
}

/** Runs one spec in the execution host (runs of a command execute one after another). */
export function runInSandbox(spec: RunSpec, opts: SandboxRunOptions = {}): Promise<RunResult> {
  const dirs = opts.pluginDirs ?? [];
  const key = JSON.stringify(dirs);
  let plugins = opts.plugins ?? sourcesByDirs.get(key);
  if (!plugins) {
    plugins = pluginSources(dirs);
    sourcesByDirs.set(key, plugins);
  }
  const named = new Set(spec.variants.map((v) => v.id));
  return executionHost().run({ spec, plugins: plugins.filter((p) => named.has(p.id)), profiles: opts.profiles ?? [] }, opts.onProgress);
}

/** Stops the host process (it would keep the CLI alive). */
export function stopSandbox(): void {
  host?.close();
  host = null;
  sourcesByDirs.clear();
}
