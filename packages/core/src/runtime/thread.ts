/**
 * The runtime thread (user space): the implementation of the Thread interface of api/siglab.d.ts
 * that a workload's `t` façade forwards to, and of the plugin API's RuntimeThread that thread
 * libraries and libc models work on. Its system calls enter the kernel through the stubs
 * (syscall/stubs.ts) and the entry code (arch/i386/entry.ts); user-mode work is user-mode.ts's,
 * libc's own code libc.ts's.
 */
import type { PathRef } from "../kernel/path-refs.js";
import type { Kernel } from "../kernel/kernel.js";
import { SimError } from "../kernel/sim-error.js";
import type { Gen } from "../kernel/yields.js";
import { sys_mmap, sys_munmap } from "../mm/mmap.js";
import { sys_mprotect } from "../mm/mprotect.js";
import { sys_fcntl } from "../fs/fcntl.js";
import { sys_close, sys_open } from "../fs/open.js";
import { sys_pipe } from "../fs/pipe.js";
import { sys_read, sys_write } from "../fs/read-write.js";
import { sys_select } from "../fs/select.js";
import { sys_nanosleep } from "../kernel/timer.js";
import { sys_clone, sys_fork } from "../kernel/fork.js";
import { do_exit, sys_wait4 } from "../kernel/exit.js";
import { sys_sched_getaffinity, sys_sched_setaffinity } from "../kernel/smp.js";
import { SI_QUEUE, send_sig_info, sys_rt_sigtimedwait, sys_sigaction, ESRCH } from "../kernel/signal.js";
import { sys_rt_sigsuspend } from "../arch/i386/signal.js";
import { Sigset } from "../kernel/sigset.js";
import { CORE_NR, NR } from "../kernel/syscall-nr.js";
import { sys_ptrace, type PtraceOut, type UserRegsStruct } from "../kernel/ptrace.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import type { SigInfoK } from "../kernel/siginfo.js";
import { PT_TRACESYS, type HandlerFn, type SigAction, type Task } from "../kernel/task.js";
import type { Collector } from "./collector.js";
import type { LoopRecorder } from "./loops.js";
import { Gate, type HandlerRunner } from "../arch/i386/entry.js";
import { longjmp, memcpy, setjmp } from "./libc.js";
import * as usermode from "./user-mode.js";
import type { FastRuntimeThread } from "@siglab/plugin-api/internal";
import { runUser, runUserNow, runUserRest, UThreadScheduler, type UThreadHooks } from "./uthreads.js";
import { pathRefs } from "../kernel/path-refs.js";
import { SyscallStubs } from "./syscall/stubs.js";
import { QuickCall, QUICK_GETPID, QUICK_GETPPID, QUICK_KILL, QUICK_TKILL } from "./syscall/quick-call.js";
import { SchedYieldCall } from "./syscall/sched-yield-call.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["handler_call"]);

const ENOSYS = 38;

// ---- what plugs into the runtime thread: the thread library, the libc model, thread bodies ----

export interface PthreadHandleImpl {
  readonly tid: number;
}

export type ThreadBody = (t: ThreadImpl) => Gen<unknown>;

export interface ThreadLibrary {
  readonly id: string;
  create(t: ThreadImpl, body: ThreadBody): Gen<PthreadHandleImpl>;
  join(t: ThreadImpl, th: PthreadHandleImpl): Gen<number>;
  yield(t: ThreadImpl): Gen<void>;
  read(t: ThreadImpl, fd: number, bytes: number): Gen<number>;
  write(t: ThreadImpl, fd: number, bytes: number): Gen<number>;
  sigmask(t: ThreadImpl, how: 0 | 1 | 2, set: number[]): Gen<number[]>;
  self(t: ThreadImpl): number;
}

export interface LibcModel {
  readonly id: string;
  readonly sseMemcpy: boolean;
  readonly sseThreshold: number;
  memcpy(t: ThreadImpl, bytes: number): Gen<void>;
  gettimeofday(t: ThreadImpl): Gen<{ sec: number; usec: number }>;
  gettimeofdayNow?(t: ThreadImpl): { sec: number; usec: number } | undefined;
  gettimeofdayRest?(t: ThreadImpl): Gen<{ sec: number; usec: number }>;
}

