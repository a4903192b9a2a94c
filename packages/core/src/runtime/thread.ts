/**
 * The `t` object a workload thread receives: the implementation of the Thread interface of
 * api/siglab.d.ts. Every method that can enter the kernel is a generator over the Gate.
 */
import { EV } from "../kernel/events.js";
import type { PathRef } from "../kernel/path-refs.js";
import { readReg, writeReg, XMM_LANES } from "../machine/fpu.js";
import { PAGE_SHIFT } from "../machine/memory.js";
import type { Kernel } from "../kernel/kernel.js";
import { SimError } from "../kernel/sim-error.js";
import { SWITCH, type Gen } from "../kernel/yields.js";
import { user_access } from "../arch/i386/mm/fault.js";
import { sys_mmap, sys_munmap } from "../mm/mmap.js";
import { sys_mprotect } from "../mm/mprotect.js";
import { sys_fcntl } from "../fs/fcntl.js";
import { sys_close, sys_open } from "../fs/open.js";
import { sys_pipe } from "../fs/pipe.js";
import { sys_read, sys_write } from "../fs/read-write.js";
import { sys_select } from "../fs/select.js";
import { sys_sched_yield } from "../kernel/sched.js";
import { sys_nanosleep } from "../kernel/timer.js";
import { sys_clone, sys_fork } from "../kernel/fork.js";
import { do_exit, sys_wait4 } from "../kernel/exit.js";
import { sys_sched_getaffinity, sys_sched_setaffinity } from "../kernel/smp.js";
import {
  ERESTARTNOHAND,
  SI_QUEUE,
  SI_TKILL,
  send_sig_info,
  sys_kill,
  sys_rt_sigprocmask,
  sys_rt_sigtimedwait,
  sys_sigaction,
  ESRCH,
} from "../kernel/signal.js";
import { sys_rt_sigsuspend } from "../arch/i386/signal.js";
import { Sigset } from "../kernel/sigset.js";
import { CORE_NR, NR } from "../kernel/syscall-nr.js";
import { sys_ptrace, type PtraceOut, type UserRegsStruct } from "../kernel/ptrace.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import type { SigInfoK } from "../kernel/siginfo.js";
import { PT_TRACESYS, type HandlerFn, type SigAction, type Task } from "../kernel/task.js";
import type { Collector } from "./collector.js";
import { isHostThrown } from "../common/host-thrown.js";
import { Gate, SYSCALL_EIP, type HandlerRunner } from "../arch/i386/entry.js";
import { LongJmp } from "./libc.js";
import type { LibcModel, ThreadBody, ThreadLibrary } from "./libraries.js";
import type { RuntimeThread } from "@siglab/plugin-api";
import { runUser, runUserNow, runUserRest, UThreadScheduler, type UThreadHooks } from "./uthreads.js";
import { pathRefs } from "../kernel/path-refs.js";
import { QuickCall, QUICK_GETPID, QUICK_GETPPID, QUICK_KILL, QUICK_TKILL, type QuickKind } from "./quick-call.js";
import { SchedYieldCall, YIELD_DONE, YIELD_REST, YIELD_SWITCHED } from "./sched-yield-call.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["sys_getppid", "handler.fp_op", "handler.memcpy", "handler.rdtsc", "handler.sse_memcpy", "handler.store", "handler_call", "libc.memcpy", "libc.sse_memcpy", "sys_getppid.smp", "sys_gettimeofday", "user.rdtsc", "user.store", "user_fp_op"]);

const ENOSYS = 38;

/** What a `…Now` system call that returned undefined left to do (its `…Rest` does it). */
const NOW_NOTHING_DONE = 0, NOW_EXIT_WORK = 1, NOW_INTERRUPT = 2, NOW_GATE_REST = 3;
type NowLeft = typeof NOW_NOTHING_DONE | typeof NOW_EXIT_WORK | typeof NOW_INTERRUPT | typeof NOW_GATE_REST;

