/**
 * The user/kernel boundary as the runtime drives it: syscall entry and the exit work loop
 * (ret_from_sys_call: reschedule / signal_return), user-mode interrupts, exception returns, and
 * running a signal handler up to its sigreturn. Generators, because the exit work may switch
 * tasks or run a handler.
 */
import { EV } from "../kernel/events.js";
import { markHostThrown } from "../common/host-thrown.js";
import { do_device_not_available } from "../kernel/i387.js";
import { SimError, SMP_SYNC, SWITCH, type Kernel } from "../kernel/kernel.js";
import { __schedule, switchedBack, sys_sched_yield, touchHotPages } from "../kernel/sched.js";
import { do_signal, sys_sigreturn, type SignalAction } from "../kernel/signal.js";
import { StartedIterator } from "./started-iterator.js";
import { CORE_NR_NAME, NR, NR_NAME, NR_SYSCALLS } from "../kernel/syscall-nr.js";
import { PT_PTRACED, PT_TRACESYS, ptrace_signal_stop, syscall_trace } from "../kernel/ptrace.js";
import type { SigAction, SignalFrameK, Task } from "../kernel/task.js";
import { pathRefs } from "../kernel/path-refs.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["iret_sti", "reschedule", "restore_all", "ret_from_exception", "signal_return", "sigreturn_trampoline", "sys_getppid", "tracesys", "tracesys.dispatch", "tracesys_exit"]);

/** EIP just after the `int $0x80` of the libc stub (restart rewinds it by 2). */
export const SYSCALL_EIP = 0x08049002;

export type Gen<T> = Generator<unknown, T, unknown>;

/** Thrown by longjmp; caught by the matching setjmp frame. The kernel never sees it. */
export class LongJmp {
  constructor(readonly jb: object, readonly value: number) {
    markHostThrown(this);
  }
}

/** Terminates the task's generator after do_exit (nothing after exit runs). */
export class TaskExit {
  constructor(readonly code: number) {
    markHostThrown(this);
  }
}

export interface HandlerRunner {
  /** enter the handler in user mode: the workload's handler generator, for the gate to run */
  handlerEnter(frame: SignalFrameK, action: SigAction): Gen<void>;
  /** the handler's generator ended (returned, threw or was closed) */
  handlerLeft(): void;
  /** terminate the task (default action of a fatal signal, or exit()) */
  doExit(code: number): Gen<never>;
}

/** counters["syscalls.<name>"] for a syscall number (a plugin's syscall under its own name) */
export function syscallCounterName(k: Kernel, nr: number): string {
  const own = NR_NAME[nr] ?? CORE_NR_NAME[nr];
  if (own) return `syscalls.${own}`;
  const c = k.syscallTable.get(nr);
  return c ? `syscalls.${c.name}` : `syscalls.nr${nr}`;
}

const ENOSYS = 38;

/** Syscalls a tracer may put in orig_eax in place of another: the ones without arguments. */
const SUBSTITUTABLE: Readonly<Record<number, (k: Kernel, t: Task) => number>> = Object.freeze({
  [NR.getpid]: (k: Kernel, t: Task) => {
    k.ex.run(k.hot.sys_getpid);
    return t.tgid;
  },
  [NR.getppid]: (k: Kernel, t: Task) => {
    k.runRef(P["sys_getppid"]);
    return t.ppid;
  },
  [NR.sched_yield]: (k: Kernel, t: Task) => sys_sched_yield(k, t),
});

/** What sigreturnNow left to do: all of it (a traced task), the exit work loop, a due interrupt. */
const SIGRETURN_ALL = 0, SIGRETURN_EXIT_WORK = 1, SIGRETURN_INTERRUPT = 2;

export class Gate {
  private tlbEpoch = -1;
  constructor(readonly k: Kernel, readonly t: Task, private readonly runner: HandlerRunner) {}

  /**
   * Workload code may act only for the task that is running: a generator stepped by hand from
   * another thread, or code running after the run ended, would desynchronise the simulation.
   */
  checkTurn(): void {
    const k = this.k;
    if (k.current !== this.t || k.stopped) {
      throw new SimError("workload", k.stopped ? "the workload called the thread API after the run ended" : `task ${this.t.pid}'s thread API was used while task ${k.current.pid} runs (a simulated call stepped by hand from another thread?)`, k.current.pid);
    }
    if (this.turnGuard && !this.turnGuard()) {
      throw new SimError("workload", `a user-level thread of task ${this.t.pid} used the thread API while another one runs (a yield stepped by hand?)`, this.t.pid);
    }
  }

  /** For a user-level thread: true while its library runs it (set by the library's scheduler). */
  turnGuard: (() => boolean) | null = null;

