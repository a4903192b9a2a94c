/**
 * linux6's 6.x signal generation, dequeue and small system-call bodies (src/signal-gen.ts): the
 * runs take the new paths, the mechanism (who gets which signal, how many) is unchanged, and the
 * per-iteration cost moves by exactly what the path definitions say on the profile.
 *
 * "Before" is linux6 with the core's 2.4 definitions put back on the same paths (a test-only
 * wrapper adds one more transform per path); before this change linux6 left those paths as the
 * core's.
 */
import { describe, expect, it } from "vitest";
import { type PathDef, type RunResult } from "@siglab/plugin-api";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import { smpKernelPath } from "@siglab/core";
import { getBuiltinProfile } from "../../../cpu-profiles/src/builtin.js";
import { resolveProfile } from "../../../cpu-profiles/src/resolve.js";
import linux6 from "../src/index.js";
import { coreDef, expectSixX as expectSixXOf, linux6WithCoreDefs } from "./core-defs.js";
import { signalGenTransforms, SIGNAL_GEN_TARGETS } from "../src/signal-gen.js";

const CPU = "skylake";
const MHZ = 3600;
/** the profile as the run resolves it: cycles per op class */
const costs = resolveProfile(getBuiltinProfile(CPU)!, MHZ).costs as Record<string, number>;

const newDef = (name: string): PathDef => signalGenTransforms().find((t) => t.target === name)!.transform(coreDef(name));
const cost = (d: PathDef): number => d.ops.reduce((s, l) => s + costs[l.op]! * (l.n ?? 1), 0);
/** what one run of the path costs more under linux6 now than the core's 2.4 definition */
const delta = (name: string): number => cost(newDef(name)) - cost(coreDef(name));

/** linux6 as it was before: the core's definitions back on every path signal-gen.ts replaces */
const linux6Before = linux6WithCoreDefs(SIGNAL_GEN_TARGETS);
const run = (id: string, before: boolean, params: Record<string, number>) =>
  runExample(id, { cpu: CPU, mhz: MHZ, params, plugins: [before ? linux6Before : linux6], variants: [{ id: "linux6" }] });

/** notes and function names that only 2.4's paths have */
const I386_ONLY = /sigmask_lock|p_opptr|pidhash|bad_signal|nr_queued_signals|max_queued_signals <|->sigpending = 1|int \$0x80|%esp|deliver_signal|ignored_signal\b/;

const expectSixX = (r: RunResult, names: string[], fns: string[]) => expectSixXOf(r, names, fns, I386_ONLY);

/** the counters of the simulated mechanism: what was sent, delivered, which system calls ran */
function mechanism(r: RunResult): Record<string, number> {
  return Object.fromEntries(Object.entries(r.counters).filter(([k]) => /^(signals\.|syscalls\.)/.test(k)));
}

