/**
 * FreeBSD libc_r (N:1): user-level threads in one process. A switch is _setjmp into the current
 * thread's jmp_buf and ___longjmp to the scheduler, which picks the next thread and ___longjmps to
 * it — no signal-mask syscall. Time comes from _sched_tod (a load), not gettimeofday. Every fd is
 * made non-blocking once; a read or write that would block waits in the scheduler, which polls.
 *
 * Signals: libc_r keeps each thread's mask in struct pthread and dispatches every signal through
 * its own handler; that handler is not modelled here. Instead the kernel mask follows the running
 * thread's mask, so a switch between threads with different masks costs one rt_sigprocmask (none
 * when the masks are equal, as in the shipped examples). The real library's only scheduling-path
 * mask syscall restores the process mask after a scheduler entry from a signal handler.
 */
import {
  EAGAIN,
  ESRCH,
  F_GETFL,
  F_SETFL,
  O_NONBLOCK,
  setMask,
  Sigset,
  stateKey,
  type Gen,
  type RuntimeThread,
  type ThreadBody,
  type ThreadLibrary,
  type UThread,
  type UThreadHooks,
  type UserThreadScheduler,
} from "@siglab/plugin-api";

const EDEADLK = 35;
const EMPTY = new Sigset();

/** per process: libc_r's own state */
interface ProcState {
  init: boolean;
  /** the mask the kernel has now (the running thread's, once synced) */
  kernelMask: Sigset;
  /** fd -> the flags it had before libc_r made it non-blocking */
  fdFlags: Map<number, number>;
}
const PROC = stateKey("libc_r.process", (): ProcState => ({ init: false, kernelMask: EMPTY, fdFlags: new Map() }));

function maskOf(ut: UThread): Sigset {
  return ut.mask ?? EMPTY;
}

function sameMask(a: Sigset, b: Sigset): boolean {
  return a.lo === b.lo && a.hi === b.hi;
}

export class LibcR implements ThreadLibrary {
  readonly id = "libc_r";

  /** The process's scheduler; the first call reads the process mask once (_thread_init). */
  private *lwp(th: RuntimeThread): Gen<UserThreadScheduler> {
    const s = th.userThreads(this.id, () => this.hooks());
    const st = s.slot(PROC);
    if (!st.init) {
      st.init = true;
      const m = Sigset.of(yield* setMask(th, 0, null));
      st.kernelMask = m;
      s.root.mask = m;
    }
    return s;
  }

  *create(th: RuntimeThread, body: ThreadBody): Gen<{ tid: number }> {
    const s = yield* this.lwp(th);
    yield* th.runUser("libc_r.pthread_create");
    const ut = s.create(function* (uth) {
      const rv = yield* body(uth);
      yield* uth.runUser("libc_r.pthread_exit");
      yield* uth.runUser("libc_r.longjmp"); // into the scheduler, never back
      return rv;
    });
    // the new thread inherits the creator's mask (in user memory)
    ut.mask = maskOf(s.current).clone();
    th.kernel.count("libc_r.threads_created");
    return { tid: ut.id };
  }

  *join(th: RuntimeThread, h: { tid: number }): Gen<number> {
    const s = yield* this.lwp(th);
    const target = s.threads.get(h.tid);
    if (!target) return -ESRCH;
    const me = s.current;
    if (target === me) return -EDEADLK;
    yield* th.runUser("libc_r.pthread_join");
    if (target.state !== "done") {
      me.state = "waiting";
      me.waitingOn = `join of thread ${target.id}`;
      target.joiners.push(me);
      yield* this.toScheduler(th, s, me);
    }
    return target.id;
  }

  *yield(th: RuntimeThread): Gen<void> {
    const s = yield* this.lwp(th);
    const me = s.current;
    yield* th.runUser("libc_r.yield");
    th.kernel.count("libc_r.yields");
    me.state = "ready";
    yield* this.toScheduler(th, s, me);
  }

  *read(th: RuntimeThread, fd: number, bytes: number): Gen<number> {
    const s = yield* this.lwp(th);
    yield* th.runUser("libc_r.io_wrapper");
    const user = yield* this.nonblocking(th, s, fd);
    for (;;) {
      const n = yield* th.read(fd, bytes);
      if (n !== -EAGAIN || user) return n;
      yield* this.waitFd(th, s, fd, false);
    }
  }