  /** user -> kernel for system call `nr` */
  enter(nr: number): void {
    const k = this.k;
    if (k.current !== this.t || k.stopped || this.turnGuard !== null) this.checkTurn();
    k.step();
    k.syscallCounts[nr & 511]++;
    this.t.regs.eip = SYSCALL_EIP;
    this.t.regs.orig_eax = nr; // system_call: pushl %eax
    // SAVE_ALL writes pt_regs at the top of the kernel stack; GET_CURRENT's flags/ptrace tests
    const m = this.t.mem;
    if (m !== null) {
      k.touch(m.kstack, true);
      k.touch(m.fields.state);
    }
    k.deps.entry.enter(k, this.t, nr);
  }

  /** Exit without work: test flags, return to user. False if there is work (call exitSlow). */
  exitFast(result: number): boolean {
    const k = this.k, t = this.t;
    t.regs.eax = result | 0;
    if (k.deps.entry.exitTest(k, t)) return false;
    k.deps.entry.leave(k, t, false);
    this.refillTlb();
    // observers care about a plain syscall return only when it left work pending (a race)
    if (t.sigpending || t.needResched) this.notifyReturn(false);
    return true;
  }

  /**
   * The work loop of ret_from_sys_call after the flags test found work. Returns the value in eax
   * when user mode continues in the original context (the handler's sigreturn may change it).
   */
  *exitSlow(result: number | undefined, retest = false, forceIret = false): Gen<number> {
    const k = this.k, t = this.t;
    const entry = k.deps.entry;
    let mustIret = forceIret;
    for (let first = !retest; ; first = false) {
      if (!first && !entry.exitTest(k, t)) break;
      if (t.needResched) {
        // schedule() written out: the task's stack is one generator shallower while switched out
        if (this.reschedule()) {
          let resumed = false;
          try {
            yield SWITCH;
            resumed = true;
          } finally {
            this.switchedBack(resumed);
          }
        }
        continue;
      }
      if (t.sigpending) {
        k.runRef(P["signal_return"]);
        let act = do_signal(k, t, result, SYSCALL_EIP);
        while (act.kind === "trace") {
          // a traced task stops first; the tracer decides what (if anything) is delivered
          const left = yield* ptrace_signal_stop(k, t, act.sig, act.info);
          act = do_signal(k, t, result, SYSCALL_EIP, left);
        }
        if (act.kind === "handler") {
          entry.leave(k, t, true);
          this.afterReturn(true);
          const handler = this.runner.handlerEnter(act.frame, act.action);
          try {
            yield* handler;
          } finally {
            this.runner.handlerLeft();
          }
          // the handler's ret into the frame's return code: sigreturn
          if (!this.sigreturnNow(act.frame)) yield* this.sigreturnRest(act.frame);
          return t.regs.eax;
        }
        return yield* this.signalActed(act);
      }
      break;
    }
    this.exitNoWork(mustIret);
    if (k.interruptDue()) yield* this.userInterrupt();
    return t.regs.eax;
  }

  /**
   * exitSlow without a generator in its usual case: the work is a signal with a handler (no
   * reschedule pending, the task not traced) and the handler finishes without yielding; then
   * sigreturn (sigreturnNow). True when user mode continues in the interrupted context with nothing
   * left (the call's result is eax); false when a generator must finish from where this stopped
   * (takeExitRest(), at once): exitSlow itself when nothing was done yet, else the handler resumed
   * where it yielded, the rest of sigreturn, or do_signal's other outcomes.
   */
  exitSlowNow(result: number): boolean {
    const k = this.k, t = this.t;
    if (t.needResched || !t.sigpending || (t.ptrace & PT_PTRACED) !== 0) return this.exitRestIs(this.exitSlow(result));
    k.runRef(P["signal_return"]);
    const act = do_signal(k, t, result, SYSCALL_EIP);
    if (act.kind !== "handler") return this.exitRestIs(this.signalActed(act));
    k.deps.entry.leave(k, t, true);
    this.afterReturn(true);
    const h = this.runner.handlerEnter(act.frame, act.action);
    let r: IteratorResult<unknown, unknown>;
    try {
      r = h.next();
    } catch (e) {
      this.runner.handlerLeft();
      throw e;
    }
    if (!r.done) return this.exitRestIs(this.handlerResumed(h, r, act.frame));
    this.runner.handlerLeft();
    if (this.sigreturnNow(act.frame)) return true;
    return this.exitRestIs(this.sigreturnRestThenEax(act.frame));
  }

  /** what exitSlowNow left to a generator */
  private exitRest: Gen<number> | null = null;

  private exitRestIs(g: Gen<number>): false {
    this.exitRest = g;
    return false;
  }

  /** The generator exitSlowNow left (taken once). */
  takeExitRest(): Gen<number> {
    const g = this.exitRest!;
    this.exitRest = null;
    return g;
  }

