/**
 * NGPT 2.2 (GNU Pth based M:N) on one LWP, following NGPT 2.2.1's pth_sched.c / pth_lib.c.
 * pthread_create makes a user-level thread inside the calling kernel task; a yield goes thread A ->
 * scheduler -> thread B with two pth_mctx_switch calls. On Linux/glibc Pth's machine context is
 * sigsetjmp/siglongjmp ("sjlj/ssjlj"): each switch queries the mask into the old jmp_buf and
 * installs the new one, two rt_sigprocmask. The scheduler stamps the time three times per pass
 * (snapshot after coming back, again at event_wait, lastran before switching in) and runs its
 * event manager only when at most one thread is ready. That is the 4 rt_sigprocmask + 3
 * gettimeofday Seaman counted per yield; the queue work takes spin locks whose test_and_set is a
 * `lock; xchgl` even on one CPU.
 */
import {
  allSignals,
  SIGKILL,
  SIGSTOP,
  applyHowSet,
  EAGAIN,
  ESRCH,
  F_GETFL,
  F_SETFL,
  O_NONBLOCK,
  setMaskSet,
  Sigset,
  stateKey,
  type Gen,
  type Kernel,
  type PathHandle,
  type RuntimeThread,
  type ThreadBody,
  type ThreadLibrary,
  type UThread,
  type UserThreadScheduler,
} from "@siglab/plugin-api";
import type { FastLibcModel, FastRuntimeThread, FastUThreadHooks, FastUserThreadScheduler } from "@siglab/plugin-api/internal";
import { SwitchTallies } from "./tallies.js";

export interface NgptOptions {
  /** NGPT 2.2.0 HP_TIMING: rdtsc instead of gettimeofday */
  hpTiming: boolean;
  /** the switch saves and installs the thread masks (false: sigsetjmp(jb, 0)/_longjmp, the hazard variant that skips them) */
  switchMask: boolean;
}

const EDEADLK = 35;

/** Every signal but SIGKILL/SIGSTOP (the scheduler's mask); never mutated. */
const ALL_SIGNALS_SET = allSignals();

/** per LWP: NGPT's own state (the mask the program asked for, the signal pipe) */
interface LwpState {
  init: boolean;
  /** the mask the program has asked for (the running thread's) */
  intended: Sigset | null;
  /** the read end of pth_scheduler_init's signal pipe */
  sigpipe: number | undefined;
  /** where the scheduler hook's Now form stopped (its Rest reads it at once; see stopAt) */
  hookStop: number;
  /** the per-switch counters (added to the kernel's at the end of the run) */
  tallies: SwitchTallies;
}
const LWP = stateKey("ngpt.lwp", (): LwpState => ({ init: false, intended: null, sigpipe: undefined, hookStop: -1, tallies: new SwitchTallies() }));

/**
 * The switch's sequences run without generators while every step finishes synchronously (no
 * interrupt due, no exit work; see FastRuntimeThread.sigprocmaskSetNow). A `…Steps(…, first)` function
 * runs the steps from `first` and returns -1 when all are done, or where it stopped: the step's
 * index and what it left (a runUserNow result, or a nested sequence's own stop). The `…Rest`
 * generator finishes that step and goes on with the Steps function from the next one.
 */
const stopAt = (step: number, left: number): number => (step << 8) | left;
const stepOf = (stop: number): number => stop >> 8;
const leftOf = (stop: number): number => stop & 0xff;
/** enter's step 3 stopped inside the mctx switch: this plus the switch's own stop (steps 0-2 stay below it) */
const IN_ENTER_SWITCH = stopAt(3, 0);
/** The thread's saved mask (what siglongjmp installs when switching into it). */
function maskOf(ut: UThread): Sigset {
  return ut.mask ?? EMPTY;
}

/**
 * The paths a switch runs, as the kernel's handles where it makes them (plugin API 2.2
 * Kernel.pathHandle: no lookup by name, ~11 per yield) and as names on an older kernel.
 */