/** What every thread of a run shares. */
export interface RuntimeShared {
  k: Kernel;
  collector: Collector;
  /** the workload's named loops (t.loopBegin / t.loopEnd) */
  loops: LoopRecorder;
  params: Readonly<Record<string, number | string | boolean>>;
  threads: ThreadLibrary;
  libc: LibcModel;
  /** create the runtime for a new task and its generator (fork/clone) */
  spawn(parent: ThreadImpl, task: Task, body: ThreadBody, fromFork: boolean): void;
  /** the user-memcpy fill pattern counter (deterministic data) */
  memcpySeq: number;
  /** the kernel's copies of structures a workload passed to syscall(), by the workload's object */
  userStructs: WeakMap<object, object>;
}

export class ThreadImpl implements HandlerRunner, FastRuntimeThread {
  readonly #s: RuntimeShared;
  readonly #t: Task;
  readonly #gate: Gate;
  /** this thread's system call stubs and their synchronous forms (syscall/stubs.ts) */
  readonly #sys: SyscallStubs;

  constructor(shared: RuntimeShared, task: Task) {
    this.#s = shared;
    this.#t = task;
    this.#gate = new Gate(shared.k, task, this);
    this.#sys = new SyscallStubs(shared.k, task, this.#gate);
  }

  /** Runtime access for thread libraries and libc models (never handed to workload code). */
  get kernel(): Kernel {
    return this.#s.k;
  }
  get task(): Task {
    return this.#t;
  }
  get gate(): Gate {
    return this.#gate;
  }
  get shared(): RuntimeShared {
    return this.#s;
  }
  /** the run's libc model */
  get libc(): LibcModel {
    return this.#s.libc;
  }

  // ---- user-level library code (thread libraries) --------------------------------------------