  /** exitSlow after do_signal found no handler to run: the default action, then restore_all by iret. */
  private *signalActed(act: Exclude<SignalAction, { kind: "handler" }>): Gen<number> {
    const k = this.k, t = this.t;
    if (act.kind === "terminate") {
      k.count("signals.fatal");
      t.termSig = act.sig;
      yield* this.runner.doExit(128 + act.sig);
    }
    // 2.4: after do_signal, jmp restore_all (no re-check)
    this.exitNoWork(true);
    if (k.interruptDue()) yield* this.userInterrupt();
    return t.regs.eax;
  }

  /** A handler that yielded before finishing: the rest of exitSlow's `yield* handler`, then sigreturn. */
  private *handlerResumed(h: Gen<void>, first: IteratorResult<unknown, unknown>, frame: SignalFrameK): Gen<number> {
    try {
      yield* new StartedIterator(h, first);
    } finally {
      this.runner.handlerLeft();
    }
    if (!this.sigreturnNow(frame)) yield* this.sigreturnRest(frame);
    return this.t.regs.eax;
  }

  private *sigreturnRestThenEax(frame: SignalFrameK): Gen<number> {
    yield* this.sigreturnRest(frame);
    return this.t.regs.eax;
  }

  /**
   * The work loop's reschedule (entry.S `reschedule`: call schedule): true when another task runs
   * now — the caller yields SWITCH, then calls switchedBack — false when this one kept the CPU.
   * exitSlow's loop and the system calls that write that loop out (sched_yield) share it.
   */
  reschedule(): boolean {
    this.k.runRef(P["reschedule"]);
    return __schedule(this.k) !== this.t;
  }

  /** Back on the CPU after reschedule()'s switch (`resumed`: false when the task's generator was closed instead). */
  switchedBack(resumed: boolean): void {
    switchedBack(this.k, this.t, resumed);
  }

  /** The return to user mode once the work loop found nothing more to do (restore_all). */
  exitNoWork(mustIret: boolean): void {
    this.k.deps.entry.leave(this.k, this.t, mustIret);
    this.afterReturn(false);
  }

  /** Back in user mode: hot-page TLB refills after a flush, and the checkers' hook. */
  afterReturn(intoHandler: boolean): void {
    this.refillTlb();
    this.notifyReturn(intoHandler);
  }

  /**
   * The first user accesses after a CR3 write, an invlpg that evicted an entry (or to another
   * task's pages) refill the TLB: only the hot pages whose entries went miss.
   */
  private refillTlb(): void {
    const k = this.k;
    const epoch = k.cpu.tlb.epoch;
    if (epoch !== this.tlbEpoch || k.lastUser !== this.t) {
      this.tlbEpoch = epoch;
      k.lastUser = this.t;
      touchHotPages(k, this.t);
    }
  }

  private notifyReturn(intoHandler: boolean): void {
    if (this.k.events.hasListeners(EV["return.user"])) this.k.events.fire(EV["return.user"], this.t, intoHandler);
  }

  /** A timer/device interrupt taken in user mode: handlers, then ret_from_intr's work check. */
  *userInterrupt(): Gen<void> {
    const k = this.k;
    if (k.ex.cycles > k.ex.syncAt) {
      // SMP: another CPU acts before this moment; the run loop lets it catch up first
      yield SMP_SYNC;
      if (k.current !== this.t) throw new SimError("internal", `task ${this.t.pid} resumed on a CPU that runs task ${k.current.pid}`, this.t.pid);
      if (k.ex.cycles < k.ex.nextEvent) return;
    }
    k.takeInterruptInUser();
    yield* this.exceptionReturn();
  }

  /** ret_from_exception / ret_from_intr to user mode: the same work flags, then iret. */
  *exceptionReturn(): Gen<void> {
    const k = this.k, t = this.t;
    k.runRef(P["ret_from_exception"]);
    if (t.needResched || t.sigpending) {
      yield* this.exitSlow(undefined, false);
      return;
    }
    if (k.cpu.IF === 0) k.runRef(P["iret_sti"]);
    k.runRef(P["restore_all"]);
    this.afterReturn(false);
    if (k.interruptDue()) yield* this.userInterrupt();
  }

  /** Poll for an interrupt at a user-mode instruction boundary. */
  *poll(): Gen<void> {
    if (this.k.interruptDue()) yield* this.userInterrupt();
  }

  /** An FPU instruction in user mode: #NM if CR0.TS is set, then the exception return. */
  *fpuAccess(): Gen<void> {
    const k = this.k;
    // only CR0.TS matters: with TS clear the registers are used as they are (the CPU checks no owner)
    while (k.cpu.TS) {
      k.cpu.cpl = 0;
      do_device_not_available(k, this.t);
      yield* this.exceptionReturn();
    }
  }

