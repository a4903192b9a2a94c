/**
 * io_uring's two system calls (the same numbers on every architecture since 5.1) as the model's
 * workloads call them, and the completion side:
 *
 *   io_uring_setup(entries, flags?, sq_thread_idle_ms?) -> the rings' address R (the model's ring
 *       "fd"; the rings and the SQE array are mapped into the caller, see ring.ts) or -errno
 *   io_uring_enter(R, to_submit, min_complete, flags)  -> SQEs submitted (to_submit with SQPOLL),
 *       or, with to_submit 0 and IORING_ENTER_GETEVENTS, 0 once min_complete CQEs are in the ring
 *
 * The program writes SQEs and the SQ tail with plain stores and reads CQEs with plain loads: the
 * data never crosses the system call boundary. Submission and completion (io_submit_sqes,
 * io_complete_rw) are in submit.ts.
 */
import type { Gen, Kernel, SyscallContribution, Task } from "@siglab/plugin-api";
import { IoRing, OFF, PAGE_SIZE, SQE_BYTES, CQE_BYTES, CQES_OFFSET, IORING_SQ_CQ_OVERFLOW, TASK_WORK, ringOf, uringState, type IoKiocb } from "./ring.js";
import { appCharger, sqAdvance, sqWake } from "./sqpoll.js";
import { io_submit_sqes, post_cqes, sqPoll } from "./submit.js";

export const NR_io_uring_setup = 425;
export const NR_io_uring_enter = 426;

export const IORING_SETUP_IOPOLL = 1 << 0;
export const IORING_SETUP_SQPOLL = 1 << 1;
export const IORING_SETUP_SQ_AFF = 1 << 2;
/** every IORING_SETUP_* bit of 6.13 (io_uring_setup refuses others with -EINVAL) */
const IORING_SETUP_KNOWN = (1 << 17) - 1;

export const IORING_ENTER_GETEVENTS = 1 << 0;
export const IORING_ENTER_SQ_WAKEUP = 1 << 1;
export const IORING_ENTER_SQ_WAIT = 1 << 2;

/** IORING_MAX_ENTRIES */
const MAX_ENTRIES = 32768;
const EINTR = 4, EBADF = 9, EINVAL = 22;
const PROT_RW = 3;

