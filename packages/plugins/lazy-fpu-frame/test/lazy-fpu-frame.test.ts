import { describe, expect, it } from "vitest";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import lazy from "../src/index.js";
import saNofp from "../../sa-nofp/src/index.js";
import { NESTED, NESTED_LONGJMP, SWITCH_IN_HANDLER } from "./workloads.js";

type Mode = "ts" | "unmapped-page";
const lz = (mode: Mode) => ({ plugins: [lazy], variants: [{ id: "lazy-fpu-frame", options: { mode } }] });
const kinds = (r: ReturnType<typeof runExample>) => r.findings.map((f) => f.kind);
const counter = (r: ReturnType<typeof runExample>, name: string) => r.counters[name] ?? 0;

describe("lazy-fpu-frame: manifest and stacking", () => {
  it("refuses an unknown mode, and refuses to stack with sa-nofp (both replace SignalFpuPolicy)", () => {
    const bad = runExample("lat_sig_catch", { params: { iterations: 10 }, plugins: [lazy], variants: [{ id: "lazy-fpu-frame", options: { mode: "eager" } }] });
    expect(bad.error?.kind).toBe("plugin");
    expect(bad.error?.message).toMatch(/option 'mode'.*ts, unmapped-page/);
    const both = runExample("lat_sig_catch", { params: { iterations: 10 }, plugins: [lazy, saNofp], variants: [{ id: "lazy-fpu-frame" }, { id: "sa-nofp" }] });
    expect(both.error?.message).toMatch(/'lazy-fpu-frame' and 'sa-nofp' conflict/);
  });
});

describe("lazy-fpu-frame: the mechanism", () => {
  it("ts: delivery parks the FP state behind TS; no conversion, no copy, no #NM after sigreturn", () => {
    const params = { iterations: 200, useFpuInLoop: true };
    const base = runExample("lat_sig_catch", { params });
    const r = runExample("lat_sig_catch", { params, ...lz("ts") });
    expect(r.error).toBeUndefined();
    // lmbench's catch loops run n - 1 kills: 8 - 1 in the warm-up interval, 200 - 1 timed
    const n = counter(base, "signals.delivered");
    expect(n).toBe(7 + 199);
    expect(counter(r, "signals.delivered")).toBe(n);
    expect(pathCount(base, "convert_fxsr_to_user")).toBe(n);
    expect(pathCount(base, "restore_i387_fxsave")).toBe(n);
    expect(pathCount(r, "save_i387.lazy")).toBe(n);
    expect(pathCount(r, "lazy_fp.park")).toBe(n);
    expect(pathCount(r, "restore_i387.lazy")).toBe(n);
    expect(pathCount(r, "lazy_fp.unpark")).toBe(n);
    for (const p of ["save_i387", "convert_fxsr_to_user", "copy.signal.fpu_save", "restore_i387_fxsave", "fxsr_reg_from_user"]) expect(pathCount(r, p), p).toBe(0);
    // the interrupted loop's FP state never left the registers: no #NM per signal
    expect(pathCount(base, "device_not_available")).toBeGreaterThanOrEqual(n);
    expect(pathCount(r, "device_not_available")).toBeLessThan(3);
    expect(r.paths.find((p) => p.name === "save_i387.lazy")!.origin).toBe("lazy-fpu-frame");
  });

  it("the save moves into the handler's first #NM (a handler that uses the FPU)", () => {
    const r = runSource(NESTED, { params: { iterations: 50 }, ...lz("ts") });
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "lazy_fp.nm_save")).toBe(100); // both handlers of every round
    expect(pathCount(r, "convert_fxsr_to_user")).toBe(100);
    expect(pathCount(r, "restore_i387_fxsave")).toBe(100);
  });

  it("unmapped-page: the frame's FP page is unmapped at delivery; touching the image faults and saves", () => {
    const r = runExample("sigfpe_fixup", lz("unmapped-page"));
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "lazy_fp.unmap")).toBe(200);
    expect(pathCount(r, "lazy_fp.fault")).toBe(200);
    expect(pathCount(r, "page_fault")).toBeGreaterThanOrEqual(200);
    expect(pathCount(r, "convert_fxsr_to_user")).toBe(200);
    expect(counter(r, "lazy_fpu.fault_saves")).toBe(200);
    expect(r.paths.find((p) => p.name === "lazy_fp.unmap")!.ops.map((o) => o.op)).toContain("invlpg");
  });
});

