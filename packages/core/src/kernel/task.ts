/** Tasks (include/linux/sched.h task_struct, signal_struct, k_sigaction): their state, user context and signal state. */
import { FpuRegs } from "../machine/fpu.js";
import type { AddressSpace } from "../machine/memory.js";
import { UserRegs } from "../arch/i386/regs.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import type { SigInfoK } from "./siginfo.js";
import { StateMap } from "./slots.js";
import { Sigset } from "./sigset.js";
import { RunListNode } from "./run-list.js";

export type TaskState = "running" | "interruptible" | "zombie" | "dead";

/**
 * files_struct as task_struct points to it: fs/file.ts's FileTable, which only fs/ reads (the
 * task holds it without looking inside, as machine/memory.ts holds signal frames).
 */
export interface FilesStruct {
  /** the descriptors (null: a free slot) */
  readonly fds: readonly unknown[];
}

/** task->ptrace bits (include/linux/sched.h, 2.4; kernel/ptrace.ts sets them) */
export const PT_PTRACED = 0x1;
export const PT_TRACESYS = 0x2;
export const PT_TRACESYSGOOD = 0x8;

/** A handler as the runtime calls it: (the runtime thread, the frame) -> the handler's generator. */
export type HandlerFn = (th: unknown, frame: SignalFrameK) => Generator<unknown, void, unknown>;

export interface SigAction {
  handler: HandlerFn | "default" | "ignore";
  flags: number;
  mask: Sigset;
}

/** Shared between CLONE_SIGHAND threads (LinuxThreads). */
export class SignalStruct {
  readonly action: SigAction[] = [];
  /** its memory (footprint.ts): sig->action[] as the caches see it */
  mem: import("./footprint.js").SigactionMemory | null = null;
  constructor() {
    for (let i = 0; i <= 64; i++) this.action.push({ handler: "default", flags: 0, mask: new Sigset() });
  }
  clone(): SignalStruct {
    const s = new SignalStruct();
    this.action.forEach((a, i) => (s.action[i] = { handler: a.handler, flags: a.flags, mask: a.mask.clone() }));
    return s;
  }
}

export interface PendingSignal {
  sig: number;
  info: SigInfoK;
  /** cycle at which it was queued */
  at: number;
}

export class Task extends StateMap {
  state: TaskState = "running";
  /** ticks left in this timeslice (2.4 p->counter) */
  counter = 6;
  nice = 0;
  sched_yield = false;
  /** its node in the run queue (run-list.ts); pointing at itself while off it */
  readonly run_list = new RunListNode<Task>(this);
  needResched = false;
  sigpending = false;
  /** 2.4 used_math: the task has an FPU context */
  usedMath = false;
  /** 2.4 PF_USEDFPU: the FPU registers hold this task's live state */
  usedFpu = false;
  /** thread.i387: the FPU save area */
  readonly fpu = new FpuRegs();
  readonly regs = new UserRegs();
  blocked = new Sigset();
  readonly pending = new Sigset();
  readonly queue: PendingSignal[] = [];
  sas: { sp: number; size: number } | null = null;
  exitCode = 0;
  readonly children: Task[] = [];
  /** the user-mode code: a generator driven by the scheduler */
  gen: Generator<unknown, unknown, unknown> | null = null;
  /** the runner's next stage of the user-mode program once `gen` is done, given its return value */
  genNext: ((value: unknown) => Generator<unknown, unknown, unknown>) | null = null;
  /** depth of signal handlers running in this task */
  handlerDepth = 0;
  /** user pages the task touches on every return to user mode (code, stack) */
  hotPages: number[] = [];
  /** first cycle at which a deliverable signal / reschedule was left pending on return to user */
  delayedSince = -1;
  delayedKind = "";
  /** snapshot of the user-visible FPU state when the task was switched out (checker) */
  switchSnapshot: FpuRegs | null = null;
  /**
   * The signal-transparency checker: the registers sys_sigreturn restored, until the task is back
   * in user mode (valid while `sigreturnRegsPending`); kept per task so a delivery allocates none.
   */
  sigreturnRegs: UserRegs | null = null;
  sigreturnRegsPending = false;
  /** the mask the program means when a library keeps it in user space (the blocked-signal checker) */
  userMask: { has(sig: number): boolean } | null = null;
  /** the last fault (trapno, error code, cr2) for the next signal frame's sigcontext */
  fault = { trapno: 0, err: 0, cr2: 0 };
  /** sigsuspend's mask from before the call: the frame saves it (2.4 passes &saveset to do_signal) */
  sigsuspendSaved: Sigset | null = null;
  /** the open files (files_struct; shared by CLONE_FILES threads) */
  files: FilesStruct | null = null;
  /** exit code of the child wait4 reaped last */
  lastReaped = 0;
  /** the status word wait4 wrote last: (code << 8) exited, sig killed, (sig << 8) | 0x7f stopped */
  lastStatus = 0;
  waitingOn: unknown = null;
  /** task->ptrace: PT_PTRACED | PT_TRACESYS | PT_TRACESYSGOOD (kernel/ptrace.ts) */
  ptrace = 0;
  /** p_pptr while traced: the tracer (wait4 and SIGCHLD go to it); p_opptr stays `ppid` */
  tracer: Task | null = null;
  /**
   * TASK_STOPPED (a ptrace stop). Kept beside `state`, which stays "interruptible" while stopped so
   * that the plugin API's TaskState is unchanged; only the tracer's ptrace (or SIGKILL) wakes it.
   */
  stopped = false;
  /** task->exit_code while stopped: the stop signal wait4 reports once (0: reported or none); the tracer's continue signal after */
  stopCode = 0;
  /** the signal that killed the task (0: it called exit), for wait4's status word */
  termSig = 0;
  /** wake-up reason set by the waker (e.g. "signal", "data", "timeout") */
  wakeReason = "";
  timeoutAt = -1;
  /** task->processor: the CPU it last ran on (reschedule_idle tries it first; goodness favours it) */
  processor = 0;
  /** task->cpus_allowed: the CPUs it may run on (a bit per CPU; sched_setaffinity) */
  cpusAllowed = 0xff;
  /** the CPU whose cache last wrote this task_struct (-1: none yet): the next writer on another CPU moves the line (smp.ts) */
  lineOwner = -1;
  /** its task_union in physical memory (footprint.ts): the field groups and the kernel stack the caches see */
  mem: import("./footprint.js").TaskMemory | null = null;

  constructor(
    public readonly pid: number,
    public readonly tgid: number,
    public ppid: number,
    public mm: AddressSpace<SignalFrameK>,
    public sig: SignalStruct,
    public readonly name: string,
  ) {
    super();
  }
}
