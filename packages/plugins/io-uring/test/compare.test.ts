import { describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/core";
import { metric, runAioExample, runUringExample } from "./util.js";

/** System calls the run made (every syscalls.* counter): each one is a kernel entry by SYSCALL. */
const syscalls = (r: RunResult) => Object.entries(r.counters).filter(([k]) => k.startsWith("syscalls.")).reduce((s, [, v]) => s + v, 0);

describe("io_uring against Ben LaHaise's AIO: the same work on the same kernel, CPU and device", () => {
  const rounds = 10, batch = 8, events = rounds * batch;
  const params = { rounds, batch };
  const aio = runAioExample("aio_ring", { params });
  const wait = runUringExample("io_uring_wait", { params });
  const poll = runUringExample("io_uring_poll", { params });
  const sqpoll = runUringExample("io_uring_sqpoll", { params });
  const all = { aio, wait, poll, sqpoll };

  it("every run completes the same requests, with one device interrupt each", () => {
    for (const [name, r] of Object.entries(all)) {
      expect(r.error, name).toBeUndefined();
      expect(metric(r, "completions"), name).toBe(events);
      expect(metric(r, "late rounds"), name).toBe(0);
      expect(r.counters["irq.device"], name).toBe(events);
      expect(r.counters["device.requests"], name).toBe(events);
    }
  });

  it("kernel entries per round: AIO 2 (io_submit + io_getevents), io_uring 2 with GETEVENTS, 1 reaping the ring, 0 with SQPOLL", () => {
    expect(aio.counters["syscalls.io_submit"]! + aio.counters["syscalls.io_getevents"]!).toBe(2 * rounds);
    expect(wait.counters["syscalls.io_uring_enter"]).toBe(2 * rounds);
    expect(poll.counters["syscalls.io_uring_enter"]).toBe(rounds);
    expect(sqpoll.counters["syscalls.io_uring_enter"] ?? 0).toBe(0);
    // the whole run's system calls, set-up (io_setup / io_uring_setup, open, io_destroy, exit) included
    expect(syscalls(aio)).toBe(2 * rounds + 4);
    expect(syscalls(wait)).toBe(2 * rounds + 3);
    expect(syscalls(poll)).toBe(rounds + 3);
    expect(syscalls(sqpoll)).toBe(3);
    // the same as entries through entry_SYSCALL_64 (linux6)
    for (const [name, r] of Object.entries(all)) expect(r.counters["linux6.entries"], name).toBe(syscalls(r));
    expect(syscalls(sqpoll)).toBeLessThan(syscalls(poll));
    expect(syscalls(poll)).toBeLessThan(syscalls(aio));
  });

  it("AIO copies every iocb in and every event out; io_uring copies neither", () => {
    const copies = (r: RunResult) => r.paths.reduce((s, p) => s + p.count * p.ops.filter((o) => o.op === "copy_user_setup").reduce((a, o) => a + o.repeat, 0), 0);
    // per event: copy_from_user of the iocb (io_submit_one) + copy_to_user of the io_event (read_events)
    expect(copies(aio)).toBeGreaterThanOrEqual(2 * events);
    // io_uring: only io_uring_setup's params, in and out
    expect(copies(wait)).toBe(2);
    expect(copies(poll)).toBe(2);
  });

  it("per-event cost on the program's CPU: SQPOLL < reaping the ring < GETEVENTS, and SQPOLL below AIO", () => {
    const cost = (r: RunResult) => metric(r, "per-event cost");
    expect(cost(sqpoll)).toBeLessThan(cost(poll));
    expect(cost(poll)).toBeLessThan(cost(wait));
    expect(cost(sqpoll)).toBeLessThan(cost(aio));
    // SQPOLL moved the submission to the SQ thread's CPU, which spun all along
    expect(sqpoll.counters["io_uring.sqpoll.awake_cycles"]).toBeGreaterThan(0.95 * sqpoll.totalCycles);
  });
});
