/**
 * linux6's mprotect flushes the simulated TLB as 6.x's flush_tlb_mm_range does: up to
 * tlb_single_page_flush_ceiling (33) pages an INVLPG each, so only the changed pages' entries go
 * and the task's other hot pages (text, GOT, libc, stack) stay; above the ceiling a full flush. The core's
 * 2.4 mprotect keeps its full flush (i386 2.4's flush_tlb_range is flush_tlb_mm).
 *
 * "Whole" is linux6 with the ceiling put back to 0 by a test-only setup (every mprotect flushes
 * the whole TLB, as linux6 did before): the paths are the same, only the TLB's state differs, so
 * the runs differ by exactly the refills the whole flush made the task pay.
 */
import { describe, expect, it } from "vitest";
import { ContainerModule, TOKENS, type PluginModule, type RunResult } from "@siglab/plugin-api";
import { metric, pathCount, runExample, runSource } from "../../../core/test/harness.js";
import { loopPages, Tlb } from "@siglab/core";
import linux6 from "../src/index.js";
import { TLB_SINGLE_PAGE_FLUSH_CEILING } from "../src/mm.js";

const MHZ: Record<string, number> = { skylake: 3600, zen4: 4500 };
const ITER = 400; // no timer tick in the run (checked below)
/** the pages a task's loop touches after every CR3 write: text, GOT, libc's stubs, stack */
const HOT = loopPages(0xbffff000).length;

/** linux6 whose mprotect flushes the whole TLB (the ceiling back to 0 after linux6's setup) */
const linux6Whole: PluginModule = {
  ...linux6,
  createModule: (options, api) =>
    new ContainerModule((ctx) => {
      (linux6.createModule(options, api) as unknown as { load(o: unknown): void }).load(ctx);
      ctx.bind(TOKENS.KernelSetupContribution).toConstantValue({ setup: (k) => k.mm.setTlbFlushCeiling!(0) });
    }),
};

const gc = (cpu: string, plugin: PluginModule): RunResult =>
  runExample("gc_barrier", { cpu, mhz: MHZ[cpu], params: { iterations: ITER, pages: 4 }, plugins: [plugin], variants: [{ id: "linux6" }] });
const cyclesOf = (r: RunResult, name: string) => {
  const p = r.paths.find((x) => x.name === name);
  return p ? p.ops.reduce((s, o) => s + o.cycles, 0) : 0;
};

describe("the simulated TLB's invlpg", () => {
  it("evicts one entry: that page misses on its next touch, no other does, and the epoch moves only when an entry went", () => {
    const tlb = new Tlb(64);
    for (const p of [1, 2, 3]) expect(tlb.touch(Tlb.key(1, p))).toBe(true);
    const e = tlb.epoch;
    expect(tlb.invalidate(Tlb.key(1, 2))).toBe(true);
    expect(tlb.epoch).toBe(e + 1);
    expect(tlb.invalidate(Tlb.key(1, 9))).toBe(false); // not there: nothing to refill
    expect(tlb.epoch).toBe(e + 1);
    expect(tlb.flushes).toBe(0);
    expect([1, 2, 3].map((p) => tlb.touch(Tlb.key(1, p)))).toEqual([false, true, false]);
    tlb.flushAll();
    expect(tlb.epoch).toBe(e + 2);
    expect([1, 2, 3].map((p) => tlb.touch(Tlb.key(1, p)))).toEqual([true, true, true]);
  });
});

