/**
 * The result cache on the app's node side (Electron main, `siglab serve`), the store the CLI uses
 * (@siglab/core cache/: the user's cache folder, verified entries, LRU within a bound). The app's
 * runs execute in the renderer's sandbox worker, so the renderer asks here before a run
 * (lookupRun) and hands the result back after (storeRun); the key is computed here from what the
 * run is handed: its spec, the third-party plugin code and the profiles, the steps/cycles budget
 * under the app's limits, and the simulator's version — a SHA-256 of the built sandbox worker the
 * renderer runs (<renderer>/workers/*.js), so the app's and the CLI's entries never mix. Off when
 * the workspace setting `resultCache` is false, and when no built renderer is there to hash.
 * A bundle's runs must not come here: a bundle is always simulated.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { openRunCache, runKey, simulatorVersion, type CachedRunResult, type RunCache } from "@siglab/core/cache";
import { DEFAULT_HOST_LIMITS, type HostLimits, type PluginSource } from "@siglab/core/host";
import type { CpuProfileFile, RunResult, RunSpec } from "../common/contracts.js";

/** What a run in the renderer is handed, as the renderer describes it to the cache. */
export interface CachedRunRequest {
  spec: RunSpec;
  /** the third-party plugin code handed to the run (those its stack names) */
  plugins: PluginSource[];
  /** the profiles handed to the run in place of built-in ones (the user's) */
  profiles: CpuProfileFile[];
  /** the renderer's execution-host limits, when not core's defaults */
  limits?: Partial<HostLimits>;
}

export class AppRunCache {
  constructor(
    /** the built renderer: its workers/ folder holds the sandbox the runs use */
    private readonly rendererDir: string | undefined,
    private readonly cache: RunCache = openRunCache(),
  ) {}

  get folder(): string {
    return this.cache.store.dir;
  }

  info() {
    return this.cache.store.info();
  }

  /** The run's key, or undefined when there is no built sandbox to take the simulator's version from. */
  key(req: CachedRunRequest): string | undefined {
    const simulator = this.simulator();
    if (!simulator) return undefined;
    return runKey({ spec: req.spec, plugins: req.plugins, profiles: req.profiles, limits: { ...DEFAULT_HOST_LIMITS, ...req.limits }, simulator });
  }

  lookup(req: CachedRunRequest): CachedRunResult | null {
    const k = this.key(req);
    return (k && this.cache.get(k)) || null;
  }

  store(req: CachedRunRequest, result: RunResult): boolean {
    const k = this.key(req);
    return k ? this.cache.put(k, result) : false;
  }

  private simulator(): string | undefined {
    if (!this.rendererDir) return undefined;
    const dir = path.join(this.rendererDir, "workers");
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith(".js")).sort();
    } catch {
      return undefined;
    }
    return files.some((f) => f.startsWith("sim.worker")) ? simulatorVersion(files.map((f) => path.join(dir, f))) : undefined;
  }
}