describe("lazy-fpu-frame: cost (lat_sig_catch, live FP state in the interrupted loop)", () => {
  const trip = (cpu: string, mhz: number, mode: Mode | null, params: Record<string, number | boolean> = {}) =>
    metric(runExample("lat_sig_catch", { cpu, mhz, params: { iterations: 500, ...params }, ...(mode ? lz(mode) : {}) }), "signal round trip");

  for (const [cpu, mhz] of [["p4-northwood", 2200], ["p6-coppermine", 800], ["k7-palomino", 1400]] as const) {
    it(`${cpu}: ts skips the conversion and copies; unmapped-page pays page-table and TLB work on top`, () => {
      const base = trip(cpu, mhz, null), ts = trip(cpu, mhz, "ts"), up = trip(cpu, mhz, "unmapped-page");
      expect(ts / base).toBeGreaterThan(0.4);
      expect(ts / base).toBeLessThan(0.95);
      expect(up).toBeGreaterThan(ts);
      expect(up).toBeLessThan(base);
    });

    it(`${cpu}: with FP in the loop, ts also saves the fxsave, the #NM and the fxrstor`, () => {
      const base = trip(cpu, mhz, null, { useFpuInLoop: true }), ts = trip(cpu, mhz, "ts", { useFpuInLoop: true });
      expect(ts / base).toBeGreaterThan(0.3);
      expect(ts / base).toBeLessThan(0.8);
    });
  }

  it("a task that never used the FPU pays (almost) nothing extra", () => {
    const base = trip("p4-northwood", 2200, null, { useFpu: false }), ts = trip("p4-northwood", 2200, "ts", { useFpu: false });
    expect(Math.abs(ts - base) / base).toBeLessThan(0.01);
  });
});

describe("lazy-fpu-frame: hazards", () => {
  it("clean where the mechanism holds: lat_sig_catch, plain nesting, SSE memcpy in a handler, a switch inside the handler", () => {
    for (const mode of ["ts", "unmapped-page"] as const) {
      expect(kinds(runExample("lat_sig_catch", { params: { iterations: 200 }, ...lz(mode) })), mode).toEqual([]);
      const n = runSource(NESTED, lz(mode));
      expect(n.error, mode).toBeUndefined();
      expect(metric(n, "xmm0 intact"), mode).toBe(100);
      expect(kinds(n), mode).toEqual([]);
      expect(kinds(runExample("sa_nofp_hazard", lz(mode))), mode).toEqual([]);
      const sw = runSource(SWITCH_IN_HANDLER, lz(mode));
      expect(sw.error, mode).toBeUndefined();
      expect(metric(sw, "xmm0 intact"), mode).toBe(50);
      expect(sw.counters["sched.switches"], mode).toBeGreaterThan(100);
      expect(kinds(sw), mode).toEqual([]);
    }
  });

  it("sigfpe_fixup: integer edits of an image that was never saved are lost (ts); the page fault forces it (unmapped-page)", () => {
    const base = runExample("sigfpe_fixup");
    expect(metric(base, "fix-ups applied")).toBe(200);
    expect(kinds(base)).toEqual([]);
    const ts = runExample("sigfpe_fixup", lz("ts"));
    expect(metric(ts, "handler saw an FP image")).toBe(200); // a pointer to a reserved, unwritten area
    expect(metric(ts, "fix-ups applied")).toBe(0);
    const f = ts.findings.find((x) => x.kind === "fpu-corruption");
    expect(f?.evidence["register"]).toBe("st0");
    expect(f?.evidence["expected"]).toEqual([42]);
    expect(f?.evidence["fpuPolicy"]).toBe("lazy-fpu-frame:ts");
    const up = runExample("sigfpe_fixup", lz("unmapped-page"));
    expect(metric(up, "fix-ups applied")).toBe(200);
    expect(kinds(up)).toEqual([]);
  });

  it("siglongjmp out of a nested handler: the stale record is popped by the outer sigreturn (ts)", () => {
    const base = runSource(NESTED_LONGJMP);
    expect(base.error).toBeUndefined();
    expect(metric(base, "xmm0 intact")).toBe(100);
    expect(kinds(base)).toEqual([]);
    const ts = runSource(NESTED_LONGJMP, lz("ts"));
    expect(ts.error).toBeUndefined();
    expect(metric(ts, "xmm0 intact")).toBe(0);
    const f = ts.findings.find((x) => x.kind === "fpu-corruption" && x.evidence["register"] === "xmm0");
    expect(f, JSON.stringify(ts.findings)).toBeDefined();
    expect(f!.evidence["signal"]).toBe(10); // found at the outer (SIGUSR1) sigreturn
    expect(counter(ts, "lazy_fpu.foreign_pops")).toBe(100);
    // unmapped-page: records are pages, so the outer sigreturn finds its own and drops the stale one
    const up = runSource(NESTED_LONGJMP, lz("unmapped-page"));
    expect(metric(up, "xmm0 intact")).toBe(100);
    expect(kinds(up)).toEqual([]);
    expect(counter(up, "lazy_fpu.abandoned_records")).toBe(100);
  });

  it("longjmp_handler: every longjmp leaves its record on the ts stack for good (the kernel never sees it)", () => {
    const base = runExample("longjmp_handler");
    expect(kinds(base)).toEqual([]);
    const ts = runExample("longjmp_handler", lz("ts"));
    expect(ts.error).toBeUndefined();
    // 400 deliveries, 200 sigreturns: 200 records are never popped
    expect(counter(ts, "lazy_fpu.parked") - counter(ts, "lazy_fpu.popped")).toBe(200);
    // this example's round trips still come out right: each handler that jumped had already
    // trapped, and the SIGUSR2 round trips pop their own records (see README)
    expect(kinds(ts)).toEqual([]);
    const up = runExample("longjmp_handler", lz("unmapped-page"));
    expect(counter(up, "lazy_fpu.parked") - counter(up, "lazy_fpu.popped") - counter(up, "lazy_fpu.abandoned_records")).toBeLessThanOrEqual(1);
    expect(kinds(up)).toEqual([]);
  });
});

