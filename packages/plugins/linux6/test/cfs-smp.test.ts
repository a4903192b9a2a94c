/**
 * linux6's CFS on an SMP run: a cfs_rq per CPU, select_task_rq reduced to the previous CPU / the
 * first allowed idle one / the first allowed one, a remote wake-up by the reschedule IPI. Before
 * this the FairScheduler handed every SMP decision to the core's 2.4 goodness() (counter
 * linux6.sched.smp_baseline_policy); each test below asserts something that delegation did not do
 * (pick_next_task_fair, resched_curr.remote, linux6.cfs.migrations, no goodness()).
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/core";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import linux6 from "../src/index.js";
import { sysctlFactor } from "../src/sched-fair.js";

const l6 = (smp?: number) => ({ cpu: "zen4", mhz: 4500, plugins: [linux6], variants: [{ id: "linux6", options: {} }], ...(smp ? { smp } : {}) });

/** CFS chose every task (no 2.4 goodness() loop, no delegation counter). */
function expectCfs(r: RunResult): void {
  expect(r.error).toBeUndefined();
  expect(r.counters["linux6.sched.cfs"]).toBe(1);
  expect(r.counters["linux6.sched.smp_baseline_policy"]).toBeUndefined();
  expect(pathCount(r, "goodness")).toBe(0);
  expect(pathCount(r, "smp.reschedule_idle")).toBe(0);
  expect(pathCount(r, "pick_next_task_fair")).toBeGreaterThan(0);
}

/** What a result says about scheduling, for comparing runs (no cycles). */
const pattern = (r: RunResult) => ({
  switches: r.counters["sched.switches"],
  wakeupPreemptions: r.counters["linux6.cfs.wakeup_preemptions"],
  skip: r.counters["linux6.cfs.skip_buddy"],
  dequeue: pathCount(r, "dequeue_task_fair"),
  picks: pathCount(r, "pick_next_task_fair"),
});

