/** Tasks (task_struct), their saved user context and their signal state. */
import { FpuRegs } from "../machine/fpu.js";
import type { AddressSpace } from "../machine/memory.js";
import { STACK_TOP, USER_CODE_BASE } from "../machine/memory.js";
import { StateMap } from "./slots.js";
import { Sigset } from "./sigset.js";
import { RunListNode } from "./run-list.js";

export type TaskState = "running" | "interruptible" | "zombie" | "dead";

/** Integer user registers, as saved in pt_regs / sigcontext. */
export const INT_REGS = ["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp"] as const;
export type IntRegName = (typeof INT_REGS)[number];

export class UserRegs {
  eax = 0; ebx = 0; ecx = 0; edx = 0; esi = 0; edi = 0; ebp = 0;
  esp = STACK_TOP - 16;
  eip = USER_CODE_BASE;
  eflags = 0x202;
  /** pt_regs->orig_eax: the syscall number system_call pushed (-1 outside a syscall); a tracer may rewrite it */
  orig_eax = -1;

  copyFrom(o: UserRegs): void {
    this.eax = o.eax; this.ebx = o.ebx; this.ecx = o.ecx; this.edx = o.edx;
    this.esi = o.esi; this.edi = o.edi; this.ebp = o.ebp;
    this.esp = o.esp; this.eip = o.eip; this.eflags = o.eflags; this.orig_eax = o.orig_eax;
  }
  clone(): UserRegs {
    const r = new UserRegs();
    r.copyFrom(this);
    return r;
  }
  /** the integer registers (INT_REGS) equal `o`'s: field by field, for the checkers' hot path */
  intEquals(o: UserRegs): boolean {
    return this.eax === o.eax && this.ebx === o.ebx && this.ecx === o.ecx && this.edx === o.edx && this.esi === o.esi && this.edi === o.edi && this.ebp === o.ebp;
  }
}

export interface SigInfoK {
  signo: number;
  errno: number;
  code: number;
  pid?: number;
  addr?: number;
  band?: number;
  fd?: number;
  value?: number;
}

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

export interface FrameFpStateK {
  cw: number;
  sw: number;
  tag: number;
  st: number[];
  magic: number;
  mxcsr?: number;
  xmm?: number[][];
}

export interface FrameSigContextK {
  eax: number; ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number;
  esp: number; eip: number; eflags: number;
  trapno: number; err: number; cr2: number; oldmask: number;
}

/**
 * struct sigcontext as setup_sigcontext writes it: a class, so the frame's copy and the checkers'
 * original share one shape (a spread copy of an object literal costs several times more per delivery).
 */
export class SigContextK implements FrameSigContextK {
  eax: number; ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number;
  esp: number; eip: number; eflags: number;
  trapno: number; err: number; cr2: number; oldmask: number;
  constructor(from: FrameSigContextK) {
    this.eax = from.eax; this.ebx = from.ebx; this.ecx = from.ecx; this.edx = from.edx; this.esi = from.esi; this.edi = from.edi; this.ebp = from.ebp;
    this.esp = from.esp; this.eip = from.eip; this.eflags = from.eflags;
    this.trapno = from.trapno; this.err = from.err; this.cr2 = from.cr2; this.oldmask = from.oldmask;
  }
}

/** The interrupted context as the transparency checker recorded it (pooled: one per frame in flight). */
export class SignalSnapshot {
  readonly regs = new UserRegs();
  readonly fpu = new FpuRegs();
  cycle = 0;
}

/**
 * A signal frame built on the user stack: the structured contents of struct sigframe/rt_sigframe.
 * The FP image is kept as saved (fpImage); its i387/FXSR view (`fpstate`) is materialised only
 * when someone reads it (a handler, a checker), which is also when edits become possible.
 */
export class SignalFrameK extends StateMap {
  /** the FP image save_i387 wrote (null: none); owned by the frame until sigreturn */
  fpImage: FpuRegs | null = null;
  private view: FrameFpStateK | null | undefined = undefined;
  private mask: number[] | undefined = undefined;
  /** what the kernel wrote, to tell the handler's edits apart (for the checkers) */
  readonly original: { sigcontext: FrameSigContextK; fpstate: FrameFpStateK | null };
  /** state at interruption, recorded by the transparency checker (not visible to the workload) */
  snapshot?: SignalSnapshot;

