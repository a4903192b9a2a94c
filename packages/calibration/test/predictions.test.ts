// The predictions suite asserts nothing about values; this checks its shape with short runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinPluginIds, closeCalibrationHost, FIT_GROUPS, runPredictions, type Prediction } from "../src/index.js";

afterAll(closeCalibrationHost);

describe("predictions suite", () => {
  let rows: Prediction[];
  beforeAll(async () => {
    rows = await runPredictions({ iterations: 200 });
  });
  const available = builtinPluginIds();

  it("lists the lmbench figures on the four CPUs, in µs", () => {
    for (const cpu of ["p6-coppermine@1000", "p6-coppermine@450", "p4-northwood@2400", "k7-palomino@1400"]) {
      const mine = rows.filter((r) => r.cpu === cpu && r.unit === "us" && r.cpus === 1);
      expect(mine.map((r) => r.workload)).toEqual(["lat_syscall", "lat_sig_catch", "lat_sig_prot", "lat_ctx", "lat_pipe"]);
    }
  });

  it("lists the lmbench figures on the dual-CPU machines of the era (SMP kernel), with cpus on every row", () => {
    for (const r of rows) expect([1, 2], `${r.workload} ${r.cpu}`).toContain(r.cpus);
    for (const cpu of ["p6-coppermine@1000", "p6-coppermine@450", "k7-palomino@1400"]) {
      const dual = rows.filter((r) => r.cpu === cpu && r.cpus === 2);
      expect(dual.map((r) => r.workload)).toEqual(["lat_syscall", "lat_sig_catch", "lat_sig_prot", "lat_ctx", "lat_pipe"]);
      for (const r of dual) expect(Number.isFinite(r.value), `${r.workload} ${cpu} x2`).toBe(true);
    }
    // the partner is woken on the other CPU by IPI: a dearer pipe round trip than on one CPU
    const pipe = (cpus: number) => rows.find((r) => r.workload === "lat_pipe" && r.cpu === "p6-coppermine@1000" && r.cpus === cpus)!.value!;
    expect(pipe(2)).toBeGreaterThan(pipe(1));
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

  it("lists the fitted parameters each prediction's runs execute", () => {
    const fittedOps = new Set(FIT_GROUPS.flatMap((g) => Object.keys(g.start).map((op) => `${g.id}:${g.profile}:${op}`)));
    for (const r of rows) {
      expect(Array.isArray(r.fittedParams), `${r.workload} ${r.cpu}`).toBe(true);
      for (const f of r.fittedParams) {
        expect(fittedOps.has(`${f.group}:${f.profile}:${f.op}`)).toBe(true);
        expect(r.cpu.startsWith(`${f.profile}@`)).toBe(true);
        expect(f.executed || (f.via?.length ?? 0) > 0).toBe(true);
      }
    }
    // no fitted cost on the K7 or the P54C: nothing to depend on
    for (const r of rows.filter((x) => /^(k7-palomino|p5-p54c)@/.test(x.cpu))) expect(r.fittedParams, `${r.workload} ${r.cpu}`).toEqual([]);
    // a PIII system call runs the fitted gate; a P4 signal its fitted FP conversion
    const p3 = rows.find((x) => x.workload === "lat_syscall" && x.cpu === "p6-coppermine@1000" && x.unit === "us")!;
    expect(p3.fittedParams.filter((f) => f.executed).map((f) => f.op)).toEqual(expect.arrayContaining(["int_gate", "iret_user"]));
    const p4 = rows.find((x) => x.workload === "lat_sig_catch" && x.cpu === "p4-northwood@2400")!;
    expect(p4.fittedParams.map((f) => f.group)).toContain("p4-signal-fpu");
  });
});