/** Where in the timeline task `pid` made its first sched_setaffinity call. */
function pinnedAfter(r: RunResult, pid: number): number {
  const i = r.timeline!.findIndex((e) => e.task === pid && e.name === "sys_sched_setaffinity");
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

/** Two threads pinned to CPU 0 take `rounds` turns each with sched_yield, thread 2 computing `burnUs` a turn. */
const YIELD = `import { workload } from "siglab";
export default workload({ name: "yield", params: { rounds: 20, burnUs: 150 }, *main(t, { rounds, burnUs }) {
  yield* t.sched_setaffinity(0, 1);
  const log: number[] = [];
  const body = (id: number) => function* (h: any) {
    for (let r = 0; r < rounds; r++) { log.push(id); if (id === 2) yield* h.compute(burnUs * t.mhz); yield* h.sched_yield(); }
  };
  yield* t.clone(body(1)); yield* t.clone(body(2));
  yield* t.wait(); yield* t.wait();
  let repeats = 0;
  for (let i = 1; i < log.length; i++) if (log[i] === log[i - 1]) repeats++;
  t.report("turns", log.length, "turns");
  t.report("repeats", repeats, "turns");
} });`;

describe("linux6: CFS with a run queue per CPU (--smp 2)", () => {
  it("sysctl factor: 1 + ilog2(min(ncpus, 8)) (SCHED_TUNABLESCALING_LOG)", () => {
    expect([1, 2, 3, 4, 7, 8, 16].map(sysctlFactor)).toEqual([1, 2, 2, 3, 3, 4, 4]);
  });

  it("the tunables scale with the CPUs: a yielder 1-2 ms behind is picked again on one CPU (wakeup_gran 1 ms), not on two (2 ms)", () => {
    const up = runSource(YIELD, l6());
    const smp = runSource(YIELD, l6(2));
    for (const r of [up, smp]) {
      expectCfs(r);
      expect(metric(r, "turns")).toBe(40);
      expect(r.counters["linux6.cfs.skip_buddy"]!).toBeGreaterThan(20);
    }
    // one CPU: thread 1 (placed 1 ms ahead by START_DEBIT) falls more than 1 ms behind thread 2,
    // which computes 150 µs a turn, and its yields no longer give way. Two CPUs: START_DEBIT's
    // sched_vslice and wakeup_gran are twice as large, and 20 turns never open a 2-ms gap
    expect(metric(up, "repeats")).toBeGreaterThan(5);
    expect(metric(smp, "repeats")).toBe(0);
  });

  for (const id of ["lat_pipe", "lat_ctx"]) {
    it(`${id} pinned to CPU 0 runs under CFS and switches as on one CPU`, () => {
      const up = runExample(id, { params: { iterations: 300 }, ...l6() });
      const pinned = runExample(id, { params: { iterations: 300, sched: "SINGLE" }, ...l6(2) });
      expectCfs(up);
      expectCfs(pinned);
      // the same decisions: one wake-up preemption per round trip, two switches per round trip
      expect(pattern(pinned)).toEqual(pattern(up));
      expect(pinned.counters["linux6.cfs.wakeup_preemptions"]!).toBeGreaterThanOrEqual(299);
      // one enqueue more: on SMP the core hands the new child to the scheduler (wake_up_new_task's
      // enqueue_task_fair), on one CPU it puts it on the run queue itself
      expect(pathCount(pinned, "enqueue_task_fair")).toBe(pathCount(up, "enqueue_task_fair") + 1);
      // nothing was woken on the other CPU
      expect(pinned.counters["smp.ipi.reschedule"]).toBeUndefined();
      expect(pathCount(pinned, "resched_curr.remote")).toBe(0);
    });

    it(`${id} across two CPUs: each wake-up reaches the idle other CPU by a reschedule IPI; deterministic for a seed`, () => {
      const o = { params: { iterations: 200, sched: "UNIQUE" }, ...l6(2), seed: 7 };
      const a = runExample(id, o);
      const b = runExample(id, o);
      expectCfs(a);
      expect(JSON.stringify([a.metrics, a.counters, a.paths])).toBe(JSON.stringify([b.metrics, b.counters, b.paths]));
      // two wake-ups per round trip, each of a task queued on the other CPU's cfs_rq while that CPU idles
      const ipis = a.counters["smp.ipi.reschedule"]!;
      expect(ipis).toBeGreaterThanOrEqual(2 * 200);
      expect(pathCount(a, "resched_curr.remote")).toBe(ipis);
      expect(a.counters["irq.ipi"]).toBe(ipis);
      // the woken task finds its CPU idle: no wake-up preempts a running task
      expect(a.counters["linux6.cfs.wakeup_preemptions"] ?? 0).toBe(0);
      // the child starts on its parent's CPU and moves to CPU 1 when it pins itself
      expect(a.counters["linux6.cfs.migrations"]).toBe(1);
      const us = metric(a, id === "lat_pipe" ? "Pipe latency" : "2p/0K ctxsw");
      const pinned = runExample(id, { params: { iterations: 200, sched: "SINGLE" }, ...l6(2), seed: 7 });
      expect(us).toBeGreaterThan(metric(pinned, id === "lat_pipe" ? "Pipe latency" : "2p/0K ctxsw"));
    });
  }

  it("lat_pipe across CPUs: once pinned, the writer child runs only on CPU 1 and the parent only on CPU 0", () => {
    const r = runExample("lat_pipe", { params: { iterations: 50, sched: "UNIQUE" }, ...l6(2), timeline: true });
    expectCfs(r);
    expect(r.counters["timeline.dropped"]).toBeUndefined();
    const tl = r.timeline!;
    for (const [pid, cpu] of [[2, 1], [1, 0]] as const) {
      // the call returns through schedule() on the CPU it made it on; from its first event on its
      // CPU on, every event of the task is there, and so is all its user-mode time after the call
      const from = pinnedAfter(r, pid);
      const after = tl.slice(from + 1).filter((e) => e.task === pid);
      const there = after.findIndex((e) => e.cpu === cpu);
      expect(after.slice(there).length).toBeGreaterThan(100);
      expect(after.slice(there).filter((e) => e.cpu !== cpu)).toEqual([]);
      expect(after.filter((e) => e.kind === "user" && e.cpu !== cpu)).toEqual([]);
    }
  });

  it("a child its parent pins to CPU 1 before it ever ran moves off CPU 0's run queue and never runs on CPU 0", () => {
    const src = `import { workload } from "siglab";
export default workload({ name: "pin", params: {}, *main(t) {
  const pid = yield* t.fork(function* (c) { for (let i = 0; i < 20; i++) yield* c.compute(20000); yield* c.exit(0); });
  const rc = yield* t.sched_setaffinity(pid, 2);
  for (let i = 0; i < 20; i++) yield* t.compute(20000);
  yield* t.wait();
  t.report("rc", rc, "");
  t.report("child", pid, "");
} });`;
    const r = runSource(src, { ...l6(2), timeline: true });
    expectCfs(r);
    expect(metric(r, "rc")).toBe(0);
    const child = metric(r, "child");
    const events = r.timeline!.filter((e) => e.task === child);
    expect(events.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.cpu !== 1)).toEqual([]);
    // queued on its parent's CPU (select_task_rq: the previous CPU), moved when the mask excluded it
    expect(r.counters["linux6.cfs.migrations"]).toBe(1);
    // and CPU 1, idle, was told by IPI
    expect(r.counters["smp.ipi.reschedule"]!).toBeGreaterThanOrEqual(1);
  });

  it("unpinned (DEFAULT), select_task_rq keeps a woken task on its previous CPU: lat_pipe stays on CPU 0 (no wake_affine, no balancing)", () => {
    const r = runExample("lat_pipe", { params: { iterations: 100 }, ...l6(2), timeline: true });
    expectCfs(r);
    expect(r.timeline!.filter((e) => e.task > 0 && e.cpu !== 0)).toEqual([]);
    expect(r.counters["smp.ipi.reschedule"]).toBeUndefined();
  });
});