describe("linux6: 6.x signal generation and system-call bodies", () => {
  it("the definitions: every replaced path is a 6.x one, and CONFIG_SMP's lock pass leaves it alone (its locks are charged already)", () => {
    expect(SIGNAL_GEN_TARGETS.length).toBeGreaterThanOrEqual(15);
    for (const name of SIGNAL_GEN_TARGETS) {
      const d = newDef(name);
      expect(d.ops, name).not.toEqual(coreDef(name).ops);
      for (const l of d.ops) expect(`${l.fn} ${l.note ?? ""}`, name).not.toMatch(I386_ONLY);
      // a note naming spin_lock/atomic_inc/set_bit on a plain op would get a second locked_op on SMP
      expect(smpKernelPath(d), name).toBe(d);
    }
  });

  it("lat_sig catch: kill + delivery run the 6.x paths, the same signals go out, and each iteration costs exactly the definitions' difference more", () => {
    const n = 300;
    const before = run("lat_sig_catch", true, { iterations: n });
    const after = run("lat_sig_catch", false, { iterations: n });
    expect(after.error).toBeUndefined();
    expect(before.error).toBeUndefined();
    expectSixX(after, ["sys_kill", "send_sig_info", "send_sig_info.probe", "sigqueue_alloc", "signal_wake_up", "do_signal", "dequeue_signal", "dequeue_signal.collect", "dequeue_signal.unlock", "do_signal.action", "handle_signal_mask", "sys_sigaction", "sys_getpid"], [
      "__x64_sys_kill", "prepare_kill_siginfo", "check_kill_permission", "__lock_task_sighand", "__send_signal_locked", "prepare_signal", "legacy_queue", "inc_rlimit_get_ucounts", "complete_signal", "signal_wake_up_state", "get_signal", "next_signal", "collect_signal", "dec_rlimit_put_ucounts", "recalc_sigpending", "signal_delivered", "do_sigaction", "__task_pid_nr_ns",
    ]);
    expect(before.paths.find((p) => p.name === "send_sig_info")!.ops.map((o) => o.fn)).toContain("send_sig_info"); // the wrapper restored 2.4's

    expect(mechanism(after)).toEqual(mechanism(before));
    expect(after.counters["signals.delivered"]).toBeGreaterThanOrEqual(n - 1);
    for (const name of SIGNAL_GEN_TARGETS) expect(pathCount(after, name), name).toBe(pathCount(before, name));

    // one catch iteration: kill(me, SIGUSR1) queued, then get_signal, the frame, the new mask
    const perCatch = ["sys_kill", "send_sig_info", "sigqueue_alloc", "signal_wake_up", "do_signal", "dequeue_signal", "dequeue_signal.collect", "dequeue_signal.unlock", "do_signal.action", "handle_signal_mask"].reduce((s, p) => s + delta(p), 0);
    const perSend = delta("sys_kill") + delta("send_sig_info.probe");
    expect(perCatch).toBeGreaterThan(0);
    // both timed loops run n - 1 times after a getpid() (and do_catch's sigaction()), and lmbench
    // divides by n (lat_sig.c's benchmp intervals)
    const sendLoop = delta("sys_getpid") + (n - 1) * perSend;
    const catchLoop = delta("sys_getpid") + delta("sys_sigaction") + (n - 1) * perCatch;
    expect(metric(after, "signal round trip") - metric(before, "signal round trip")).toBeCloseTo(catchLoop / n, 9);
    expect(metric(after, "kill(me, 0)") - metric(before, "kill(me, 0)")).toBeCloseTo(sendLoop / n, 9);
    expect(metric(after, "catch cycles") - metric(before, "catch cycles")).toBeCloseTo((catchLoop - sendLoop) / n, 9);
    // and the whole run: every replaced path's count times its difference
    const total = SIGNAL_GEN_TARGETS.reduce((s, p) => s + pathCount(after, p) * delta(p), 0);
    expect(after.counters["irq.timer"] ?? 0).toBe(before.counters["irq.timer"] ?? 0);
    expect(after.totalCycles - before.totalCycles).toBeCloseTo(total, 6);
  });

  it("lat_syscall: getppid's body is 6.x's (rcu_read_lock, real_parent, task_tgid_vnr) and costs exactly its difference more per call", () => {
    const n = 1000;
    const before = run("lat_syscall", true, { iterations: n });
    const after = run("lat_syscall", false, { iterations: n });
    expect(after.error).toBeUndefined();
    expectSixX(after, ["sys_getppid"], ["__x64_sys_getppid", "task_active_pid_ns", "pid_nr_ns", "__task_pid_nr_ns"]);
    expect(mechanism(after)).toEqual(mechanism(before));
    expect(pathCount(after, "sys_getppid")).toBeGreaterThanOrEqual(n);
    expect(delta("sys_getppid")).toBeGreaterThan(0);
    expect(metric(after, "getppid") - metric(before, "getppid")).toBeCloseTo(delta("sys_getppid"), 9);
  });

  it("a sigprocmask loop: rt_sigprocmask is 6.x's (copy_from_user, __set_current_blocked under the siglock, recalc_sigpending) and costs exactly its difference more per call", () => {
    const src = `import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "sigprocmask loop",
  params: { iterations: 400 },
  *main(t, { iterations }) {
    yield* t.sigprocmask(0, [SIGUSR1]);
    yield* t.sigprocmask(1, [SIGUSR1]);
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.sigprocmask(0, [SIGUSR1]);
      yield* t.sigprocmask(1, [SIGUSR1]);
    }
    t.report("block+unblock", (t.rdtsc() - start) / iterations, "cycles");
  },
});`;
    const go = (before: boolean) => runSource(src, { cpu: CPU, mhz: MHZ, plugins: [before ? linux6Before : linux6], variants: [{ id: "linux6" }] }, "sigprocmask_loop.ts");
    const before = go(true);
    const after = go(false);
    expect(after.error).toBeUndefined();
    expectSixX(after, ["sys_rt_sigprocmask"], ["__x64_sys_rt_sigprocmask", "sigprocmask", "__set_current_blocked", "raw_spin_lock", "__set_task_blocked", "recalc_sigpending"]);
    expect(mechanism(after)).toEqual(mechanism(before));
    expect(after.counters["syscalls.rt_sigprocmask"]).toBe(2 * 400 + 2);
    expect(metric(after, "block+unblock") - metric(before, "block+unblock")).toBeCloseTo(2 * delta("sys_rt_sigprocmask"), 9);
  });

  it("without linux6 the paths are the core's 2.4 ones, op for op", () => {
    const r = runExample("lat_sig_catch", { cpu: CPU, mhz: MHZ, params: { iterations: 50 } });
    expect(r.error).toBeUndefined();
    for (const name of ["sys_kill", "send_sig_info", "sigqueue_alloc", "signal_wake_up", "dequeue_signal", "handle_signal_mask", "sys_sigaction", "sys_getpid"]) {
      const p = r.paths.find((x) => x.name === name)!;
      expect(p.origin, name).toBe("core");
      expect(p.ops.map((o) => [o.fn, o.op, o.repeat]), name).toEqual(coreDef(name).ops.map((l) => [l.fn, l.op, l.n ?? 1]));
      expect(p.cycles / p.count, name).toBeCloseTo(cost(coreDef(name)), 9);
    }
  });
});
