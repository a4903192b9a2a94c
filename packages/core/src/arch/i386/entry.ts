/**
 * The entry code of one task (arch/i386/kernel/entry.S), as the runtime drives it: system_call,
 * ret_from_sys_call and its work loop (reschedule / signal_return -> do_signal), restore_all, the
 * interrupt and exception returns (common_interrupt -> ret_from_intr, ret_from_exception),
 * device_not_available (#NM), tracesys, and a signal handler run up to its sigreturn. Generators,
 * because the work may switch tasks or run a handler; the usual cases also have a synchronous form
 * (the …Now/…Rest protocol: work_pendingNow, sigreturn).
 */
import type { KernelCore } from "../../kernel/core.js";
import { do_exit } from "../../kernel/exit.js";
import { takeInterruptInUser } from "../../kernel/irq.js";
import { pathRefs } from "../../kernel/path-refs.js";
import { ptrace_signal_stop, syscall_trace } from "../../kernel/ptrace.js";
import { __schedule, switchedBack, sys_sched_yield, touchHotPages } from "../../kernel/sched.js";
import { SimError } from "../../kernel/sim-error.js";
import { CORE_NR_NAME, NR, NR_NAME, NR_SYSCALLS } from "../../kernel/syscall-nr.js";
import { PT_PTRACED, PT_TRACESYS, type SigAction, type Task } from "../../kernel/task.js";
import { SMP_SYNC, SWITCH, type Gen } from "../../kernel/yields.js";
import { StartedIterator } from "../../lib/started-iterator.js";
import { do_device_not_available } from "./i387.js";
import type { SignalFrameK } from "./sigframe.js";
import { do_signal, sys_sigreturn, type SignalAction } from "./signal.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["iret_sti", "reschedule", "restore_all", "ret_from_exception", "signal_return", "sigreturn_trampoline", "sys_getppid", "tracesys", "tracesys.dispatch", "tracesys_exit"]);

/** EIP just after the `int $0x80` of the libc stub (restart rewinds it by 2). */
export const SYSCALL_EIP = 0x08049002;

/** What the entry code needs of the runtime thread to run a signal handler (ThreadImpl implements it). */
export interface HandlerRunner {
  /** enter the handler in user mode: the workload's handler generator, for the gate to run */
  handlerEnter(frame: SignalFrameK, action: SigAction): Gen<void>;
  /** the handler's generator ended (returned, threw or was closed) */
  handlerLeft(): void;
}

/** counters["syscalls.<name>"] for a syscall number (a plugin's syscall under its own name) */
export function syscallCounterName(k: KernelCore, nr: number): string {
  const own = NR_NAME[nr] ?? CORE_NR_NAME[nr];
  if (own) return `syscalls.${own}`;
  const c = k.syscallTable.get(nr);
  return c ? `syscalls.${c.name}` : `syscalls.nr${nr}`;
}

const ENOSYS = 38;

/** Syscalls a tracer may put in orig_eax in place of another: the ones without arguments. */
const SUBSTITUTABLE: Readonly<Record<number, (k: KernelCore, t: Task) => number>> = Object.freeze({
  [NR.getpid]: (k: KernelCore, t: Task) => {
    k.ex.run(k.hot.sys_getpid);
    return t.tgid;
  },
  [NR.getppid]: (k: KernelCore, t: Task) => {
    k.runRef(P["sys_getppid"]);
    return t.ppid;
  },
  [NR.sched_yield]: (k: KernelCore, t: Task) => sys_sched_yield(k, t),
});

/** What sigreturn left to do: all of it (a traced task), the work loop, a due interrupt. */
const SIGRETURN_ALL = 0, SIGRETURN_EXIT_WORK = 1, SIGRETURN_INTERRUPT = 2;

/**
 * One task's entry code: the path between its user code and the kernel. (2.4 keeps it in one
 * assembly file for every task; here each task's runtime thread has its own, for its state: the
 * TLB epoch it refilled at, what a synchronous form left to finish, the user-level thread guard.)
 */
export class Gate {
  private tlbEpoch = -1;
  constructor(readonly k: KernelCore, readonly t: Task, private readonly runner: HandlerRunner) {}

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

