// The predictions suite asserts nothing about values; this checks its shape with short runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinPluginIds, closeCalibrationHost, runPredictions, type Prediction } from "../src/index.js";

afterAll(closeCalibrationHost);

describe("predictions suite", () => {
  let rows: Prediction[];
  beforeAll(async () => {
    rows = await runPredictions({ iterations: 200 });
  });
  const available = builtinPluginIds();

  it("lists the lmbench figures on the four CPUs, in µs", () => {
    for (const cpu of ["p6-coppermine@1000", "p6-coppermine@450", "p4-northwood@2400", "k7-palomino@1400"]) {
      const mine = rows.filter((r) => r.cpu === cpu && r.unit === "us");
      expect(mine.map((r) => r.workload)).toEqual(["lat_syscall", "lat_sig_catch", "lat_sig_prot", "lat_ctx", "lat_pipe"]);
    }
  });

  it("lists the other figures with their units and variants", () => {
    const find = (w: RegExp, cpu: string, variant?: string) => rows.filter((r) => w.test(r.workload) && r.cpu === cpu && (variant ? r.variants.some((v) => v.id === variant) : !r.variants.length));
    expect(find(/^lat_syscall$/, "k7-palomino@1400").filter((r) => r.unit === "cycles")).toHaveLength(1);
    expect(find(/^lat_syscall$/, "k7-palomino@1400", "no-cli-exit")).toHaveLength(1);
    expect(find(/^gc_barrier$/, "p6-coppermine@600")).toHaveLength(1);
    expect(find(/^gc_barrier$/, "p5-p54c@133")).toHaveLength(1);
    expect(find(/^lat_sig_catch$/, "p4-northwood@2200", "sa-nofp")[0]!.variants).toEqual([{ id: "sa-nofp", options: { forceAll: true } }]);
    expect(find(/^lat_syscall \(/, "p6-coppermine@1000").map((r) => r.unit)).toEqual(["cycles"]);
    expect(find(/^lat_syscall \(/, "p6-coppermine@1000", "sysenter")).toHaveLength(1);
    const ngpt = rows.find((r) => r.workload === "ngpt_readwrite")!;
    expect(ngpt.unit).toBe("ratio");
  });

  it("prints a value for what can run and marks the rest pending, by the plugins that are built", () => {
    for (const r of rows) {
      const needs = r.variants.map((v) => v.id).filter((id) => !available.includes(id));
      expect(r.pending, `${r.workload} ${r.cpu}`).toBe(needs.length > 0);
      if (r.pending) {
        expect(r.value).toBeNull();
        expect(r.note).toMatch(/^pending \(plugin .* not built\)$/);
      } else expect(Number.isFinite(r.value)).toBe(true);
    }
  });
});
