/**
 * linux6's 6.x signal waits (src/signal-gen.ts, signalWaitTransforms): sig_wake's sigwaitinfo and
 * sigsuspend loops run do_sigtimedwait, copy_siginfo_to_user (copy_to_user + clear_user) and
 * sigsuspend, the mechanism (who sleeps, who is woken, what is delivered) is unchanged, and the
 * round trip moves by exactly what the path definitions say on the profile.
 *
 * "Before" is linux6 with the core's 2.4 definitions put back on those paths (a test-only wrapper
 * adds one more transform per path), as test/signal-gen.test.ts does.
 */
import { describe, expect, it } from "vitest";
import { type PathDef, type RunResult } from "@siglab/plugin-api";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import { smpKernelPath } from "@siglab/core";
import { getBuiltinProfile } from "../../../cpu-profiles/src/builtin.js";
import { resolveProfile } from "../../../cpu-profiles/src/resolve.js";
import linux6 from "../src/index.js";
import { coreDef, expectSixX as expectSixXOf, linux6WithCoreDefs } from "./core-defs.js";
import { signalGenTransforms, signalWaitTransforms, SIGNAL_GEN_TARGETS, SIGNAL_WAIT_TARGETS } from "../src/signal-gen.js";

const MHZ = 3600;
const newDef = (name: string): PathDef => signalWaitTransforms().find((t) => t.target === name)!.transform(coreDef(name));
/**
 * What one run of the path costs more under linux6 now than the core's 2.4 definition, on `cpu`.
 * On SMP the core compiles its definition with CONFIG_SMP (2.4's `spin_lock_irq` note gets a
 * locked_op); the 6.x definition charges its locks already and is left alone.
 */
function delta(cpu: string, name: string, smp = false): number {
  const costs = resolveProfile(getBuiltinProfile(cpu)!, MHZ).costs as Record<string, number>;
  const cost = (d: PathDef): number => d.ops.reduce((s, l) => s + costs[l.op]! * (l.n ?? 1), 0);
  return cost(newDef(name)) - cost(smp ? smpKernelPath(coreDef(name)) : coreDef(name));
}

/** linux6 as it was before: the core's definitions back on the wait paths */
const linux6Before = linux6WithCoreDefs(SIGNAL_WAIT_TARGETS);
const N = 200;

const run = (cpu: string, wait: string, before: boolean, smp?: number) =>
  runExample("sig_wake", {
    cpu, mhz: MHZ, params: { iterations: N, wait, sched: smp ? "SINGLE" : "DEFAULT" }, plugins: [before ? linux6Before : linux6], variants: [{ id: "linux6" }],
    ...(smp ? { smp } : {}),
  });

/** notes and function names only 2.4's paths have */
const I386_ONLY = /sigmask_lock|->sigpending|regs->eax|current->state = |int \$0x80|%esp|sigmask_lock/;

const expectSixX = (r: RunResult, names: string[], fns: string[]) => expectSixXOf(r, names, fns, I386_ONLY);

/** rt_sigtimedwait's paths: the entry, each dequeue_signal (none / a signal), the sleep and the wake, the unlock */
const TIMEDWAIT = ["sys_rt_sigtimedwait", "sys_rt_sigtimedwait.none", "sys_rt_sigtimedwait.take", "sys_rt_sigtimedwait.sleep", "sys_rt_sigtimedwait.woken", "sys_rt_sigtimedwait.done"];
/** the paths of a call that finds its signal pending, and of one that sleeps for it */
const PENDING = ["sys_rt_sigtimedwait", "sys_rt_sigtimedwait.take", "sys_rt_sigtimedwait.done"];
const SLEEPING = ["sys_rt_sigtimedwait", "sys_rt_sigtimedwait.none", "sys_rt_sigtimedwait.sleep", "sys_rt_sigtimedwait.woken", "sys_rt_sigtimedwait.take", "sys_rt_sigtimedwait.done"];
/** one round trip: the child's call sleeps, the parent's finds SIGUSR2 pending after its wake-up preemption; each takes a siginfo */
const TRIP = { sigwaitinfo: [...SLEEPING, ...PENDING, "copy_siginfo_to_user", "copy_siginfo_to_user"], sigsuspend: ["sys_sigsuspend", "sys_sigsuspend"] } as const;

