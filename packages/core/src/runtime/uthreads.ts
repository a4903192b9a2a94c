/**
 * User-level threads multiplexed on one kernel task, for M:N and N:1 thread libraries (NGPT,
 * libc_r). Each user thread's body is a generator driven by a trampoline that forwards the
 * kernel's yields (SWITCH) to the run loop and stops when the thread parks itself with UT_PARK.
 * The stack that first entered the library (the LWP's own, e.g. main) is not a separate
 * generator: when it parks, it runs the scheduler loop nested and resumes by returning from it.
 * Costs and policy (mask installs, time stamps, I/O polling) come from the library's hooks.
 */
import type { PathRef } from "../kernel/path-refs.js";
import type { Kernel } from "../kernel/kernel.js";
import { SimError } from "../kernel/sim-error.js";
import type { Task } from "../kernel/task.js";
import type { InvariantChecker } from "../plugin-api/extension-points.js";
import type { Gen } from "../kernel/yields.js";
import { StateMap } from "../kernel/slots.js";
import {
  stateKey,
  type RuntimeThread,
  type ThreadBody as ApiThreadBody,
  type UThread as ApiUThread,
  type UThreadState,
} from "@siglab/plugin-api";
import type { FastUThreadHooks as ApiUThreadHooks, FastUserThreadScheduler } from "@siglab/plugin-api/internal";
import type { Sigset } from "../kernel/sigset.js";
import type { Gate } from "../arch/i386/entry.js";

/** What a user thread yields to give the CPU back to its library's scheduler. */
export const UT_PARK = Object.freeze({ utPark: true });

export type { UThreadState };

/**
 * The Thread a user-level thread's code runs with: the runtime's thread of the LWP's kernel task
 * (ThreadImpl, thread.ts), its system calls being the LWP's. `sibling` makes another one for the
 * same task: each user-level thread, and the scheduler, has its own.
 */
export interface LwpThread extends RuntimeThread {
  readonly kernel: Kernel;
  readonly task: Task;
  readonly gate: Gate;
  sibling(): LwpThread;
}

/** The scheduler a library keeps on a kernel task: user-space state, in a slot the runtime owns. */
const USER_THREADS = stateKey<UThreadScheduler | null>("core.user-threads", () => null);

export class UThread implements ApiUThread {
  state: UThreadState = "ready";
  /** why it waits ("join", "fd", ...), for deadlock messages */
  waitingOn = "";
  result = 0;
  readonly joiners: UThread[] = [];
  /** the library's saved signal mask of this thread */
  mask: Sigset | null = null;
  /** on the scheduler's ready queue (kept beside the queue so that membership is O(1)) */
  queued = false;
  /**
   * The generator the scheduler resumes: made from `body` on the first switch in (as a wrapping
   * generator would start it), then the library's `exit` work; null for the root (the LWP's own stack).
   */
  gen: Gen<unknown> | null = null;
  /** false once the body returned (then `gen` is the exit work, if any) */
  inBody = true;
  constructor(
    readonly id: number,
    /** the Thread object its code runs with (same kernel task as every other user thread) */
    readonly th: LwpThread,
    /** null for the root */
    readonly body: ApiThreadBody | null,
    /** the library's work after the body returned (pth_exit's switch out), if any */
    readonly exit: ((th: RuntimeThread, result: unknown) => Gen<unknown>) | null = null,
  ) {}
}

export type UThreadHooks = ApiUThreadHooks;
export interface FdWait {
  ut: UThread;
  fd: number;
  write: boolean;
}

export class UThreadScheduler extends StateMap implements FastUserThreadScheduler {
  readonly root: UThread;
  current: UThread;
  readonly ready: UThread[] = [];
  readonly threads = new Map<number, UThread>();
  readonly fdWaits: FdWait[] = [];
  /** the scheduler's own Thread object (its syscalls are the LWP's) */
  readonly sched: LwpThread;
  /** true while the scheduler (not a user thread) runs: a thread may not park from here */
  inScheduler = false;
  /** the thread whose UT_PARK is on its way to the trampoline (it may not act meanwhile) */
  parking: UThread | null = null;