function sys_io_uring_setup(k: Kernel, t: Task, args: unknown[]): number {
  const [entries, flagsArg, idleArg] = args;
  const flags = flagsArg === undefined ? 0 : flagsArg;
  const idleMs = idleArg === undefined ? 0 : idleArg;
  if (typeof entries !== "number" || !Number.isInteger(entries) || entries < 1 || entries > MAX_ENTRIES) return -EINVAL;
  // flags is a u32: bits above 31 would vanish in JavaScript's 32-bit bitwise operators
  if (typeof flags !== "number" || !Number.isInteger(flags) || flags < 0 || flags > 0xffffffff || flags & ~IORING_SETUP_KNOWN) return -EINVAL;
  if (typeof idleMs !== "number" || !Number.isInteger(idleMs) || idleMs < 0) return -EINVAL;
  const sqpoll = (flags & IORING_SETUP_SQPOLL) !== 0;
  if (flags & IORING_SETUP_SQ_AFF && !sqpoll) return -EINVAL; // "Can't have SQ_AFF without SQPOLL"
  const unmodelled = flags & ~(IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF);
  if (unmodelled) {
    // real flags (IOPOLL, COOP_TASKRUN, DEFER_TASKRUN, ...) whose mechanisms the model does not have
    uringState(k).refusals.push({ pid: t.pid, what: `io_uring_setup flags 0x${unmodelled.toString(16)} (only IORING_SETUP_SQPOLL and IORING_SETUP_SQ_AFF are modelled)`, cycle: k.cycles });
    return -EINVAL;
  }
  // io_uring_fill_params: roundup_pow_of_two(entries); cq_entries = 2 x sq_entries
  const sqEntries = 2 ** Math.ceil(Math.log2(entries));
  const cqEntries = 2 * sqEntries;
  const sqArrayOff = Math.ceil((CQES_OFFSET + CQE_BYTES * cqEntries) / 64) * 64;
  const ringBytes = Math.ceil((sqArrayOff + 4 * sqEntries) / PAGE_SIZE) * PAGE_SIZE;
  const sqesBytes = Math.ceil((SQE_BYTES * sqEntries) / PAGE_SIZE) * PAGE_SIZE;
  // io_allocate_scq_urings: two regions; the program's two mmap() calls are folded in here (the
  // plugin API cannot install an fd), their entry and exit are not charged
  const rings = t.mm.mmapAnon(ringBytes, PROT_RW);
  const sqes = t.mm.mmapAnon(sqesBytes, PROT_RW);
  k.runN("io_create_region.page", (ringBytes + sqesBytes) / PAGE_SIZE);
  k.runN("io_uring_mmap", 2);
  k.run("io_uring_setup.done");
  let idleCycles: number | null = null;
  if (sqpoll) {
    k.run("io_sq_offload_create");
    // sq_thread_idle = msecs_to_jiffies(p->sq_thread_idle) ?: HZ
    const jiffies = idleMs > 0 ? Math.ceil((idleMs * k.config.hz) / 1000) : k.config.hz;
    idleCycles = Math.round((jiffies / k.config.hz) * 1e6 * k.profile.mhz);
  }
  const ring = new IoRing(rings, sqes, t.mm, t, sqEntries, idleCycles, k.cycles);
  const s = uringState(k);
  s.rings.set(rings, ring);
  if (sqpoll) {
    s.sqTails.set(rings + OFF.sqTail, ring);
    k.count("io_uring.sqpoll.threads");
  }
  k.count("io_uring.rings");
  return rings;
}

/** io_cqring_do_overflow_flush: overflowed CQEs move into the ring as the program frees slots. */
function flush_overflow(k: Kernel, ring: IoRing): void {
  let moved = false;
  while (ring.overflow.length && ring.fillCqe(ring.overflow[0]!)) {
    ring.overflow.shift();
    k.run("io_cqring_overflow_flush");
    k.count("io_uring.cqes");
    moved = true;
  }
  if (!ring.overflow.length) ring.setSqFlag(IORING_SQ_CQ_OVERFLOW, false);
  if (moved) ring.commitCq();
}

/**
 * Run the task_work pending on `t` (tctx_task_work): io_req_rw_complete for each request, then
 * one flush per ring that posts the CQEs. `from` names the caller: the exit to user mode
 * (TIF_NOTIFY_SIGNAL in exit_to_user_mode_loop) or io_run_task_work inside io_uring_enter.
 */
export function run_task_work(k: Kernel, t: Task, from: "exit" | "io_uring"): number {
  const list = t.peekSlot(TASK_WORK);
  if (!list || list.length === 0) return 0;
  const items = list.splice(0);
  k.run(from === "exit" ? "exit_to_user_mode_loop.task_work" : "io_run_task_work");
  k.run("tctx_task_work");
  k.runN("io_req_rw_complete", items.length);
  k.count("io_uring.task_work_runs");
  const byRing = new Map<IoRing, IoKiocb[]>();
  for (const { ring, req } of items) {
    const l = byRing.get(ring);
    if (l) l.push(req);
    else byRing.set(ring, [req]);
  }
  for (const [ring, reqs] of byRing) post_cqes(k, ring, reqs, appCharger(k));
  return items.length;
}

/**
 * io_cqring_wait: run pending task_work, and return at once when min_events CQEs are in the ring;
 * else sleep on ctx->cq_wait (TASK_INTERRUPTIBLE), running task_work after every wake-up, until
 * enough CQEs are in or a signal is pending (-EINTR).
 */
