/**
 * --jobs N starts another host only when it pays: the runs waiting outweigh what a host costs (its
 * start and its first, cold run). The pool below is simulated on fake timers: hosts that take
 * `startMs` to start and whose runs speed up as they warm, as the real ones do.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunResult } from "@siglab/core";
import { runSpecs } from "../src/run/parallel.js";
import { anotherLanePays, type LanePool, type LaneState, type RunTime } from "../src/run/widen.js";

const cold = (ms: number): RunTime => ({ ms, first: true });
const warm = (ms: number): RunTime => ({ ms, first: false });
const state = (o: Partial<LaneState>) => anotherLanePays({ lanes: 1, waiting: 8, finished: [], running: [], spare: "none", startMs: 200, firstRunMs: 200, ...o });

describe("anotherLanePays", () => {
  it("pays when the runs waiting take more than twice what a host costs (its start and its warm-up) per running lane", () => {
    // a host costs 200 ms of start + 200 ms of warm-up (its first run): 8 x (0 + 40) / 2 ms is less than twice that
    expect(state({ finished: [cold(200), warm(40)] })).toBe(false);
    // 350 + 200 ms; pace (0 + 380 + 380) / 3: 8 x 253 > 2 x 550, but not 2 x 2 x 550 for a third lane
    expect(state({ finished: [cold(350), warm(380), warm(380)], firstRunMs: 350 })).toBe(true);
    expect(state({ lanes: 2, finished: [cold(350), warm(380), warm(380)], firstRunMs: 350 })).toBe(false);
  });

  it("counts a host's cold first run as its warm-up, not as the pace: a short sweep warming up stays on one host", () => {
    // 10,000-iteration lat_sig_catch on one host, a host start of 165 ms: runs of 150, then 117, 105 ms
    expect(state({ startMs: 165, firstRunMs: 150, waiting: 7, finished: [cold(150), warm(117)] })).toBe(false);
    expect(state({ startMs: 165, firstRunMs: 150, waiting: 6, finished: [cold(150), warm(117), warm(105)] })).toBe(false);
  });

  it("before any run finished, starts another host once the first run has run 2.75 host starts (eight waiting), or longer with fewer waiting", () => {
    expect(state({ firstRunMs: 500, running: [cold(500)] })).toBe(false); // warm-up 400 ms (two starts), pace 100 ms
    expect(state({ firstRunMs: 600, running: [cold(600)] })).toBe(true); // 8 x 200 > 2 x 600
    expect(state({ waiting: 2, firstRunMs: 900, running: [cold(900)] })).toBe(false);
    expect(state({ waiting: 2, firstRunMs: 1100, running: [cold(1100)] })).toBe(true); // three long runs: 2 x 700 > 2 x 600
  });

  it("takes an idle host, never waits on one still starting, never starts one without runs waiting", () => {
    expect(state({ spare: "idle" })).toBe(true);
    expect(state({ spare: "starting", finished: [warm(5000)] })).toBe(false);
    expect(state({ waiting: 0, spare: "idle" })).toBe(false);
  });
});

/**
 * Hosts as the pool has them: the first already started, each new one ready `startMs` after it
 * was asked for; a host's n-th run takes `runMs(n)`. Returns the runs' function, the pool and how
 * many hosts were started.
 */
function simulatedHosts(startMs: number, runMs: (n: number) => number) {
  const hosts: { readyAt: number; busy: boolean; runs: number }[] = [{ readyAt: 0, busy: false, runs: 0 }];
  const pool: LanePool = {
    spare: () => (hosts.some((h) => !h.busy) ? "idle" : hosts.some((h) => h.readyAt > performance.now()) ? "starting" : "none"),
    startMs: () => startMs,
    readyAt: (k) => (hosts[k] && hosts[k].readyAt <= performance.now() ? hosts[k].readyAt : undefined),
  };
  const run = async (i: number): Promise<RunResult> => {
    let h = hosts.find((x) => !x.busy);
    if (!h) hosts.push((h = { readyAt: performance.now() + startMs, busy: false, runs: 0 }));
    h.busy = true;
    await new Promise((r) => setTimeout(r, Math.max(0, h.readyAt - performance.now()) + runMs(h.runs++)));
    h.busy = false;
    return { workload: `w${i}` } as RunResult;
  };
  return { pool, run, hosts: () => hosts.length };
}

