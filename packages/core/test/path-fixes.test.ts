// Path errors fixed against the 2.4 sources (issue 15, item 4): order of the FPU save inside
// switch_to and setup_sigcontext, db7 only for a handled signal, the per-task counter
// recalculation, sched_yield's lock, reschedule_idle's goodness, the #PF gate and error code, munmap.
import { describe, expect, it } from "vitest";
import { ifEffect } from "../src/exec/path.js";
import { Goodness24Scheduler } from "../src/kernel/sched.js";
import type { Kernel } from "../src/kernel/kernel.js";
import type { Task } from "../src/kernel/task.js";
import { metric, pathCount, pathOrder, runSource } from "./harness.js";

const W = (body: string) => `
import { workload, SIGCHLD, SIGSEGV, SIG_BLOCK, SIG_UNBLOCK, PROT_READ, PROT_WRITE } from "siglab";
export default workload({ name: "t", params: {}, *main(t, p) { ${body} } });`;

const opsOf = (r: ReturnType<typeof runSource>, name: string) => r.paths.find((p) => p.name === name)?.ops.map((o) => `${o.fn}:${o.op}`) ?? [];

describe("switch_to and setup_frame: the FPU save runs where 2.4 runs it", () => {
  it("__switch_to starts with unlazy_fpu(prev): switch_to.save, the save, then the rest of __switch_to", () => {
    const r = runSource(W(`
      yield* t.fpu.ops(1);
      yield* t.fork(function* (c) { yield* c.fpu.ops(1); yield* c.sched_yield(); });
      for (let i = 0; i < 3; i++) yield* t.sched_yield();
      yield* t.wait();`), { timeline: true });
    expect(r.error).toBeUndefined();
    const switches = r.counters["sched.switches"]!;
    expect(pathCount(r, "switch_to.save")).toBe(switches);
    expect(pathCount(r, "switch_to")).toBe(switches);
    expect(opsOf(r, "switch_to.save").at(-1)).toBe("__switch_to:alu"); // the PF_USEDFPU test
    expect(opsOf(r, "switch_to")[0]).toBe("__switch_to:store"); // tss->esp0 = next->esp0
    // on the timeline, the FPU save of a switch lies between the two halves
    const names = pathOrder(r);
    const i = names.indexOf("unlazy_fpu.switch");
    expect(i).toBeGreaterThan(0);
    expect(names[i - 1]).toBe("switch_to.save");
    expect(names[i + 1]).toBe("switch_to");
  });

  it("setup_sigcontext saves the FP state after the registers and before oldmask and cr2", () => {
    const r = runSource(W(`
      yield* t.fpu.ops(1);
      yield* t.sigaction(10, function* () {});
      yield* t.kill(t.pid, 10);`), { timeline: true });
    const names = pathOrder(r);
    const at = names.indexOf("setup_frame");
    const tail = names.indexOf("setup_frame.tail");
    expect(at).toBeGreaterThan(0);
    expect(names[at + 1]).toBe("save_i387");
    expect(names.slice(at + 1, tail)).toContain("copy.signal.fpu_save"); // the FP image is written in between
    expect(names.slice(tail, tail + 3)).toEqual(["setup_frame.tail", "setup_frame_retcode", "setup_frame.regs"]);
  });
});

describe("do_signal", () => {
  it("rewrites db7 only for a signal it delivers to a handler; an ignored one costs a dequeue", () => {
    const r = runSource(W(`
      yield* t.sigprocmask(SIG_BLOCK, [SIGCHLD]);
      yield* t.kill(t.pid, SIGCHLD);            // default action: ignore; queued while blocked
      yield* t.sigprocmask(SIG_UNBLOCK, [SIGCHLD]);`));
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "do_signal.deliver")).toBe(0);
    expect(pathCount(r, "do_signal.action")).toBe(1);
    expect(pathCount(r, "dequeue_signal")).toBe(2); // SIGCHLD, then nothing
    expect(pathCount(r, "dequeue_signal.collect")).toBe(1);
  });
});