  private constructor(readonly task: Task, rootTh: LwpThread, readonly hooks: UThreadHooks, readonly library: string) {
    super();
    this.root = new UThread(task.pid, rootTh, null);
    this.root.state = "running";
    this.current = this.root;
    this.threads.set(this.root.id, this.root);
    this.sched = rootTh.sibling();
    // the LWP's own stack may act only while it is the current user-level thread, or runs the scheduler
    rootTh.gate.turnGuard = () => this.current === this.root || this.inScheduler;
  }

  /** The scheduler of `th`'s kernel task, created on the library's first use there. */
  static of(th: LwpThread, library: string, hooks: () => UThreadHooks): UThreadScheduler {
    let s = th.task.peekSlot(USER_THREADS) ?? null;
    if (!s) th.task.setSlot(USER_THREADS, (s = new UThreadScheduler(th.task, th, hooks(), library)));
    else if (s.library !== library) throw new SimError("internal", `task ${th.task.pid} already runs ${s.library}'s user-level threads (not ${library})`, th.task.pid);
    return s;
  }

  /** The scheduler a library keeps on `task`, if any. */
  static find(task: Task): UThreadScheduler | null {
    return task.peekSlot(USER_THREADS) ?? null;
  }

  /** poll (or block in select on) the fds threads wait for, plus `alsoRead`; wakes the ready ones */
  pollFdWaits(block: boolean, alsoRead: number[] = []): Gen<number> {
    return pollFdWaits(this, block, alsoRead);
  }

  /**
   * A new ready thread running `body`, then `exit` (the library's exit work, given the body's
   * result) when there is one. The scheduler drives them itself: no wrapping generator, whose
   * level every switch in and out would pass through.
   */
  create(body: ApiThreadBody): UThread {
    return this.spawn(body, null);
  }

  /** API 2.2: create with the library's exit work run after the body (see UserThreadScheduler). */
  createWithExit(body: ApiThreadBody, exit: (th: RuntimeThread, result: unknown) => Gen<unknown>): UThread {
    if (typeof exit !== "function") throw new SimError("plugin", `${this.library}: createWithExit(body, exit): exit must be a function`, this.task.pid);
    return this.spawn(body, exit);
  }

  private spawn(body: ApiThreadBody, exit: ((th: RuntimeThread, result: unknown) => Gen<unknown>) | null): UThread {
    const th = this.root.th.sibling();
    let ut: UThread | null = null;
    th.gate.turnGuard = () => this.current === ut && this.parking !== ut;
    // ids above any pid, numbered per run (deterministic)
    const id = ++th.kernel.nextUThreadId;
    ut = new UThread(id, th, body, exit);
    this.threads.set(ut.id, ut);
    this.enqueue(ut);
    return ut;
  }

  /**
   * Give up the CPU from `me`'s context (the library did its switch-out work and set me.state).
   * Returns when the scheduler switched back into `me`.
   */
  *park(me: UThread): Gen<void> {
    this.parkCheck(me);
    if (!me.body) return yield* this.loop(me);
    this.parking = me;
    let resumed = false;
    try {
      yield UT_PARK;
      resumed = true;
    } finally {
      this.resumedIn(me, resumed);
    }
  }

  /**
   * API 2.2: park's first half, for a library that yields from its own generator (one generator
   * level fewer per switch): the value to `yield`, then `parkBack(me, resumed)` in a `finally`.
   * undefined when `me` is the LWP's own stack, which parks with `yield* park(me)` (it runs the
   * scheduler nested).
   */
  parkOut(me: UThread): typeof UT_PARK | undefined {
    if (!me.body) return undefined;
    this.parkCheck(me);
    this.parking = me;
    return UT_PARK;
  }

  /** park's second half (see parkOut): `resumed` false when the yield completed abruptly. */
  parkBack(me: UThread, resumed: boolean): void {
    this.resumedIn(me, resumed);
  }

  /** What park checks when the yield came back (see parkBack). */
  private resumedIn(me: UThread, resumed: boolean): void {
    // only this library's scheduler resumes a parked thread, and only after switching to it
    if (!resumed || this.current !== me) me.th.kernel.stopWith("workload", `${this.library}: user-level thread ${me.id} was resumed out of turn (a yield stepped, returned or thrown into by hand)`);
    if (resumed && this.current !== me) throw new SimError("workload", `${this.library}: user-level thread ${me.id} resumed while thread ${this.current.id} runs`, this.task.pid);
  }