/** Runs nine items with --jobs 2 on simulated hosts; the results' workloads and the hosts started. */
async function sweep(startMs: number, runMs: (n: number) => number, jobs = 2): Promise<{ order: string[]; hosts: number }> {
  const sim = simulatedHosts(startMs, runMs);
  let settled = false;
  const p = runSpecs(Array.from({ length: 9 }, (_, i) => i), sim.run, { jobs, pool: sim.pool }).finally(() => (settled = true));
  while (!settled) await vi.advanceTimersByTimeAsync(5);
  return { order: (await p).map((r) => r.workload), hosts: sim.hosts() };
}

describe("runSpecs with the lane policy (simulated hosts, fake clock)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const nine = Array.from({ length: 9 }, (_, i) => `w${i}`);

  it("keeps a sweep it predicts too short on one host: the first runs of a host are slow (warm-up), the rest shorter than a host's start", async () => {
    const warming = [150, 117, 105, 66, 57, 49, 45, 45, 45];
    const r = await sweep(165, (n) => warming[n] ?? 45);
    expect(r.hosts).toBe(1);
    expect(r.order).toEqual(nine);
  });

  it("spreads a sweep of long runs over a second host while the first run is still in flight, results in run order", async () => {
    const r = await sweep(200, (n) => (n === 0 ? 1100 : 1000));
    expect(r.hosts).toBe(2);
    expect(r.order).toEqual(nine);
    expect((await sweep(200, (n) => (n === 0 ? 1100 : 1000), 1)).order).toEqual(r.order); // as --jobs 1 gives them
  });

  it("runs on --jobs lanes at once when idle hosts are there, and fails as soon as a run fails", async () => {
    vi.useRealTimers();
    let now = 0;
    let most = 0;
    const idle: LanePool = { spare: () => "idle", startMs: () => 0, readyAt: () => 0 };
    await runSpecs(
      [0, 1, 2, 3, 4, 5],
      async (i) => {
        most = Math.max(most, ++now);
        await new Promise((r) => setTimeout(r, 5));
        now--;
        return { workload: `w${i}` } as RunResult;
      },
      { jobs: 3, pool: idle },
    );
    expect(most).toBe(3);
    await expect(runSpecs([1, 2, 3], async (i) => (i === 2 ? Promise.reject(new Error("boom")) : ({ workload: "w" } as RunResult)), { jobs: 2, pool: idle })).rejects.toThrow("boom");
  });
});

describe("the early host (prestart.ts)", () => {
  it("starts only for a command that will simulate every run on a host of the default settings", async () => {
    const { simulatesAtOnce } = await import("../src/run/prestart.js");
    expect(simulatesAtOnce(["run", "lat_syscall", "--no-cache"], {})).toBe(true);
    expect(simulatesAtOnce(["suite", "examples"], { SIGLAB_NO_CACHE: "1" })).toBe(true);
    expect(simulatesAtOnce(["run", "lat_syscall"], {})).toBe(false); // the cache may answer
    expect(simulatesAtOnce(["suite", "uml", "--no-cache"], {})).toBe(false);
    expect(simulatesAtOnce(["bundle", "verify", "x.siglab", "--no-cache"], {})).toBe(false);
    expect(simulatesAtOnce(["run", "lat_syscall", "--no-cache", "--max-seconds", "5"], {})).toBe(false); // a host of its own limits
    expect(simulatesAtOnce(["run", "lat_syscall", "--no-cache", "--verbose"], {})).toBe(false);
    expect(simulatesAtOnce(["run", "--help", "--no-cache"], {})).toBe(false);
  });
});