  runUser(path: string | PathRef, n = 1): Gen<void> {
    return runUser(this, path, n);
  }
  runUserNow(path: string | PathRef): 0 | 1 | 2 {
    return runUserNow(this, path);
  }
  runUserRest(path: string | PathRef, r: 0 | 1 | 2): Gen<void> {
    return runUserRest(this, path, r);
  }
  userThreads(library: string, hooks: () => UThreadHooks): UThreadScheduler {
    return UThreadScheduler.of(this, library, hooks);
  }
  /** Another Thread object of this task (a user-level thread's, uthreads.ts). */
  sibling(): ThreadImpl {
    return new ThreadImpl(this.#s, this.#t);
  }

  get pid(): number {
    return this.#t.tgid;
  }
  get tid(): number {
    return this.#t.pid;
  }
  get params(): Readonly<Record<string, number | string | boolean>> {
    return this.#s.params;
  }
  get mhz(): number {
    return this.#s.k.profile.mhz;
  }

  // ---- user mode (user-mode.ts): work, the TSC, FPU instructions, registers, memory ------------

  rdtsc(): number {
    return usermode.rdtsc(this);
  }
  compute(cycles: number): Gen<void> {
    return usermode.compute(this, cycles);
  }
  fpuSet(reg: string, value: number | number[]): Gen<void> {
    return usermode.fpuSet(this, reg, value);
  }
  fpuGet(reg: string): Gen<number[]> {
    return usermode.fpuGet(this, reg);
  }
  /** `n` user FPU instructions: #NM first if CR0.TS is set. */
  fpuInstruction(n: number): Gen<void> {
    return usermode.fpuInstruction(this, n);
  }
  store(addr: number, value = 0): Gen<void> {
    return usermode.store(this, addr, value);
  }
  load(addr: number): Gen<number> {
    return usermode.load(this, addr);
  }

  setUserReg(reg: string, value: number): void {
    this.checkTurn();
    (this.#t.regs as unknown as Record<string, number>)[reg] = value | 0;
  }

  getUserReg(reg: string): number {
    return (this.#t.regs as unknown as Record<string, number>)[reg]!;
  }

  /** Workload code may run only on its own thread's turn (see Gate.checkTurn). */
  checkTurn(): void {
    this.#gate.checkTurn();
  }

  // ---- syscalls: the simple, non-blocking ones -----------------------------------------------

  /** getpid: a QuickCall (no generator unless something intervenes; quick-call.ts) */
  getpid(): Gen<number> {
    return new QuickCall(this.#sys, QUICK_GETPID) as unknown as Gen<number>;
  }

  gettimeofday(): Gen<{ sec: number; usec: number }> {
    return this.#sys.gettimeofday();
  }

  getppid(): Gen<number> {
    return new QuickCall(this.#sys, QUICK_GETPPID) as unknown as Gen<number>;
  }

  /** sched_yield: an iterator that behaves as schedYieldGen (sched-yield-call.ts), without a generator while nothing else happens. */
  sched_yield(): Gen<number> {
    return new SchedYieldCall(this.#sys) as unknown as Gen<number>;
  }

  /** sched_setaffinity(pid, mask): the CPUs `pid` (0: this task) may run on, a bit per CPU. */
  sched_setaffinity(pid: number, mask: number): Gen<number> {
    return this.#sys.simple(CORE_NR.sched_setaffinity, null, () => sys_sched_setaffinity(this.#s.k, this.#t, pid, mask));
  }

  /** sched_getaffinity(pid): the mask, or -errno. */
  sched_getaffinity(pid: number): Gen<number> {
    return this.#sys.simple(CORE_NR.sched_getaffinity, null, () => sys_sched_getaffinity(this.#s.k, this.#t, pid));
  }

  kill(pid: number, sig: number): Gen<number> {
    return new QuickCall(this.#sys, QUICK_KILL, pid, sig) as unknown as Gen<number>;
  }

  tkill(tid: number, sig: number): Gen<number> {
    return new QuickCall(this.#sys, QUICK_TKILL, tid, sig) as unknown as Gen<number>;
  }

  *sigqueue(pid: number, sig: number, value: number): Gen<number> {
    const k = this.#s.k;
    return yield* this.#sys.simple(NR.rt_sigqueueinfo, "sys_kill", () => {
      const t = k.tasks.get(pid);
      if (!t) return -ESRCH;
      return send_sig_info(k, sig, { signo: sig, errno: 0, code: SI_QUEUE, pid: this.pid, value }, t);
    });
  }

  /** rt_sigaction with a checked handler (the façade wraps the workload's function). */
  sigactionFacade(sig: number, handler: HandlerFn | "default" | "ignore", flags: number, mask: number[]): Gen<number> {
    const act: SigAction = { handler, flags: flags >>> 0, mask: Sigset.of(mask) };
    return this.#sys.simple(NR.rt_sigaction, null, () => sys_sigaction(this.#s.k, this.#t, sig, act));
  }

  *sigprocmask(how: 0 | 1 | 2, set: number[]): Gen<number[] | number> {
    const old = yield* this.#sys.sigprocmaskSet(how, set ? Sigset.of(set) : null);
    return typeof old === "number" ? old : old.toList();
  }

  /** rt_sigprocmask with bit sets (for thread libraries that switch masks on every switch). */
  sigprocmaskSet(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number> {
    return this.#sys.sigprocmaskSet(how, set);
  }

  // ---- the …Now/…Rest forms thread libraries call on every switch (syscall/stubs.ts) ----------

  sigprocmaskSetNow(how: 0 | 1 | 2, set: Sigset | null): Sigset | number | undefined {
    return this.#sys.sigprocmaskSetNow(how, set);
  }
  sigprocmaskSetRest(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number> {
    return this.#sys.sigprocmaskSetRest(how, set);
  }
  gettimeofdayNow(): { sec: number; usec: number } | undefined {
    return this.#sys.gettimeofdayNow();
  }
  gettimeofdayRest(): Gen<{ sec: number; usec: number }> {
    return this.#sys.gettimeofdayRest();
  }

  *sigpending(): Gen<number[]> {
    let list: number[] = [];
    yield* this.#sys.simple(NR.rt_sigpending, "sys_rt_sigprocmask", () => {
      const p = this.#t.pending.clone();
      const b = this.#t.blocked;
      list = p.toList().filter((s) => b.has(s));
      return 0;
    });
    return list;
  }

  *sigaltstack(size: number): Gen<number> {
    const k = this.#s.k;
    return yield* this.#sys.simple(NR.sigaltstack, "sys_sigaltstack", () => {
      if (size < 2048) return -12; // -ENOMEM below MINSIGSTKSZ
      const sp = this.#t.mm.mmapAnon(size, 3);
      this.#t.sas = { sp, size };
      k.count("signals.altstacks");
      return 0;
    });
  }

  *pipe(): Gen<[number, number]> {
    let fds: [number, number] = [-1, -1];
    yield* this.#sys.simple(NR.pipe, null, () => {
      fds = sys_pipe(this.#s.k, this.#t);
      return 0;
    });
    return fds;
  }

  *open(path: string): Gen<number> {
    return yield* this.#sys.simple(NR.open, null, () => sys_open(this.#s.k, this.#t, String(path)));
  }

  close(fd: number): Gen<number> {
    return this.#sys.simple(NR.close, null, () => sys_close(this.#s.k, this.#t, fd));
  }

  *fcntl(fd: number, cmd: number, arg = 0): Gen<number> {
    return yield* this.#sys.simple(NR.fcntl, null, () => sys_fcntl(this.#s.k, this.#t, fd, cmd, arg));
  }

  *mmap(bytes: number, prot: number): Gen<number> {
    return yield* this.#sys.simple(NR.mmap, null, () => sys_mmap(this.#s.k, this.#t, bytes, prot));
  }

  *mprotect(addr: number, bytes: number, prot: number): Gen<number> {
    return yield* this.#sys.simple(NR.mprotect, null, () => sys_mprotect(this.#s.k, this.#t, addr, bytes, prot));
  }

  *munmap(addr: number, bytes: number): Gen<number> {
    return yield* this.#sys.simple(NR.munmap, null, () => sys_munmap(this.#s.k, this.#t, addr, bytes));
  }

  // ---- blocking syscalls ---------------------------------------------------------------------

  read(fd: number, bytes: number): Gen<number> {
    return this.#sys.blocking(NR.read, () => sys_read(this.#s.k, this.#t, fd, bytes));
  }

  write(fd: number, bytes: number): Gen<number> {
    return this.#sys.blocking(NR.write, () => sys_write(this.#s.k, this.#t, fd, bytes));
  }

  *select(readFds: number[], writeFds: number[], timeoutNs?: number): Gen<{ readable: number[]; writable: number[] } | number> {
    let res: { readable: number[]; writable: number[] } | number = 0;
    const k = this.#s.k, t = this.#t;
    const r = yield* this.#sys.blocking(NR._newselect, function* () {
      res = yield* sys_select(k, t, readFds, writeFds, timeoutNs);
      return typeof res === "number" ? res : res.readable.length + res.writable.length;
    });
    return r < 0 ? r : res;
  }

  *nanosleep(ns: number): Gen<number> {
    const k = this.#s.k, t = this.#t;
    return yield* this.#sys.blocking(NR.nanosleep, () => sys_nanosleep(k, t, ns));
  }


  *sigsuspend(mask: number[]): Gen<number> {
    const k = this.#s.k, t = this.#t;
    this.#gate.system_call(NR.rt_sigsuspend);
    const body = (): Gen<number> => sys_rt_sigsuspend(k, t, mask);
    let r: number;
    if (t.ptrace & PT_TRACESYS) r = yield* this.#sys.traced(NR.rt_sigsuspend, body);
    else {
      r = yield* body();
      if (!this.#gate.ret_from_sys_call(r)) return yield* this.#gate.work_pending(r);
    }
    // no handler ran (setup_frame takes the saved mask when one does): the old mask comes back
    if (t.sigsuspendSaved) {
      t.blocked = t.sigsuspendSaved;
      t.sigsuspendSaved = null;
      k.recalcSigpending(t);
    }
    return r;
  }

  *sigtimedwait(set: number[], timeoutNs?: number): Gen<{ signo: number } | number> {
    const k = this.#s.k, t = this.#t;
    const out: { info: SigInfoK | null } = { info: null };
    const r = yield* this.#sys.blocking(NR.rt_sigtimedwait, () => sys_rt_sigtimedwait(k, t, set, timeoutNs, out));
    return r > 0 && out.info ? out.info : r;
  }

  /**
   * fork (sys_fork, kernel/fork.ts). Both sides then write their stack page (user stores): the
   * parent as the fork() wrapper returns into its caller, the child at its first return to user
   * mode (retFromFork) -- a C program's next call pushes a return address there. With the page
   * still shared that write takes the COW fault (do_wp_page); whichever side writes second
   * finds the page its own (the other copied it, or exited) and only reuses it.
   */
  *fork(child: ThreadBody): Gen<number> {
    const k = this.#s.k, t = this.#t;
    const r = yield* this.#sys.simple(NR.fork, null, () => {
      const c = sys_fork(k, t);
      FORK_CHILDREN.add(c);
      this.#s.spawn(this, c, child, true);
      return c.pid;
    });
    if (r > 0) yield* this.store(t.regs.esp - 4, this.#t.mm.words.get(t.regs.esp - 4) ?? 0);
    return r;
  }

  *clone(body: ThreadBody): Gen<number> {
    const k = this.#s.k;
    return yield* this.#sys.simple(NR.clone, null, () => {
      const c = sys_clone(k, this.#t);
      this.#s.spawn(this, c, body, true);
      return c.pid;
    });
  }

