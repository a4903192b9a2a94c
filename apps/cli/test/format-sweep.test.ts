import { describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/core";
import { differingParams, formatRun, formatSweepSummary } from "../src/format.js";

const run = (params: Record<string, number>, value: number, variants: { id: string }[] = []): RunResult =>
  ({ workload: "w", cpu: { id: "p4-northwood", mhz: 2200 }, variants, params, seed: 1, metrics: [{ name: "latency", value, unit: "us" }], phases: {}, counters: {}, findings: [], totalCycles: 0, simSeconds: 0, paths: [] }) as unknown as RunResult;

describe("sweep output", () => {
  it("labels each run with the swept values and ends with one summary row per run", () => {
    const rs = [run({ n: 1, k: 5 }, 1.5), run({ n: 2, k: 5 }, 2.25, [{ id: "sa-nofp" }])];
    expect(differingParams(rs)).toEqual(["n"]);
    expect(formatRun(rs[1]!, { sweep: ["n"], phases: false }).split("\n")[0]).toBe("== w on p4-northwood@2200 MHz, sa-nofp, n=2 (seed 1)");
    const lines = formatSweepSummary(rs).split("\n");
    expect(lines[0]).toBe("summary of 2 runs (swept: n); changes against run 1:");
    expect(lines[2]).toMatch(/^ {3}1\. p4-northwood@2200 baseline n=1 +1\.500$/);
    expect(lines[3]).toMatch(/^ {3}2\. p4-northwood@2200 sa-nofp n=2 +2\.250 \(\+50\.0%\)$/);
  });

  it("names no swept parameter when every run has the same values", () => {
    const rs = [run({ n: 1 }, 1), run({ n: 1 }, 1, [{ id: "x" }])];
    expect(differingParams(rs)).toEqual([]);
    expect(formatSweepSummary(rs).split("\n")[0]).toBe("summary of 2 runs; changes against run 1:");
    expect(formatSweepSummary(rs).split("\n")[3]).toMatch(/ 1 \(±0%\)$/);
  });
});
