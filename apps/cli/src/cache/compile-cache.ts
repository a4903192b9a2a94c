/**
 * Compiled workloads on disk, by content hash: a workload's transpile (TypeScript -> the CommonJS
 * the sandbox runs, with its source map) and the verdict of its type check, keyed by everything
 * they depend on (the source, its file name, the compiler's version and options, the API's
 * declarations). A command that finds both never loads the TypeScript compiler (~0.3 s of CPU).
 * Stored in the user's cache folder (`<dir>/compile`, bounded, verified on read); only successes
 * are kept, so an error is always the compiler's own, fresh.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CacheStore, canonicalJson, sha256Hex, userCacheDir } from "@siglab/core/cache";
import type { WorkloadInfo } from "@siglab/core/host";

const COMPILE_CACHE_MB = 64;

let store: CacheStore | undefined;
let compilerVersion: string | undefined;

export function compileStore(): CacheStore {
  return (store ??= new CacheStore(join(userCacheDir(), "compile"), { maxBytes: COMPILE_CACHE_MB * 1024 * 1024 }));
}

/** The TypeScript compiler's version, read from its package.json (loading the compiler costs ~0.3 s). */
function typescriptVersion(): string {
  if (compilerVersion === undefined) {
    const require = createRequire(import.meta.url);
    compilerVersion = (JSON.parse(readFileSync(require.resolve("typescript/package.json"), "utf8")) as { version: string }).version;
  }
  return compilerVersion;
}

/** The key of a compile step: what it is, and every input it depends on. */
export function compileKey(step: string, inputs: Record<string, unknown>): string {
  return sha256Hex(canonicalJson({ step, typescript: typescriptVersion(), ...inputs }));
}

/** The stored output of `key`, else `compute()`'s, stored (when it returns) for next time. */
export function cachedCompile<T>(key: string, compute: () => T): T {
  const s = compileStore();
  const hit = s.get(key);
  if (hit) {
    try {
      return JSON.parse(hit.toString("utf8")) as T;
    } catch {
      /* a whole entry of another format: recompute and replace it */
    }
  }
  const out = compute();
  s.put(key, Buffer.from(JSON.stringify(out), "utf8"));
  return out;
}

/**
 * A workload's name, description and declared parameters (what `run` checks --param and --sweep
 * against), read once per source and simulator: inspecting costs a sandbox's start, which a run
 * whose results are all stored would otherwise pay for nothing. Errors are not kept.
 */
export async function cachedInspect(file: string, source: string, simulator: string, inspect: () => Promise<WorkloadInfo>): Promise<WorkloadInfo> {
  const s = compileStore();
  const key = compileKey("inspect", { simulator, file, source });
  const hit = s.get(key);
  if (hit) {
    try {
      return JSON.parse(hit.toString("utf8")) as WorkloadInfo;
    } catch {
      /* recomputed and replaced below */
    }
  }
  const info = await inspect();
  s.put(key, Buffer.from(JSON.stringify(info), "utf8"));
  return info;
}