describe("the scheduler", () => {
  it("recalculates every task's counter (for_each_task), not once per recalculation", () => {
    const r = runSource(W(`
      yield* t.fork(function* (c) { yield* c.compute(300 * c.mhz * 1000); });
      yield* t.compute(300 * t.mhz * 1000);
      yield* t.wait();`));
    expect(r.error).toBeUndefined();
    const recalcs = pathCount(r, "recalculate_counters");
    expect(recalcs).toBeGreaterThan(0);
    // init, its child and the idle task
    expect(pathCount(r, "recalculate_counters.task")).toBe(3 * recalcs);
  });

  it("sys_sched_yield takes the runqueue lock only around move_last_runqueue", () => {
    const r = runSource(W(`
      yield* t.sched_yield();                                        // alone: no lock at all
      yield* t.fork(function* (c) { yield* c.sched_yield(); });
      yield* t.sched_yield();
      yield* t.wait();`));
    expect(opsOf(r, "sys_sched_yield")).not.toContain("sys_sched_yield:cli");
    expect(opsOf(r, "sys_sched_yield.yield")).toContain("move_last_runqueue:cli");
  });

  it("reschedule_idle compares goodness against the current mm (same-mm bonus, nice, SCHED_YIELD)", () => {
    const s = new Goodness24Scheduler();
    const mmA = {}, mmB = {};
    const task = (counter: number, mm: object, extra: Partial<Task> = {}) => ({ counter, mm, nice: 0, sched_yield: false, needResched: false, ...extra }) as unknown as Task;
    const wake = (cur: Task, p: Task) => {
      const k = { current: cur, idle: {} } as unknown as Kernel;
      s.reschedule_idle(k, p);
      return cur.needResched;
    };
    expect(wake(task(5, mmA), task(6, mmB))).toBe(false); // 6 + 20 vs 5 + 1 + 20
    expect(wake(task(5, mmA), task(7, mmB))).toBe(true);
    expect(wake(task(5, mmA), task(6, mmA))).toBe(true); // a thread of the same mm gets the bonus too
    expect(wake(task(5, mmA), task(5, mmA))).toBe(false);
    expect(wake(task(9, mmA, { sched_yield: true }), task(1, mmB))).toBe(true); // a yielder's goodness is -1
    expect(wake(task(5, mmA), task(9, mmB, { nice: 5 }))).toBe(false);
  });
});

