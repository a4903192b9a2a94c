/**
 * IORING_SETUP_SQPOLL: the SQ thread (io_uring/sqpoll.c io_sq_thread), modelled on a CPU of its own
 * that is not one of the run's simulated CPUs (IORING_SETUP_SQ_AFF to an otherwise idle CPU, the
 * way SQPOLL is deployed). While it is awake it spins: it sees the program's SQ tail store at once
 * (the plugin watches the word, as the thread's loop polls it) and submits with io_submit_sqes;
 * completions set TIF_NOTIFY_SIGNAL on it and it runs their task_work, posting the CQEs. Its work
 * is charged op by op, from the same paths and the profile's op costs, to its own account (counter
 * io_uring.sqpoll.work_cycles), not to the program's CPU; the time it spins is its CPU's too
 * (io_uring.sqpoll.awake_cycles). When it found no work for sq_thread_idle (in jiffies: it checks
 * `time_after(jiffies, timeout)`), it sets IORING_SQ_NEED_WAKEUP in sq_flags and sleeps; the program
 * must then call io_uring_enter(IORING_ENTER_SQ_WAKEUP), and a completion wakes it too. The thread's
 * state is brought up to date whenever the plugin runs (a tail store, a system call, a completion),
 * which is exact for the protocol liburing follows: store the tail, then read sq_flags.
 */
import type { Kernel, OpClass, PathDef } from "@siglab/plugin-api";
import { IORING_SQ_NEED_WAKEUP, type IoRing } from "./ring.js";
import { URING_PATHS } from "./paths.js";

/** Where a path's cycles go: the CPU running the program (k.run) or the SQ thread's CPU. */
export interface Charger {
  run(path: string): void;
}

export function appCharger(k: Kernel): Charger {
  return { run: (p) => k.run(p) };
}

const BY_NAME = new Map<string, PathDef>(URING_PATHS.map((p) => [p.name, p]));

/** Cycles of one execution of one of the plugin's paths on this run's CPU profile. */
export function pathCycles(k: Kernel, name: string): number {
  const def = BY_NAME.get(name);
  if (!def) throw new Error(`plugin 'io-uring': no path '${name}'`);
  const costs = k.profile.costs as Record<OpClass, number>;
  return def.ops.reduce((s, o) => s + (o.n ?? 1) * (costs[o.op] ?? 0), 0);
}

/** The SQ thread's CPU: the path's ops are costed from the profile and added to its work. */
export function sqCharger(k: Kernel, ring: IoRing): Charger {
  return {
    run: (p) => {
      const c = pathCycles(k, p);
      ring.sq!.workCycles += c;
    },
  };
}

/** The cycle the SQ thread goes to sleep if it finds nothing more: the first tick past its timeout. */
function expiry(k: Kernel, ring: IoRing): number {
  const sq = ring.sq!;
  return k.sched.roundUpToTick(sq.lastActive + sq.idleCycles + 1);
}

/** Bring the SQ thread's state up to now: asleep (IORING_SQ_NEED_WAKEUP) once its idle time ran out. */
export function sqAdvance(k: Kernel, ring: IoRing): void {
  const sq = ring.sq;
  if (!sq || !sq.awake) return;
  const at = expiry(k, ring);
  if (k.cycles < at) return;
  // it spun until `at`, then: prepare_to_wait, atomic_or(NEED_WAKEUP), re-check the tail, schedule()
  sq.awakeCycles += at - sq.awakeSince;
  sq.awake = false;
  sqCharger(k, ring).run("io_sq_thread.sleep");
  ring.setSqFlag(IORING_SQ_NEED_WAKEUP, true);
  k.count("io_uring.sqpoll.sleeps");
}

/** The SQ thread wakes (IORING_ENTER_SQ_WAKEUP, or a completion's __set_notify_signal). */
export function sqWake(k: Kernel, ring: IoRing): void {
  const sq = ring.sq!;
  if (sq.awake) return;
  sq.awake = true;
  sq.awakeSince = k.cycles;
  sq.lastActive = k.cycles;
  sqCharger(k, ring).run("io_sq_thread.wake");
  ring.setSqFlag(IORING_SQ_NEED_WAKEUP, false);
  k.count("io_uring.sqpoll.wakeups");
}

/** At the end of the run: the SQ thread's CPU time (awake) and work, as counters. */
export function sqFinish(k: Kernel, ring: IoRing): void {
  const sq = ring.sq;
  if (!sq) return;
  sqAdvance(k, ring);
  const awake = sq.awakeCycles + (sq.awake ? Math.min(k.cycles, expiry(k, ring)) - sq.awakeSince : 0);
  k.count("io_uring.sqpoll.awake_cycles", Math.round(awake));
  k.count("io_uring.sqpoll.work_cycles", Math.round(sq.workCycles));
}
