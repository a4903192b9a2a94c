/** Signal state: sigset_t, sigaction, siginfo and the signal frame built on the user stack. */
import type { FpuRegs } from "./machine.js";
import type { Sigset } from "./sigset.js";
import type { StateHolder } from "./state.js";

export interface SigInfo {
  signo: number;
  errno: number;
  code: number;
  pid?: number;
  addr?: number;
  band?: number;
  fd?: number;
  value?: number;
}

export interface SigAction {
  /** the workload's handler (opaque to plugins), or a default disposition */
  readonly handler: object | "default" | "ignore";
  flags: number;
  mask: Sigset;
}

export interface PendingSignal {
  sig: number;
  info: SigInfo;
  /** cycle at which it was queued */
  at: number;
}

/** struct _fpstate as a frame carries it (i387 view + the FXSR extension). */
export interface FrameFpState {
  cw: number;
  sw: number;
  tag: number;
  st: number[];
  magic: number;
  mxcsr?: number;
  xmm?: number[][];
}

export interface FrameSigContext {
  eax: number; ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number;
  esp: number; eip: number; eflags: number;
  trapno: number; err: number; cr2: number; oldmask: number;
}

/** A signal frame on the user stack (struct sigframe / rt_sigframe); plugins keep per-frame state in slot(). */
export interface SignalFrame extends StateHolder {
  readonly kind: "sigframe" | "rt_sigframe";
  readonly address: number;
  readonly size: number;
  readonly sig: number;
  readonly sigcontext: FrameSigContext;
  /** the FP image save_i387 wrote (null: none); owned by the frame until sigreturn */
  fpImage: FpuRegs | null;
  /** the FP area as the handler sees it (null: none); a SignalFpuPolicy may set it, e.g. to null */
  fpstate: FrameFpState | null;
  /** uc_sigmask / oldmask + extramask, as a list of signals */
  sigmask: number[];
  /** the mask as the kernel wrote it */
  readonly savedBlocked: Sigset;
  readonly info: SigInfo | null;
  /** FXSR layout (xmm + mxcsr present) or fsave only */
  readonly fxsr: boolean;
  /** what the kernel wrote, to tell a handler's edits apart */
  readonly original: { sigcontext: FrameSigContext; fpstate: FrameFpState | null };
  /** true when the frame carries an FP image (saved or written) */
  hasFp(): boolean;
  /** the FP view if it was materialised (only then can a handler have edited it) */
  materialisedView(): FrameFpState | null | undefined;
}