  /** system_call: user -> kernel for system call `nr` (SAVE_ALL and the entry mechanism's path) */
  system_call(nr: number): void {
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

  /**
   * ret_from_sys_call: the result into eax, the work flags tested (cli; need_resched, sigpending)
   * and, without work, restore_all to user mode. False if there is work: call work_pending.
   */
  ret_from_sys_call(result: number): boolean {
    const k = this.k, t = this.t;
    t.regs.eax = result | 0;
    if (k.deps.entry.exitTest(k, t)) return false;
    k.deps.entry.leave(k, t, false);
    this.refillTlb();
    this.notifyReturn(false); // the fast exit is a return to user mode too
    return true;
  }

  /**
   * The work loop of ret_from_sys_call after the flags test found work: reschedule (schedule, then
   * the test again) or signal_return (do_signal, the handler and its sigreturn; then restore_all
   * with no test, as 2.4 does). 2.4's entry.S has no label for the loop as a whole; 2.6 calls it
   * work_pending. Returns the value in eax when user mode continues in the original context (the
   * handler's sigreturn may change it).
   */
  *work_pending(result: number | undefined, retest = false, forceIret = false): Gen<number> {
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
          if (!this.sigreturn(act.frame)) yield* this.sigreturnRest(act.frame);
          return t.regs.eax;
        }
        return yield* this.afterDoSignal(act);
      }
      break;
    }
    this.restore_all(mustIret);
    if (k.interruptDue()) yield* this.common_interrupt();
    return t.regs.eax;
  }

  /**
   * work_pending without a generator in its usual case: the work is a signal with a handler (no
   * reschedule pending, the task not traced) and the handler finishes without yielding; then
   * sigreturn. True when user mode continues in the interrupted context with nothing left (the
   * call's result is eax); false when a generator must finish from where this stopped
   * (work_pendingRest(), at once): work_pending itself when nothing was done yet, else the handler
   * resumed where it yielded, the rest of sigreturn, or do_signal's other outcomes.
   */
  work_pendingNow(result: number): boolean {
    const k = this.k, t = this.t;
    if (t.needResched || !t.sigpending || (t.ptrace & PT_PTRACED) !== 0) return this.workRestIs(this.work_pending(result));
    k.runRef(P["signal_return"]);
    const act = do_signal(k, t, result, SYSCALL_EIP);
    if (act.kind !== "handler") return this.workRestIs(this.afterDoSignal(act));
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
    if (!r.done) return this.workRestIs(this.handlerResumed(h, r, act.frame));
    this.runner.handlerLeft();
    if (this.sigreturn(act.frame)) return true;
    return this.workRestIs(this.sigreturnRestThenEax(act.frame));
  }

  /** what work_pendingNow left to a generator */
  private workRest: Gen<number> | null = null;

  private workRestIs(g: Gen<number>): false {
    this.workRest = g;
    return false;
  }

  /** The generator work_pendingNow left (taken once). */
  work_pendingRest(): Gen<number> {
    const g = this.workRest!;
    this.workRest = null;
    return g;
  }

  /** signal_return after do_signal found no handler to run: the default action, then jmp restore_all (an iret). */
  private *afterDoSignal(act: Exclude<SignalAction, { kind: "handler" }>): Gen<number> {
    const k = this.k, t = this.t;
    if (act.kind === "terminate") {
      k.count("signals.fatal");
      t.termSig = act.sig;
      yield* do_exit(k, t, 128 + act.sig);
    }
    // 2.4: after do_signal, jmp restore_all (no re-check)
    this.restore_all(true);
    if (k.interruptDue()) yield* this.common_interrupt();
    return t.regs.eax;
  }

  /** A handler that yielded before finishing: the rest of work_pending's `yield* handler`, then sigreturn. */
  private *handlerResumed(h: Gen<void>, first: IteratorResult<unknown, unknown>, frame: SignalFrameK): Gen<number> {
    try {
      yield* new StartedIterator(h, first);
    } finally {
      this.runner.handlerLeft();
    }
    if (!this.sigreturn(frame)) yield* this.sigreturnRest(frame);
    return this.t.regs.eax;
  }

  private *sigreturnRestThenEax(frame: SignalFrameK): Gen<number> {
    yield* this.sigreturnRest(frame);
    return this.t.regs.eax;
  }

  /**
   * The work loop's reschedule (entry.S `reschedule`: call schedule): true when another task runs
   * now — the caller yields SWITCH, then calls switchedBack — false when this one kept the CPU.
   * work_pending and the system calls that write that loop out (sched_yield) share it.
   */
  reschedule(): boolean {
    this.k.runRef(P["reschedule"]);
    return __schedule(this.k) !== this.t;
  }

  /** Back on the CPU after reschedule()'s switch (`resumed`: false when the task's generator was closed instead). */
  switchedBack(resumed: boolean): void {
    switchedBack(this.k, this.t, resumed);
  }

  /** restore_all: RESTORE_ALL and iret (the entry mechanism's exit), once no work is left. */
  restore_all(mustIret: boolean): void {
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
    this.k.events.fireReturn(this.t, intoHandler);
  }

  /**
   * An interrupt taken in user mode (common_interrupt: SAVE_ALL, do_IRQ, then ret_from_intr, which
   * for user mode is ret_from_exception's test). On SMP the run loop lets the CPUs behind this one
   * catch up first.
   */
  *common_interrupt(): Gen<void> {
    const k = this.k;
    if (k.ex.cycles > k.ex.syncAt) {
      // SMP: another CPU acts before this moment; the run loop lets it catch up first
      yield SMP_SYNC;
      if (k.current !== this.t) throw new SimError("internal", `task ${this.t.pid} resumed on a CPU that runs task ${k.current.pid}`, this.t.pid);
      if (k.ex.cycles < k.ex.nextEvent) return;
    }
    takeInterruptInUser(k);
    yield* this.ret_from_exception();
  }

  /** ret_from_exception / ret_from_intr to user mode: the same work flags, then iret. */
  *ret_from_exception(): Gen<void> {
    const k = this.k, t = this.t;
    k.runRef(P["ret_from_exception"]);
    if (t.needResched || t.sigpending) {
      yield* this.work_pending(undefined, false);
      return;
    }
    if (k.cpu.IF === 0) k.runRef(P["iret_sti"]);
    k.runRef(P["restore_all"]);
    this.afterReturn(false);
    if (k.interruptDue()) yield* this.common_interrupt();
  }

  /** device_not_available: an FPU instruction in user mode traps (#NM) while CR0.TS is set; then ret_from_exception. */
  *device_not_available(): Gen<void> {
    const k = this.k;
    // only CR0.TS matters: with TS clear the registers are used as they are (the CPU checks no owner)
    while (k.cpu.TS) {
      k.cpu.cpl = 0;
      do_device_not_available(k, this.t);
      yield* this.ret_from_exception();
    }
  }

  /**
   * The handler's return: its `ret` into pretcode (the trampoline: sa_restorer or the frame's
   * retcode), whose int $0x80 is the sigreturn system call, then ret_from_sys_call. Without a
   * generator: true when user mode continues in the interrupted context with nothing left to do;
   * false when the task is traced (nothing done yet), the exit found work or an interrupt is due
   * (the return to user mode not made yet): then `yield* sigreturnRest(frame)` at once.
   */
  sigreturn(frame: SignalFrameK): boolean {
    const k = this.k, t = this.t;
    this.sigreturnLeft = SIGRETURN_ALL;
    if (t.ptrace & PT_TRACESYS) return false;
    const rt = frame.kind === "rt_sigframe";
    this.trampoline(frame, rt);
    this.system_call(rt ? NR.rt_sigreturn : NR.sigreturn);
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
      yield* this.work_pending(undefined, false);
      return;
    }
    if (left === SIGRETURN_INTERRUPT) {
      yield* this.common_interrupt();
      return;
    }
    // traced (PTRACE_SYSCALL): tracesys's two stops around sys_sigreturn, the exit through iret
    const rt = frame.kind === "rt_sigframe";
    const nr = rt ? NR.rt_sigreturn : NR.sigreturn;
    this.trampoline(frame, rt);
    this.system_call(nr);
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

  /** what sigreturn left to sigreturnRest */
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
    if (entry.exitTest(k, t)) return yield* this.work_pending(t.regs.eax, false, true);
    entry.leave(k, t, true);
    this.afterReturn(false);
    if (k.interruptDue()) yield* this.common_interrupt();
    return t.regs.eax;
  }

  fail(message: string): never {
    throw new SimError("workload", message, this.t.pid);
  }
}
