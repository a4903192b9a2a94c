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
import { pipe, pollFdWaits, runUser, UThreadScheduler, Sigset, type Gen, type ThreadBody, type ThreadImpl, type ThreadLibrary, type UThread, type UThreadHooks } from "@siglab/core";
import { setMask } from "@siglab/core";

const ESRCH = 3;
const EDEADLK = 35;
const EAGAIN = 11;

function maskOf(ut: UThread): number[] {
  return (ut.ext["mask"] as number[] | undefined) ?? [];
}

function sameMask(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

export class LibcR implements ThreadLibrary {
  readonly id = "libc_r";

  /** The process's scheduler; the first call reads the process mask once (_thread_init). */
  private *lwp(th: ThreadImpl): Gen<UThreadScheduler> {
    const s = UThreadScheduler.of(th, this.id, () => this.hooks());
    if (!s.ext["init"]) {
      s.ext["init"] = true;
      const m = yield* setMask(th, 0, null);
      s.ext["kernelMask"] = m;
      s.root.ext["mask"] = m;
    }
    return s;
  }

  *create(th: ThreadImpl, body: ThreadBody): Gen<{ tid: number }> {
    const s = yield* this.lwp(th);
    yield* runUser(th, "libc_r.pthread_create");
    const ut = s.create(function* (uth) {
      const rv = yield* body(uth);
      yield* runUser(uth, "libc_r.pthread_exit");
      yield* runUser(uth, "libc_r.longjmp"); // into the scheduler, never back
      return rv;
    });
    // the new thread inherits the creator's mask (in user memory)
    ut.ext["mask"] = [...maskOf(s.current)];
    th.kernel.count("libc_r.threads_created");
    return { tid: ut.id };
  }

  *join(th: ThreadImpl, h: { tid: number }): Gen<number> {
    const s = yield* this.lwp(th);
    const target = s.threads.get(h.tid);
    if (!target) return -ESRCH;
    const me = s.current;
    if (target === me) return -EDEADLK;
    yield* runUser(th, "libc_r.pthread_join");
    if (target.state !== "done") {
      me.state = "waiting";
      me.waitingOn = `join of thread ${target.id}`;
      target.joiners.push(me);
      yield* this.toScheduler(th, s, me);
    }
    return target.id;
  }

  *yield(th: ThreadImpl): Gen<void> {
    const s = yield* this.lwp(th);
    const me = s.current;
    yield* runUser(th, "libc_r.yield");
    th.kernel.count("libc_r.yields");
    me.state = "ready";
    yield* this.toScheduler(th, s, me);
  }

  *read(th: ThreadImpl, fd: number, bytes: number): Gen<number> {
    const s = yield* this.lwp(th);
    yield* runUser(th, "libc_r.io_wrapper");
    const user = yield* this.nonblocking(th, s, fd);
    for (;;) {
      const n = yield* th.read(fd, bytes);
      if (n !== -EAGAIN || user) return n;
      yield* this.waitFd(th, s, fd, false);
    }
  }

  *write(th: ThreadImpl, fd: number, bytes: number): Gen<number> {
    const s = yield* this.lwp(th);
    yield* runUser(th, "libc_r.io_wrapper");
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
  *sigmask(th: ThreadImpl, how: 0 | 1 | 2, set: number[]): Gen<number[]> {
    const s = yield* this.lwp(th);
    const me = s.current;
    yield* runUser(th, "libc_r.sigmask");
    const old = maskOf(me);
    const m = Sigset.of(old);
    const given = Sigset.of(set ?? []);
    given.dropUnblockable();
    if (how === 0) m.or(given);
    else if (how === 1) m.andNot(given);
    else m.set(given);
    me.ext["mask"] = m.toList();
    yield* this.syncKernelMask(th, s, maskOf(me));
    return old;
  }

  self(th: ThreadImpl): number {
    return UThreadScheduler.of(th, this.id, () => this.hooks()).current.id;
  }

  // ---- internals -------------------------------------------------------------------------------

  /** _thread_fd_table_init: the first use of an fd makes it non-blocking. True if the program had set O_NONBLOCK itself. */
  private *nonblocking(th: ThreadImpl, s: UThreadScheduler, fd: number): Gen<boolean> {
    const fds = (s.ext["fdFlags"] ??= new Map<number, number>()) as Map<number, number>;
    let fl = fds.get(fd);
    if (fl === undefined) {
      fl = yield* th.fcntl(fd, pipe.F_GETFL);
      if (fl < 0) return false;
      if (!(fl & pipe.O_NONBLOCK)) yield* th.fcntl(fd, pipe.F_SETFL, fl | pipe.O_NONBLOCK);
      fds.set(fd, fl);
    }
    return (fl & pipe.O_NONBLOCK) !== 0;
  }

  private *syncKernelMask(th: ThreadImpl, s: UThreadScheduler, want: number[]): Gen<void> {
    if (sameMask((s.ext["kernelMask"] as number[] | undefined) ?? [], want)) return;
    yield* setMask(th, 2, want);
    s.ext["kernelMask"] = [...want];
    th.kernel.count("libc_r.mask_syncs");
  }

  private *waitFd(th: ThreadImpl, s: UThreadScheduler, fd: number, write: boolean): Gen<void> {
    const me = s.current;
    me.state = "waiting";
    me.waitingOn = `fd ${fd} ${write ? "writable" : "readable"}`;
    s.fdWaits.push({ ut: me, fd, write });
    th.kernel.count("libc_r.fd_waits");
    yield* this.toScheduler(th, s, me);
  }

  /** _setjmp(curthread->ctx.jb) == 0: ___longjmp(_thread_kern_sched_jb, 1). */
  private *toScheduler(th: ThreadImpl, s: UThreadScheduler, me: UThread): Gen<void> {
    yield* runUser(th, "libc_r._setjmp");
    yield* runUser(th, "libc_r.longjmp");
    yield* s.park(me);
  }

  private hooks(): UThreadHooks {
    const lib = this;
    return {
      *returned(s: UThreadScheduler): Gen<void> {
        yield* runUser(s.sched, "libc_r.kern_sched");
        if (s.fdWaits.length) {
          // _thread_kern_poll(0): libc_r uses poll(); the model's equivalent is select with timeout 0
          yield* runUser(s.sched, "libc_r.kern_poll");
          yield* pollFdWaits(s, false);
        }
      },
      *idle(s: UThreadScheduler): Gen<boolean> {
        if (!s.fdWaits.length) return false;
        yield* runUser(s.sched, "libc_r.kern_poll");
        yield* pollFdWaits(s, true);
        return true;
      },
      *enter(s: UThreadScheduler, next: UThread): Gen<void> {
        yield* runUser(s.sched, "libc_r.pick");
        yield* lib.syncKernelMask(s.sched, s, maskOf(next));
        yield* runUser(s.sched, "libc_r.longjmp");
        s.sched.kernel.count("libc_r.switches");
      },
    };
  }
}