class SwitchPaths {
  readonly pth_yield: string | PathHandle;
  readonly sigsetjmp: string | PathHandle;
  readonly siglongjmp: string | PathHandle;
  readonly __longjmp: string | PathHandle;
  readonly cameback: string | PathHandle;
  readonly requeue: string | PathHandle;
  readonly pick: string | PathHandle;
  readonly dispatch: string | PathHandle;
  readonly hp_timing: string | PathHandle;
  constructor(k: Kernel) {
    const h = (name: string): string | PathHandle => (k.pathHandle ? k.pathHandle(name) : name);
    this.pth_yield = h("ngpt.pth_yield");
    this.sigsetjmp = h("ngpt.sigsetjmp");
    this.siglongjmp = h("ngpt.siglongjmp");
    this.__longjmp = h("ngpt.__longjmp");
    this.cameback = h("ngpt.scheduler.cameback");
    this.requeue = h("ngpt.scheduler.requeue");
    this.pick = h("ngpt.scheduler.pick");
    this.dispatch = h("ngpt.scheduler.dispatch");
    this.hp_timing = h("ngpt.hp_timing");
  }
}

/**
 * The core's threads, schedulers and libc models implement the fast-call protocol of
 * @siglab/plugin-api/internal (unstable, for built-in plugins): the switch uses its synchronous forms.
 */
const fast = (th: RuntimeThread): FastRuntimeThread => th as FastRuntimeThread;

/** Masks are kept as bit sets and never mutated once stored (the switch runs millions of times). */
const EMPTY = new Sigset();

export class NgptLibrary implements ThreadLibrary {
  readonly id = "ngpt";
  /** made once: lwp() runs several times per switch */
  private readonly makeHooks = (): FastUThreadHooks => this.hooks();
  constructor(private readonly opts: NgptOptions) {}

  /** the last LWP looked up and its state (a switch stays on one LWP; lwp() runs several times per switch) */
  private lastTask: object | null = null;
  private lastLwp: FastUserThreadScheduler | null = null;
  private lastState: LwpState | null = null;

  /** the switch's paths in this run (a handle is valid in the kernel that made it only) */
  private switchPaths: SwitchPaths | null = null;
  private switchPathsOf: Kernel | null = null;
  private paths(th: RuntimeThread): SwitchPaths {
    const k = th.kernel;
    if (k !== this.switchPathsOf) {
      this.switchPaths = new SwitchPaths(k);
      this.switchPathsOf = k;
    }
    return this.switchPaths!;
  }

  private lwp(th: RuntimeThread): FastUserThreadScheduler {
    if (th.task === this.lastTask) return this.lastLwp!;
    const s = th.userThreads(this.id, this.makeHooks) as FastUserThreadScheduler;
    const st = s.slot(LWP);
    this.lastTask = th.task;
    this.lastLwp = s;
    this.lastState = st;
    if (!st.init) {
      st.init = true;
      st.tallies.attach(th.kernel);
      // the mask the program has asked for (the running thread's): what the blocked-signal
      // checker compares deliveries with. With user-sigmask the page itself is that mask.
      const task = th.task;
      if (!th.kernel.userSigmask) task.userMask = { has: (sig: number) => (st.intended ?? task.blocked).has(sig) };
    }
    return s;
  }

  /** The LWP's NGPT state. */
  private lwpState(th: RuntimeThread): LwpState {
    if (th.task !== this.lastTask) this.lwp(th);
    return this.lastState!;
  }

  /** Set the LWP's mask (or, in a switch with switchMask off, only the library's idea of it). */
  private *mask(th: FastRuntimeThread, how: 0 | 1 | 2, set: Sigset | null, inSwitch: boolean): Gen<Sigset> {
    const r = this.maskNow(th, how, set, inSwitch);
    return r !== undefined ? r : yield* this.maskRest(th, how, set);
  }

