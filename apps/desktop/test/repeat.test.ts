/**
 * Repetitions (seeds) in the app: the Repetitions control's state (clamped, kept across reloads,
 * carried by shared links, validated), the runs it makes (seed, seed+1, …, summarised by core's
 * summarizeRepeats with bounded memory) and the histogram over the seeds.
 */
import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import type { RunResult } from "../src/common/contracts.js";
import { histogramData, repetitionsOf } from "../src/renderer/results/histogram.js";
import { compactRepetition, MAX_REPEAT, metricStats, repeatCount, repeatValues, runRepeated, summarizeForApp } from "../src/renderer/results/repeat.js";
import { loadRunState, RUN_STATE_KEY, type StorageLike } from "../src/renderer/state/persist.js";
import { decodeShare, encodeShare } from "../src/renderer/state/share.js";
import { checkRepeat, LIMITS, ValidationError } from "../src/renderer/state/validate.js";
import { clampRepeat } from "../src/renderer/ui/run-config.js";

class MemoryStorage implements StorageLike {
  private m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, v);
  }
  removeItem(k: string): void {
    this.m.delete(k);
  }
}

function result(seed: number, value: number, extra: Partial<RunResult> = {}): RunResult {
  return {
    workload: "lat_ctx",
    cpu: { id: "p4-northwood", mhz: 2200 },
    variants: [],
    params: { iterations: 10 },
    seed,
    metrics: [{ name: "lat_ctx", value, unit: "cycles", samples: [value, value + 1] }],
    phases: { "sched.switch": 1000 + value },
    counters: { switches: 10 },
    findings: [],
    totalCycles: 5000 + value,
    simSeconds: 0.001,
    paths: [{ name: "schedule", phase: "sched.switch", origin: "linux", count: 10, cycles: 100, ops: [] }],
    timeline: [{ task: 1, kind: "user", name: "u", phase: "user", start: 0, end: 10 }],
    ...extra,
  };
}

describe("the Repetitions control's state", () => {
  it("clamps a typed number to an integer from 1 to 101", () => {
    expect(MAX_REPEAT).toBe(101);
    expect(LIMITS.repeat).toBe(MAX_REPEAT);
    expect(clampRepeat(5)).toBe(5);
    expect(clampRepeat(5.7)).toBe(5);
    expect(clampRepeat(0)).toBe(1);
    expect(clampRepeat(-3)).toBe(1);
    expect(clampRepeat(1000)).toBe(101);
    expect(clampRepeat(Number.NaN)).toBe(1);
  });

  it("validates repetitions read back: an integer from 1 to 101", () => {
    expect(checkRepeat(1, "repeat")).toBe(1);
    expect(checkRepeat(101, "repeat")).toBe(101);
    for (const bad of [0, 102, 2.5, "5", null, -1, Number.POSITIVE_INFINITY]) expect(() => checkRepeat(bad, "repeat"), String(bad)).toThrow(ValidationError);
    expect(() => checkRepeat(200, "config.repeat")).toThrow(/config\.repeat: expected repetitions, an integer from 1 to 101/);
  });

  it("is kept across reloads (absent = 1) and a malformed value drops the saved state with a note", () => {
    const base = { v: 1, cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], seed: 1, timeline: false, params: {} };
    const storage = (v: unknown): StorageLike => {
      const s = new MemoryStorage();
      s.setItem(RUN_STATE_KEY, JSON.stringify(v));
      return s;
    };
    expect(loadRunState(storage({ ...base, repeat: 5 })).value!.repeat).toBe(5);
    expect(loadRunState(storage({ ...base, repeat: 1 })).value!.repeat).toBeUndefined();
    expect(loadRunState(storage(base)).value!.repeat).toBeUndefined();
    const bad = loadRunState(storage({ ...base, repeat: 500 }));
    expect(bad.value).toBeNull();
    expect(bad.note).toMatch(/ignored: repeat: expected repetitions, an integer from 1 to 101/);
    expect(loadRunState(storage({ ...base, repeat: "5" })).value).toBeNull();
  });

  it("is carried by a shared link and validated there", async () => {
    const config = { cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], params: {}, seed: 3, repeat: 7 };
    const back = await decodeShare((await encodeShare({ name: "lat_ctx", source: "x", config })).slice("#share=".length));
    expect(back.config.repeat).toBe(7);
    const none = await decodeShare((await encodeShare({ name: "lat_ctx", source: "x", config: { ...config, repeat: 1 } })).slice("#share=".length));
    expect(none.config.repeat).toBeUndefined();
    const bad = await encodeShare({ name: "x", source: "", config: { ...config, repeat: 102 } });
    await expect(decodeShare(bad.slice("#share=".length))).rejects.toThrow(/the link's config\.repeat: expected repetitions/);
  });
});