describe("page faults and munmap", () => {
  it("#PF enters through an interrupt gate (IF=0); #NM through a trap gate", () => {
    expect(ifEffect("exception_entry", "#PF")).toBe(0);
    expect(ifEffect("exception_entry", "#NM")).toBeUndefined();
  });

  it("the error code in the frame has P=1 only for a protection fault", () => {
    const r = runSource(W(`
      const ro = yield* t.mmap(4096, PROT_READ);
      let err = -1, trapno = -1;
      yield* t.sigaction(SIGSEGV, function* (h) {
        err = h.frame.sigcontext.err; trapno = h.frame.sigcontext.trapno;
        yield* h.mprotect(ro, 4096, PROT_READ | PROT_WRITE);
      });
      yield* t.store(ro, 1);
      t.report("write to a read-only page", err, "code");
      t.report("trapno", trapno, "n");
      const gone = yield* t.mmap(4096, PROT_READ);
      yield* t.munmap(gone, 4096);
      yield* t.sigaction(SIGSEGV, function* (h) {
        err = h.frame.sigcontext.err;
        h.longjmp(jb, 1);
      });
      let jb: any;
      yield* t.setjmp(function* (b) { jb = b; yield* t.load(gone); return 0; });
      t.report("read of an unmapped page", err, "code");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "trapno")).toBe(14);
    expect(metric(r, "write to a read-only page")).toBe(7); // P | W | U
    expect(metric(r, "read of an unmapped page")).toBe(4); // U only
  });

  it("munmap has its own path: one zap_pte_range per page, no mprotect", () => {
    const r = runSource(W(`
      const a = yield* t.mmap(8 * 4096, PROT_READ | PROT_WRITE);
      yield* t.munmap(a, 8 * 4096);`));
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "sys_munmap")).toBe(1);
    // the 8 pages, then exit_mmap's zap of what is left at the exit (16 text + 32 stack pages)
    expect(r.counters["mm.exit.ptes"]).toBe(48);
    expect(pathCount(r, "zap_pte_range")).toBe(8 + 48);
    expect(pathCount(r, "sys_mprotect")).toBe(0);
    expect(r.counters["tlb.flushes"]).toBeGreaterThanOrEqual(1);
  });
});

describe("mprotect: mprotect_fixup splits and merges vmas as 2.4 does", () => {
  it("splits at the start, in the middle and at the end, merges anonymous neighbours back, and skips unchanged vmas", async () => {
    const { AddressSpace } = await import("../src/machine/memory.js");
    const mm = new AddressSpace(1);
    const a = mm.mmapAnon(4 * 4096, 3);
    const count = () => mm.vmas.filter((v) => v.start >= a && v.end <= a + 4 * 4096).length;
    const r1 = mm.protect(a + 4096, 4096, 1);
    expect(r1 !== -1 && r1.fixups).toEqual(["middle"]);
    expect(count()).toBe(3);
    const r2 = mm.protect(a + 4096, 4096, 3); // back to RW: joins prev, then next
    expect(r2 !== -1 && [r2.fixups, r2.mergedNext]).toEqual([["all_merged"], true]);
    expect(count()).toBe(1);
    const r3 = mm.protect(a, 4096, 1);
    expect(r3 !== -1 && r3.fixups).toEqual(["start"]);
    const r4 = mm.protect(a + 3 * 4096, 4096, 1);
    expect(r4 !== -1 && r4.fixups).toEqual(["end"]);
    const same = mm.protect(a, 4096, 1);
    expect(same !== -1 && [same.fixups, same.ptes]).toEqual([["same"], 0]);
    expect(mm.protect(a + 8 * 4096, 4096, 1)).toBe(-1); // not mapped: -ENOMEM
    mm.unmap(a + 4096, 4096);
    expect(mm.vmas.some((v) => v.start <= a + 4096 && a + 4096 < v.end)).toBe(false);
  });

  it("an unchanged mprotect costs no PTE rewrite and no TLB flush", () => {
    const r = runSource(W(`
      const a = yield* t.mmap(4096, PROT_READ);
      yield* t.mprotect(a, 4096, PROT_READ);`));
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "change_pte_range")).toBe(0);
    expect(pathCount(r, "flush_tlb_range")).toBe(0);
    expect(r.counters["mm.mprotect_fixup.same"]).toBe(1);
  });

  it("the GC write barrier splits a vma and merges it back on every trap, on every CPU profile", () => {
    for (const [cpu, mhz] of [["p5-p54c", 133], ["p6-coppermine", 1000], ["p4-northwood", 2200]] as const) {
      const r = runSource(`${require_gc()}`, { cpu, mhz, params: { iterations: 40, pages: 4 } }, "gc_barrier.ts");
      expect(r.error).toBeUndefined();
      const splits = (r.counters["mm.mprotect_fixup.start"] ?? 0) + (r.counters["mm.mprotect_fixup.end"] ?? 0) + 2 * (r.counters["mm.mprotect_fixup.middle"] ?? 0);
      expect(splits).toBe(pathCount(r, "mprotect_fixup.split"));
      expect(splits).toBeGreaterThanOrEqual(40); // at least one new vma per re-protect
      // and the handler's mprotect joins every piece back (into prev, then with next)
      expect((r.counters["mm.mprotect_fixup.all_merged"] ?? 0) + (r.counters["mm.vma_merges"] ?? 0)).toBe(splits);
      expect(r.counters["tlb.flushes"]).toBeGreaterThanOrEqual(80);
    }
  });
});

import { EXAMPLES } from "../src/index.js";
function require_gc(): string {
  return EXAMPLES.find((e) => e.id === "gc_barrier")!.source;
}
