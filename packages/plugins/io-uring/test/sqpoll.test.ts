import { describe, expect, it } from "vitest";
import type { Kernel } from "@siglab/plugin-api";
import { BUILTIN_PROFILE_FILES, resolveProfile } from "../../../cpu-profiles/src/index.js";
import { CPU, metric, pathCount, runUringExample, W, withUring } from "./util.js";
import { pathCycles } from "../src/index.js";

describe("IORING_SETUP_SQPOLL: the SQ thread polls the ring", () => {
  it("while the thread is awake, submitting is stores only: no io_uring_enter, no submission path on the program's CPU", () => {
    const rounds = 6, batch = 8;
    const r = runUringExample("io_uring_sqpoll", { params: { rounds, batch } });
    expect(r.error).toBeUndefined();
    expect(metric(r, "completions")).toBe(rounds * batch);
    expect(metric(r, "system calls per event")).toBe(0);
    expect(metric(r, "SQ thread wake-ups by the program")).toBe(0);
    expect(r.counters["syscalls.io_uring_enter"] ?? 0).toBe(0);
    // the SQ thread consumed every SQE, one pass of its loop per tail store
    expect(r.counters["io_uring.sqpoll.sqes"]).toBe(rounds * batch);
    expect(r.counters["io_uring.sqpoll.submit_passes"]).toBe(rounds);
    // its work is on its own CPU: none of io_submit_sqes' paths ran on the program's
    for (const p of ["io_submit_sqes", "io_submit_sqe", "io_rw_issue", "tctx_task_work", "io_fill_cqe_req"]) expect(pathCount(r, p), p).toBe(0);
    // ... but the device requests and their interrupts are the same as without SQPOLL
    expect(pathCount(r, "siglab_disk.make_request")).toBe(rounds * batch);
    expect(r.counters["irq.device"]).toBe(rounds * batch);
    expect(pathCount(r, "io_complete_rw")).toBe(rounds * batch);
    expect(pathCount(r, "__set_notify_signal")).toBe(rounds * batch);
  });

  it("the SQ thread's work is costed op by op from the profile, and it spins for the whole run", () => {
    const rounds = 4, batch = 8;
    const r = runUringExample("io_uring_sqpoll", { params: { rounds, batch } });
    expect(r.error).toBeUndefined();
    const work = r.counters["io_uring.sqpoll.work_cycles"]!;
    expect(work).toBeGreaterThan(0);
    // its CPU is busy from io_uring_setup to the end of the run (sq_thread_idle 1 s never runs out)
    const awake = r.counters["io_uring.sqpoll.awake_cycles"]!;
    expect(awake).toBeGreaterThan(0.95 * r.totalCycles);
    expect(awake).toBeLessThanOrEqual(r.totalCycles);
    expect(r.counters["io_uring.sqpoll.sleeps"] ?? 0).toBe(0);
  });

  it("after sq_thread_idle without work it sets IORING_SQ_NEED_WAKEUP and sleeps; the program wakes it with one io_uring_enter", () => {
    // HZ 100: sq_thread_idle 1 ms is one jiffy (10 ms), and the thread notices on the first tick
    // past it (10-20 ms after its last work); each round's work (50 ms) outlasts that
    const rounds = 3;
    const r = runUringExample("io_uring_sqpoll", { params: { rounds, batch: 4, workUs: 50000, sqThreadIdleMs: 1 } });
    expect(r.error).toBeUndefined();
    expect(metric(r, "completions")).toBe(rounds * 4);
    // the thread is awake for the first round (it just started), asleep at every later one
    expect(metric(r, "SQ thread wake-ups by the program")).toBe(rounds - 1);
    expect(r.counters["syscalls.io_uring_enter"]).toBe(rounds - 1);
    expect(pathCount(r, "io_uring_enter.sq_wakeup")).toBe(rounds - 1);
    expect(r.counters["io_uring.sqpoll.sleeps"]).toBe(rounds);
    expect(r.counters["io_uring.sqpoll.wakeups"]).toBe(rounds - 1);
    // it spins one to two jiffies past its last work per round, not the whole run
    const awake = r.counters["io_uring.sqpoll.awake_cycles"]!;
    const jiffy = 0.01 * CPU.mhz * 1e6;
    expect(awake).toBeGreaterThan(rounds * jiffy);
    expect(awake).toBeLessThan(rounds * 2.1 * jiffy);
    expect(awake).toBeLessThan(0.5 * r.totalCycles);
  });

  it("SQEs published while the thread sleeps stay in the ring until IORING_ENTER_SQ_WAKEUP", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 4, SQPOLL | SQ_AFF, 1));
      const fd = yield* t.open("/dev/siglab-disk");
      yield* t.compute(30000 * t.mhz); // 30 ms: the thread has gone to sleep
      yield* queue(t, q, OP_WRITE, fd, 512, 5);
      yield* publish(t, q);
      t.report("flags", yield* t.load(q.ring + SQ_FLAGS), "bits");
      yield* t.compute(1000 * t.mhz);
      t.report("head while asleep", yield* t.load(q.ring + SQ_HEAD), "index");
      t.report("cqes while asleep", (yield* reap(t, q)).length, "n");
      t.report("enter", yield* t.syscall(io_uring_enter, q.ring, 1, 0, SQ_WAKEUP), "ret");
      t.report("head after", yield* t.load(q.ring + SQ_HEAD), "index");
      t.report("flags after", yield* t.load(q.ring + SQ_FLAGS), "bits");
      yield* t.compute(1000 * t.mhz);
      const c = yield* reap(t, q);
      t.report("cqes", c.length, "n");
      t.report("res", c[0].res, "bytes");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "flags")).toBe(1);
    expect(metric(r, "head while asleep")).toBe(0);
    expect(metric(r, "cqes while asleep")).toBe(0);
    expect(metric(r, "enter")).toBe(1);
    expect(metric(r, "head after")).toBe(1);
    expect(metric(r, "flags after")).toBe(0);
    expect(metric(r, "cqes")).toBe(1);
    expect(metric(r, "res")).toBe(512);
  });

  it("the SQ thread submits with the ring creator's files, even when another process has the CPU", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 4, SQPOLL | SQ_AFF, 1));
      const fd = yield* t.open("/dev/siglab-disk");
      yield* queue(t, q, OP_WRITE, fd, 512, 1); // the thread is awake: in flight at once
      yield* publish(t, q);
      yield* t.compute(30000 * t.mhz); // the thread has gone to sleep
      yield* queue(t, q, OP_WRITE, fd, 512, 2); // stays in the ring
      yield* publish(t, q);
      // a child without the fd runs when the first completion wakes the SQ thread
      yield* t.fork(function* (c) {
        yield* c.close(fd);
        yield* c.compute(60000 * c.mhz);
      });
      yield* t.wait();
      yield* t.compute(60000 * t.mhz);
      for (const c of yield* reap(t, q)) t.report("res " + c.data, c.res, "bytes");`), { uringOptions: { deviceLatencyUs: 50000 } });
    expect(r.error).toBeUndefined();
    expect(metric(r, "res 1")).toBe(512);
    expect(metric(r, "res 2")).toBe(512);
  });

  it("the SQ thread's work figure is the sum of its paths' op costs (no hidden constant)", () => {
    const r = runUringExample("io_uring_sqpoll", { params: { rounds: 1, batch: 1 } });
    expect(r.error).toBeUndefined();
    // one pass: io_sq_thread + io_submit_sqes(1 SQE); one completion: io_sq_thread + tctx_task_work
    // + io_req_rw_complete + a flush with one CQE
    const names = ["io_sq_thread", "io_submit_sqes", "io_submit_sqe", "io_rw_issue", "io_submit_sqes.end", "io_sq_thread", "tctx_task_work", "io_req_rw_complete", "__io_submit_flush_completions", "io_fill_cqe_req"];
    const profile = resolveProfile(BUILTIN_PROFILE_FILES.find((f) => f.id === CPU.cpu)!, CPU.mhz);
    const k = { profile } as unknown as Kernel;
    const expected = names.reduce((s, n) => s + pathCycles(k, n), 0);
    expect(expected).toBeGreaterThan(100);
    expect(r.counters["io_uring.sqpoll.work_cycles"]).toBe(Math.round(expected));
  });
});
