/**
 * The phase chart's per-iteration bars for named loops (renderer/results/loop-bars.ts): each loop
 * ÷ its own count, a loop less its overhead loop (net of that loop's own overhead), and the
 * normalisation asked for falling back to ÷ iterations for runs that named no loops.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../src/common/contracts.js";
import { allNameLoops, LOOP_NORM, loopBars, pickNorm } from "../src/renderer/results/loop-bars.js";

const run = (loops?: RunResult["loops"]): RunResult => ({
  workload: "w", cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: { iterations: 10 }, seed: 1, metrics: [],
  phases: { user: 1 }, counters: {}, findings: [], totalCycles: 1, simSeconds: 1, paths: [], ...(loops ? { loops } : {}),
});

describe("loop bars", () => {
  it("divide each loop by its own count, then subtract overhead loops phase by phase, chained", () => {
    const r = run([
      { name: "send", count: 100, cycles: 1000, phases: { "syscall.entry": 600, "syscall.exit": 400 } },
      { name: "catch", count: 50, cycles: 2500, phases: { "syscall.entry": 600, "syscall.exit": 400, "signal.frame": 1500 }, overhead: "send" },
      { name: "fault", count: 10, cycles: 1000, phases: { "mm.fault": 600, "signal.frame": 400 }, overhead: "catch" },
    ]);
    expect(loopBars(r)).toEqual([
      { label: "send", phases: { "syscall.entry": 6, "syscall.exit": 4 } },
      { label: "catch", phases: { "syscall.entry": 12, "syscall.exit": 8, "signal.frame": 30 } },
      { label: "fault", phases: { "mm.fault": 60, "signal.frame": 40 } },
      // catch − send: 50 − 10 = 40 cycles per iteration
      { label: "catch − send", phases: { "syscall.entry": 6, "syscall.exit": 4, "signal.frame": 30 } },
      // fault − (catch − send): 100 − 40 = 60, a phase below zero where the overhead had more
      { label: "fault − catch", phases: { "mm.fault": 60, "signal.frame": 10, "syscall.entry": -6, "syscall.exit": -4 } },
    ]);
  });

  it("are offered only when every run named its loops; asked of runs without, per iteration is ÷ iterations", () => {
    const named = run([{ name: "l", count: 1, cycles: 1, phases: { user: 1 } }]);
    expect(allNameLoops([named])).toBe(true);
    expect(allNameLoops([named, run()])).toBe(false);
    expect(allNameLoops([])).toBe(false);
    expect(pickNorm(LOOP_NORM, [LOOP_NORM, "iterations"])).toBe(LOOP_NORM);
    expect(pickNorm(LOOP_NORM, ["iterations"])).toBe("iterations"); // the per iteration of runs without loops
    expect(pickNorm("iterations", [LOOP_NORM, "iterations"])).toBe("iterations");
    expect(pickNorm("procs", ["iterations"])).toBe("run");
  });
});
