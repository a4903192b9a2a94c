/**
 * Stored run results, by run key (run-key.ts), in a bounded, verified store (store.ts). A result is
 * kept as the structured clone the execution host sent (v8 serialization): a hit gives back exactly
 * what the run gave, NaN and -0 included. Only results without an error are stored: an error may
 * come from the host's clock or memory, which a key does not cover.
 *
 * A result's per-path statistics (`paths`) are ~98 % of it and most readers never look at them (a
 * suite's text lines, a sweep's table): they are stored apart and decoded on first access, so a
 * hit costs what the rest costs (a cached `suite examples`: ~20 ms less). An entry's body:
 *   <uint32 BE: n> <n bytes: v8 [the result without paths, the index of paths in its key order]>
 *   <the rest: gzip(v8 paths), empty when the result has none>
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
      r = decodeResult(body);
    } catch {
      r = undefined;
    }
    if (!isResult(r)) return undefined; // a whole entry of another format: recomputed and replaced
    return r as CachedRunResult;
  }

  /** Stores a result (not one with an error); false when it was not stored. */
  put(key: string, result: CachedRunResult): boolean {
    if (result.error) return false;
    const { cached: _, ...plain } = result;
    const at = Object.keys(plain).indexOf("paths");
    const { paths, ...rest } = plain;
    const head = serialize([rest, at]);
    const n = Buffer.alloc(4);
    n.writeUInt32BE(head.length);
    return this.store.put(key, Buffer.concat([n, head, at < 0 ? Buffer.alloc(0) : gzipSync(serialize(paths), { level: 3 })]));
  }
}

/** The result in an entry's body, its keys in their stored order, `paths` decoded when first read, then `cached: true`. */
function decodeResult(body: Buffer): unknown {
  const n = body.readUInt32BE(0);
  const [rest, at] = deserialize(body.subarray(4, 4 + n)) as [Record<string, unknown>, number];
  const packed = body.subarray(4 + n);
  const out: Record<string, unknown> = {};
  const set = (k: string, value: unknown) => Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  const keys = Object.keys(rest);
  for (let i = 0; i <= keys.length; i++) {
    if (i === at) {
      Object.defineProperty(out, "paths", {
        enumerable: true,
        configurable: true,
        get: () => {
          const paths: unknown = deserialize(gunzipSync(packed));
          set("paths", paths);
          return paths;
        },
        set: (v: unknown) => set("paths", v),
      });
    }
    if (i < keys.length) set(keys[i]!, rest[keys[i]!]);
  }
  set("cached", true);
  return out;
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
