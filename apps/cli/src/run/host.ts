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
import { DEFAULT_HOST_LIMITS, type HostLimits, type PluginSource } from "@siglab/core/host";
import { createNodeHost, type NodeExecutionHost } from "@siglab/builtin-plugins/host/node";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { pluginSources } from "../plugins/load.js";
import { transpileWorkloadWithMap } from "./compile.js";
import { takeEarlyHost } from "./prestart.js";
import type { LanePool } from "./widen.js";

export interface SandboxRunOptions {
  pluginDirs?: string[];
  /** plugin code given directly (a bundle's embedded plugins) instead of folders */
  plugins?: PluginSource[];
  /** exact profiles to use in place of the built-in ones with the same id (a bundle's) */
  profiles?: CpuProfileFile[];
  onProgress?(p: RunProgress): void;
}

/** One host of the pool: busy while a run is in it; readyAt (performance.now()) once its sandbox worker was ready. */
interface Slot {
  host: NodeExecutionHost;
  busy: boolean;
  readyAt?: number;
}
/** the pool, in the order its hosts were started */
let hosts: Slot[] = [];
/**
 * What the last host took from its creation to a ready sandbox worker (process start, lockdown,
 * the simulator loaded), ms; before one is measured, a guess of the same order (2 cores, loaded).
 */
let hostStartMs = 300;
let settings: { limits?: Partial<HostLimits>; verbose?: boolean } = {};
const sourcesByDirs = new Map<string, PluginSource[]>();

/** Limits and verbosity for the rest of this command (before its first run); hosts started with other settings are stopped. */
export function configureHost(s: { limits?: Partial<HostLimits>; verbose?: boolean }): void {
  const next = { limits: { ...settings.limits, ...s.limits }, verbose: s.verbose ?? settings.verbose };
  if (JSON.stringify(next) === JSON.stringify(settings)) return;
  settings = next;
  closeHosts();
}

/** hosts whose sandbox worker is not ready yet */
const starting = new Set<NodeExecutionHost>();

/** A new host in the pool, started at once (its process and sandbox worker), timing its start. */
function addHost(): Slot {
  // the one main.ts started before the CLI loaded (prestart.ts), when this command's settings are its own (the defaults)
  const early = takeEarlyHost();
  const defaults = !settings.verbose && !Object.keys(settings.limits ?? {}).length;
  if (early && !defaults) early.host.close();
  const adopted = early && defaults ? early : undefined;
  const host = adopted ? adopted.host : createNodeHost({ transpile: transpileWorkloadWithMap, ...(settings.limits ? { limits: settings.limits } : {}), ...(settings.verbose ? { verbose: true } : {}) });
  const t0 = adopted ? adopted.startedAt : performance.now();
  const slot: Slot = { host, busy: false };
  hosts.push(slot);
  starting.add(host);
  void host.warm().then(() => {
    starting.delete(host);
    if (!hosts.includes(slot)) return; // a host stopped while it started
    slot.readyAt = adopted?.readyAt ?? performance.now();
    hostStartMs = slot.readyAt - t0;
  });
  return slot;
}

/** The command's first host (inspections, the bench's own timing). */
export function executionHost(): NodeExecutionHost {
  return (hosts[0] ?? addHost()).host;
}

/** Starts the first host now, for a command that knows it will run: it boots while the command prepares. */
export function warmHost(): void {
  executionHost();
}

/** The pool as runSpecs' lane policy sees it (widen.ts). */
export const hostPool: LanePool = {
  spare: () => (hosts.some((h) => !h.busy) ? "idle" : starting.size ? "starting" : "none"),
  startMs: () => hostStartMs,
  readyAt: (k) => hosts[k]?.readyAt,
};

/**
 * Runs one spec in an execution host that is not running anything else: an idle one of the pool,
 * or a new one. Callers bound the concurrency (runSpecs: --jobs); runs awaited one after another
 * all go to the first host.
 */
export async function runInSandbox(spec: RunSpec, opts: SandboxRunOptions = {}): Promise<RunResult> {
  const plugins = pluginsFor(spec, opts);
  const slot = hosts.find((h) => !h.busy) ?? addHost();
  const pool = hosts;
  slot.busy = true;
  try {
    return await slot.host.run({ spec, plugins, profiles: opts.profiles ?? [] }, opts.onProgress);
  } finally {
    // a host closed meanwhile (configureHost, stopSandbox) is not reused
    if (pool === hosts) slot.busy = false;
  }
}

/** The third-party plugin code a run of `spec` is handed: those its stack names. */
export function pluginsFor(spec: RunSpec, opts: SandboxRunOptions = {}): PluginSource[] {
  const dirs = opts.pluginDirs ?? [];
  const key = JSON.stringify(dirs);
  let plugins = opts.plugins ?? sourcesByDirs.get(key);
  if (!plugins) {
    plugins = pluginSources(dirs);
    sourcesByDirs.set(key, plugins);
  }
  const named = new Set(spec.variants.map((v) => v.id));
  return plugins.filter((p) => named.has(p.id));
}

/** The limits this command's hosts enforce (configureHost's, over the defaults). */
export function hostLimits(): HostLimits {
  return { ...DEFAULT_HOST_LIMITS, ...settings.limits };
}

/** How many host processes the pool has started (tests). */
export function hostCount(): number {
  return hosts.length;
}

function closeHosts(): void {
  for (const h of hosts) h.host.close();
  hosts = [];
  starting.clear();
}

/** Stops the host processes (they would keep the CLI alive). */
export function stopSandbox(): void {
  takeEarlyHost()?.host.close();
  closeHosts();
  sourcesByDirs.clear();
}
