/** Tasks (task_struct), their saved user context and their signal state. */
import { FpuRegs } from "../machine/fpu.js";
import type { AddressSpace } from "../machine/memory.js";
import { STACK_TOP, USER_CODE_BASE } from "../machine/memory.js";
import { Sigset } from "./sigset.js";

export type TaskState = "running" | "interruptible" | "zombie" | "dead";

/** Integer user registers, as saved in pt_regs / sigcontext. */
export const INT_REGS = ["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp"] as const;
export type IntRegName = (typeof INT_REGS)[number];

export class UserRegs {
  eax = 0; ebx = 0; ecx = 0; edx = 0; esi = 0; edi = 0; ebp = 0;
  esp = STACK_TOP - 16;
  eip = USER_CODE_BASE;
  eflags = 0x202;

  copyFrom(o: UserRegs): void {
    this.eax = o.eax; this.ebx = o.ebx; this.ecx = o.ecx; this.edx = o.edx;
    this.esi = o.esi; this.edi = o.edi; this.ebp = o.ebp;
    this.esp = o.esp; this.eip = o.eip; this.eflags = o.eflags;
  }
  clone(): UserRegs {
    const r = new UserRegs();
    r.copyFrom(this);
    return r;
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

export type HandlerFn = (h: unknown) => Generator<unknown, void, unknown>;

export interface SigAction {
  handler: HandlerFn | "default" | "ignore";
  flags: number;
  mask: Sigset;
}

/** Shared between CLONE_SIGHAND threads (LinuxThreads). */
export class SignalStruct {
  readonly action: SigAction[] = [];
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

/** A signal frame built on the user stack (the structured contents of struct sigframe). */
export interface SignalFrameK {
  kind: "sigframe" | "rt_sigframe";
  address: number;
  size: number;
  sig: number;
  sigcontext: FrameSigContextK;
  fpstate: FrameFpStateK | null;
  sigmask: number[];
  /** blocked mask to restore (oldmask + extramask / uc_sigmask) */
  savedBlocked: Sigset;
  info: SigInfoK | null;
  /** what the kernel wrote, to tell the handler's edits apart (for the checkers) */
  original: { sigcontext: FrameSigContextK; fpstate: FrameFpStateK | null; sigmask: number[] };
  /** state at interruption, recorded by the transparency checker (not visible to the workload) */
  snapshot?: { regs: UserRegs; fpu: FpuRegs; cycle: number };
  /** plugins may park per-frame state here (e.g. lazy FPU) */
  ext: Record<string, unknown>;
}

export class Task {
  state: TaskState = "running";
  /** ticks left in this timeslice (2.4 p->counter) */
  counter = 6;
  nice = 0;
  sched_yield = false;
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
  /** depth of signal handlers running in this task */
  handlerDepth = 0;
  /** user pages the task touches on every return to user mode (code, stack) */
  hotPages: number[] = [];
  /** first cycle at which a deliverable signal / reschedule was left pending on return to user */
  delayedSince = -1;
  delayedKind = "";
  /** snapshot of the user-visible FPU state when the task was switched out (checker) */
  switchSnapshot: FpuRegs | null = null;
  /** per-task extension state for plugins (user-sigmask page, NGPT, lazy FPU stack, ...) */
  readonly ext: Record<string, unknown> = {};
  waitingOn: unknown = null;
  /** wake-up reason set by the waker (e.g. "signal", "data", "timeout") */
  wakeReason = "";
  timeoutAt = -1;

  constructor(
    public readonly pid: number,
    public readonly tgid: number,
    public ppid: number,
    public mm: AddressSpace,
    public sig: SignalStruct,
    public readonly name: string,
  ) {}
}