  constructor(
    readonly kind: "sigframe" | "rt_sigframe",
    readonly address: number,
    readonly size: number,
    readonly sig: number,
    readonly sigcontext: FrameSigContextK,
    /** blocked mask to restore (oldmask + extramask / uc_sigmask) as the kernel wrote it */
    readonly savedBlocked: Sigset,
    readonly info: SigInfoK | null,
    /** FXSR layout (xmm + mxcsr present) or fsave only */
    readonly fxsr: boolean,
  ) {
    super();
    this.original = { sigcontext: new SigContextK(sigcontext), fpstate: null };
  }

  /** uc_sigmask / oldmask+extramask as a list of signals; a handler may assign a new list. */
  get sigmask(): number[] {
    return (this.mask ??= this.savedBlocked.toList());
  }
  set sigmask(v: number[]) {
    this.mask = v;
  }

  /** The mask sigreturn must install: the (possibly edited) frame's. */
  maskToRestore(): Sigset {
    return this.mask === undefined ? this.savedBlocked.clone() : Sigset.of(this.mask);
  }

  /** The i387 view of the FP image (`struct _fpstate`), or null when the frame has none. */
  get fpstate(): FrameFpStateK | null {
    if (this.view === undefined) {
      this.view = this.fpImage ? fpstateOf(this.fpImage, this.fxsr) : null;
      this.original.fpstate = this.view ? cloneFpstate(this.view) : null;
    }
    return this.view;
  }

  /** A policy writes the FP area explicitly (or clears it with null). */
  set fpstate(v: FrameFpStateK | null) {
    this.view = v;
    this.original.fpstate = v ? cloneFpstate(v) : null;
    if (!v) this.fpImage = null;
  }

  /** True when the frame carries an FP image (saved or written). */
  hasFp(): boolean {
    return this.view !== undefined ? this.view !== null : this.fpImage !== null;
  }

  /** The view if it was materialised (only then can a handler have edited it). */
  materialisedView(): FrameFpStateK | null | undefined {
    return this.view;
  }
}

/** i386 signal frames carry XMM0-7 only (32-bit mode). */
const FRAME_XMM = 8;

export function fpstateOf(f: FpuRegs, fxsr: boolean): FrameFpStateK {
  const st: number[] = [];
  for (let i = 0; i < 8; i++) st.push(f.st[i]!);
  const s: FrameFpStateK = { cw: f.fcw, sw: f.fsw, tag: f.ftw, st, magic: fxsr ? 0x0000 : 0xffff };
  if (fxsr) {
    s.mxcsr = f.mxcsr;
    const xmm: number[][] = [];
    for (let i = 0; i < FRAME_XMM; i++) xmm.push([f.xmm[i * 4]!, f.xmm[i * 4 + 1]!, f.xmm[i * 4 + 2]!, f.xmm[i * 4 + 3]!]);
    s.xmm = xmm;
  }
  return s;
}

export function cloneFpstate(s: FrameFpStateK | null): FrameFpStateK | null {
  if (!s) return null;
  const c: FrameFpStateK = { cw: s.cw, sw: s.sw, tag: s.tag, st: [...s.st], magic: s.magic };
  if (s.mxcsr !== undefined) c.mxcsr = s.mxcsr;
  if (s.xmm) c.xmm = s.xmm.map((x) => [...x]);
  return c;
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
  files: import("./pipe.js").FileTable | null = null;
  /** exit code of the child wait4 reaped last */
  lastReaped = 0;
  /** the status word wait4 wrote last: (code << 8) exited, sig killed, (sig << 8) | 0x7f stopped */
  lastStatus = 0;
  /** the user-level threads a library multiplexes on this task (M:N, N:1), if any */
  userThreads: import("../runtime/uthreads.js").UThreadScheduler | null = null;
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
    public mm: AddressSpace,
    public sig: SignalStruct,
    public readonly name: string,
  ) {
    super();
  }
}