  *write(th: RuntimeThread, fd: number, bytes: number): Gen<number> {
    const s = yield* this.lwp(th);
    yield* th.runUser("libc_r.io_wrapper");
    const user = yield* this.nonblocking(th, s, fd);
    let done = 0;
    for (;;) {
      const n = yield* th.write(fd, bytes - done);
      if (n > 0) done += n;
      if (done >= bytes) return done;
      if (n < 0 && n !== -EAGAIN) return done || n;
      if (user) return done || n;
      yield* this.waitFd(th, s, fd, true);
    }
  }

  /** pthread_sigmask: the thread's mask in user memory; the kernel mask follows the running thread. */
  *sigmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]> {
    const s = yield* this.lwp(th);
    const me = s.current;
    yield* th.runUser("libc_r.sigmask");
    const old = maskOf(me);
    const m = old.clone();
    const given = Sigset.of(set ?? []);
    given.dropUnblockable();
    if (how === 0) m.or(given);
    else if (how === 1) m.andNot(given);
    else m.set(given);
    me.mask = m;
    yield* this.syncKernelMask(th, s, m);
    return old.toList();
  }

  self(th: RuntimeThread): number {
    return th.userThreads(this.id, () => this.hooks()).current.id;
  }

  // ---- internals -------------------------------------------------------------------------------

  /** _thread_fd_table_init: the first use of an fd makes it non-blocking. True if the program had set O_NONBLOCK itself. */
  private *nonblocking(th: RuntimeThread, s: UserThreadScheduler, fd: number): Gen<boolean> {
    const fds = s.slot(PROC).fdFlags;
    let fl = fds.get(fd);
    if (fl === undefined) {
      fl = yield* th.fcntl(fd, F_GETFL);
      if (fl < 0) return false;
      if (!(fl & O_NONBLOCK)) yield* th.fcntl(fd, F_SETFL, fl | O_NONBLOCK);
      fds.set(fd, fl);
    }
    return (fl & O_NONBLOCK) !== 0;
  }

  private *syncKernelMask(th: RuntimeThread, s: UserThreadScheduler, want: Sigset): Gen<void> {
    const st = s.slot(PROC);
    if (sameMask(st.kernelMask, want)) return;
    yield* setMask(th, 2, want.toList());
    st.kernelMask = want.clone();
    th.kernel.count("libc_r.mask_syncs");
  }

  private *waitFd(th: RuntimeThread, s: UserThreadScheduler, fd: number, write: boolean): Gen<void> {
    const me = s.current;
    me.state = "waiting";
    me.waitingOn = `fd ${fd} ${write ? "writable" : "readable"}`;
    s.fdWaits.push({ ut: me, fd, write });
    th.kernel.count("libc_r.fd_waits");
    yield* this.toScheduler(th, s, me);
  }

  /** _setjmp(curthread->ctx.jb) == 0: ___longjmp(_thread_kern_sched_jb, 1). */
  private *toScheduler(th: RuntimeThread, s: UserThreadScheduler, me: UThread): Gen<void> {
    yield* th.runUser("libc_r._setjmp");
    yield* th.runUser("libc_r.longjmp");
    yield* s.park(me);
  }

  private hooks(): UThreadHooks {
    const lib = this;
    return {
      *returned(s: UserThreadScheduler): Gen<void> {
        yield* s.sched.runUser("libc_r.kern_sched");
        if (s.fdWaits.length) {
          // _thread_kern_poll(0): libc_r uses poll(); the model's equivalent is select with timeout 0
          yield* s.sched.runUser("libc_r.kern_poll");
          yield* s.pollFdWaits(false);
        }
      },
      *idle(s: UserThreadScheduler): Gen<boolean> {
        if (!s.fdWaits.length) return false;
        yield* s.sched.runUser("libc_r.kern_poll");
        yield* s.pollFdWaits(true);
        return true;
      },
      *enter(s: UserThreadScheduler, next: UThread): Gen<void> {
        yield* s.sched.runUser("libc_r.pick");
        yield* lib.syncKernelMask(s.sched, s, maskOf(next));
        yield* s.sched.runUser("libc_r.longjmp");
        s.sched.kernel.count("libc_r.switches");
      },
    };
  }
}
