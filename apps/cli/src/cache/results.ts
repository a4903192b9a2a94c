/**
 * The result cache as `siglab run` and `suite examples` use it: each run's key (@siglab/core
 * cache/run-key.ts) is looked up before anything is started; the runs that miss go to the
 * execution hosts (--jobs at a time) and are stored as they finish; the results come back in run
 * order, those read from the cache marked `cached: true`. `--no-cache` neither reads nor writes it.
 * Bundles (export, run, verify) never come here: a bundle's results are always simulated.
 */
import type { RunResult, RunSpec } from "@siglab/core";
import type { PluginSource, WorkloadInfo } from "@siglab/core/host";
import { DEFAULT_RESULT_CACHE_MB, openRunCache, runKey, simulatorVersion, type CachedRunResult, type RunCache } from "@siglab/core/cache";
import { nodeHostCode } from "@siglab/builtin-plugins/host/node";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { runnableProfiles, UsageError } from "../catalog.js";
import { executionHost, hostLimits, hostPool, pluginsFor, warmHost, type SandboxRunOptions } from "../run/host.js";
import { cachedInspect } from "./compile-cache.js";
import { runSpecs } from "../run/parallel.js";
import { progressLabel, ProgressLine } from "../run/progress.js";

export const NO_CACHE_OPTION: [flag: string, help: string] = ["--no-cache", "neither read nor store results in the result cache (siglab cache info; SIGLAB_NO_CACHE=1 for every command)"];

/** Whether a command's runs go through the result cache: not with --no-cache or SIGLAB_NO_CACHE=1. */
export function resultCacheWanted(o: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): boolean {
  return o["cache"] !== false && !["1", "true", "yes"].includes(env["SIGLAB_NO_CACHE"]?.trim().toLowerCase() ?? "");
}

/** The bound of the results folder: $SIGLAB_CACHE_MAX_MB MiB, default 512. */
export function resultCacheMaxBytes(env: NodeJS.ProcessEnv = process.env): number {
  const v = env["SIGLAB_CACHE_MAX_MB"]?.trim();
  if (!v) return DEFAULT_RESULT_CACHE_MB * 1024 * 1024;
  const n = Number(v);
  if (!(Number.isFinite(n) && n > 0)) throw new UsageError(`SIGLAB_CACHE_MAX_MB: expected a positive number of MiB, got '${v}'`);
  return Math.round(n * 1024 * 1024);
}

/** The user's result cache, telling stderr (once each) about damaged entries and failed writes. */
export function cliRunCache(): RunCache {
  let warnedWrite = false;
  return openRunCache({
    maxBytes: resultCacheMaxBytes(),
    onDamaged: (file, problem) => console.error(`siglab: a stored result was damaged (${file}: ${problem}); it was deleted and the run simulated again`),
    onWriteFailed: (e) => {
      if (!warnedWrite) console.error(`siglab: could not store results in the result cache (${e.message}); runs go on uncached`);
      warnedWrite = true;
    },
  });
}

/** What a command hands its runs besides the spec (runInSandbox's options), and how many at a time. */
export interface CachedRunsOptions {
  jobs: number;
  /** false with --no-cache */
  cache: boolean;
  sandbox: SandboxRunOptions;
  /**
   * Each result in run order as soon as it and every run before it are done (stored ones at once),
   * so that a command can print its results as they come.
   */
  onResult?(position: number, r: CachedRunResult): void;
}

/** The profile a CPU id names: one handed to the runs, else a built-in one (else a plugin's: in its code). */
function profileFinder(handed: readonly CpuProfileFile[]): (id: string) => CpuProfileFile | undefined {
  let builtin: CpuProfileFile[] | undefined;
  return (id) => handed.find((p) => p.id === id) ?? (builtin ??= runnableProfiles()).find((p) => p.id === id);
}

/** Runs `specs` through the result cache (see the top of this file); results in run order. */
export async function runThroughCache(specs: readonly RunSpec[], run: (spec: RunSpec) => Promise<RunResult>, o: CachedRunsOptions): Promise<CachedRunResult[]> {
  // another host only when it pays (run/widen.ts)
  const pool = { jobs: o.jobs, pool: hostPool };
  if (!o.cache) return runSpecs(specs, run, { ...pool, label: (i) => progressLabel(specs[i]!), ...(o.onResult ? { onResult: o.onResult } : {}) });
  const cache = cliRunCache();
  const simulator = await currentSimulator();
  const limits = hostLimits();
  const handed = o.sandbox.profiles ?? [];
  const profileOf = profileFinder(handed);
  const keyOf = (spec: RunSpec, plugins: PluginSource[]) => runKey({ spec, plugins, profiles: handed, limits, simulator, ...optional("profile", profileOf(spec.cpu.id)) });
  const keys = specs.map((spec) => keyOf(spec, pluginsFor(spec, o.sandbox)));
  const results: (CachedRunResult | undefined)[] = keys.map((k) => cache.get(k));
  const missing = results.flatMap((r, i) => (r ? [] : [i]));
  if (missing.length) warmHost(); // no host at all when every run is stored
  let flushed = 0;
  const flush = (): void => {
    for (; flushed < results.length && results[flushed]; flushed++) o.onResult?.(flushed, results[flushed]!);
  };
  flush();
  const ran = await runSpecs(
    missing,
    async (i) => {
      const r = await run(specs[i]!);
      cache.put(keys[i]!, r); // as each finishes: an interrupted sweep keeps what it finished
      return r;
    },
    {
      ...pool,
      progress: new ProgressLine(specs.length, undefined, undefined, undefined, specs.length - missing.length),
      label: (k) => progressLabel(specs[missing[k]!]!),
      // missing is in run order, so its results come in run order too
      onResult: (k, r) => {
        results[missing[k]!] = r;
        flush();
      },
    },
  );
  missing.forEach((i, k) => (results[i] = ran[k]));
  return results as CachedRunResult[];
}

const optional = <K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } => (v === undefined ? {} : ({ [k]: v } as { [P in K]: V }));

let simulator: Promise<string> | undefined;

/**
 * The simulator's version: a hash of the code the execution host runs (built from the sources when
 * they changed). Once per process: a CLI process is one command, whose workload check and run
 * lookups then share one walk of the sources.
 */
export function currentSimulator(): Promise<string> {
  return (simulator ??= nodeHostCode().then(simulatorVersion));
}

/** A workload's declared parameters and names, from the compile cache or a sandbox (executionHost().inspect). */
export async function inspectWorkload(file: string, source: string): Promise<WorkloadInfo> {
  return cachedInspect(file, source, await currentSimulator(), () => executionHost().inspect(file, source));
}

/** A repeated run's summary is cached only when every repetition was. */
export function cachedWhenAll<T extends CachedRunResult>(summary: T, runs: readonly CachedRunResult[]): T {
  const { cached: _, ...rest } = summary;
  return (runs.every((r) => r.cached) ? { ...rest, cached: true } : rest) as T;
}

/** A run's text block with `, cached` at the end of its first line when it came from the cache. */
export function markCachedText(text: string, r: CachedRunResult): string {
  if (!r.cached) return text;
  const nl = text.indexOf("\n");
  return nl < 0 ? `${text}, cached` : `${text.slice(0, nl)}, cached${text.slice(nl)}`;
}