const WAITS = {
  sigwaitinfo: { paths: [...TIMEDWAIT, "copy_siginfo_to_user"], fns: ["__x64_sys_rt_sigtimedwait", "do_sigtimedwait", "dequeue_signal", "next_signal", "collect_signal", "__set_task_blocked", "recalc_sigpending", "schedule_hrtimeout_range", "copy_siginfo_to_user", "clear_user", "rep_stos_alternative"] },
  sigsuspend: { paths: ["sys_sigsuspend"], fns: ["__x64_sys_rt_sigsuspend", "sigsuspend", "set_current_blocked", "__set_current_blocked", "__set_task_blocked", "set_restore_sigmask"] },
} as const;

describe("linux6: 6.x signal waits (do_sigtimedwait, copy_siginfo_to_user, sigsuspend)", () => {
  it("the definitions: each wait path is replaced, part of signalGenTransforms, and CONFIG_SMP's lock pass leaves it alone", () => {
    expect([...SIGNAL_WAIT_TARGETS].sort()).toEqual(["copy_siginfo_to_user", ...TIMEDWAIT, "sys_sigsuspend"].sort());
    for (const name of SIGNAL_WAIT_TARGETS) {
      expect(SIGNAL_GEN_TARGETS, name).toContain(name);
      expect(signalGenTransforms().filter((t) => t.target === name).length, name).toBe(1);
      const d = newDef(name);
      expect(d.ops, name).not.toEqual(coreDef(name).ops);
      for (const l of d.ops) expect(`${l.fn} ${l.note ?? ""}`, name).not.toMatch(I386_ONLY);
      expect(smpKernelPath(d), name).toBe(d);
    }
    // copy_siginfo_to_user: the 48-byte kernel_siginfo copied, the other 80 bytes of siginfo_t cleared
    const c = newDef("copy_siginfo_to_user").ops;
    expect(c.filter((l) => l.op === "put_user").reduce((s, l) => s + (l.n ?? 1), 0) * 8).toBe(128);
    // do_sigtimedwait: the siglock taken at entry and again when woken, released before the sleep
    // and at the end; a call that finds its signal pending takes it once (entry, .take, .done)
    const locks = (names: string[], fn: string) => names.flatMap((n) => newDef(n).ops).filter((l) => l.fn === fn).length;
    expect(locks(SLEEPING, "raw_spin_lock")).toBe(2);
    expect(locks(SLEEPING, "raw_spin_unlock")).toBe(2);
    expect(locks(PENDING, "raw_spin_lock")).toBe(1);
    expect(locks(PENDING, "raw_spin_unlock")).toBe(1);
  });

  for (const cpu of ["skylake", "zen4"]) {
    for (const wait of ["sigwaitinfo", "sigsuspend"] as const) {
      it(`${cpu}, wait=${wait}: the 6.x paths run, the counters are the core definitions' run's, and the round trip moves by exactly its paths' differences (one sleeping call, one pending)`, () => {
        const before = run(cpu, wait, true);
        const after = run(cpu, wait, false);
        expect(before.error).toBeUndefined();
        expect(after.error).toBeUndefined();
        const { paths, fns } = WAITS[wait];
        expectSixX(after, [...paths], [...fns]);
        for (const name of paths) expect(before.paths.find((p) => p.name === name)!.ops.map((o) => o.fn), name).toEqual(coreDef(name).ops.map((l) => l.fn)); // the wrapper restored 2.4's

        // the mechanism: the same signals, syscalls, switches, wake-ups and timer ticks
        expect(after.counters).toEqual(before.counters);
        for (const name of SIGNAL_WAIT_TARGETS) expect(pathCount(after, name), name).toBe(pathCount(before, name));
        expect(after.counters[wait === "sigwaitinfo" ? "syscalls.rt_sigtimedwait" : "syscalls.rt_sigsuspend"]).toBe(2 * (N + 8));

        // one round trip: the child's call sleeps, the parent's finds SIGUSR2 pending (TRIP)
        const perTrip = TRIP[wait].reduce((s, p) => s + delta(cpu, p), 0);
        expect(perTrip).toBeGreaterThan(0);
        expect(metric(after, "signal wake-up round trip") - metric(before, "signal wake-up round trip")).toBeCloseTo(perTrip, 6);
        expect(metric(after, `Signal wake-up, ${wait}`) - metric(before, `Signal wake-up, ${wait}`)).toBeCloseTo(perTrip / MHZ, 9);
        const total = SIGNAL_WAIT_TARGETS.reduce((s, p) => s + pathCount(after, p) * delta(cpu, p), 0);
        expect(after.totalCycles - before.totalCycles).toBeCloseTo(total, 6);
      });
    }
  }

  it("SMP, pinned (--smp 2, sched=SINGLE, the host figure's setting): the same paths and exact difference", () => {
    for (const wait of ["sigwaitinfo", "sigsuspend"] as const) {
      const before = run("zen4", wait, true, 2);
      const after = run("zen4", wait, false, 2);
      expect(after.error).toBeUndefined();
      expectSixX(after, [...WAITS[wait].paths], [...WAITS[wait].fns]);
      expect(after.counters).toEqual(before.counters);
      const perTrip = TRIP[wait].reduce((s, p) => s + delta("zen4", p, true), 0);
      expect(metric(after, "signal wake-up round trip") - metric(before, "signal wake-up round trip")).toBeCloseTo(perTrip, 6);
    }
  });

  it("without linux6 the wait paths are the core's 2.4 ones", () => {
    for (const wait of ["sigwaitinfo", "sigsuspend"] as const) {
      const r = runExample("sig_wake", { cpu: "skylake", mhz: MHZ, params: { iterations: 20, wait } });
      expect(r.error).toBeUndefined();
      for (const name of WAITS[wait].paths) {
        const p = r.paths.find((x) => x.name === name)!;
        expect(p.origin, name).toBe("core");
        expect(p.ops.map((o) => [o.fn, o.op, o.repeat]), name).toEqual(coreDef(name).ops.map((l) => [l.fn, l.op, l.n ?? 1]));
      }
    }
  });
});

