/**
 * rt_sigtimedwait charges what the call does (2.4's sys_rt_sigtimedwait): a signal pending at
 * entry is dequeued at once (entry, .take, .done: no sleep, no second search); a call that finds
 * nothing sleeps with the waited-for signals unblocked (.none, .sleep), and woken restores the
 * mask and searches again (.woken, .take); a zero timeout returns -EAGAIN without sleeping. Before,
 * one path (the non-sleeping one) was charged whatever happened.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/plugin-api";
import { pathCount, runSource } from "./harness.js";

/** the wait `mode`: "pending" (sent to itself before), "sleep" (sent by a child while it waits), "timeout0" (nothing, timeout 0) */
export const SIGTIMEDWAIT_SOURCE = `
import { workload, SIGUSR1, SIG_BLOCK } from "siglab";
export default workload({
  name: "sigtimedwait", description: "", params: { mode: "pending" },
  *main(t, { mode }) {
    yield* t.sigaction(SIGUSR1, function* () {});
    yield* t.sigprocmask(SIG_BLOCK, [SIGUSR1]);
    let r;
    if (mode === "pending") {
      yield* t.kill(yield* t.getpid(), SIGUSR1);
      r = yield* t.sigtimedwait([SIGUSR1]);
    } else if (mode === "sleep") {
      yield* t.fork(function* (c) { yield* c.kill(yield* c.getppid(), SIGUSR1); yield* c.exit(0); });
      r = yield* t.sigtimedwait([SIGUSR1]);
      yield* t.wait();
    } else {
      r = yield* t.sigtimedwait([SIGUSR1], 0);
    }
    t.report("result", typeof r === "number" ? r : r.signo, "");
  },
});`;

const WAIT_PATHS = ["sys_rt_sigtimedwait", "sys_rt_sigtimedwait.none", "sys_rt_sigtimedwait.sleep", "sys_rt_sigtimedwait.woken", "sys_rt_sigtimedwait.take", "sys_rt_sigtimedwait.done"] as const;
const counts = (r: RunResult) => Object.fromEntries(WAIT_PATHS.map((p) => [p, pathCount(r, p)]));
const run = (mode: string, cpu = "p6-coppermine", mhz = 1000) => runSource(SIGTIMEDWAIT_SOURCE, { cpu, mhz, params: { mode } });
const result = (r: RunResult) => r.metrics.find((m) => m.name === "result")!.value;

describe("2.4 rt_sigtimedwait: the paths follow what the call does", () => {
  it("a signal pending at entry: dequeued at once, no sleep, no second search", () => {
    const r = run("pending");
    expect(r.error).toBeUndefined();
    expect(result(r)).toBe(10);
    expect(counts(r)).toEqual({ sys_rt_sigtimedwait: 1, "sys_rt_sigtimedwait.none": 0, "sys_rt_sigtimedwait.sleep": 0, "sys_rt_sigtimedwait.woken": 0, "sys_rt_sigtimedwait.take": 1, "sys_rt_sigtimedwait.done": 1 });
    expect(pathCount(r, "copy_siginfo_to_user")).toBe(1);
  });

  it("sent by another process while it waits: the search finds none, the sleep, and woken the second search takes it", () => {
    const r = run("sleep");
    expect(r.error).toBeUndefined();
    expect(result(r)).toBe(10);
    expect(counts(r)).toEqual({ sys_rt_sigtimedwait: 1, "sys_rt_sigtimedwait.none": 1, "sys_rt_sigtimedwait.sleep": 1, "sys_rt_sigtimedwait.woken": 1, "sys_rt_sigtimedwait.take": 1, "sys_rt_sigtimedwait.done": 1 });
    expect(r.counters["sched.switches"]!).toBeGreaterThanOrEqual(2);
  });

  it("a zero timeout with nothing pending: -EAGAIN, no sleep", () => {
    const r = run("timeout0");
    expect(r.error).toBeUndefined();
    expect(result(r)).toBe(-11);
    expect(counts(r)).toEqual({ sys_rt_sigtimedwait: 1, "sys_rt_sigtimedwait.none": 1, "sys_rt_sigtimedwait.sleep": 0, "sys_rt_sigtimedwait.woken": 0, "sys_rt_sigtimedwait.take": 0, "sys_rt_sigtimedwait.done": 1 });
    expect(pathCount(r, "copy_siginfo_to_user")).toBe(0);
  });

  it("the sleeping call costs its sleep and second search more than a pending one (the same entry, dequeue and unlock ops)", () => {
    const pending = run("pending"), sleep = run("sleep");
    const cyc = (r: RunResult, name: string) => r.paths.find((p) => p.name === name)?.ops.reduce((s, o) => s + o.cycles, 0) ?? 0;
    expect(cyc(sleep, "sys_rt_sigtimedwait.sleep")).toBeGreaterThan(0);
    expect(cyc(sleep, "sys_rt_sigtimedwait.woken")).toBeGreaterThan(0);
    for (const p of ["sys_rt_sigtimedwait", "sys_rt_sigtimedwait.take", "sys_rt_sigtimedwait.done"]) expect(cyc(pending, p), p).toBe(cyc(sleep, p));
  });
});
