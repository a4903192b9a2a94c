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
import { pipe, pollFdWaits, runUser, runUserNow, runUserRest, UThreadScheduler, type Gen, type ThreadBody, type ThreadImpl, type ThreadLibrary, type UThread, type UThreadHooks } from "@siglab/core";
import { ALL_SIGNALS_SET, applyHowSet, setMaskSet, Sigset, userSigmask } from "@siglab/core";

export interface NgptOptions {
  /** NGPT 2.2.0 HP_TIMING: rdtsc instead of gettimeofday */
  hpTiming: boolean;
  /** the switch saves and installs the thread masks (false: sigsetjmp(jb, 0)/_longjmp, the hazard variant that skips them) */
  switchMask: boolean;
}

const ESRCH = 3;
const EDEADLK = 35;
const EAGAIN = 11;

/** The thread's saved mask (what siglongjmp installs when switching into it). */
function maskOf(ut: UThread): Sigset {
  return (ut.ext["mask"] as Sigset | undefined) ?? EMPTY;
}

/** Masks are kept as bit sets and never mutated once stored (the switch runs millions of times). */
const EMPTY = new Sigset();

export class NgptLibrary implements ThreadLibrary {
  readonly id = "ngpt";
  constructor(private readonly opts: NgptOptions) {}

  private lwp(th: ThreadImpl): UThreadScheduler {
    const s = UThreadScheduler.of(th, this.id, () => this.hooks());
    if (!s.ext["init"]) {
      s.ext["init"] = true;
      // the mask the program has asked for (the running thread's): what the blocked-signal
      // checker compares deliveries with. With user-sigmask the page itself is that mask.
      const task = th.task;
      if (!userSigmask(th)) task.ext["userBlocked"] = { has: (sig: number) => ((s.ext["intended"] as Sigset | undefined) ?? task.blocked).has(sig) };
    }
    return s;
  }

  /** Set the LWP's mask (or, in a switch with switchMask off, only the library's idea of it). */
  private *mask(th: ThreadImpl, how: 0 | 1 | 2, set: Sigset | null, inSwitch: boolean): Gen<Sigset> {
    const s = this.lwp(th);
    const before = (s.ext["intended"] as Sigset | undefined) ?? th.task.blocked.clone();
    if (set) s.ext["intended"] = applyHowSet(before, how, set);
    if (inSwitch && !this.opts.switchMask) return before;
    if (userSigmask(th)) return yield* setMaskSet(th, how, set);
    const r = yield* th.sigprocmaskSet(how, set); // the common case, one generator less
    return typeof r === "number" ? EMPTY : r;
  }

  *create(th: ThreadImpl, body: ThreadBody): Gen<{ tid: number }> {
    const s = this.lwp(th);
    yield* this.sigpipe(th, s);
    yield* runUser(th, "ngpt.pth_spawn");
    // pth_mctx_set saves a context (sigsetjmp): it starts with the creator's mask (one sigprocmask)
    const mask = yield* this.mask(th, 0, null, true);
    const lib = this;
    const ut = s.create(function* (uth) {
      const rv = yield* body(uth);
      // pth_exit: dead, then one last switch into the scheduler
      yield* runUser(uth, "ngpt.pth_exit");
      yield* lib.mctxSwitch(uth, s.current, ALL_SIGNALS_SET);
      return rv;
    });
    ut.ext["mask"] = mask;
    th.kernel.count("ngpt.threads_created");
    return { tid: ut.id };
  }

  *join(th: ThreadImpl, h: { tid: number }): Gen<number> {
    const s = this.lwp(th);
    const target = s.threads.get(h.tid);
    if (!target) return -ESRCH;
    const me = s.current;
    if (target === me) return -EDEADLK;
    yield* runUser(th, "ngpt.pth_join");
    if (target.state !== "done") {
      me.state = "waiting";
      me.waitingOn = `join of thread ${target.id}`;
      target.joiners.push(me);
      yield* runUser(th, "ngpt.pth_wait"); // pth_join -> pth_wait(PTH_EVENT_TID)
      yield* this.toScheduler(th, me);
    }
    return target.id;
  }

