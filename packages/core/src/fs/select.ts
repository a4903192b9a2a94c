/**
 * select (fs/select.c do_select): each descriptor's poll, then a sleep on all their wait queues
 * until one is ready, a signal comes or the timeout (tick-rounded, as schedule_timeout's) ends.
 */
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import { schedule } from "../kernel/sched.js";
import { ERESTARTSYS } from "../kernel/signal.js";
import type { Task } from "../kernel/task.js";
import { roundUpToTick } from "../kernel/timer.js";
import { sleepOn, unqueue } from "../kernel/wait.js";
import { EBADF, File, filesOf } from "./file.js";
import { PIPE_BUF } from "./pipe.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["select.done", "select.poll_fd", "sys_select"]);

// /dev/zero and /dev/null are always ready (their poll returns POLLIN|POLLOUT)
function alwaysReady(f: File): boolean {
  return f.dev === "null" || f.dev === "zero";
}
function readable(f: File): boolean {
  return alwaysReady(f) || f.pipe.len > 0 || f.pipe.writers === 0;
}
function writable(f: File): boolean {
  // the disk queues every write (its records are not a pipe's buffer)
  return alwaysReady(f) || f.dev === "disk" || f.pipe.len < PIPE_BUF || f.pipe.readers === 0;
}

/** select(): poll each fd; sleep on all their wait queues until one is ready, a signal, or timeout. */
export function* sys_select(k: KernelCore, t: Task, rfds: number[], wfds: number[], timeoutNs: number | undefined): Generator<unknown, { readable: number[]; writable: number[] } | number, unknown> {
  k.runRef(P["sys_select"]);
  const ft = filesOf(t);
  for (const fd of [...rfds, ...wfds]) if (!ft.get(fd)) return -EBADF;
  const deadline = timeoutNs === undefined ? -1 : k.cycles + Math.ceil((timeoutNs * k.profile.mhz) / 1000);
  for (;;) {
    const r = rfds.filter((fd) => { k.runRef(P["select.poll_fd"]); return readable(ft.get(fd)!); });
    const w = wfds.filter((fd) => { k.runRef(P["select.poll_fd"]); return writable(ft.get(fd)!); });
    if (r.length || w.length || timeoutNs === 0 || (deadline >= 0 && k.cycles >= deadline)) {
      k.runRef(P["select.done"]);
      return { readable: r, writable: w };
    }
    const queues = [...rfds.map((fd) => ft.get(fd)!.pipe.readWait), ...wfds.map((fd) => ft.get(fd)!.pipe.writeWait)];
    for (const q of queues) sleepOn(k, t, q);
    if (deadline >= 0) t.timeoutAt = roundUpToTick(k, deadline);
    yield* schedule(k);
    t.timeoutAt = -1;
    for (const q of queues) unqueue(k, t, q);
    if (t.sigpending) return -ERESTARTSYS;
  }
}