/** What every thread of a run shares. */
export interface RuntimeShared {
  k: Kernel;
  collector: Collector;
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

/** What setjmp saved; the workload holds only an opaque token for it (see jmpBufs). */
interface JmpBufImpl {
  readonly task: Task;
  readonly esp: number;
  readonly eip: number;
  readonly regs: Record<string, number>;
  readonly mask: number[] | null;
}

export class ThreadImpl implements HandlerRunner, RuntimeThread {
  readonly #s: RuntimeShared;
  readonly #t: Task;
  readonly #gate: Gate;
  /** what the last `…Now` system call left to its `…Rest` (see sigprocmaskSetNow) */
  #nowLeft: NowLeft = NOW_NOTHING_DONE;
  #nowResult = 0;
  #nowValue: unknown = undefined;
  /** the system call whose …Now stopped (its …Rest must be the one that finishes it) */
  #nowNr = -1;

  constructor(shared: RuntimeShared, task: Task) {
    this.#s = shared;
    this.#t = task;
    this.#gate = new Gate(shared.k, task, this);
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

  rdtsc(): number {
    const k = this.#s.k;
    this.#gate.checkTurn();
    k.run(this.#t.handlerDepth > 0 ? P["handler.rdtsc"] : P["user.rdtsc"]);
    return k.cycles;
  }

  *compute(cycles: number): Gen<void> {
    const k = this.#s.k;
    if (!(cycles >= 0) || !Number.isFinite(cycles)) throw new TypeError(`compute(cycles): expected a finite number >= 0, got ${cycles}`);
    this.#gate.checkTurn();
    k.step();
    const phase = k.phases.id(this.#t.handlerDepth > 0 ? "signal.handler" : "user");
    let left = Math.round(cycles);
    while (left > 0) {
      const chunk = Math.min(left, Math.max(0, k.cyclesToNextEvent()));
      k.ex.chargeRaw(phase, chunk);
      left -= chunk;
      if (k.interruptDue()) yield* this.#gate.common_interrupt();
    }
  }

  // ---- registers ------------------------------------------------------------------------------

  *fpuSet(reg: string, value: number | number[]): Gen<void> {
    yield* this.fpuInstruction(1);
    const k = this.#s.k;
    writeReg(k.cpu.fpu, reg, value, Math.min(8, k.profile.xmmRegs), false);
  }

  *fpuGet(reg: string): Gen<number[]> {
    yield* this.fpuInstruction(1);
    const k = this.#s.k;
    if (reg.startsWith("ymm")) throw new TypeError(`'${reg}': AVX state is not enabled by this kernel (Linux 2.4 does not set XCR0)`);
    return readReg(k.cpu.fpu, reg, Math.min(8, k.profile.xmmRegs));
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
    return new QuickCall(this, QUICK_GETPID) as unknown as Gen<number>;
  }

  /** getpid as a generator: what a QuickCall runs when its synchronous attempt did nothing */
  private *getpidGen(): Gen<number> {
    // the null syscall: written out (no closure) because it is the simulator's hottest path
    const g = this.#gate, k = this.#s.k, ex = k.ex;
    if (ex.cycles >= ex.nextEvent || ex.cycles > ex.syncAt) yield* g.common_interrupt();
    g.system_call(NR.getpid);
    if (this.#t.ptrace & PT_TRACESYS) return yield* this.traced(NR.getpid, () => (ex.run(k.hot.sys_getpid), this.#t.tgid));
    ex.run(k.hot.sys_getpid);
    const r = this.#t.tgid;
    if (!g.ret_from_sys_call(r)) return yield* g.work_pending(r);
    if (ex.cycles >= ex.nextEvent || ex.cycles > ex.syncAt) yield* g.common_interrupt();
    return r;
  }

  getppid(): Gen<number> {
    return new QuickCall(this, QUICK_GETPPID) as unknown as Gen<number>;
  }

  private getppidGen(): Gen<number> {
    const k = this.#s.k;
    return this.simple(NR.getppid, "sys_getppid", () => {
      if (k.ncpus > 1) k.runRef(P["sys_getppid.smp"]);
      return this.#t.ppid;
    });
  }

  *gettimeofday(): Gen<{ sec: number; usec: number }> {
    yield* this.simple(NR.gettimeofday, "sys_gettimeofday", () => 0);
    return this.timeOfDay();
  }

  /** The simulated clock as gettimeofday returns it (time 0 at boot). */
  private timeOfDay(): { sec: number; usec: number } {
    const k = this.#s.k;
    const usec = Math.floor(k.cycles / k.profile.mhz);
    return { sec: Math.floor(usec / 1e6), usec: usec % 1e6 };
  }

  /** sched_yield: an iterator that behaves as schedYieldGen (sched-yield-call.ts), without a generator while nothing else happens. */
  sched_yield(): Gen<number> {
    return new SchedYieldCall(this) as unknown as Gen<number>;
  }

  // ---- SchedYieldCall's steps (sched-yield-call.ts): schedYieldGen cut where it would yield ----

  #yieldValue = 0;
  #yieldRest: Gen<number> | null = null;

  /** @internal the system call's value after yieldStart, eax after YIELD_DONE */
  get yieldValue(): number {
    return this.#yieldValue;
  }

  /** @internal sched_yield up to its first switch (see schedYieldGen, which this follows step by step). */
  yieldStart(): number {
    const g = this.#gate, k = this.#s.k, t = this.#t;
    this.#yieldValue = 0;
    // an interrupt before the call, or a traced task: all of it as the generator
    if (k.interruptDue() || t.ptrace & PT_TRACESYS) return this.yieldRestIs(this.schedYieldGen());
    g.system_call(NR.sched_yield);
    const r = sys_sched_yield(k, t);
    this.#yieldValue = r;
    if (g.ret_from_sys_call(r)) return k.interruptDue() ? this.yieldRestIs(this.interruptThen(r)) : YIELD_DONE;
    return this.yieldLoop(true, r);
  }

  /** @internal back from yieldStart's switch (resumed false: closed while switched out), then the loop on. */
  yieldBack(resumed: boolean, r: number): number {
    this.#gate.switchedBack(resumed);
    return resumed ? this.yieldLoop(false, r) : YIELD_DONE;
  }

  /** @internal the generator left by YIELD_REST */
  takeYieldRest(): Gen<number> {
    const g = this.#yieldRest!;
    this.#yieldRest = null;
    return g;
  }

  private yieldRestIs(g: Gen<number>): number {
    this.#yieldRest = g;
    return YIELD_REST;
  }

  /** schedYieldGen's work loop: a reschedule that switched (yield SWITCH), the end, or other work (work_pending). */
  private yieldLoop(first: boolean, r: number): number {
    const g = this.#gate, k = this.#s.k, t = this.#t;
    const entry = k.deps.entry;
    for (; ; first = false) {
      if (!first && !entry.exitTest(k, t)) break;
      if (!t.needResched) return this.yieldRestIs(g.work_pending(r));
      if (g.reschedule()) return YIELD_SWITCHED;
    }
    g.restore_all(false);
    if (k.interruptDue()) return this.yieldRestIs(this.interruptThen(undefined));
    this.#yieldValue = t.regs.eax;
    return YIELD_DONE;
  }

  /** the interrupt taken on the way back to user mode; then `r`, or eax as it is then (undefined) */
  private *interruptThen(r: number | undefined): Gen<number> {
    yield* this.#gate.common_interrupt();
    return r ?? this.#t.regs.eax;
  }

  /**
   * sched_yield, written out: its exit work is nearly always the reschedule, and running that turn
   * of ret_from_sys_call's loop here (Gate.reschedule) leaves a yielded task's stack one generator
   * shallower than simple + work_pending (Seaman's LinuxThreads side makes a million per thread). Any
   * other work (a signal, a plugin's) goes to the gate's own loop, from where this one stopped.
   */
  *schedYieldGen(): Gen<number> {
    const g = this.#gate, k = this.#s.k, t = this.#t;
    if (k.interruptDue()) yield* g.common_interrupt();
    g.system_call(NR.sched_yield);
    if (t.ptrace & PT_TRACESYS) return yield* this.traced(NR.sched_yield, () => sys_sched_yield(k, t));
    const r = sys_sched_yield(k, t);
    if (g.ret_from_sys_call(r)) {
      if (k.interruptDue()) yield* g.common_interrupt();
      return r;
    }
    const entry = k.deps.entry;
    for (let first = true; ; first = false) {
      if (!first && !entry.exitTest(k, t)) break;
      // work that is not (only) a reschedule: the gate's loop, without testing again
      if (!t.needResched) return yield* g.work_pending(r);
      if (g.reschedule()) {
        let resumed = false;
        try {
          yield SWITCH;
          resumed = true;
        } finally {
          g.switchedBack(resumed);
        }
      }
    }
    g.restore_all(false);
    if (k.interruptDue()) yield* g.common_interrupt();
    return t.regs.eax;
  }

  /** sched_setaffinity(pid, mask): the CPUs `pid` (0: this task) may run on, a bit per CPU. */
  sched_setaffinity(pid: number, mask: number): Gen<number> {
    return this.simple(CORE_NR.sched_setaffinity, null, () => sys_sched_setaffinity(this.#s.k, this.#t, pid, mask));
  }

  /** sched_getaffinity(pid): the mask, or -errno. */
  sched_getaffinity(pid: number): Gen<number> {
    return this.simple(CORE_NR.sched_getaffinity, null, () => sys_sched_getaffinity(this.#s.k, this.#t, pid));
  }

  kill(pid: number, sig: number): Gen<number> {
    return new QuickCall(this, QUICK_KILL, pid, sig) as unknown as Gen<number>;
  }

  tkill(tid: number, sig: number): Gen<number> {
    return new QuickCall(this, QUICK_TKILL, tid, sig) as unknown as Gen<number>;
  }

  // ---- QuickCall's two halves (quick-call.ts) -----------------------------------------------

  /** @internal make call `kind` synchronously (the …Now protocol below): its result, or undefined (then quickRest). */
  quickNow(kind: QuickKind, a: number, b: number): number | undefined {
    const k = this.#s.k, t = this.#t;
    let r: number;
    switch (kind) {
      case QUICK_GETPID:
        if (!this.enterNow(NR.getpid)) return undefined;
        k.ex.run(k.hot.sys_getpid);
        r = t.tgid;
        break;
      case QUICK_GETPPID:
        if (!this.enterNow(NR.getppid)) return undefined;
        k.runRef(P["sys_getppid"]);
        if (k.ncpus > 1) k.runRef(P["sys_getppid.smp"]);
        r = t.ppid;
        break;
      case QUICK_KILL:
        if (!this.enterNow(NR.kill)) return undefined;
        r = sys_kill(k, t, a, b);
        break;
      default:
        if (!this.enterNow(NR.tkill)) return undefined;
        r = sys_kill(k, t, a, b, SI_TKILL);
    }
    if (this.leaveNow(r)) return r;
    if (this.#nowLeft !== NOW_EXIT_WORK) return undefined;
    // the exit work, usually a signal whose handler runs to its end: without a generator when it
    // can. The handler's own calls use this thread's …Now state too: this call's is set after it.
    const nr = this.#nowNr;
    if (this.#gate.work_pendingNow(r)) {
      this.#nowLeft = NOW_NOTHING_DONE;
      return t.regs.eax;
    }
    this.#nowNr = nr;
    this.#nowLeft = NOW_GATE_REST;
    return undefined;
  }

  /** @internal the generator that finishes what quickNow left: the whole call when it did nothing. */
  quickRest(kind: QuickKind, a: number, b: number): Gen<number> {
    if (this.#nowLeft === NOW_NOTHING_DONE) {
      switch (kind) {
        case QUICK_GETPID:
          return this.getpidGen();
        case QUICK_GETPPID:
          return this.getppidGen();
        case QUICK_KILL:
          return this.simple(NR.kill, null, () => sys_kill(this.#s.k, this.#t, a, b));
        default:
          return this.simple(NR.tkill, null, () => sys_kill(this.#s.k, this.#t, a, b, SI_TKILL));
      }
    }
    const nr = kind === QUICK_GETPID ? NR.getpid : kind === QUICK_GETPPID ? NR.getppid : kind === QUICK_KILL ? NR.kill : NR.tkill;
    // what work_pendingNow left: the generator that finishes the exit work from where it stopped
    if (this.#nowLeft === NOW_GATE_REST && this.#nowNr === nr) {
      this.#nowLeft = NOW_NOTHING_DONE;
      return this.#gate.work_pendingRest();
    }
    return this.finishNow(nr);
  }

  *sigqueue(pid: number, sig: number, value: number): Gen<number> {
    const k = this.#s.k;
    return yield* this.simple(NR.rt_sigqueueinfo, "sys_kill", () => {
      const t = k.tasks.get(pid);
      if (!t) return -ESRCH;
      return send_sig_info(k, sig, { signo: sig, errno: 0, code: SI_QUEUE, pid: this.pid, value }, t);
    });
  }

  /** rt_sigaction with a checked handler (the façade wraps the workload's function). */
  sigactionFacade(sig: number, handler: HandlerFn | "default" | "ignore", flags: number, mask: number[]): Gen<number> {
    const act: SigAction = { handler, flags: flags >>> 0, mask: Sigset.of(mask) };
    return this.simple(NR.rt_sigaction, null, () => sys_sigaction(this.#s.k, this.#t, sig, act));
  }

  *sigprocmask(how: 0 | 1 | 2, set: number[]): Gen<number[] | number> {
    const old = yield* this.sigprocmaskSet(how, set ? Sigset.of(set) : null);
    return typeof old === "number" ? old : old.toList();
  }

  /** rt_sigprocmask with bit sets (for thread libraries that switch masks on every switch). */
  *sigprocmaskSet(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number> {
    let old: Sigset | number = 0;
    const r = yield* this.simple(NR.rt_sigprocmask, null, () => {
      old = sys_rt_sigprocmask(this.#s.k, this.#t, how, set);
      return typeof old === "number" ? old : 0;
    });
    return r < 0 ? r : old;
  }

  // ---- system calls without a generator: thread libraries' hot paths -------------------------
  //
  // `xNow(...)` makes the call synchronously when it can and returns its result; `undefined` means
  // it could not finish (an interrupt was due, the task is traced, the exit found work) and
  // `yield* xRest(...)` with the same arguments finishes it from where it stopped. Rest after a
  // Now that returned a result (or without a Now) makes the whole call. Same cycles, same order:
  // the equivalence oracle runs the thread libraries that use them.

  /** rt_sigprocmask with bit sets, without a generator (see above). */
  sigprocmaskSetNow(how: 0 | 1 | 2, set: Sigset | null): Sigset | number | undefined {
    if (!this.enterNow(NR.rt_sigprocmask)) return undefined;
    const old = sys_rt_sigprocmask(this.#s.k, this.#t, how, set);
    const r = typeof old === "number" ? old : 0;
    if (!this.leaveNow(r)) {
      this.#nowValue = old;
      return undefined;
    }
    return r < 0 ? r : old;
  }
  *sigprocmaskSetRest(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number> {
    if (this.#nowLeft === NOW_NOTHING_DONE) return yield* this.sigprocmaskSet(how, set);
    const old = this.#nowValue as Sigset | number;
    this.#nowValue = undefined;
    const r = yield* this.finishNow(NR.rt_sigprocmask);
    return r < 0 ? r : old;
  }

  /** gettimeofday (the system call), without a generator (see above). */
  gettimeofdayNow(): { sec: number; usec: number } | undefined {
    if (!this.enterNow(NR.gettimeofday)) return undefined;
    this.#s.k.runRef(P["sys_gettimeofday"]);
    return this.leaveNow(0) ? this.timeOfDay() : undefined;
  }
  *gettimeofdayRest(): Gen<{ sec: number; usec: number }> {
    if (this.#nowLeft === NOW_NOTHING_DONE) return yield* this.gettimeofday();
    yield* this.finishNow(NR.gettimeofday);
    return this.timeOfDay();
  }

  /** The entry of a `…Now` call: false (nothing done) when it must take the generator's way. */
  private enterNow(nr: number): boolean {
    const k = this.#s.k;
    this.#nowLeft = NOW_NOTHING_DONE;
    if (k.interruptDue() || this.#t.ptrace & PT_TRACESYS) return false;
    this.#nowNr = nr;
    this.#gate.system_call(nr);
    return true;
  }

  /** The exit of a `…Now` call: true when user mode continues with nothing left to do. */
  private leaveNow(result: number): boolean {
    if (!this.#gate.ret_from_sys_call(result)) this.#nowLeft = NOW_EXIT_WORK;
    else if (this.#s.k.interruptDue()) this.#nowLeft = NOW_INTERRUPT;
    else return true;
    this.#nowResult = result;
    return false;
  }

  /** What a `…Now` call left: the exit work loop, or the interrupt due on return to user mode. */
  private *finishNow(nr: number): Gen<number> {
    const left = this.#nowLeft, r = this.#nowResult;
    this.#nowLeft = NOW_NOTHING_DONE;
    // a library that calls another call's Rest would get that call's result as its own
    if (nr !== this.#nowNr) throw new SimError("plugin", `the Rest of system call ${nr} was called to finish system call ${this.#nowNr} (call a …Rest right after its own …Now returned undefined)`, this.#t.pid);
    if (left === NOW_EXIT_WORK) return yield* this.#gate.work_pending(r);
    yield* this.#gate.common_interrupt();
    return r;
  }

  *sigpending(): Gen<number[]> {
    let list: number[] = [];
    yield* this.simple(NR.rt_sigpending, "sys_rt_sigprocmask", () => {
      const p = this.#t.pending.clone();
      const b = this.#t.blocked;
      list = p.toList().filter((s) => b.has(s));
      return 0;
    });
    return list;
  }

  *sigaltstack(size: number): Gen<number> {
    const k = this.#s.k;
    return yield* this.simple(NR.sigaltstack, "sys_sigaltstack", () => {
      if (size < 2048) return -12; // -ENOMEM below MINSIGSTKSZ
      const sp = this.#t.mm.mmapAnon(size, 3);
      this.#t.sas = { sp, size };
      k.count("signals.altstacks");
      return 0;
    });
  }

  *pipe(): Gen<[number, number]> {
    let fds: [number, number] = [-1, -1];
    yield* this.simple(NR.pipe, null, () => {
      fds = sys_pipe(this.#s.k, this.#t);
      return 0;
    });
    return fds;
  }

  *open(path: string): Gen<number> {
    return yield* this.simple(NR.open, null, () => sys_open(this.#s.k, this.#t, String(path)));
  }

  close(fd: number): Gen<number> {
    return this.simple(NR.close, null, () => sys_close(this.#s.k, this.#t, fd));
  }

  *fcntl(fd: number, cmd: number, arg = 0): Gen<number> {
    return yield* this.simple(NR.fcntl, null, () => sys_fcntl(this.#s.k, this.#t, fd, cmd, arg));
  }

  *mmap(bytes: number, prot: number): Gen<number> {
    return yield* this.simple(NR.mmap, null, () => sys_mmap(this.#s.k, this.#t, bytes, prot));
  }

  *mprotect(addr: number, bytes: number, prot: number): Gen<number> {
    return yield* this.simple(NR.mprotect, null, () => sys_mprotect(this.#s.k, this.#t, addr, bytes, prot));
  }

  *munmap(addr: number, bytes: number): Gen<number> {
    return yield* this.simple(NR.munmap, null, () => sys_munmap(this.#s.k, this.#t, addr, bytes));
  }

  // ---- blocking syscalls ---------------------------------------------------------------------

  read(fd: number, bytes: number): Gen<number> {
    return this.blocking(NR.read, () => sys_read(this.#s.k, this.#t, fd, bytes));
  }

  write(fd: number, bytes: number): Gen<number> {
    return this.blocking(NR.write, () => sys_write(this.#s.k, this.#t, fd, bytes));
  }

  *select(readFds: number[], writeFds: number[], timeoutNs?: number): Gen<{ readable: number[]; writable: number[] } | number> {
    let res: { readable: number[]; writable: number[] } | number = 0;
    const k = this.#s.k, t = this.#t;
    const r = yield* this.blocking(NR._newselect, function* () {
      res = yield* sys_select(k, t, readFds, writeFds, timeoutNs);
      return typeof res === "number" ? res : res.readable.length + res.writable.length;
    });
    return r < 0 ? r : res;
  }

  *nanosleep(ns: number): Gen<number> {
    const k = this.#s.k, t = this.#t;
    return yield* this.blocking(NR.nanosleep, () => sys_nanosleep(k, t, ns));
  }


  *sigsuspend(mask: number[]): Gen<number> {
    const k = this.#s.k, t = this.#t;
    this.#gate.system_call(NR.rt_sigsuspend);
    const body = (): Gen<number> => sys_rt_sigsuspend(k, t, mask);
    let r: number;
    if (t.ptrace & PT_TRACESYS) r = yield* this.traced(NR.rt_sigsuspend, body);
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
    const r = yield* this.blocking(NR.rt_sigtimedwait, () => sys_rt_sigtimedwait(k, t, set, timeoutNs, out));
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
    const r = yield* this.simple(NR.fork, null, () => {
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
    return yield* this.simple(NR.clone, null, () => {
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
    return yield* this.blocking(NR.wait4, () => sys_wait4(k, t, pid, options));
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
        const r = yield* this.blocking(nr, function* () {
          out = yield* (c.handler(k, t, args) as Gen<unknown>);
          return typeof out === "number" ? out : 0;
        });
        return r < 0 ? r : out;
      }
      let out: unknown;
      const r = yield* this.simple(nr, c.path ?? "sys_ni_syscall", () => {
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
        return yield* this.simple(nr, "sys_ni_syscall", () => -ENOSYS);
    }
  }

  /** ptrace(request, pid, addr, data): 0 or -errno; PEEK* give { word }, PTRACE_GETREGS the registers. */
  *ptrace(request: number, pid: number, addr: number, data: number, regs?: Readonly<Partial<UserRegsStruct>>): Gen<number | Readonly<{ word: number }> | Readonly<UserRegsStruct>> {
    const k = this.#s.k, t = this.#t;
    const out: PtraceOut = {};
    const r = yield* this.simple(CORE_NR.ptrace, null, () => sys_ptrace(k, t, request, pid, addr, data, out, regs));
    if (r < 0) return r;
    if (out.regs) return Object.freeze({ ...out.regs });
    if (out.word !== undefined) return Object.freeze({ word: out.word });
    return r;
  }

  // ---- memory --------------------------------------------------------------------------------

  *store(addr: number, value = 0): Gen<void> {
    const k = this.#s.k, t = this.#t;
    this.#gate.checkTurn();
    for (;;) {
      k.step();
      if (k.interruptDue()) yield* this.#gate.common_interrupt();
      k.run(t.handlerDepth > 0 ? P["handler.store"] : P["user.store"]);
      if (user_access(k, t, addr, true)) {
        t.mm.words.set(addr, value);
        // plugins that keep kernel-visible state in user memory (user-sigmask) watch their words
        if (k.events.hasListeners(EV["user.store"])) k.events.fire(EV["user.store"], t, addr);
        return;
      }
      // #PF -> SIGSEGV: the exception return delivers it; then the store is retried
      yield* this.#gate.ret_from_exception();
    }
  }

  *load(addr: number): Gen<number> {
    const k = this.#s.k, t = this.#t;
    this.#gate.checkTurn();
    for (;;) {
      k.step();
      if (k.interruptDue()) yield* this.#gate.common_interrupt();
      if (user_access(k, t, addr, false)) return t.mm.words.get(addr) ?? 0;
      yield* this.#gate.ret_from_exception();
    }
  }

  // ---- non-local jumps -----------------------------------------------------------------------

  *setjmp<T>(body: (jb: object) => Gen<T>, saveMask = false): Gen<{ jumped: boolean; value: T | number }> {
    const t = this.#t;
    const jb: JmpBufImpl = {
      task: t,
      esp: t.regs.esp,
      eip: t.regs.eip,
      regs: { ebx: t.regs.ebx, esi: t.regs.esi, edi: t.regs.edi, ebp: t.regs.ebp },
      mask: saveMask ? t.blocked.toList() : null,
    };
    const token = Object.freeze(Object.create(null) as object);
    jmpBufs.set(token, jb);
    try {
      const v = yield* body(token);
      return { jumped: false, value: v };
    } catch (e) {
      if (!isHostThrown(e) || !(e instanceof LongJmp) || e.jb !== token) throw e;
      // the callee-saved registers, esp and eip come back from the jmp_buf
      t.regs.ebx = jb.regs["ebx"]!; t.regs.esi = jb.regs["esi"]!; t.regs.edi = jb.regs["edi"]!; t.regs.ebp = jb.regs["ebp"]!;
      t.regs.esp = jb.esp;
      t.regs.eip = jb.eip;
      this.#s.k.count("libc.longjmps");
      // siglongjmp restores the mask with a real rt_sigprocmask
      if (jb.mask) yield* this.sigprocmask(2, jb.mask);
      return { jumped: true, value: e.value };
    }
  }

  longjmp(token: object, value = 1): never {
    const b = jmpBufs.get(token);
    if (!b || b.task !== this.#t) throw new TypeError("longjmp: not a jump buffer of this thread");
    throw new LongJmp(token, value === 0 ? 1 : value);
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
  progress(fraction: number): void {
    this.#s.collector.setProgress(fraction);
  }
  log(...args: unknown[]): void {
    this.#s.collector.addLog(args);
  }

  // ---- runtime internals used by libraries and the gate --------------------------------------

  /** A non-blocking syscall: entry, body (charged `path` then `body()`), exit work. */
  *simple(nr: number, path: string | null, body: () => number): Gen<number> {
    const g = this.#gate, k = this.#s.k;
    if (k.interruptDue()) yield* g.common_interrupt();
    g.system_call(nr);
    if (this.#t.ptrace & PT_TRACESYS) {
      return yield* this.traced(nr, () => {
        if (path) k.run(path);
        return body();
      });
    }
    if (path) k.run(path);
    const r = body();
    if (!g.ret_from_sys_call(r)) return yield* g.work_pending(r);
    if (k.interruptDue()) yield* g.common_interrupt();
    return r;
  }

  /** A syscall that may sleep; restarted (eip -= 2) after a handler when the rules say so. */
  *blocking(nr: number, body: () => Gen<number>): Gen<number> {
    const g = this.#gate, k = this.#s.k, t = this.#t;
    for (;;) {
      if (k.interruptDue()) yield* g.common_interrupt();
      g.system_call(nr);
      let out: number;
      if (t.ptrace & PT_TRACESYS) out = yield* this.traced(nr, body);
      else {
        const r = yield* body();
        out = r;
        if (!g.ret_from_sys_call(r)) out = yield* g.work_pending(r);
        else if (k.interruptDue()) yield* g.common_interrupt();
      }
      if (t.regs.eip === SYSCALL_EIP - 2) continue; // restarted by do_signal/handle_signal
      // ERESTART* never reach user space: without a handler they mean -EINTR
      if (out <= -512 && out >= -516) return out === -ERESTARTNOHAND || out === -512 ? -4 : out;
      return out;
    }
  }

  /** A syscall of a task traced with PTRACE_SYSCALL: tracesys (two stops), then the exit through iret. */
  *traced(nr: number, body: () => number | Gen<number>): Gen<number> {
    yield* this.#gate.tracesys(nr, body);
    return yield* this.#gate.exitTraced();
  }

  /** `n` user FPU instructions: #NM first if CR0.TS is set. */
  *fpuInstruction(n: number): Gen<void> {
    const k = this.#s.k;
    this.#gate.checkTurn();
    k.step();
    if (k.interruptDue()) yield* this.#gate.common_interrupt();
    yield* this.#gate.device_not_available();
    k.runN(this.#t.handlerDepth > 0 ? P["handler.fp_op"] : P["user_fp_op"], n);
  }

  /** libc memcpy of `bytes`: with SSE it uses (and clobbers) xmm0-xmm3. */
  *userMemcpy(bytes: number, sse: boolean): Gen<void> {
    const k = this.#s.k, t = this.#t;
    if (!(bytes >= 0)) throw new TypeError(`memcpy(bytes): expected a number >= 0, got ${bytes}`);
    this.#gate.checkTurn();
    k.step();
    if (k.interruptDue()) yield* this.#gate.common_interrupt();
    const lines = Math.ceil(bytes / k.profile.cacheLineBytes);
    const inHandler = t.handlerDepth > 0;
    if (sse) {
      yield* this.#gate.device_not_available();
      k.runN(inHandler ? P["handler.sse_memcpy"] : P["libc.sse_memcpy"], lines);
      // the last 64 bytes copied stay in xmm0-xmm3
      const seq = ++this.#s.memcpySeq;
      for (let i = 0; i < 4 * XMM_LANES; i++) k.cpu.fpu.xmm[i] = (0x5a5a0000 + seq * 16 + i) >>> 0;
      k.count("libc.sse_memcpy_calls");
    } else {
      k.runN(inHandler ? P["handler.memcpy"] : P["libc.memcpy"], lines);
    }
    k.count("bytes.memcpy", bytes);
    if (k.interruptDue()) yield* this.#gate.common_interrupt();
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

  /** @internal per-page TLB-friendly helper for workloads that touch a buffer */
  pageOf(addr: number): number {
    return addr >>> PAGE_SHIFT;
  }
}

/** Tasks fork() made (not clone()): their first return to user mode writes their stack page. */
const FORK_CHILDREN = new WeakSet<Task>();

/** jmp_buf tokens handed to workload code -> what setjmp saved. */
const jmpBufs = new WeakMap<object, JmpBufImpl>();
