/**
 * The CLI's execution hosts: every run of every command goes through a NodeExecutionHost (a
 * supervisor in this process, whose sandboxes are separate, permission-restricted processes; see
 * @siglab/core host/). Workloads are transpiled here, plugin folders read here; no foreign code
 * runs in the CLI's own process.
 *
 * A command with --jobs N runs up to N runs at a time: each in a host of its own, from a small pool
 * of identical hosts (started on demand, at most one per run in flight, all stopped with the
 * command). A host runs one run at a time, so its budgets, its sandbox's memory watch and its fresh
 * sandboxes concern that run alone, exactly as with one host.
 */
import type { RunProgress, RunResult, RunSpec } from "@siglab/core";
import type { HostLimits, PluginSource } from "@siglab/core/host";
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

/** the pool: hosts[i].busy while a run is in it */
let hosts: { host: NodeExecutionHost; busy: boolean }[] = [];
let settings: { limits?: Partial<HostLimits>; verbose?: boolean } = {};
const sourcesByDirs = new Map<string, PluginSource[]>();

/** Limits and verbosity for the rest of this command (before its first run); hosts started with other settings are stopped. */
export function configureHost(s: { limits?: Partial<HostLimits>; verbose?: boolean }): void {
  const next = { limits: { ...settings.limits, ...s.limits }, verbose: s.verbose ?? settings.verbose };
  if (JSON.stringify(next) === JSON.stringify(settings)) return;
  settings = next;
  closeHosts();
}

function newHost(): NodeExecutionHost {
  return createNodeHost({ transpile: transpileWorkloadWithMap, ...(settings.limits ? { limits: settings.limits } : {}), ...(settings.verbose ? { verbose: true } : {}) });
}

/** The command's first host (inspections, the bench's own timing). */
export function executionHost(): NodeExecutionHost {
  if (!hosts.length) hosts.push({ host: newHost(), busy: false });
  return hosts[0]!.host;
}

/**
 * Runs one spec in an execution host that is not running anything else: an idle one of the pool,
 * or a new one. Callers bound the concurrency (runSpecs: --jobs); runs awaited one after another
 * all go to the first host.
 */
export async function runInSandbox(spec: RunSpec, opts: SandboxRunOptions = {}): Promise<RunResult> {
  const dirs = opts.pluginDirs ?? [];
  const key = JSON.stringify(dirs);
  let plugins = opts.plugins ?? sourcesByDirs.get(key);
  if (!plugins) {
    plugins = pluginSources(dirs);
    sourcesByDirs.set(key, plugins);
  }
  const named = new Set(spec.variants.map((v) => v.id));
  let slot = hosts.find((h) => !h.busy);
  if (!slot) hosts.push((slot = { host: newHost(), busy: false }));
  const pool = hosts;
  slot.busy = true;
  try {
    return await slot.host.run({ spec, plugins: plugins.filter((p) => named.has(p.id)), profiles: opts.profiles ?? [] }, opts.onProgress);
  } finally {
    // a host closed meanwhile (configureHost, stopSandbox) is not reused
    if (pool === hosts) slot.busy = false;
  }
}

/** How many host processes the pool has started (tests). */
export function hostCount(): number {
  return hosts.length;
}

function closeHosts(): void {
  for (const h of hosts) h.host.close();
  hosts = [];
}

/** Stops the host processes (they would keep the CLI alive). */
export function stopSandbox(): void {
  closeHosts();
  sourcesByDirs.clear();
}
