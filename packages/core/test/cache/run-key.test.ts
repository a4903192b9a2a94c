/** The result cache's key covers what decides a run's result, and only that. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { canonicalJson } from "../../src/cache/canonical.js";
import { userCacheDir } from "../../src/cache/folder.js";
import { RunCache } from "../../src/cache/run-cache.js";
import { runKey, type RunKeyInput } from "../../src/cache/run-key.js";
import { simulatorVersion } from "../../src/cache/simulator-version.js";
import { CacheStore } from "../../src/cache/store.js";
import { DEFAULT_HOST_LIMITS } from "../../src/host/limits.js";
import type { RunResult } from "../../src/common/results.js";

const root = mkdtempSync(join(tmpdir(), "siglab-run-key-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const profile = BUILTIN_PROFILE_FILES.find((p) => p.id === "p4-northwood")!;
const base = (): RunKeyInput => ({
  spec: { workload: { id: "w", file: "w.ts", source: "source" }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [{ id: "mine", options: { a: 1 } }], params: { iterations: 100, call: "getpid" }, seed: 1 },
  plugins: [{ id: "mine", manifest: { id: "mine" }, origin: "plugins/mine", main: "index.js", files: { "index.js": "exports.x = 1;" } }],
  profiles: [],
  profile,
  limits: { ...DEFAULT_HOST_LIMITS },
  simulator: "a".repeat(64),
});

describe("runKey", () => {
  const k0 = runKey(base());
  const changed = (edit: (i: RunKeyInput) => void) => {
    const i = base();
    edit(i);
    return runKey(i);
  };

  it("misses when the workload, CPU, stack, a parameter, the seed, the SMP count or the timeline changes", () => {
    expect(changed((i) => (i.spec.workload.source += " "))).not.toBe(k0);
    expect(changed((i) => (i.spec.cpu.mhz = 2000))).not.toBe(k0);
    expect(changed((i) => (i.spec.cpu.smp = 2))).not.toBe(k0);
    expect(changed((i) => (i.spec.variants[0]!.options = { a: 2 }))).not.toBe(k0);
    expect(changed((i) => i.spec.variants.push({ id: "sa-nofp" }))).not.toBe(k0);
    expect(changed((i) => (i.spec.params["iterations"] = 101))).not.toBe(k0);
    expect(changed((i) => (i.spec.seed = 2))).not.toBe(k0);
    expect(changed((i) => (i.spec.timeline = true))).not.toBe(k0);
  });

  it("misses when a plugin's code or manifest, the CPU profile's content or a handed profile changes", () => {
    expect(changed((i) => (i.plugins[0]!.files["index.js"] = "exports.x = 2;"))).not.toBe(k0);
    expect(changed((i) => (i.plugins[0]!.manifest = { id: "mine", version: "2" }))).not.toBe(k0);
    const costs = { ...profile.costs, pop: { ...profile.costs.pop, cycles: profile.costs.pop.cycles + 1 } };
    expect(changed((i) => (i.profile = { ...profile, costs }))).not.toBe(k0);
    expect(changed((i) => (i.profiles = [{ ...profile, id: "mine" }]))).not.toBe(k0);
  });

  it("misses when the simulator's version or the steps/cycles budget changes", () => {
    expect(changed((i) => (i.simulator = "b".repeat(64)))).not.toBe(k0);
    expect(changed((i) => (i.limits.maxSteps = 1000))).not.toBe(k0);
    expect(changed((i) => (i.spec.budget = { maxCycles: 1e9 }))).not.toBe(k0);
  });

  it("hits whatever order keys were written in, and whatever host time or memory the run may use", () => {
    expect(changed((i) => (i.spec.params = { call: "getpid", iterations: 100 }))).toBe(k0);
    expect(changed((i) => (i.limits = { ...i.limits, runMs: 1000, memoryMb: 100 }))).toBe(k0);
    expect(changed((i) => (i.spec.budget = { maxHostMs: 5 }))).toBe(k0);
    expect(changed((i) => (i.spec.timelineLimit = 5))).toBe(k0); // no timeline: the bound is moot
  });
});

describe("canonicalJson", () => {
  it("sorts keys, leaves undefined out, and tells NaN, the infinities and -0 from null and 0", () => {
    expect(canonicalJson({ b: 1, a: [1, undefined], c: undefined })).toBe('{"a":[1,null],"b":1}');
    expect(new Set([NaN, Infinity, -Infinity, -0, 0, null].map((v) => canonicalJson(v))).size).toBe(6);
  });
});

describe("simulatorVersion", () => {
  it("changes with the content of the host's code", () => {
    const f = join(root, "worker.mjs");
    writeFileSync(f, "kernel path v1");
    const v1 = simulatorVersion([f]);
    expect(simulatorVersion([f])).toBe(v1);
    writeFileSync(f, "kernel path v2");
    expect(simulatorVersion([f])).not.toBe(v1);
  });
});

describe("RunCache", () => {
  it("gives back the stored result exactly (NaN and -0 too), marked cached; stores no result with an error", () => {
    const cache = new RunCache(new CacheStore(join(root, "results"), { maxBytes: 1 << 20 }));
    const r = { workload: "w", metrics: [{ name: "m", value: NaN, unit: "us" }, { name: "z", value: -0, unit: "us" }], totalCycles: 5, paths: [] } as unknown as RunResult;
    expect(cache.put("1".repeat(64), r)).toBe(true);
    const hit = cache.get("1".repeat(64))!;
    expect(hit.cached).toBe(true);
    const { cached: _, ...plain } = hit;
    expect(plain).toStrictEqual(r);
    expect(Object.is(plain.metrics[1]!.value, -0)).toBe(true);
    expect(cache.put("2".repeat(64), { ...r, error: { kind: "budget", message: "x" } })).toBe(false);
    expect(cache.get("2".repeat(64))).toBeUndefined();
  });
});

describe("RunCache's stored form", () => {
  it("decodes a hit's paths only when they are read, in their place in the key order, and a write replaces them", () => {
    const cache = new RunCache(new CacheStore(join(root, "lazy"), { maxBytes: 1 << 20 }));
    const r = { workload: "w", metrics: [], totalCycles: 5, paths: [{ name: "system_call", cycles: NaN }], simSeconds: 1 } as unknown as RunResult;
    expect(cache.put("3".repeat(64), r)).toBe(true);
    const hit = cache.get("3".repeat(64))!;
    expect(Object.getOwnPropertyDescriptor(hit, "paths")!.get).toBeTypeOf("function"); // not decoded yet
    expect(Object.keys(hit)).toEqual(["workload", "metrics", "totalCycles", "paths", "simSeconds", "cached"]);
    expect(JSON.stringify(hit)).toBe(JSON.stringify({ ...r, cached: true }));
    expect(Object.getOwnPropertyDescriptor(hit, "paths")!.value).toStrictEqual(r.paths); // decoded once, then plain data
    const again = cache.get("3".repeat(64))!;
    (again as { paths: unknown }).paths = [];
    expect(again.paths).toEqual([]);
  });
});

describe("userCacheDir", () => {
  it("is $SIGLAB_CACHE_DIR, else $XDG_CACHE_HOME/siglab, else the platform's user cache folder", () => {
    expect(userCacheDir({ SIGLAB_CACHE_DIR: "/c" }, "linux", "/h")).toBe("/c");
    expect(userCacheDir({ XDG_CACHE_HOME: "/x" }, "darwin", "/h")).toBe("/x/siglab");
    expect(userCacheDir({ XDG_CACHE_HOME: "relative" }, "linux", "/h")).toBe("/h/.cache/siglab");
    expect(userCacheDir({}, "linux", "/h")).toBe("/h/.cache/siglab");
    expect(userCacheDir({}, "darwin", "/h")).toBe("/h/Library/Caches/siglab");
    expect(userCacheDir({ LOCALAPPDATA: "/l" }, "win32", "/h")).toBe(join("/l", "siglab", "Cache"));
  });
});
