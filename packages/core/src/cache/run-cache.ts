/**
 * Stored run results, by run key (run-key.ts), in a bounded, verified store (store.ts). A result is
 * kept as the structured clone the execution host sent (v8 serialization, gzip): a hit gives back
 * exactly what the run gave, NaN and -0 included. Only results without an error are stored: an
 * error may come from the host's clock or memory, which a key does not cover.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { deserialize, serialize } from "node:v8";
import { join } from "node:path";
import type { RunResult } from "../common/results.js";
import { CacheStore, type CacheStoreOptions } from "./store.js";
import { userCacheDir } from "./folder.js";

/** A result as a cache-aware caller reports it: `cached: true` when it was read from the cache. */
export type CachedRunResult = RunResult & { cached?: true };

/** the default bound of the results folder */
export const DEFAULT_RESULT_CACHE_MB = 512;

export class RunCache {
  constructor(readonly store: CacheStore) {}

  /** The stored result of the run with this key, marked `cached: true`; undefined on a miss. */
  get(key: string): CachedRunResult | undefined {
    const body = this.store.get(key);
    if (!body) return undefined;
    let r: unknown;
    try {
      r = deserialize(gunzipSync(body));
    } catch {
      r = undefined;
    }
    if (!isResult(r)) return undefined; // a whole entry of another format: recomputed and replaced
    return { ...r, cached: true };
  }

  /** Stores a result (not one with an error); false when it was not stored. */
  put(key: string, result: CachedRunResult): boolean {
    if (result.error) return false;
    const { cached: _, ...plain } = result;
    return this.store.put(key, gzipSync(serialize(plain), { level: 3 }));
  }
}

function isResult(r: unknown): r is RunResult {
  const o = r as RunResult | null;
  return typeof o === "object" && o !== null && typeof o.workload === "string" && Array.isArray(o.metrics) && typeof o.totalCycles === "number";
}

/** The result cache of the user's cache folder (folder.ts): `<dir>/results`. */
export function openRunCache(opts: Partial<CacheStoreOptions> & { dir?: string } = {}): RunCache {
  const { dir = userCacheDir(), ...rest } = opts;
  return new RunCache(new CacheStore(join(dir, "results"), { maxBytes: DEFAULT_RESULT_CACHE_MB * 1024 * 1024, ...rest }));
}