  /**
   * mask() without a generator (it runs four times per switch): the old mask, or undefined when the
   * system call could not finish synchronously — then `yield* maskRest(th, how, set)` at once.
   */
  private maskNow(th: FastRuntimeThread, how: 0 | 1 | 2, set: Sigset | null, inSwitch: boolean): Sigset | undefined {
    const st = this.lwpState(th);
    const before = st.intended ?? th.task.blocked.clone();
    // a stored mask is never mutated: SETMASK of one the kernel would not change is itself
    if (set) st.intended = how === 2 && !set.has(SIGKILL) && !set.has(SIGSTOP) ? set : applyHowSet(before, how, set);
    if (inSwitch && !this.opts.switchMask) return before;
    if (th.kernel.userSigmask) return undefined;
    const r = th.sigprocmaskSetNow?.(how, set);
    return r === undefined ? undefined : typeof r === "number" ? EMPTY : r;
  }

  /** The rest of a maskNow that returned undefined (the library's own state is already updated). */
  private *maskRest(th: FastRuntimeThread, how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset> {
    if (th.kernel.userSigmask) return yield* setMaskSet(th, how, set);
    const r = yield* (th.sigprocmaskSetRest ? th.sigprocmaskSetRest(how, set) : th.sigprocmaskSet(how, set));
    return typeof r === "number" ? EMPTY : r;
  }

  *create(th: RuntimeThread, body: ThreadBody): Gen<{ tid: number }> {
    const s = this.lwp(th);
    yield* this.sigpipe(th, s);
    yield* th.runUser("ngpt.pth_spawn");
    // pth_mctx_set saves a context (sigsetjmp): it starts with the creator's mask (one sigprocmask)
    const mask = yield* this.mask(fast(th), 0, null, true);
    const lib = this;
    // pth_exit: dead, then one last switch into the scheduler
    const exit = function* (uth: RuntimeThread): Gen<void> {
      yield* uth.runUser("ngpt.pth_exit");
      yield* lib.mctxSwitch(fast(uth), s.current, ALL_SIGNALS_SET);
    };
    const ut = s.createWithExit
      ? s.createWithExit(body, exit)
      : s.create(function* (uth) {
          const rv = yield* body(uth);
          yield* exit(uth);
          return rv;
        });
    ut.mask = mask;
    th.kernel.count("ngpt.threads_created");
    return { tid: ut.id };
  }

  *join(th: RuntimeThread, h: { tid: number }): Gen<number> {
    const s = this.lwp(th);
    const target = s.threads.get(h.tid);
    if (!target) return -ESRCH;
    const me = s.current;
    if (target === me) return -EDEADLK;
    yield* th.runUser("ngpt.pth_join");
    if (target.state !== "done") {
      me.state = "waiting";
      me.waitingOn = `join of thread ${target.id}`;
      target.joiners.push(me);
      yield* th.runUser("ngpt.pth_wait"); // pth_join -> pth_wait(PTH_EVENT_TID)
      yield* this.toScheduler(fast(th), me);
    }
    return target.id;
  }

  *yield(t: RuntimeThread): Gen<void> {
    const th = fast(t);
    const s = this.lwp(th);
    const me = s.current;
    { const r = th.runUserNow(this.paths(th).pth_yield); if (r) yield* th.runUserRest(this.paths(th).pth_yield, r); }
    this.lwpState(th).tallies.yields++;
    me.state = "ready";
    // toScheduler written out: the thread's stack is one generator shallower while it is parked
    const stop = this.mctxSteps(th, me, ALL_SIGNALS_SET, 0);
    if (stop >= 0) yield* this.mctxRest(th, me, ALL_SIGNALS_SET, stop);
    // park written out where the kernel has it: the parked stack is one generator shallower
    const token = s.parkOut ? s.parkOut(me) : undefined;
    if (token === undefined) return yield* s.park(me);
    let resumed = false;
    try {
      yield token;
      resumed = true;
    } finally {
      s.parkBack!(me, resumed);
    }
  }

  /** pth_read: fcntl(F_GETFL); on a blocking fd select(timeout 0) first, and wait in the scheduler if not ready. */
  *read(th: RuntimeThread, fd: number, bytes: number): Gen<number> {
    yield* th.runUser("ngpt.io_wrapper");
    const fl = yield* th.fcntl(fd, F_GETFL);
    if (fl < 0) return fl;
    if (!(fl & O_NONBLOCK)) {
      const r = yield* th.select([fd], [], 0);
      if (typeof r !== "number" && !r.readable.includes(fd)) yield* this.waitFd(th, fd, false);
    }
    return yield* th.read(fd, bytes);
  }

  /** pth_write: fd into non-blocking mode (F_GETFL + F_SETFL), write, wait while it would block, restore the mode (F_GETFL + F_SETFL). */
  *write(th: RuntimeThread, fd: number, bytes: number): Gen<number> {
    yield* th.runUser("ngpt.io_wrapper");
    const fl = yield* th.fcntl(fd, F_GETFL);
    if (fl < 0) return fl;
    const userNonblock = (fl & O_NONBLOCK) !== 0;
    if (!userNonblock) yield* th.fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    let done = 0;
    let err = 0;
    for (;;) {
      const n = yield* th.write(fd, bytes - done);
      if (n > 0) done += n;
      if (done >= bytes) break;
      if (n < 0 && n !== -EAGAIN) {
        err = n;
        break;
      }
      if (userNonblock) break; // the caller asked for non-blocking I/O: return what was written
      yield* this.waitFd(th, fd, true);
    }
    if (!userNonblock) {
      yield* th.fcntl(fd, F_GETFL);
      yield* th.fcntl(fd, F_SETFL, fl);
    }
    if (done > 0 || bytes === 0) return done;
    return err || -EAGAIN;
  }

  *sigmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]> {
    yield* th.runUser("ngpt.pth_sigmask");
    return (yield* this.mask(fast(th), how, Sigset.of(set), false)).toList();
  }

