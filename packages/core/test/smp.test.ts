// The 2.4 SMP kernel on N CPUs (issue 15 item 2): per-CPU current and clocks, reschedule_idle's
// IPIs, lock-prefixed locks, TLB shootdowns with lazy TLB, kicks, and cache lines moving.
import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { lockedOpsNamed, smpKernelPath } from "../src/arch/i386/paths/smp-kernel.js";
import { runWorkload } from "../src/runner/run-workload.js";
import { metric, runExample, runSource } from "./harness.js";

const W = (body: string) => `
import { workload, SIGUSR1, PROT_READ, PROT_WRITE } from "siglab";
export default workload({ name: "t", params: {}, *main(t, p) { ${body} } });`;

const PIII = { cpu: "p6-coppermine", mhz: 1000 };

describe("SMP machine", () => {
  it("smp 1 is the UP kernel: the same result as no smp at all, and no SMP counters", () => {
    const up = runExample("lat_pipe", { ...PIII, params: { iterations: 200 } });
    const one = runExample("lat_pipe", { ...PIII, params: { iterations: 200 }, smp: 1 });
    expect(one.error).toBeUndefined();
    expect(JSON.stringify(one.metrics)).toBe(JSON.stringify(up.metrics));
    expect(Object.keys(up.counters).filter((c) => c.startsWith("smp."))).toEqual([]);
    expect(up.cpu).toEqual({ id: "p6-coppermine", mhz: 1000 });
  });

  it("lat_pipe on two CPUs wakes the partner by IPI, moves cache lines, and the kernel's locks are lock-prefixed", () => {
    const up = runExample("lat_pipe", { ...PIII, params: { iterations: 300 } });
    const r = runExample("lat_pipe", { ...PIII, params: { iterations: 300 }, smp: 2 });
    expect(r.error).toBeUndefined();
    expect(r.cpu).toEqual({ id: "p6-coppermine", mhz: 1000, smp: 2 });
    expect(r.counters["smp.ipi.reschedule"]).toBeGreaterThan(300);
    expect(r.counters["irq.ipi"]).toBeGreaterThan(0);
    expect(r.counters["smp.cacheline_transfers"]).toBeGreaterThan(300);
    // the IPIs, the cache lines and the locked ops make the round trip dearer than on one CPU
    expect(metric(r, "Pipe latency")).toBeGreaterThan(metric(up, "Pipe latency"));
    const schedule = r.paths.find((p) => p.name === "schedule")!;
    expect(schedule.ops.some((o) => o.op === "locked_op" && o.fn === "schedule")).toBe(true);
    const upSchedule = up.paths.find((p) => p.name === "schedule")!;
    expect(upSchedule.ops.some((o) => o.op === "locked_op")).toBe(false);
  });

  it("the same seed gives byte-identical results on SMP; timeline events name their CPU", () => {
    const a = runExample("lat_ctx", { ...PIII, smp: 2, params: { iterations: 100 }, timeline: true });
    const b = runExample("lat_ctx", { ...PIII, smp: 2, params: { iterations: 100 }, timeline: true });
    expect(a.error).toBeUndefined();
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const cpus = new Set((a.timeline ?? []).map((e) => e.cpu));
    expect(cpus).toEqual(new Set([0, 1]));
  });

  it("two threads on two CPUs run at the same time: the machine's elapsed time is about half the work", () => {
    const body = `
      yield* t.clone(function* (c) { yield* c.compute(2_000_000); });
      yield* t.compute(2_000_000);
      yield* t.wait();`;
    const up = runSource(W(body), { ...PIII });
    const smp = runSource(W(body), { ...PIII, smp: 2 });
    expect(smp.error).toBeUndefined();
    expect(smp.totalCycles).toBeLessThan(up.totalCycles * 0.7);
    // every CPU is accounted for up to the machine's time: the phases add up to N x elapsed
    const sum = Object.values(smp.phases).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(smp.totalCycles * 2, 0);
  });

  it("mprotect in a process whose threads run on another CPU sends a TLB shootdown; the lazy CPU leaves the mm", () => {
    const r = runSource(W(`
      const a = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
      let stop = false;
      yield* t.clone(function* (c) { while (!stop) yield* c.compute(20_000); });
      yield* t.compute(50_000); // the thread is running on the other CPU by now
      for (let i = 0; i < 10; i++) {
        yield* t.mprotect(a, 4096, PROT_READ);
        yield* t.mprotect(a, 4096, PROT_READ | PROT_WRITE);
      }
      stop = true;
      yield* t.wait();`), { ...PIII, smp: 2 });
    expect(r.error).toBeUndefined();
    // 20 mprotects, and the main thread's exit_mmap: the thread's CPU still borrows the mm (lazy)
    expect(r.counters["smp.tlb_shootdowns"]).toBe(21);
    expect(r.counters["smp.ipi.invalidate"]).toBe(21);
    expect(r.phases["smp.tlb_shootdown"]).toBeGreaterThan(0);
    const one = runSource(W(`
      const a = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
      for (let i = 0; i < 10; i++) { yield* t.mprotect(a, 4096, PROT_READ); yield* t.mprotect(a, 4096, PROT_READ | PROT_WRITE); }`), { ...PIII, smp: 2 });
    expect(one.counters["smp.tlb_shootdowns"] ?? 0).toBe(0); // one thread: no other CPU has the mm
  });

  it("a signal to a task running on another CPU kicks it with a reschedule IPI", () => {
    const r = runSource(W(`
      let got = 0;
      const pid = yield* t.fork(function* (c) {
        yield* c.sigaction(SIGUSR1, function* () { got++; });
        for (let i = 0; i < 200; i++) yield* c.compute(10_000);
      });
      yield* t.compute(100_000);
      yield* t.kill(pid, SIGUSR1);
      yield* t.wait();`), { ...PIII, smp: 2 });
    expect(r.error).toBeUndefined();
    expect(r.counters["smp.kicks"]).toBe(1);
  });

  it("refuses a bad CPU count and a profile without SMP costs, naming them", () => {
    const bad = runExample("lat_pipe", { ...PIII, smp: 9 });
    expect(bad.error?.kind).toBe("config");
    expect(bad.error?.message).toMatch(/smp must be an integer from 1 to 8/);
    const file = structuredClone(BUILTIN_PROFILE_FILES.find((f) => f.id === "p6-coppermine")!);
    const costs = file.costs as Record<string, unknown>;
    delete costs["ipi_delivery"];
    delete costs["cacheline_transfer"];
    const r = runWorkload(
      { workload: { id: "t", file: "t.ts", source: W("yield* t.getpid();") }, cpu: { id: "p6-coppermine", mhz: 1000, smp: 2 }, variants: [], params: {}, seed: 1 },
      { profiles: [file], plugins: [], transpile: (s) => s, evaluate: () => ({}) },
    );
    expect(r.error?.kind).toBe("config");
    expect(r.error?.message).toMatch(/p6-coppermine.*ipi_delivery, cacheline_transfer/);
  });
});