  *yield(th: ThreadImpl): Gen<void> {
    const s = this.lwp(th);
    const me = s.current;
    { const r = runUserNow(th, "ngpt.pth_yield"); if (r) yield* runUserRest(th, "ngpt.pth_yield", r); }
    th.kernel.count("ngpt.yields");
    me.state = "ready";
    yield* this.toScheduler(th, me);
  }

  /** pth_read: fcntl(F_GETFL); on a blocking fd select(timeout 0) first, and wait in the scheduler if not ready. */
  *read(th: ThreadImpl, fd: number, bytes: number): Gen<number> {
    yield* runUser(th, "ngpt.io_wrapper");
    const fl = yield* th.fcntl(fd, pipe.F_GETFL);
    if (fl < 0) return fl;
    if (!(fl & pipe.O_NONBLOCK)) {
      const r = yield* th.select([fd], [], 0);
      if (typeof r !== "number" && !r.readable.includes(fd)) yield* this.waitFd(th, fd, false);
    }
    return yield* th.read(fd, bytes);
  }

  /** pth_write: fd into non-blocking mode (F_GETFL + F_SETFL), write, wait while it would block, restore the mode (F_GETFL + F_SETFL). */
  *write(th: ThreadImpl, fd: number, bytes: number): Gen<number> {
    yield* runUser(th, "ngpt.io_wrapper");
    const fl = yield* th.fcntl(fd, pipe.F_GETFL);
    if (fl < 0) return fl;
    const userNonblock = (fl & pipe.O_NONBLOCK) !== 0;
    if (!userNonblock) yield* th.fcntl(fd, pipe.F_SETFL, fl | pipe.O_NONBLOCK);
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
      yield* th.fcntl(fd, pipe.F_GETFL);
      yield* th.fcntl(fd, pipe.F_SETFL, fl);
    }
    if (done > 0 || bytes === 0) return done;
    return err || -EAGAIN;
  }

  *sigmask(th: ThreadImpl, how: 0 | 1 | 2, set: number[]): Gen<number[]> {
    yield* runUser(th, "ngpt.pth_sigmask");
    return (yield* this.mask(th, how, Sigset.of(set), false)).toList();
  }

  self(th: ThreadImpl): number {
    return this.lwp(th).current.id;
  }

  // ---- the switch ------------------------------------------------------------------------------

  /** pth_wait on an fd event: the event manager's select wakes the thread. */
  private *waitFd(th: ThreadImpl, fd: number, write: boolean): Gen<void> {
    const s = this.lwp(th);
    const me = s.current;
    yield* runUser(th, "ngpt.pth_wait");
    me.state = "waiting";
    me.waitingOn = `fd ${fd} ${write ? "writable" : "readable"}`;
    s.fdWaits.push({ ut: me, fd, write });
    th.kernel.count("ngpt.fd_waits");
    yield* this.toScheduler(th, me);
  }

  /** pth_mctx_switch(&current->mctx, &descr->sched->mctx), then run the scheduler until we are chosen. */
  private *toScheduler(th: ThreadImpl, me: UThread): Gen<void> {
    const s = this.lwp(th);
    yield* this.mctxSwitch(th, me, ALL_SIGNALS_SET);
    yield* s.park(me);
  }

  /**
   * pth_mctx_switch with Pth's sjlj/ssjlj machine context: sigsetjmp(old->jb, 1) saves registers
   * and queries the mask (rt_sigprocmask(SIG_BLOCK, NULL, &saved)); siglongjmp(new->jb) installs
   * the target's saved mask (rt_sigprocmask(SIG_SETMASK)) and jumps. No FPU state is touched.
   */
  *mctxSwitch(th: ThreadImpl, from: UThread | null, toMask: Sigset): Gen<void> {
    { const r = runUserNow(th, "ngpt.sigsetjmp"); if (r) yield* runUserRest(th, "ngpt.sigsetjmp", r); }
    const old = yield* this.mask(th, 0, null, true);
    if (from) from.ext["mask"] = old;
    { const r = runUserNow(th, "ngpt.siglongjmp"); if (r) yield* runUserRest(th, "ngpt.siglongjmp", r); }
    yield* this.mask(th, 2, toMask, true);
    { const r = runUserNow(th, "ngpt.__longjmp"); if (r) yield* runUserRest(th, "ngpt.__longjmp", r); }
    th.kernel.count("ngpt.mctx_switches");
  }

  /** pth_scheduler_init's signal pipe (the event manager selects on it), both ends O_NONBLOCK via pth_fdmode. */
  private *sigpipe(th: ThreadImpl, s: UThreadScheduler): Gen<number> {
    const have = s.ext["sigpipe"] as number | undefined;
    if (have !== undefined) return have;
    const [r, w] = yield* th.pipe();
    for (const fd of [r, w]) {
      const fl = yield* th.fcntl(fd, pipe.F_GETFL);
      yield* th.fcntl(fd, pipe.F_SETFL, fl | pipe.O_NONBLOCK);
    }
    s.ext["sigpipe"] = r;
    return r;
  }

  private *now(th: ThreadImpl): Gen<void> {
    if (this.opts.hpTiming) { const r = runUserNow(th, "ngpt.hp_timing"); if (r) yield* runUserRest(th, "ngpt.hp_timing", r); }
    else yield* th.shared.libc.gettimeofday(th);
  }

  /**
   * pth_sched_eventmanager (group-leader LWP): sigpending, walk the waiting threads, open the mask
   * to what they allow, select on their fds and the signal pipe (timeout 0 when polling), drain
   * the pipe, close the mask again.
   */
  private *eventManager(s: UThreadScheduler, poll: boolean): Gen<void> {
    const th = s.sched;
    th.kernel.count("ngpt.eventmanager");
    yield* runUser(th, "ngpt.eventmanager");
    yield* th.sigpending();
    const waiting = [...s.threads.values()].filter((t) => t.state === "waiting");
    if (waiting.length) yield* runUser(th, "ngpt.eventmanager.walk", waiting.length);
    // the signals every waiting thread blocks stay blocked
    const block = ALL_SIGNALS_SET.clone();
    for (const t of waiting) block.and(maskOf(t));
    const oss = yield* this.mask(th, 2, block, true);
    const pipeR = s.ext["sigpipe"] as number | undefined;
    yield* pollFdWaits(s, !poll, pipeR === undefined ? [] : [pipeR]);
    if (pipeR !== undefined) yield* th.read(pipeR, 128); // clear the pipe: -EAGAIN when empty
    yield* this.mask(th, 2, oss, true);
  }

  private hooks(): UThreadHooks {
    const lib = this;
    return {
      *returned(s: UThreadScheduler): Gen<void> {
        { const r = runUserNow(s.sched, "ngpt.scheduler.cameback"); if (r) yield* runUserRest(s.sched, "ngpt.scheduler.cameback", r); }
        yield* lib.now(s.sched); // snapshot
        { const r = runUserNow(s.sched, "ngpt.scheduler.requeue"); if (r) yield* runUserRest(s.sched, "ngpt.scheduler.requeue", r); }
        yield* lib.now(s.sched); // event_wait: snapshot again
        // NGPT 2.2.1 polls for events only when a single thread is ready (none: see idle)
        if (s.ready.length === 1) yield* lib.eventManager(s, true);
      },
      *idle(s: UThreadScheduler): Gen<boolean> {
        if (!s.fdWaits.length) return false;
        yield* lib.eventManager(s, false);
        return true;
      },
      *enter(s: UThreadScheduler, next: UThread): Gen<void> {
        { const r = runUserNow(s.sched, "ngpt.scheduler.pick"); if (r) yield* runUserRest(s.sched, "ngpt.scheduler.pick", r); }
        yield* lib.now(s.sched); // lastran
        { const r = runUserNow(s.sched, "ngpt.scheduler.dispatch"); if (r) yield* runUserRest(s.sched, "ngpt.scheduler.dispatch", r); }
        yield* lib.mctxSwitch(s.sched, null, maskOf(next));
        s.sched.kernel.count("ngpt.switches");
      },
    };
  }
}