  self(th: RuntimeThread): number {
    return this.lwp(th).current.id;
  }

  // ---- the switch ------------------------------------------------------------------------------

  /** pth_wait on an fd event: the event manager's select wakes the thread. */
  private *waitFd(th: RuntimeThread, fd: number, write: boolean): Gen<void> {
    const s = this.lwp(th);
    const me = s.current;
    yield* th.runUser("ngpt.pth_wait");
    me.state = "waiting";
    me.waitingOn = `fd ${fd} ${write ? "writable" : "readable"}`;
    s.fdWaits.push({ ut: me, fd, write });
    th.kernel.count("ngpt.fd_waits");
    yield* this.toScheduler(fast(th), me);
  }

  /** pth_mctx_switch(&current->mctx, &descr->sched->mctx), then run the scheduler until we are chosen. */
  private *toScheduler(th: FastRuntimeThread, me: UThread): Gen<void> {
    const s = this.lwp(th);
    const stop = this.mctxSteps(th, me, ALL_SIGNALS_SET, 0);
    if (stop >= 0) yield* this.mctxRest(th, me, ALL_SIGNALS_SET, stop);
    yield* s.park(me);
  }

  /**
   * pth_mctx_switch with Pth's sjlj/ssjlj machine context: sigsetjmp(old->jb, 1) saves registers
   * and queries the mask (rt_sigprocmask(SIG_BLOCK, NULL, &saved)); siglongjmp(new->jb) installs
   * the target's saved mask (rt_sigprocmask(SIG_SETMASK)) and jumps. No FPU state is touched.
   */
  *mctxSwitch(th: FastRuntimeThread, from: UThread | null, toMask: Sigset): Gen<void> {
    const stop = this.mctxSteps(th, from, toMask, 0);
    if (stop >= 0) yield* this.mctxRest(th, from, toMask, stop);
  }

  /** mctxSwitch's steps from `first` without a generator (see stopAt) */
  private mctxSteps(th: FastRuntimeThread, from: UThread | null, toMask: Sigset, first: number): number {
    if (first <= 0) { const r = th.runUserNow(this.paths(th).sigsetjmp); if (r) return stopAt(0, r); }
    if (first <= 1) {
      const old = this.maskNow(th, 0, null, true);
      if (old === undefined) return stopAt(1, 0);
      if (from) from.mask = old;
    }
    if (first <= 2) { const r = th.runUserNow(this.paths(th).siglongjmp); if (r) return stopAt(2, r); }
    if (first <= 3 && this.maskNow(th, 2, toMask, true) === undefined) return stopAt(3, 0);
    if (first <= 4) { const r = th.runUserNow(this.paths(th).__longjmp); if (r) return stopAt(4, r); }
    this.lwpState(th).tallies.mctxSwitches++;
    return -1;
  }