function* io_cqring_wait(k: Kernel, t: Task, ring: IoRing, minEvents: number): Gen<number> {
  k.run("io_cqring_wait");
  run_task_work(k, t, "io_uring");
  if (ring.overflow.length) flush_overflow(k, ring);
  if (ring.cqEventsUser() >= minEvents) return 0;
  k.run("io_cqring_wait.sleep");
  let ret = 0;
  for (;;) {
    if (t.sigpending) {
      ret = -EINTR;
      break;
    }
    // io_cqring_wait_schedule: task_work pending (a completion since the last check): no sleep
    if (!t.peekSlot(TASK_WORK)?.length) {
      const w = { task: t, minEvents };
      ring.cqWait.push(w);
      t.state = "interruptible";
      t.wakeReason = "";
      t.waitingOn = "io_cqring_wait";
      k.count("io_uring.cq_wait_sleeps");
      yield* k.sched.schedule();
      const i = ring.cqWait.indexOf(w);
      if (i >= 0) ring.cqWait.splice(i, 1);
    }
    k.run("io_cqring_wait.wake");
    run_task_work(k, t, "io_uring");
    if (ring.overflow.length) flush_overflow(k, ring);
    if (t.sigpending) {
      ret = -EINTR;
      break;
    }
    if (ring.cqEventsUser() >= minEvents) break;
  }
  k.run("io_cqring_wait.done");
  return ring.cqEventsUser() === 0 ? ret : 0;
}

function* sys_io_uring_enter(k: Kernel, t: Task, args: unknown[]): Gen<number> {
  const [fd, toSubmitArg, minArg, flagsArg] = args;
  const flags = flagsArg === undefined ? 0 : flagsArg;
  const toSubmit = toSubmitArg === undefined ? 0 : toSubmitArg;
  const minComplete = minArg === undefined ? 0 : minArg;
  if (typeof flags !== "number" || !Number.isInteger(flags) || flags < 0 || flags > 0xffffffff || flags & ~(IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP | IORING_ENTER_SQ_WAIT)) return -EINVAL;
  if (typeof toSubmit !== "number" || !Number.isInteger(toSubmit) || toSubmit < 0) return -EINVAL;
  if (typeof minComplete !== "number" || !Number.isInteger(minComplete) || minComplete < 0) return -EINVAL;
  k.run("io_uring_enter");
  const ring = ringOf(k, t, fd);
  if (!ring) return -EBADF;
  let ret = 0;
  let getevents = (flags & IORING_ENTER_GETEVENTS) !== 0;
  if (ring.sq) {
    // "For SQ polling, the thread will do all submissions and completions": just return to_submit
    sqAdvance(k, ring);
    if (flags & IORING_ENTER_SQ_WAKEUP) {
      k.run("io_uring_enter.sq_wakeup");
      k.count("io_uring.sqpoll.enter_wakeups");
      if (!ring.sq.awake) sqWake(k, ring);
      sqPoll(k, ring);
    }
    ret = toSubmit;
  } else if (toSubmit > 0) {
    ret = io_submit_sqes(k, t, ring, toSubmit, appCharger(k));
    if (ret !== toSubmit) getevents = false; // goto out
  }
  if (getevents) {
    const ret2 = yield* io_cqring_wait(k, t, ring, Math.min(minComplete, ring.cqEntries));
    if (!ret) ret = ret2;
  }
  k.run("io_uring_enter.done");
  // syscall_exit_to_user_mode: TIF_NOTIFY_SIGNAL set by a completion during the call
  run_task_work(k, t, "exit");
  return ret;
}

export const URING_SYSCALLS: SyscallContribution[] = [
  { nr: NR_io_uring_setup, name: "io_uring_setup", path: "sys_io_uring_setup", handler: sys_io_uring_setup },
  { nr: NR_io_uring_enter, name: "io_uring_enter", blocking: true, handler: sys_io_uring_enter },
];