/** `mode` "pending": SIGUSR1 blocked and sent to itself before sigwaitinfo; "sleep": sent by a child while it waits */
const TIMEDWAIT_SOURCE = `
import { workload, SIGUSR1, SIG_BLOCK } from "siglab";
export default workload({
  name: "sigtimedwait", description: "", params: { mode: "pending" },
  *main(t, { mode }) {
    yield* t.sigaction(SIGUSR1, function* () {});
    yield* t.sigprocmask(SIG_BLOCK, [SIGUSR1]);
    if (mode === "pending") yield* t.kill(yield* t.getpid(), SIGUSR1);
    else yield* t.fork(function* (c) { yield* c.kill(yield* c.getppid(), SIGUSR1); yield* c.exit(0); });
    const r = yield* t.sigtimedwait([SIGUSR1]);
    if (mode !== "pending") yield* t.wait();
    t.report("result", typeof r === "number" ? r : r.signo, "");
  },
});`;

describe("linux6: do_sigtimedwait charges the wait only when the call waits", () => {
  for (const cpu of ["skylake", "zen4"]) {
    const go = (mode: string) => runSource(TIMEDWAIT_SOURCE, { cpu, mhz: MHZ, params: { mode }, plugins: [linux6], variants: [{ id: "linux6" }] });
    const fnsOf = (r: RunResult) => new Set(TIMEDWAIT.flatMap((n) => r.paths.find((p) => p.name === n)?.ops.map((o) => o.fn) ?? []));
    const counts = (r: RunResult) => TIMEDWAIT.map((n) => pathCount(r, n));

    it(`${cpu}: a signal blocked and sent before sigwaitinfo is dequeued at once: no prepare-to-sleep, schedule or wake ops`, () => {
      const r = go("pending");
      expect(r.error).toBeUndefined();
      expect(r.metrics.find((m) => m.name === "result")!.value).toBe(10);
      expect(counts(r)).toEqual(TIMEDWAIT.map((n) => (PENDING.includes(n) ? 1 : 0)));
      const fns = fnsOf(r);
      for (const fn of ["schedule_hrtimeout_range", "schedule_hrtimeout_range_clock", "__set_task_blocked"]) expect(fns.has(fn), fn).toBe(false);
      for (const fn of ["__x64_sys_rt_sigtimedwait", "do_sigtimedwait", "dequeue_signal", "collect_signal"]) expect(fns.has(fn), fn).toBe(true);
      for (const n of PENDING) expect(r.paths.find((p) => p.name === n)!.origin, n).toBe("linux6");
    });

    it(`${cpu}: a signal sent by another task while it waits: the empty search, the sleep, the wake and the second search`, () => {
      const r = go("sleep");
      expect(r.error).toBeUndefined();
      expect(r.metrics.find((m) => m.name === "result")!.value).toBe(10);
      expect(counts(r)).toEqual(TIMEDWAIT.map(() => 1));
      const fns = fnsOf(r);
      for (const fn of ["schedule_hrtimeout_range", "schedule_hrtimeout_range_clock", "__set_task_blocked", "collect_signal"]) expect(fns.has(fn), fn).toBe(true);
      for (const n of SLEEPING) expect(r.paths.find((p) => p.name === n)!.origin, n).toBe("linux6");
    });
  }
});
