/** --jobs N starts another host only when it pays: the runs waiting outweigh the host's start. */
import { describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/core";
import { runSpecs } from "../src/run/parallel.js";
import { anotherLanePays } from "../src/run/widen.js";

const state = (o: Partial<Parameters<typeof anotherLanePays>[0]>) => anotherLanePays({ lanes: 1, waiting: 8, finishedMs: [], runningMs: [], laneCostMs: 250, ...o });

describe("anotherLanePays", () => {
  it("pays when the runs waiting take more than twice a host's start per running lane", () => {
    expect(state({ finishedMs: [30, 30] })).toBe(false); // 8 x 30 ms < 2 x 250 ms: a new host would still be starting when they are done
    expect(state({ finishedMs: [100, 100] })).toBe(true); // 800 ms > 500 ms
    expect(state({ lanes: 2, finishedMs: [100, 100] })).toBe(false); // a third lane: 800 ms < 2 x 2 x 250 ms
  });

  it("before any run finished, takes the longest run in flight as what a run costs; after, the finished ones", () => {
    expect(state({ runningMs: [20] })).toBe(false);
    expect(state({ runningMs: [20, 400] })).toBe(true);
    expect(state({ finishedMs: [20, 30], runningMs: [400] })).toBe(false); // one run preempted on a busy machine
  });

  it("always pays for an idle host, never without runs waiting", () => {
    expect(state({ laneCostMs: 0 })).toBe(true);
    expect(state({ waiting: 0, laneCostMs: 0 })).toBe(false);
  });
});

describe("runSpecs with a lane cost", () => {
  /** the most runs in flight at once */
  async function peak(laneCostMs: number, n = 6): Promise<number> {
    let now = 0;
    let most = 0;
    const results = await runSpecs(
      Array.from({ length: n }, (_, i) => i),
      async (i) => {
        most = Math.max(most, ++now);
        await new Promise((r) => setTimeout(r, 5));
        now--;
        return { workload: `w${i}` } as RunResult;
      },
      { jobs: 3, pool: { costMs: () => laneCostMs, startMs: () => 0 } },
    );
    expect(results.map((r) => r.workload)).toEqual(Array.from({ length: n }, (_, i) => `w${i}`));
    return most;
  }

  it("runs on one lane while another host would not pay, and on --jobs lanes at once when hosts are idle", async () => {
    expect(await peak(1e9)).toBe(1);
    expect(await peak(0)).toBe(3);
  });

  it("still fails as soon as a run fails", async () => {
    await expect(runSpecs([1, 2, 3], async (i) => (i === 2 ? Promise.reject(new Error("boom")) : ({ workload: "w" } as RunResult)), { jobs: 2, pool: { costMs: () => 0, startMs: () => 0 } })).rejects.toThrow("boom");
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