  private *mctxRest(th: FastRuntimeThread, from: UThread | null, toMask: Sigset, stopped: number): Gen<void> {
    for (let stop = stopped; stop >= 0; stop = this.mctxSteps(th, from, toMask, stepOf(stop) + 1)) {
      const step = stepOf(stop), r = leftOf(stop) as 1 | 2;
      if (step === 0) yield* th.runUserRest(this.paths(th).sigsetjmp, r);
      else if (step === 1) {
        const old = yield* this.maskRest(th, 0, null);
        if (from) from.mask = old;
      } else if (step === 2) yield* th.runUserRest(this.paths(th).siglongjmp, r);
      else if (step === 3) yield* this.maskRest(th, 2, toMask);
      else yield* th.runUserRest(this.paths(th).__longjmp, r);
    }
  }

  /** pth_scheduler_init's signal pipe (the event manager selects on it), both ends O_NONBLOCK via pth_fdmode. */
  private *sigpipe(th: RuntimeThread, s: UserThreadScheduler): Gen<number> {
    const st = s.slot(LWP);
    if (st.sigpipe !== undefined) return st.sigpipe;
    const [r, w] = yield* th.pipe();
    for (const fd of [r, w]) {
      const fl = yield* th.fcntl(fd, F_GETFL);
      yield* th.fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    }
    st.sigpipe = r;
    return r;
  }

  /**
   * Stamp the time (three times per switch), without a generator when it can: true when done,
   * false when `yield* nowRest(th)` must follow at once (nothing done yet with HP_TIMING).
   */
  private nowNow(th: FastRuntimeThread): boolean {
    if (this.opts.hpTiming) return false;
    const libc = th.libc as FastLibcModel;
    return libc.gettimeofdayNow !== undefined && libc.gettimeofdayNow(th) !== undefined;
  }
  private *nowRest(th: FastRuntimeThread): Gen<void> {
    const libc = th.libc as FastLibcModel;
    if (this.opts.hpTiming) { const r = th.runUserNow(this.paths(th).hp_timing); if (r) yield* th.runUserRest(this.paths(th).hp_timing, r); }
    else if (libc.gettimeofdayRest) yield* libc.gettimeofdayRest(th);
    else yield* th.libc.gettimeofday(th);
  }

  /**
   * pth_sched_eventmanager (group-leader LWP): sigpending, walk the waiting threads, open the mask
   * to what they allow, select on their fds and the signal pipe (timeout 0 when polling), drain
   * the pipe, close the mask again.
   */
  private *eventManager(s: UserThreadScheduler, poll: boolean): Gen<void> {
    const th = fast(s.sched);
    th.kernel.count("ngpt.eventmanager");
    yield* th.runUser("ngpt.eventmanager");
    yield* th.sigpending();
    const waiting = [...s.threads.values()].filter((t) => t.state === "waiting");
    if (waiting.length) yield* th.runUser("ngpt.eventmanager.walk", waiting.length);
    // the signals every waiting thread blocks stay blocked
    const block = ALL_SIGNALS_SET.clone();
    for (const t of waiting) block.and(maskOf(t));
    const oss = yield* this.mask(th, 2, block, true);
    const pipeR = s.slot(LWP).sigpipe;
    yield* s.pollFdWaits(!poll, pipeR === undefined ? [] : [pipeR]);
    if (pipeR !== undefined) yield* th.read(pipeR, 128); // clear the pipe: -EAGAIN when empty
    yield* this.mask(th, 2, oss, true);
  }

  /** The scheduler's side of a switch: the steps of `returned` from `first` (see stopAt). */
  private returnedSteps(s: UserThreadScheduler, first: number): number {
    const th = fast(s.sched);
    if (first <= 0) { const r = th.runUserNow(this.paths(th).cameback); if (r) return stopAt(0, r); }
    if (first <= 1 && !this.nowNow(th)) return stopAt(1, 0); // snapshot
    if (first <= 2) { const r = th.runUserNow(this.paths(th).requeue); if (r) return stopAt(2, r); }
    if (first <= 3 && !this.nowNow(th)) return stopAt(3, 0); // event_wait: snapshot again
    // NGPT 2.2.1 polls for events only when a single thread is ready (none: see idle)
    if (first <= 4 && s.ready.length === 1) return stopAt(4, 0);
    return -1;
  }