  *wait(): Gen<{ pid: number; status: number } | number> {
    const r = yield* this.waitFor(-1);
    return r < 0 ? r : { pid: r, status: this.#t.lastReaped };
  }

  /** waitpid(pid, options) = wait4(pid, &status, options, NULL): the status word as the kernel writes it. */
  *waitpid(pid: number, options: number): Gen<{ pid: number; status: number } | number> {
    const r = yield* this.waitFor(pid, options);
    return r <= 0 ? r : { pid: r, status: this.#t.lastStatus };
  }

  /** wait4(pid, options): the pid, 0 (WNOHANG, nothing yet) or -errno (sys_wait4, kernel/exit.ts). */
  *waitFor(pid: number, options = 0): Gen<number> {
    const k = this.#s.k, t = this.#t;
    return yield* this.#sys.blocking(NR.wait4, () => sys_wait4(k, t, pid, options));
  }

  *exit(code = 0): Gen<never> {
    const t = this.#t;
    this.#gate.system_call(NR.exit);
    if (t.ptrace & PT_TRACESYS) {
      yield* this.#gate.tracesys(NR.exit, () => do_exit(this.#s.k, t, code));
      throw new SimError("workload", `the tracer of task ${t.pid} nullified its exit(): SigLab cannot continue a program after exit()`, t.pid);
    }
    return yield* do_exit(this.#s.k, t, code);
  }

  /** Any syscall by number: contributed syscalls (plugins) or the typed ones above. */
  *syscall(nr: number, ...args: unknown[]): Gen<unknown> {
    const k = this.#s.k;
    const c = k.syscallTable.get(nr);
    if (c) {
      const t = this.#t;
      if (c.blocking) {
        let out: unknown;
        const r = yield* this.#sys.blocking(nr, function* () {
          out = yield* (c.handler(k, t, args) as Gen<unknown>);
          return typeof out === "number" ? out : 0;
        });
        return r < 0 ? r : out;
      }
      let out: unknown;
      const r = yield* this.#sys.simple(nr, c.path ?? "sys_ni_syscall", () => {
        out = c.handler(k, t, args);
        return typeof out === "number" ? out : 0;
      });
      return r < 0 ? r : out;
    }
    switch (nr) {
      case NR.getpid: return yield* this.getpid();
      case NR.getppid: return yield* this.getppid();
      case NR.sched_yield: return yield* this.sched_yield();
      case CORE_NR.sched_setaffinity: return yield* this.sched_setaffinity(Number(args[0]), Number(args[1]));
      case CORE_NR.sched_getaffinity: return yield* this.sched_getaffinity(Number(args[0] ?? 0));
      case NR.kill: return yield* this.kill(Number(args[0]), Number(args[1]));
      case NR.tkill: return yield* this.tkill(Number(args[0]), Number(args[1]));
      case NR.close: return yield* this.close(Number(args[0]));
      case NR.read: return yield* this.read(Number(args[0]), Number(args[1]));
      case NR.write: return yield* this.write(Number(args[0]), Number(args[1]));
      default:
        return yield* this.#sys.simple(nr, "sys_ni_syscall", () => -ENOSYS);
    }
  }

  /** ptrace(request, pid, addr, data): 0 or -errno; PEEK* give { word }, PTRACE_GETREGS the registers. */
  *ptrace(request: number, pid: number, addr: number, data: number, regs?: Readonly<Partial<UserRegsStruct>>): Gen<number | Readonly<{ word: number }> | Readonly<UserRegsStruct>> {
    const k = this.#s.k, t = this.#t;
    const out: PtraceOut = {};
    const r = yield* this.#sys.simple(CORE_NR.ptrace, null, () => sys_ptrace(k, t, request, pid, addr, data, out, regs));
    if (r < 0) return r;
    if (out.regs) return Object.freeze({ ...out.regs });
    if (out.word !== undefined) return Object.freeze({ word: out.word });
    return r;
  }

  // ---- non-local jumps -----------------------------------------------------------------------

  setjmp<T>(body: (jb: object) => Gen<T>, saveMask = false): Gen<{ jumped: boolean; value: T | number }> {
    return setjmp(this, body, saveMask);
  }

  longjmp(token: object, value = 1): never {
    return longjmp(this, token, value);
  }

  // ---- reporting -----------------------------------------------------------------------------

  report(name: string, value: number, unit: string): void {
    this.#s.collector.report(name, value, unit);
  }
  sample(name: string, value: number): void {
    this.#s.collector.sample(name, value);
  }
  mark(label: string): void {
    this.#s.collector.mark(this.tid, label, this.#s.k.cycles);
  }
  loopBegin(name: string): void {
    this.#s.collector.checkOpen();
    this.#s.loops.begin(name, { cycles: this.#s.k.cycles, phaseCycles: this.#s.k.ex.phaseCycles });
  }
  loopEnd(name: string, count: number, overhead: string | undefined): void {
    this.#s.collector.checkOpen();
    this.#s.loops.end(name, count, overhead, { cycles: this.#s.k.cycles, phaseCycles: this.#s.k.ex.phaseCycles });
  }
  progress(fraction: number): void {
    this.#s.collector.setProgress(fraction);
  }
  log(...args: unknown[]): void {
    this.#s.collector.addLog(args);
  }

  // ---- runtime internals used by libraries and the gate --------------------------------------

  /** libc memcpy of `bytes`: with SSE it uses (and clobbers) xmm0-xmm3 (libc.ts). */
  userMemcpy(bytes: number, sse: boolean): Gen<void> {
    return memcpy(this, bytes, sse);
  }

  /**
   * Enter a signal handler (the HandlerRunner side of the gate): the call into the handler and the
   * workload's handler generator, which the gate runs and then calls handlerLeft (one generator
   * less per delivery than a wrapper around it).
   */
  handlerEnter(frame: SignalFrameK, action: SigAction): Gen<void> {
    const k = this.#s.k, t = this.#t;
    t.handlerDepth++;
    k.runRef(P["handler_call"]);
    t.regs.eax = frame.sig;
    try {
      const it = (action.handler as HandlerFn)(this, frame);
      if (!it || typeof (it as Gen<void>).next !== "function") throw new SimError("workload", `signal handler for signal ${frame.sig} must be a generator function (function* (h) { ... })`, t.pid);
      return it;
    } catch (e) {
      t.handlerDepth--;
      throw e;
    }
  }

  /** The handler's generator finished, threw or was closed. */
  handlerLeft(): void {
    this.#t.handlerDepth--;
  }

  /** @internal the first return to user mode of a forked child (ret_from_fork). */
  *retFromFork(): Gen<void> {
    const g = this.#gate, t = this.#t;
    if (!g.ret_from_sys_call(0)) yield* g.work_pending(0);
    // fork()'s child: its first call writes its stack page (see fork)
    if (FORK_CHILDREN.has(t)) yield* this.store(t.regs.esp - 4, t.mm.words.get(t.regs.esp - 4) ?? 0);
  }

}

/** Tasks fork() made (not clone()): their first return to user mode writes their stack page. */
const FORK_CHILDREN = new WeakSet<Task>();
