import { describe, expect, it } from "vitest";
import { expandExperiment, EXAMPLES } from "@siglab/core";
import { cpuLabel, runLabel } from "@siglab/core/bundle";
import { parseSmp } from "../src/commands/run.js";
import { formatRun } from "../src/format.js";

describe("--smp", () => {
  it("takes 1 to 8 CPUs and refuses anything else, naming the option", () => {
    expect(parseSmp(undefined)).toBe(1);
    expect(parseSmp("2")).toBe(2);
    for (const bad of ["0", "9", "1.5", "two"]) expect(() => parseSmp(bad)).toThrow(/--smp: expected an integer from 1 to 8/);
  });

  it("the CPU count travels with the CPU into every run of an experiment and into the labels", () => {
    const e = EXAMPLES.find((x) => x.id === "lat_pipe")!;
    const specs = expandExperiment({ workload: { id: e.id, file: e.file, source: e.source }, cpus: [{ id: "p6-coppermine", mhz: 1000, smp: 2 }], stacks: [[]], params: {}, seed: 1 });
    expect(specs[0]!.cpu).toEqual({ id: "p6-coppermine", mhz: 1000, smp: 2 });
    expect(runLabel(specs[0]!)).toBe("p6-coppermine@1000 ×2 [baseline]");
    expect(cpuLabel({ id: "p4-northwood", mhz: 2200 })).toBe("p4-northwood@2200");
  });

  it("the text output names the CPUs and gives each phase's share of all of them", () => {
    const text = formatRun({ workload: "w", cpu: { id: "p6-coppermine", mhz: 1000, smp: 2 }, variants: [], params: {}, seed: 1, metrics: [], phases: { idle: 1000, user: 1000 }, counters: {}, findings: [], totalCycles: 1000, simSeconds: 1e-6, paths: [] }, { phases: true });
    expect(text).toMatch(/× 2 CPUs \(SMP kernel\)/);
    expect(text).toMatch(/idle\s+1,000\s+50\.0%/);
  });
});