describe("lazy-fpu-frame on SMP: the hazard of the unmapped page", () => {
  const source = `
import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "mt", params: {}, *main(t) {
  let stop = false;
  yield* t.sigaction(SIGUSR1, function* (h) { yield* h.fpu.ops(1); });
  yield* t.fpu.ops(1);
  yield* t.clone(function* (c) { while (!stop) yield* c.compute(20_000); });
  yield* t.compute(50_000); // the other thread runs on the other CPU by now
  const me = yield* t.getpid();
  for (let i = 0; i < 5; i++) yield* t.kill(me, SIGUSR1);
  stop = true;
  yield* t.wait();
} });`;

  it("a signal to a threaded process on two CPUs unmaps the FP page with a TLB shootdown, and says so", () => {
    const r = runSource(source, { cpu: "p6-coppermine", mhz: 1000, smp: 2, ...lz("unmapped-page") });
    expect(r.error).toBeUndefined();
    expect(counter(r, "lazy_fpu.unmaps")).toBe(5);
    expect(counter(r, "lazy_fpu.tlb_shootdowns")).toBe(5);
    // the 5 shootdowns, and exit_mmap's flush_tlb_mm at the last exit (the other CPU still has the mm)
    expect(counter(r, "smp.ipi.invalidate")).toBe(6);
    expect(kinds(r)).toContain("lazy-fpu-tlb-shootdown");
  });

  it("on one CPU, or in TS mode, there is nothing to shoot down", () => {
    const up = runSource(source, { cpu: "p6-coppermine", mhz: 1000, ...lz("unmapped-page") });
    expect(up.error).toBeUndefined();
    expect(counter(up, "lazy_fpu.unmaps")).toBe(5);
    expect(counter(up, "lazy_fpu.tlb_shootdowns")).toBe(0);
    const ts = runSource(source, { cpu: "p6-coppermine", mhz: 1000, smp: 2, ...lz("ts") });
    expect(counter(ts, "smp.ipi.invalidate")).toBe(1); // exit_mmap's alone
    expect(kinds(ts)).not.toContain("lazy-fpu-tlb-shootdown");
  });
});