  /** What park checks first, and the ready thread back on the queue. */
  private parkCheck(me: UThread): void {
    if (this.inScheduler) {
      throw new SimError("workload", `${this.library}: a thread switch was requested from a signal handler that interrupted the user-level scheduler (not supported)`, this.task.pid);
    }
    if (me !== this.current) throw new SimError("internal", `${this.library}: thread ${me.id} parked but ${this.current.id} is current`, this.task.pid);
    if (this.parking === me) {
      // its previous switch never reached the scheduler: someone stepped the yield by hand and ran on
      me.th.kernel.stopWith("workload", `${this.library}: user-level thread ${me.id} ran on after switching out (a yield stepped by hand)`);
      throw me.th.kernel.stopError!;
    }
    if (me.state === "ready" && !me.queued) this.enqueue(me);
  }

  /** Mark `ut` ready (an event it waited for happened). */
  wake(ut: UThread): void {
    if (ut.state !== "waiting") return;
    ut.state = "ready";
    ut.waitingOn = "";
    this.enqueue(ut);
  }

  /** The tail of the ready queue (Pth's pqueue: O(1) insert, the head taken first). */
  private enqueue(ut: UThread): void {
    ut.queued = true;
    this.ready.push(ut);
  }

  private dequeue(): UThread | undefined {
    const ut = this.ready.shift();
    if (ut) ut.queued = false;
    return ut;
  }

  /** The scheduler loop, on the root's stack: run threads until the root is chosen again. */
  private *loop(prev: UThread): Gen<void> {
    this.inScheduler = true;
    try {
      for (;;) {
        const h = this.hooks;
        if (!h.returnedNow) yield* h.returned(this, prev);
        else if (!h.returnedNow(this, prev)) yield* this.hookRest(h.returnedRest, "returnedRest", prev);
        let next = this.dequeue();
        while (!next) {
          if (!(yield* this.hooks.idle(this))) throw new SimError("deadlock", `${this.library}: deadlock: every user-level thread of task ${this.task.pid} waits (${this.describeWaits()})`, this.task.pid);
          next = this.dequeue();
        }
        if (!h.enterNow) yield* h.enter(this, next);
        else if (!h.enterNow(this, next)) yield* this.hookRest(h.enterRest, "enterRest", next);
        next.state = "running";
        this.current = next;
        if (next === this.root) return;
        this.inScheduler = false;
        // drive written out (no generator per switch): run it until it parks or its code ends
        let finished = false;
        for (;;) {
          const g = next.gen ?? (next.gen = iterate(next.body!(next.th as unknown as RuntimeThread)));
          const r = g.next();
          if (r.done) {
            if (next.inBody) {
              next.inBody = false;
              next.result = typeof r.value === "number" ? r.value : 0;
              if (next.exit) {
                next.gen = next.exit(next.th as unknown as RuntimeThread, r.value);
                continue;
              }
            }
            finished = true;
            break;
          }
          if (r.value === UT_PARK) {
            if (this.parking === next) this.parking = null;
            break;
          }
          yield r.value;
        }
        this.inScheduler = true;
        if (finished) this.finish(next);
        prev = next;
      }
    } finally {
      this.inScheduler = false;
    }
  }

  /** The rest of a hook's Now form that stopped (a library that gives the Now form must give its Rest). */
  private hookRest(rest: ((s: UThreadScheduler, ut: UThread) => Gen<void>) | undefined, name: string, ut: UThread): Gen<void> {
    if (typeof rest !== "function") throw new SimError("plugin", `${this.library}: its user-level thread hooks have ${name.replace("Rest", "Now")} but no ${name}`, this.task.pid);
    return rest.call(this.hooks, this, ut);
  }

  private finish(ut: UThread): void {
    ut.state = "done";
    for (const j of ut.joiners.splice(0)) this.wake(j);
  }

  private describeWaits(): string {
    return [...this.threads.values()]
      .filter((t) => t.state === "waiting")
      .map((t) => `thread ${t.id} on ${t.waitingOn || "?"}`)
      .join(", ");
  }
}

/**
 * The iterator `yield* it` would drive: a generator is its own; anything that is not iterable goes
 * through a `yield*`, which fails as it always did.
 */
