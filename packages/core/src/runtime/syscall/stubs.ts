/**
 * One runtime thread's way into the kernel: the system call stubs (glibc's INLINE_SYSCALL, int
 * $0x80 into the entry code: simple, blocking, traced) and the fast-call protocol, system calls
 * made without a generator while nothing intervenes. The workload API's hottest calls are
 * iterators (QuickCall: getpid, getppid, kill, tkill; SchedYieldCall: sched_yield, both in this
 * folder) whose first next() makes the whole call here; thread libraries call the `…Now` forms
 * (sigprocmaskSetNow, gettimeofdayNow) on every switch. When a call cannot finish synchronously
 * (an interrupt is due, the task is traced, the exit found work) it stops where the generator form
 * would first yield, and the generator that finishes it from there (`…Rest`, quickRest,
 * takeYieldRest) takes over. Same ops in the same order as the generator forms: the equivalence
 * oracle runs the code that uses them.
 */
import { SYSCALL_EIP, type Gate } from "../../arch/i386/entry.js";
import type { Kernel } from "../../kernel/kernel.js";
import { pathRefs } from "../../kernel/path-refs.js";
import { sys_sched_yield } from "../../kernel/sched.js";
import { ERESTARTNOHAND, SI_TKILL, sys_kill, sys_rt_sigprocmask } from "../../kernel/signal.js";
import type { Sigset } from "../../kernel/sigset.js";
import { SimError } from "../../kernel/sim-error.js";
import { NR } from "../../kernel/syscall-nr.js";
import { PT_TRACESYS, type Task } from "../../kernel/task.js";
import { SWITCH, type Gen } from "../../kernel/yields.js";
import { QUICK_GETPID, QUICK_GETPPID, QUICK_KILL, type QuickKind, type QuickRunner } from "./quick-call.js";
import { YIELD_DONE, YIELD_REST, YIELD_SWITCHED, type SchedYieldRunner } from "./sched-yield-call.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["sys_getppid", "sys_getppid.smp", "sys_gettimeofday"]);

/** What a `…Now` system call that returned undefined left to do (its `…Rest` does it). */
const NOW_NOTHING_DONE = 0, NOW_EXIT_WORK = 1, NOW_INTERRUPT = 2, NOW_GATE_REST = 3;
type NowLeft = typeof NOW_NOTHING_DONE | typeof NOW_EXIT_WORK | typeof NOW_INTERRUPT | typeof NOW_GATE_REST;

/** The simulated clock as gettimeofday returns it (time 0 at boot). */
function timeOfDay(k: Kernel): { sec: number; usec: number } {
  const usec = Math.floor(k.cycles / k.profile.mhz);
  const sec = Math.floor(usec / 1e6);
  // usec % 1e6 without the floating-point remainder (a library call: usec is a double here); exact
  // for the whole, non-negative usec below 2^53 the clock gives
  return { sec, usec: usec - sec * 1e6 };
}

export class SyscallStubs implements QuickRunner, SchedYieldRunner {
  readonly #k: Kernel;
  readonly #t: Task;
  readonly #gate: Gate;
  /** what the last `…Now` system call left to its `…Rest` (see sigprocmaskSetNow) */
  #nowLeft: NowLeft = NOW_NOTHING_DONE;
  #nowResult = 0;
  #nowValue: unknown = undefined;
  /** the system call whose …Now stopped (its …Rest must be the one that finishes it) */
  #nowNr = -1;

  constructor(k: Kernel, t: Task, gate: Gate) {
    this.#k = k;
    this.#t = t;
    this.#gate = gate;
  }

  // ---- the stubs: a system call's entry, its body and ret_from_sys_call's work ----------------

