/** `siglab run`'s text: a run's named loops, each by its own count, and a loop less its overhead loop. */
import { describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/core";
import { formatRun } from "../src/format.js";

const run = (loops?: RunResult["loops"]): RunResult => ({
  workload: "lat_sig_catch", cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: {}, seed: 1, metrics: [],
  phases: { "syscall.entry": 1000 }, counters: {}, findings: [], totalCycles: 1000, simSeconds: 1e-6, paths: [], ...(loops ? { loops } : {}),
});

describe("named loops in the text output", () => {
  it("lists each loop with its count and cycles per iteration, and the net figure of a loop with an overhead", () => {
    const text = formatRun(run([
      { name: "send: kill(me, 0)", count: 20_000, cycles: 31_725_209, phases: {} },
      { name: "catch: kill(me, SIGUSR1)", count: 20_000, cycles: 167_978_641.87, phases: {}, overhead: "send: kill(me, 0)" },
    ]));
    expect(text).toContain("named loops (cycles per iteration, each loop ÷ its own count):");
    expect(text).toMatch(/send: kill\(me, 0\) +20,000 +1,586\.3\n/);
    expect(text).toMatch(/catch: kill\(me, SIGUSR1\) +20,000 +8,398\.9 +6,812\.7 less send: kill\(me, 0\)/);
  });

  it("says nothing of loops for a run that named none", () => {
    expect(formatRun(run())).not.toContain("named loops");
  });
});