describe("CONFIG_SMP: locks and atomics are lock-prefixed", () => {
  it("finds the lock operations a note names (spin/rw locks, wait-queue locks, atomics, bitops, semaphores), not prose", () => {
    expect(lockedOpsNamed("spin_lock_irqsave(&runqueue_lock)")).toEqual(["spin_lock_irqsave"]);
    expect(lockedOpsNamed("read_lock(&tasklist_lock); read_unlock(&tasklist_lock)")).toEqual(["read_lock", "read_unlock"]);
    expect(lockedOpsNamed("wq_write_lock_irqsave")).toEqual(["wq_write_lock_irqsave"]);
    expect(lockedOpsNamed("down_interruptible(PIPE_SEM(*inode))")).toEqual(["down_interruptible"]);
    expect(lockedOpsNamed("up(PIPE_SEM); UPDATE_ATIME")).toEqual(["up"]);
    expect(lockedOpsNamed("clear_bit(cpu, &prev->cpu_vm_mask)")).toEqual(["clear_bit"]);
    expect(lockedOpsNamed("__set_bit(n, x); wake up the task; spin_unlock_irq(&runqueue_lock)")).toEqual([]);
  });

  it("adds one locked_op after each op that takes a lock; user-space paths are left alone", () => {
    const def = { name: "x", phase: "sched.schedule", ops: [{ fn: "f", op: "alu" as const, n: 1, note: "spin_lock(&a); atomic_inc(&b)" }, { fn: "g", op: "alu" as const, n: 1 }] };
    const smp = smpKernelPath(def);
    expect(smp.ops.map((o) => o.op)).toEqual(["alu", "locked_op", "alu"]);
    expect(smp.ops[1]!.n).toBe(2);
    const user = { ...def, phase: "user" };
    expect(smpKernelPath(user)).toBe(user);
  });
});