function iterate(it: unknown): Gen<unknown> {
  const f = it == null ? undefined : (it as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  if (typeof f !== "function") return (function* () { return yield* it as Gen<unknown>; })();
  return f.call(it) as Gen<unknown>;
}

/**
 * The library's I/O wait: poll (timeout 0) or block in select on every fd a thread waits for
 * (plus `alsoRead`, e.g. the library's own wake-up pipe), and wake the threads whose fds are
 * ready. Returns the number woken, or -errno.
 */
export function* pollFdWaits(s: UThreadScheduler, block: boolean, alsoRead: number[] = []): Gen<number> {
  if (!s.fdWaits.length && !alsoRead.length) return 0;
  const rfds = [...new Set([...s.fdWaits.filter((w) => !w.write).map((w) => w.fd), ...alsoRead])];
  const wfds = [...new Set(s.fdWaits.filter((w) => w.write).map((w) => w.fd))];
  const r = yield* s.sched.select(rfds, wfds, block ? undefined : 0);
  if (typeof r === "number") return r;
  const still = s.fdWaits.filter((w) => !(w.write ? r.writable : r.readable).includes(w.fd));
  const woken = s.fdWaits.filter((w) => !still.includes(w));
  s.fdWaits.splice(0, s.fdWaits.length, ...still);
  for (const w of woken) s.wake(w.ut);
  return woken.length;
}

/**
 * runUser without creating a generator, for paths a library runs on every switch: 0 when the path
 * ran and no interrupt is due; otherwise the caller finishes with `yield* runUserRest(th, name, r)`
 * (1: the path ran and an interrupt is now due; 2: one was due before, nothing ran yet).
 */
export function runUserNow(th: LwpThread, name: string | PathRef): 0 | 1 | 2 {
  const k = th.kernel;
  if (k.interruptDue()) return 2;
  k.step();
  k.run(name);
  return k.interruptDue() ? 1 : 0;
}

/** The rest of a runUserNow that did not finish (see there). */
export function* runUserRest(th: LwpThread, name: string | PathRef, r: 0 | 1 | 2): Gen<void> {
  if (r === 2) yield* runUser(th, name);
  else if (r === 1) yield* th.gate.common_interrupt();
}

/** Library code in user mode, charged as path `name` (`n` times); a due interrupt is taken first. */
export function* runUser(th: LwpThread, name: string | PathRef, n = 1): Gen<void> {
  const k = th.kernel;
  k.step();
  if (k.interruptDue()) yield* th.gate.common_interrupt();
  if (n === 1) k.run(name);
  else k.runN(name, n);
  if (k.interruptDue()) yield* th.gate.common_interrupt();
}

/**
 * The one-LWP / N:1 hazard: the kernel task sleeps in a system call the library does not wrap
 * while some of its user-level threads are ready, so every thread waits. Reported (warning) with
 * the time the task slept; a library binds it as an InvariantChecker.
 */
export class UThreadsBlockedChecker implements InvariantChecker {
  readonly id = "uthreads-lwp-blocked";
  private readonly asleep = new Map<Task, { at: number; ready: number; library: string; current: number }>();

  attach(k: Kernel): void {
    k.events.onOwn("switch.out", (t) => {
      if (t.state !== "interruptible") return;
      const s = UThreadScheduler.find(t);
      // the scheduler's own wait (nothing ready) is the library's business, not a hazard
      if (!s || s.inScheduler || !s.ready.length) return;
      this.asleep.set(t, { at: k.cycles, ready: s.ready.length, library: s.library, current: s.current.id });
    });
    // every switch in: nothing to look up while no LWP sleeps (the usual case)
    k.events.onOwn("switch.in", (t) => {
      if (this.asleep.size !== 0) this.settle(k, t, "woke");
    });
    k.events.onOwn("run.end", () => {
      for (const t of [...this.asleep.keys()]) this.settle(k, t, "never woke before the run ended");
    });
  }

  private settle(k: Kernel, t: Task, how: string): void {
    const b = this.asleep.get(t);
    if (!b) return;
    this.asleep.delete(t);
    const delay = k.cycles - b.at;
    k.report({
      severity: "warning",
      kind: "lwp-blocked",
      message: `user-level thread ${b.current} put task ${t.pid} to sleep in a system call ${b.library} does not wrap while ${b.ready} other thread(s) were ready; it ${how} after ${delay} cycles and no thread ran meanwhile`,
      evidence: { task: t.pid, thread: b.current, readyThreads: b.ready, library: b.library, delayCycles: delay, delayUs: delay / k.profile.mhz, since: b.at, variants: k.variantIds.join(",") || "baseline" },
    });
  }
}