  /** The handler returned: ret to pretcode, the trampoline, and the sigreturn system call. */
  /**
   * The handler's return through the trampoline into sys_sigreturn, without a generator: true when
   * user mode continues in the interrupted context with nothing left to do; false when the task is
   * traced (nothing done yet), the exit found work or an interrupt is due (the return to user mode
   * not made yet): then `yield* sigreturnRest(frame)` at once.
   */
  sigreturnNow(frame: SignalFrameK): boolean {
    const k = this.k, t = this.t;
    this.sigreturnLeft = SIGRETURN_ALL;
    if (t.ptrace & PT_TRACESYS) return false;
    const rt = frame.kind === "rt_sigframe";
    this.trampoline(frame, rt);
    this.enter(rt ? NR.rt_sigreturn : NR.sigreturn);
    t.regs.eax = sys_sigreturn(k, t, rt);
    // pt_regs changed: the return must be an iret (matters for SYSENTER)
    if (k.deps.entry.exitTest(k, t)) {
      this.sigreturnLeft = SIGRETURN_EXIT_WORK;
      return false;
    }
    k.deps.entry.leave(k, t, true);
    this.afterReturn(false);
    if (!k.interruptDue()) return true;
    this.sigreturnLeft = SIGRETURN_INTERRUPT;
    return false;
  }

  *sigreturnRest(frame: SignalFrameK): Gen<void> {
    const k = this.k, t = this.t;
    const left = this.sigreturnLeft;
    this.sigreturnLeft = SIGRETURN_ALL;
    if (left === SIGRETURN_EXIT_WORK) {
      yield* this.exitSlow(undefined, false);
      return;
    }
    if (left === SIGRETURN_INTERRUPT) {
      yield* this.userInterrupt();
      return;
    }
    // traced (PTRACE_SYSCALL): tracesys's two stops around sys_sigreturn, the exit through iret
    const rt = frame.kind === "rt_sigframe";
    const nr = rt ? NR.rt_sigreturn : NR.sigreturn;
    this.trampoline(frame, rt);
    this.enter(nr);
    yield* this.tracesys(nr, () => sys_sigreturn(k, t, rt));
    yield* this.exitTraced();
  }

  /** The handler's `ret` into the frame's return code (__restore_rt / sigreturn's popl %eax). */
  private trampoline(frame: SignalFrameK, rt: boolean): void {
    const t = this.t;
    t.regs.esp = (frame.address + 4) >>> 0; // ret popped pretcode
    if (!rt) t.regs.esp = (t.regs.esp + 4) >>> 0; // popl %eax (sig)
    this.k.runRef(P["sigreturn_trampoline"]);
  }

  /** what sigreturnNow left to sigreturnRest */
  private sigreturnLeft = SIGRETURN_ALL;

  /**
   * entry.S tracesys, for a task traced with PTRACE_SYSCALL: eax = -ENOSYS, syscall_trace (a stop),
   * the syscall the tracer left in orig_eax (none when it made the number invalid: the
   * "nullified" syscall), syscall_trace again (a second stop). Returns eax as the tracer left it.
   */
  *tracesys(nr: number, body: () => number | Gen<number>): Gen<number> {
    const k = this.k, t = this.t;
    k.runRef(P["tracesys"]);
    t.regs.eax = -ENOSYS;
    yield* syscall_trace(k, t);
    k.runRef(P["tracesys.dispatch"]);
    const now = t.regs.orig_eax;
    if (now >>> 0 < NR_SYSCALLS) {
      let r: number;
      if (now === nr) {
        const out = body();
        r = typeof out === "number" ? out : yield* out;
      } else {
        const other = SUBSTITUTABLE[now];
        if (!other) throw new SimError("workload", `the tracer of task ${t.pid} turned syscall ${nr} into ${now}: SigLab keeps syscall arguments out of the saved registers, so a tracer may substitute only a syscall without arguments (${Object.keys(SUBSTITUTABLE).join(", ")}) or an invalid number`, t.pid);
        k.count("ptrace.substituted_syscalls");
        r = other(k, t);
      }
      t.regs.eax = r | 0;
    } else k.count("ptrace.skipped_syscalls");
    k.runRef(P["tracesys_exit"]);
    yield* syscall_trace(k, t);
    return t.regs.eax;
  }

  /** ret_from_sys_call after tracesys: the work loop, then iret (the tracer may have edited pt_regs). */
  *exitTraced(): Gen<number> {
    const k = this.k, t = this.t, entry = k.deps.entry;
    if (entry.exitTest(k, t)) return yield* this.exitSlow(t.regs.eax, false, true);
    entry.leave(k, t, true);
    this.afterReturn(false);
    if (k.interruptDue()) yield* this.userInterrupt();
    return t.regs.eax;
  }

  fail(message: string): never {
    throw new SimError("workload", message, this.t.pid);
  }
}