  private *returnedRest(s: UserThreadScheduler, stopped: number): Gen<void> {
    const th = fast(s.sched);
    for (let stop = stopped; stop >= 0; stop = this.returnedSteps(s, stepOf(stop) + 1)) {
      const step = stepOf(stop), r = leftOf(stop) as 1 | 2;
      if (step === 0) yield* th.runUserRest(this.paths(th).cameback, r);
      else if (step === 1 || step === 3) yield* this.nowRest(th);
      else if (step === 2) yield* th.runUserRest(this.paths(th).requeue, r);
      else yield* this.eventManager(s, true);
    }
  }

  /** Switching into `next`: the steps of `enter` from `first` (see stopAt). */
  private enterSteps(s: UserThreadScheduler, next: UThread, first: number): number {
    const th = fast(s.sched);
    if (first <= 0) { const r = th.runUserNow(this.paths(th).pick); if (r) return stopAt(0, r); }
    if (first <= 1 && !this.nowNow(th)) return stopAt(1, 0); // lastran
    if (first <= 2) { const r = th.runUserNow(this.paths(th).dispatch); if (r) return stopAt(2, r); }
    if (first <= 3) {
      const m = this.mctxSteps(th, null, maskOf(next), 0);
      if (m >= 0) return IN_ENTER_SWITCH + m; // step 3, carrying the switch's own stop
    }
    this.lwpState(th).tallies.switches++;
    return -1;
  }

  private *enterRest(s: UserThreadScheduler, next: UThread, stopped: number): Gen<void> {
    const th = fast(s.sched);
    for (let stop = stopped; stop >= 0; stop = this.enterSteps(s, next, stepOf(stop) + 1)) {
      if (stop >= IN_ENTER_SWITCH) {
        yield* this.mctxRest(th, null, maskOf(next), stop - IN_ENTER_SWITCH);
        this.enterSteps(s, next, 4); // what follows the switch (it only counts)
        return;
      }
      const step = stepOf(stop), r = leftOf(stop) as 1 | 2;
      if (step === 0) yield* th.runUserRest(this.paths(th).pick, r);
      else if (step === 1) yield* this.nowRest(th);
      else yield* th.runUserRest(this.paths(th).dispatch, r);
    }
  }

  private hooks(): FastUThreadHooks {
    const lib = this;
    const st = (s: UserThreadScheduler) => s.slot(LWP);
    return {
      *returned(s: UserThreadScheduler): Gen<void> {
        const stop = lib.returnedSteps(s, 0);
        if (stop >= 0) yield* lib.returnedRest(s, stop);
      },
      returnedNow(s: UserThreadScheduler): boolean {
        const stop = lib.returnedSteps(s, 0);
        if (stop < 0) return true;
        st(s).hookStop = stop;
        return false;
      },
      returnedRest(s: UserThreadScheduler): Gen<void> {
        const stop = st(s).hookStop;
        st(s).hookStop = -1;
        return lib.returnedRest(s, stop);
      },
      *idle(s: UserThreadScheduler): Gen<boolean> {
        if (!s.fdWaits.length) return false;
        yield* lib.eventManager(s, false);
        return true;
      },
      *enter(s: UserThreadScheduler, next: UThread): Gen<void> {
        const stop = lib.enterSteps(s, next, 0);
        if (stop >= 0) yield* lib.enterRest(s, next, stop);
      },
      enterNow(s: UserThreadScheduler, next: UThread): boolean {
        const stop = lib.enterSteps(s, next, 0);
        if (stop < 0) return true;
        st(s).hookStop = stop;
        return false;
      },
      enterRest(s: UserThreadScheduler, next: UThread): Gen<void> {
        const stop = st(s).hookStop;
        st(s).hookStop = -1;
        return lib.enterRest(s, next, stop);
      },
    };
  }
}