describe("running with repetitions", () => {
  it("runs each configuration with seeds seed, seed+1, … and summarises it (median as the value)", async () => {
    const specs = [{ seed: 10, cfg: "a" }, { seed: 10, cfg: "b" }];
    const calls: { seed: number; cfg: string; index: number }[] = [];
    const streamed: number[] = [];
    const results = await runRepeated(specs, 5, async (spec, index) => {
      calls.push({ seed: spec.seed, cfg: spec.cfg, index });
      const v = spec.cfg === "a" ? [7, 3, 5, 9, 4][spec.seed - 10]! : 100 + spec.seed;
      return result(spec.seed, v);
    }, (i) => streamed.push(i));
    expect(calls.map((c) => `${c.cfg}${c.seed}@${c.index}`)).toEqual(["a10@0", "a11@1", "a12@2", "a13@3", "a14@4", "b10@5", "b11@6", "b12@7", "b13@8", "b14@9"]);
    expect(streamed).toEqual([0, 1]);
    expect(results).toHaveLength(2);
    const a = results[0]!;
    expect(repeatCount(a)).toBe(5);
    expect(a.metrics[0]).toMatchObject({ name: "lat_ctx", value: 5, min: 3, median: 5, max: 9, unit: "cycles" });
    expect(metricStats(a, "lat_ctx")).toEqual({ min: 3, median: 5, max: 9 });
    expect(repeatValues(a, "lat_ctx")).toEqual([7, 3, 5, 9, 4]);
    expect((a as unknown as { repeat: { seeds: number[] } }).repeat.seeds).toEqual([10, 11, 12, 13, 14]);
    // the first repetition's detail is kept (its timeline, paths, phases)
    expect(a.seed).toBe(10);
    expect(a.timeline).toHaveLength(1);
    expect(a.phases["sched.switch"]).toBe(1007);
    expect(metricStats(results[1]!, "lat_ctx")).toEqual({ min: 110, median: 112, max: 114 });
  });

  it("one repetition is a plain run (no summary)", async () => {
    const results = await runRepeated([{ seed: 1 }], 1, async (spec) => result(spec.seed, 42), () => undefined);
    expect(results[0]).toEqual(result(1, 42));
    expect(repeatCount(results[0]!)).toBe(1);
    expect(metricStats(results[0]!, "lat_ctx")).toBeNull();
    expect(repeatValues(results[0]!, "lat_ctx")).toBeNull();
  });

  it("keeps memory bounded: repetitions after the first keep no timeline, paths, samples or phases", () => {
    const c = compactRepetition(result(2, 8));
    expect(c.timeline).toBeUndefined();
    expect(c.paths).toEqual([]);
    expect(c.phases).toEqual({});
    expect(c.metrics).toEqual([{ name: "lat_ctx", value: 8, unit: "cycles" }]);
    expect(c.seed).toBe(2);
    const failed = compactRepetition(result(3, 1, { error: { kind: "budget", message: "stopped" } }));
    expect(failed.error).toEqual({ kind: "budget", message: "stopped" });
  });

  it("a failed repetition fails the configuration's result (its error is kept)", () => {
    const s = summarizeForApp([result(1, 5), compactRepetition(result(2, 6, { error: { kind: "workload", message: "boom" } }))]);
    expect(s.error?.message).toBe("boom");
  });
});

describe("the histogram over the seeds", () => {
  it("bins each configuration's values over the N seeds, labelled with the unit and 'over N seeds'", () => {
    const a = summarizeForApp([3, 5, 7, 5, 4].map((v, k) => result(1 + k, v)));
    const b = summarizeForApp([13, 15, 17, 15, 14].map((v, k) => result(1 + k, v, { cpu: { id: "p6-coppermine", mhz: 1000 } })));
    expect(repetitionsOf([a, b])).toBe(5);
    const hd = histogramData("lat_ctx", [a, b], BUILTIN_PROFILE_FILES)!;
    expect(hd.seeds).toBe(5);
    expect(hd.datasets).toHaveLength(2);
    for (const d of hd.datasets) expect(d.counts.reduce((x, y) => x + y, 0)).toBe(5);
    expect(hd.labels).toHaveLength(5);
    expect(hd.labels[0]).toBe("3");
    expect(hd.xTitle).toBe("lat_ctx (cycles) over 5 seeds, bin start");
    expect(hd.yTitle).toBe("repetitions (seeds)");
    expect(hd.datasets.map((d) => d.label)).toEqual(["P4 2.2 GHz · baseline", "PIII 1 GHz · baseline"]);
  });

  it("without repetitions it stays the per-iteration histogram", () => {
    const hd = histogramData("lat_ctx", [result(1, 5)], BUILTIN_PROFILE_FILES)!;
    expect(hd.seeds).toBe(1);
    expect(hd.xTitle).toBe("lat_ctx per sample (cycles), bin start");
    expect(hd.yTitle).toBe("samples");
    expect(hd.datasets[0]!.counts.reduce((x, y) => x + y, 0)).toBe(2);
  });
});
