/**
 * io_uring's submission and completion (io_uring/io_uring.c, io_uring/rw.c): io_submit_sqes takes
 * SQEs off the ring and starts their requests, a request's completion interrupt (io_complete_rw)
 * queues its task_work or, with SQPOLL, lets the SQ thread post its CQE, and post_cqes fills the CQ
 * ring. The system calls that use them are in syscalls.ts, the SQ thread's state in sqpoll.ts.
 */
import type { Kernel, Task } from "@siglab/plugin-api";
import { IORING_SQ_CQ_OVERFLOW, TASK_WORK, uringState, type IoKiocb, type IoRing } from "./ring.js";
import { sqAdvance, sqCharger, sqWake, type Charger } from "./sqpoll.js";

export const IORING_OP_NOP = 0;
export const IORING_OP_READ = 22;
export const IORING_OP_WRITE = 23;

const EBADF = 9, EINVAL = 22, EOPNOTSUPP = 95;

/**
 * io_submit_sqes: up to `nr` of the SQEs between the kernel's cached head and the program's tail,
 * each through io_submit_sqe (io_alloc_req, io_get_sqe, io_init_req, io_issue_sqe); requests the
 * driver queued complete later by interrupt, NOPs and refused SQEs complete inline and are posted
 * at io_submit_state_end. Returns how many SQEs were consumed.
 */
export function io_submit_sqes(k: Kernel, t: Task, ring: IoRing, nr: number, c: Charger): number {
  c.run("io_submit_sqes");
  const left = Math.min(nr, ring.sqEntriesReady());
  const inline: IoKiocb[] = [];
  let submitted = 0;
  for (let i = 0; i < left; i++) {
    c.run("io_submit_sqe");
    const sqe = ring.nextSqe();
    if (!sqe) break; // an out-of-range index: dropped (sq_dropped), submission stops
    submitted++;
    k.count("io_uring.sqes");
    const req: IoKiocb = { userData: sqe.userData, res: 0, task: t };
    const fail = (res: number, what?: string): void => {
      if (what) uringState(k).refusals.push({ pid: t.pid, what, cycle: k.cycles });
      req.res = res;
      c.run("io_submit_sqe.inline");
      inline.push(req);
    };
    if (sqe.opcode === IORING_OP_NOP) {
      fail(0);
      continue;
    }
    if (sqe.opcode !== IORING_OP_READ && sqe.opcode !== IORING_OP_WRITE) {
      fail(-EINVAL, `opcode ${sqe.opcode} is not modelled (IORING_OP_NOP, IORING_OP_READ and IORING_OP_WRITE are)`);
      continue;
    }
    const f = k.files.file(t, sqe.fd);
    if (!f) {
      fail(-EBADF);
      continue;
    }
    // sqe->len is a u32 (io_prep_rw): anything else is -EINVAL, as the aio plugin's iocb check
    if (typeof sqe.len !== "number" || !Number.isInteger(sqe.len) || sqe.len < 0 || sqe.len > 0xffffffff) {
      fail(-EINVAL);
      continue;
    }
    if (f.dev !== "disk") {
      // Linux would arm a poll or hand a pipe read to an io-wq worker; the model has neither
      fail(-EOPNOTSUPP, `fd ${sqe.fd} (${f.dev ? `/dev/${f.dev}` : "a pipe"}): only /dev/siglab-disk requests are modelled (no io-wq, no poll arming)`);
      continue;
    }
    c.run("io_rw_issue");
    ring.inflight++;
    k.count("io_uring.requests");
    k.files.disk().submit(k, sqe.len, (res) => io_complete_rw(k, ring, req, res));
  }
  c.run("io_submit_sqes.end");
  if (inline.length) post_cqes(k, ring, inline, c);
  ring.commitSq();
  return submitted;
}

/**
 * __io_submit_flush_completions: write one CQE per request into the ring (io_fill_cqe_req; a full
 * ring sends it to the overflow list), publish the tail (io_commit_cqring) and wake io_cqring_wait
 * sleepers whose condition now holds (io_cqring_wake -> io_wake_function).
 */
export function post_cqes(k: Kernel, ring: IoRing, reqs: IoKiocb[], c: Charger): void {
  c.run("__io_submit_flush_completions");
  for (const req of reqs) {
    if (ring.overflow.length === 0 && ring.fillCqe(req)) {
      c.run("io_fill_cqe_req");
      k.count("io_uring.cqes");
    } else {
      c.run("io_cqring_overflow");
      ring.overflow.push(req);
      ring.setSqFlag(IORING_SQ_CQ_OVERFLOW, true);
      k.count("io_uring.cq_overflows");
    }
  }
  ring.commitCq();
  for (const w of ring.cqWait) {
    if (w.task !== k.current && w.task.state === "interruptible" && ring.cqEventsUser() >= w.minEvents) {
      w.task.wakeReason = "io_uring";
      k.sched.wake_up(w.task);
    }
  }
}

/**
 * The request's completion, in the device interrupt (ki_complete = io_complete_rw): the result is
 * set and the request queued as task_work on its task (io_req_normal_work_add). The first request
 * on an empty list adds tctx_task_work to the task with TWA_SIGNAL: TIF_NOTIFY_SIGNAL, and a wake-up
 * if it sleeps. With SQPOLL the SQ thread is the request's task and runs the task_work itself.
 */
export function io_complete_rw(k: Kernel, ring: IoRing, req: IoKiocb, res: number): void {
  k.run("io_complete_rw");
  req.res = res;
  ring.inflight--;
  k.count("io_uring.completions");
  if (ring.sq) {
    k.run("__set_notify_signal");
    sqAdvance(k, ring);
    if (!ring.sq.awake) sqWake(k, ring);
    const c = sqCharger(k, ring);
    c.run("io_sq_thread");
    c.run("tctx_task_work");
    c.run("io_req_rw_complete");
    post_cqes(k, ring, [req], c);
    ring.sq.lastActive = k.cycles;
    // the SQ thread's loop also submits what the program queued while it slept
    sqPoll(k, ring);
    return;
  }
  const t = req.task;
  const list = t.slot(TASK_WORK);
  list.push({ ring, req });
  if (list.length > 1) return; // task_work already pending
  k.run("task_work_add");
  k.count("io_uring.task_work_adds");
  const sleeping = t.state === "interruptible" && [...uringState(k).rings.values()].some((r) => r.cqWait.some((w) => w.task === t));
  if (sleeping) {
    t.wakeReason = "io_uring";
    k.sched.wake_up(t);
  }
}

/**
 * One pass of the awake SQ thread's loop that finds SQEs: __io_sq_thread (io_uring/sqpoll.c) ->
 * io_submit_sqes. Here rather than in sqpoll.ts: submission, completion and this pass call one
 * another (a completion on a SQPOLL ring runs the thread's loop, which submits).
 */
export function sqPoll(k: Kernel, ring: IoRing): number {
  const sq = ring.sq!;
  if (!sq.awake) return 0;
  const n = ring.sqEntriesReady();
  if (n === 0) return 0;
  const c = sqCharger(k, ring);
  c.run("io_sq_thread");
  // the SQ thread runs with the ring creator's files, whatever task this CPU was running
  const done = io_submit_sqes(k, ring.owner, ring, n, c);
  sq.lastActive = k.cycles;
  k.count("io_uring.sqpoll.submit_passes");
  k.count("io_uring.sqpoll.sqes", done);
  return done;
}