  /** A non-blocking syscall: entry, body (charged `path` then `body()`), exit work. */
  *simple(nr: number, path: string | null, body: () => number): Gen<number> {
    const g = this.#gate, k = this.#k;
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
    const g = this.#gate, k = this.#k, t = this.#t;
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

  /** rt_sigprocmask with bit sets (for thread libraries that switch masks on every switch). */
  *sigprocmaskSet(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number> {
    let old: Sigset | number = 0;
    const r = yield* this.simple(NR.rt_sigprocmask, null, () => {
      old = sys_rt_sigprocmask(this.#k, this.#t, how, set);
      return typeof old === "number" ? old : 0;
    });
    return r < 0 ? r : old;
  }

  *gettimeofday(): Gen<{ sec: number; usec: number }> {
    yield* this.simple(NR.gettimeofday, "sys_gettimeofday", () => 0);
    return timeOfDay(this.#k);
  }

  /** getpid as a generator: what a QuickCall runs when its synchronous attempt did nothing */
  private *getpidGen(): Gen<number> {
    // the null syscall: written out (no closure) because it is the simulator's hottest path
    const g = this.#gate, k = this.#k, ex = k.ex;
    if (ex.cycles >= ex.nextEvent || ex.cycles > ex.syncAt) yield* g.common_interrupt();
    g.system_call(NR.getpid);
    if (this.#t.ptrace & PT_TRACESYS) return yield* this.traced(NR.getpid, () => (ex.run(k.hot.sys_getpid), this.#t.tgid));
    ex.run(k.hot.sys_getpid);
    const r = this.#t.tgid;
    if (!g.ret_from_sys_call(r)) return yield* g.work_pending(r);
    if (ex.cycles >= ex.nextEvent || ex.cycles > ex.syncAt) yield* g.common_interrupt();
    return r;
  }

  private getppidGen(): Gen<number> {
    const k = this.#k;
    return this.simple(NR.getppid, "sys_getppid", () => {
      if (k.ncpus > 1) k.runRef(P["sys_getppid.smp"]);
      return this.#t.ppid;
    });
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
    const g = this.#gate, k = this.#k, t = this.#t;
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
    const g = this.#gate, k = this.#k, t = this.#t;
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
    const g = this.#gate, k = this.#k, t = this.#t;
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

  // ---- QuickCall's two halves (quick-call.ts) -----------------------------------------------

  /** @internal make call `kind` synchronously (the …Now protocol below): its result, or undefined (then quickRest). */
  quickNow(kind: QuickKind, a: number, b: number): number | undefined {
    const k = this.#k, t = this.#t;
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
          return this.simple(NR.kill, null, () => sys_kill(this.#k, this.#t, a, b));
        default:
          return this.simple(NR.tkill, null, () => sys_kill(this.#k, this.#t, a, b, SI_TKILL));
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
    const old = sys_rt_sigprocmask(this.#k, this.#t, how, set);
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
    this.#k.runRef(P["sys_gettimeofday"]);
    return this.leaveNow(0) ? timeOfDay(this.#k) : undefined;
  }
  *gettimeofdayRest(): Gen<{ sec: number; usec: number }> {
    if (this.#nowLeft === NOW_NOTHING_DONE) return yield* this.gettimeofday();
    yield* this.finishNow(NR.gettimeofday);
    return timeOfDay(this.#k);
  }

  /** The entry of a `…Now` call: false (nothing done) when it must take the generator's way. */
  private enterNow(nr: number): boolean {
    const k = this.#k;
    this.#nowLeft = NOW_NOTHING_DONE;
    if (k.interruptDue() || this.#t.ptrace & PT_TRACESYS) return false;
    this.#nowNr = nr;
    this.#gate.system_call(nr);
    return true;
  }

  /** The exit of a `…Now` call: true when user mode continues with nothing left to do. */
  private leaveNow(result: number): boolean {
    if (!this.#gate.ret_from_sys_call(result)) this.#nowLeft = NOW_EXIT_WORK;
    else if (this.#k.interruptDue()) this.#nowLeft = NOW_INTERRUPT;
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
}