describe("sched_setaffinity (nr 241, as 2.5.8 added it)", () => {
  const pinned = (mask1: number, mask2: number) => `
    yield* t.sched_setaffinity(0, ${mask1});
    const [p1r, p1w] = yield* t.pipe();
    const [p2r, p2w] = yield* t.pipe();
    yield* t.fork(function* (c) {
      yield* c.sched_setaffinity(0, ${mask2});
      for (let k = 0; k < 200; k++) { yield* c.read(p1r, 1); yield* c.write(p2w, 1); }
    });
    const start = t.rdtsc();
    for (let k = 0; k < 200; k++) { yield* t.write(p1w, 1); yield* t.read(p2r, 1); }
    t.report("rtt", (t.rdtsc() - start) / 200, "cycles");
    t.report("mask", yield* t.sched_getaffinity(0), "");
    yield* t.wait();`;

  it("pins the two processes of a pipe ping-pong to one CPU or to two, as the probe does; the masks read back", () => {
    const one = runSource(W(pinned(1, 1)), { ...PIII, smp: 2 });
    const two = runSource(W(pinned(1, 2)), { ...PIII, smp: 2 });
    expect(one.error).toBeUndefined();
    expect(two.error).toBeUndefined();
    expect(metric(one, "mask")).toBe(1);
    // on one CPU nobody sends an IPI; across two, every wake-up does
    expect(one.counters["smp.ipi.reschedule"] ?? 0).toBeLessThan(5);
    expect(two.counters["smp.ipi.reschedule"]).toBeGreaterThan(300);
    // where each process's user code ran: the child starts on its parent's CPU, then moves for good
    const where: Record<string, number> = {};
    for (const e of runSource(W(pinned(1, 2)), { ...PIII, smp: 2, timeline: true }).timeline ?? []) if (e.kind !== "idle" && !e.phase.startsWith("cache.") && e.phase !== "tlb.refill") where[`${e.task}@${e.cpu}`] = (where[`${e.task}@${e.cpu}`] ?? 0) + 1;
    expect(where["1@1"]).toBeUndefined();
    expect(where["2@1"]).toBeGreaterThan(100);
    expect(where["2@0"] ?? 0).toBeLessThan(30); // its start and the sched_setaffinity call
  });

  it("refuses a mask with no online CPU and an unknown pid; on one CPU only CPU 0 can be named", () => {
    const r = runSource(W(`
      t.report("none", yield* t.sched_setaffinity(0, 4), "");
      t.report("nobody", yield* t.sched_setaffinity(999, 1), "");
      t.report("ok", yield* t.sched_setaffinity(0, 3), "");
      t.report("mask", yield* t.sched_getaffinity(), "");`), { ...PIII });
    expect(metric(r, "none")).toBe(-22);
    expect(metric(r, "nobody")).toBe(-3);
    expect(metric(r, "ok")).toBe(0);
    expect(metric(r, "mask")).toBe(1);
  });

  it("a forked child inherits the affinity (do_fork's *p = *current); lmbench's UNIQUE still spreads the pair", () => {
    const r = runSource(W(`
      yield* t.sched_setaffinity(0, 2);
      yield* t.fork(function* (c) { t.report("child", yield* c.sched_getaffinity(0), ""); });
      yield* t.wait();`), { ...PIII, smp: 2 });
    expect(r.error).toBeUndefined();
    expect(metric(r, "child")).toBe(2);
    // lib_sched.c caches the mask it read before the parent pinned itself, so the writer child
    // picks CPU 1 of both: one process per CPU, every round trip a cross-CPU wake-up (an IPI)
    const unique = runExample("lat_pipe", { ...PIII, smp: 2, params: { iterations: 100, sched: "UNIQUE" } });
    const single = runExample("lat_pipe", { ...PIII, smp: 2, params: { iterations: 100, sched: "SINGLE" } });
    expect(unique.counters["irq.ipi"]).toBeGreaterThan(100);
    expect(single.counters["irq.ipi"] ?? 0).toBe(0);
    expect(metric(unique, "Pipe latency")).toBeGreaterThan(metric(single, "Pipe latency") * 1.5);
  });
});
