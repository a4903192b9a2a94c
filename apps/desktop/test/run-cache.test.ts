/** The app's node side of the result cache: lookupRun/storeRun, keyed by the built sandbox worker, and its setting. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openRunCache } from "@siglab/core/cache";
import { HostService, type HostUi } from "../src/node/host-service.js";
import { AppRunCache } from "../src/node/run-cache.js";
import { Workspace } from "../src/node/workspace.js";
import { checkHostArgs } from "../src/common/host-schema.js";
import type { CachedRunRequest } from "../src/common/host-api.js";
import type { RunResult } from "../src/common/contracts.js";

const root = mkdtempSync(path.join(os.tmpdir(), "siglab-app-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const ui: HostUi = { kind: "http", appVersion: "0", choosePluginFolder: async () => null, chooseSavePath: async () => null, chooseBundleToOpen: async () => null, openExternal: async () => false };
const catalog = { examples: [], presets: [], profiles: [], plugins: [] };

function setup() {
  const dir = path.join(root, `t${n++}`);
  const renderer = path.join(dir, "renderer");
  mkdirSync(path.join(renderer, "workers"), { recursive: true });
  writeFileSync(path.join(renderer, "workers", "sim.worker-abc.js"), "the simulator, v1");
  const cache = new AppRunCache(renderer, openRunCache({ dir: path.join(dir, "cache") }));
  const service = new HostService(new Workspace(path.join(dir, "ws")), ui, catalog, { runCache: cache });
  return { renderer, cache, h: service.handlers() };
}

const req = (over: Partial<CachedRunRequest["spec"]> = {}): CachedRunRequest => ({
  spec: { workload: { id: "w", file: "w.ts", source: "src" }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: { iterations: 10 }, seed: 1, ...over },
  plugins: [],
  profiles: [],
});
const result = { workload: "w", cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: { iterations: 10 }, seed: 1, metrics: [{ name: "m", value: 1.5, unit: "us" }], phases: {}, counters: {}, findings: [], totalCycles: 9, simSeconds: 1e-6, paths: [] } as RunResult;

describe("the app's result cache (node side)", () => {
  it("misses, stores, then gives the stored result back with cached: true", async () => {
    const { h } = setup();
    expect(await h.lookupRun(req())).toBeNull();
    expect(await h.storeRun(req(), result)).toBe(true);
    expect(await h.lookupRun(req())).toEqual({ ...result, cached: true });
    expect(await h.lookupRun(req({ seed: 2 }))).toBeNull();
    expect(await h.storeRun(req(), { ...result, error: { kind: "budget", message: "over" } })).toBe(false); // never a result with an error
    expect((await h.resultCacheInfo()).entries).toBe(1);
  });

  it("misses once the sandbox worker the renderer runs is another build (the simulator's version)", async () => {
    const { h, renderer } = setup();
    await h.storeRun(req(), result);
    writeFileSync(path.join(renderer, "workers", "sim.worker-abc.js"), "the simulator, v2");
    expect(await h.lookupRun(req())).toBeNull();
  });

  it("the setting turns it off: nothing read, nothing stored; other settings are kept", async () => {
    const { h } = setup();
    await h.storeRun(req(), result);
    expect((await h.setResultCacheEnabled(false)).enabled).toBe(false);
    expect(await h.lookupRun(req())).toBeNull();
    expect(await h.storeRun(req({ seed: 3 }), result)).toBe(false);
    expect((await h.resultCacheInfo()).entries).toBe(1);
    await expect(h.setPluginEnabled("nope", false)).rejects.toThrow();
    expect((await h.setResultCacheEnabled(true)).enabled).toBe(true);
    expect((await h.lookupRun(req()))?.cached).toBe(true);
  });

  it("is off without a built sandbox worker to take the simulator's version from", () => {
    const cache = new AppRunCache(path.join(root, "no-renderer"), openRunCache({ dir: path.join(root, "unused") }));
    expect(cache.store(req(), result)).toBe(false);
    expect(cache.lookup(req())).toBeNull();
  });

  it("both hosts check the arguments' shape", () => {
    expect(() => checkHostArgs("lookupRun", [req()])).not.toThrow();
    expect(() => checkHostArgs("storeRun", [req(), result])).not.toThrow();
    expect(() => checkHostArgs("lookupRun", [{ spec: {} }])).toThrow(/lookupRun: argument 1 is invalid/);
    expect(() => checkHostArgs("setResultCacheEnabled", ["yes"])).toThrow(/argument 1 is invalid/);
  });
});