for (const cpu of ["skylake", "zen4"]) {
  describe(`linux6 on ${cpu}: gc_barrier's mprotect evicts only its page`, () => {
    const part = gc(cpu, linux6);
    const whole = gc(cpu, linux6Whole);

    it("no full flush: one INVLPG eviction per mprotect, and one refill per iteration (the barrier page's)", () => {
      expect(part.error).toBeUndefined();
      expect(part.counters["irq.timer"]).toBeUndefined();
      expect(part.counters["syscalls.mprotect"]).toBe(2 * ITER);
      expect(part.counters["tlb.flushes"]).toBe(1); // the exit's (exit_mmap's flush_tlb_mm) alone
      expect(part.counters["tlb.page_flushes"]).toBe(2 * ITER);
      // the first touches of the hot pages, then only the retried store's page
      expect(part.counters["tlb.misses"]).toBe(ITER + HOT);
      expect(pathCount(part, "user_tlb_refill") + pathCount(part, "handler.tlb_refill")).toBe(ITER + HOT);
    });

    it("against a whole flush: the same paths, and the barrier drops by exactly the refills it no longer pays", () => {
      expect(whole.error).toBeUndefined();
      expect(whole.counters["tlb.flushes"]).toBe(2 * ITER + 1); // and the exit's
      expect(whole.counters["tlb.page_flushes"]).toBeUndefined();
      // each whole flush made the hot pages miss again (two mprotects per iteration)
      expect(whole.counters["tlb.misses"]! - part.counters["tlb.misses"]!).toBe(2 * HOT * ITER);
      for (const p of whole.paths) {
        if (p.name === "user_tlb_refill" || p.name === "handler.tlb_refill") continue;
        expect(pathCount(part, p.name), p.name).toBe(p.count);
      }
      const refills = (r: RunResult) => cyclesOf(r, "user_tlb_refill") * pathCount(r, "user_tlb_refill") + cyclesOf(r, "handler.tlb_refill") * pathCount(r, "handler.tlb_refill");
      const saved = refills(whole) - refills(part);
      expect(saved).toBeGreaterThan(0);
      expect(whole.totalCycles - part.totalCycles).toBeCloseTo(saved, 3);
      const per = (r: RunResult) => metric(r, "barrier trap cycles") + metric(r, "re-protect");
      expect(per(whole) - per(part)).toBeCloseTo(saved / ITER, 6);
    });
  });
}

/** mprotect `n` pages (none: 0) of a mapping whose 64 pages were touched */
const rangeSource = (n: number) => `
import { workload, PROT_READ, PROT_WRITE } from "siglab";
export default workload({
  name: "range", description: "", params: {},
  *main(t) {
    const heap = yield* t.mmap(64 * 4096, PROT_READ | PROT_WRITE);
    for (let i = 0; i < 64; i++) yield* t.store(heap + i * 4096, i);
    if (${n} > 0) yield* t.mprotect(heap, ${n} * 4096, PROT_READ);
    t.report("done", 1, "");
  },
});`;

describe("linux6: the single-page flush ceiling", () => {
  it(`up to ${TLB_SINGLE_PAGE_FLUSH_CEILING} pages: an INVLPG per page; one more: a full flush`, () => {
    const at = runSource(rangeSource(TLB_SINGLE_PAGE_FLUSH_CEILING), { cpu: "zen4", mhz: 4500, plugins: [linux6], variants: [{ id: "linux6" }] });
    const over = runSource(rangeSource(TLB_SINGLE_PAGE_FLUSH_CEILING + 1), { cpu: "zen4", mhz: 4500, plugins: [linux6], variants: [{ id: "linux6" }] });
    expect(at.error).toBeUndefined();
    expect(over.error).toBeUndefined();
    expect(at.counters["tlb.page_flushes"]).toBe(TLB_SINGLE_PAGE_FLUSH_CEILING);
    // every run ends with the exit's full flush (exit_mmap's flush_tlb_mm)
    expect(at.counters["tlb.flushes"]).toBe(1);
    expect(over.counters["tlb.page_flushes"]).toBeUndefined();
    expect(over.counters["tlb.flushes"]).toBe(2);
  });

  it("the core's 2.4 mprotect flushes the whole TLB, one page or many", () => {
    const none = runSource(rangeSource(0), { cpu: "p4-northwood", mhz: 2200 });
    for (const n of [1, 33]) {
      const r = runSource(rangeSource(n), { cpu: "p4-northwood", mhz: 2200 });
      expect(r.error).toBeUndefined();
      expect(r.counters["tlb.flushes"]! - (none.counters["tlb.flushes"] ?? 0)).toBe(1);
      expect(r.counters["tlb.page_flushes"]).toBeUndefined();
    }
    const base = runExample("gc_barrier", { cpu: "p4-northwood", mhz: 2200, params: { iterations: 50, pages: 4 } });
    expect(base.counters["tlb.flushes"]).toBeGreaterThanOrEqual(100); // two per iteration (and a switch_mm)
  });
});
