/** Signal state: siginfo, sigaction, queued signals and the signal frame built on the user stack. */
import type { FpuRegs, UserRegs } from "./machine.js";
import type { Sigset } from "./sigset.js";
import type { StateHolder } from "./state.js";

/**
 * siginfo_t as the kernel fills it (128 bytes on i386): what send_sig_info queues with a signal and
 * an SA_SIGINFO handler receives.
 * @category Signals
 */
export interface SigInfo {
  /** The signal number (1-64). */
  signo: number;
  /** An errno value associated with the signal (0 for most). */
  errno: number;
  /** SI_USER (0) for kill(), SI_TKILL (-6), SEGV_ACCERR (2), POLL_IN (1), SI_QUEUE (-1), ... */
  code: number;
  /** The sender's pid (kill, tkill, sigqueue). */
  pid?: number;
  /** The faulting address (SIGSEGV, SIGBUS, SIGFPE). */
  addr?: number;
  /** SIGIO / F_SETSIG: the poll band (POLL_IN, POLL_OUT). */
  band?: number;
  /** SIGIO / F_SETSIG: the file descriptor that became ready. */
  fd?: number;
  /** sigqueue's value. */
  value?: number;
}

/**
 * A signal's disposition (struct k_sigaction): its handler, flags and the mask added while the
 * handler runs.
 * @category Signals
 */
export interface SigAction {
  /** the workload's handler (opaque to plugins), or a default disposition */
  readonly handler: object | "default" | "ignore";
  /** sa_flags: SA_SIGINFO, SA_RESTART, SA_NODEFER, SA_RESETHAND, SA_ONSTACK, SA_NOFP, ... */
  flags: number;
  /** sa_mask: signals blocked while the handler runs (besides the signal itself, unless SA_NODEFER). */
  mask: Sigset;
}

/**
 * A queued instance of a signal (struct sigqueue) on Task.queue: real-time signals queue one per
 * send; a classic signal at most one.
 * @category Signals
 */
export interface PendingSignal {
  /** The signal number. */
  sig: number;
  /** The siginfo it was sent with (what its handler or sigtimedwait receives). */
  info: SigInfo;
  /** cycle at which it was queued */
  at: number;
}

/**
 * struct _fpstate as a frame carries it (the i387 view + the FXSR extension): what a handler sees
 * of the interrupted program's FPU state, and may edit before sigreturn restores it.
 * @category Signals
 */
export interface FrameFpState {
  /** x87 control word. */
  cw: number;
  /** x87 status word. */
  sw: number;
  /** x87 tag word (abridged: bit i set = st(i) valid). */
  tag: number;
  /** st0..st7 as numbers (the 80-bit values, modelled as doubles) */
  st: number[];
  /** 0x0000 = FXSR part follows, 0xffff = only fsave data */
  magic: number;
  /** The SSE control/status register (absent without FXSR). */
  mxcsr?: number;
  /** xmm0..xmm7, each as 4 × 32-bit lanes (absent without FXSR). */
  xmm?: number[][];
}

/**
 * The interrupted context saved in the frame (struct sigcontext): the user registers at
 * interruption (which sigreturn restores; a handler may edit them; eax holds a system call's
 * result, or -ERESTART... before the restart decision), and what the trap that raised the signal
 * left.
 * @category Signals
 */
export interface FrameSigContext extends UserRegs {
  /** The trap number when a fault raised the signal (14 for #PF), else 0. */
  trapno: number;
  /** The fault's error code (#PF: the page-fault error code bits), else 0. */
  err: number;
  /** #PF: the faulting address (CR2). */
  cr2: number;
  /** blocked mask (signals 1..31) at interruption */
  oldmask: number;
}

/**
 * A signal frame on the user stack (struct sigframe, 732 bytes, or struct rt_sigframe, 892 bytes),
 * from setup_frame until the handler's sigreturn; plugins keep per-frame state in slot().
 * @category Signals
 */
export interface SignalFrame extends StateHolder {
  /** Which frame: `rt_sigframe` for a handler with SA_SIGINFO, else `sigframe`. */
  readonly kind: "sigframe" | "rt_sigframe";
  /** Its address on the user stack (or the alternate signal stack). */
  readonly address: number;
  /** Its size in bytes (SIGFRAME_BYTES or RT_SIGFRAME_BYTES on a CPU with FXSR). */
  readonly size: number;
  /** The signal being delivered. */
  readonly sig: number;
  /** The interrupted context (struct sigcontext) as the handler sees and may edit it. */
  readonly sigcontext: FrameSigContext;
  /** the FP image save_i387 wrote (null: none); owned by the frame until sigreturn */
  fpImage: FpuRegs | null;
  /** the FP area as the handler sees it (null: none); a SignalFpuPolicy may set it, e.g. to null */
  fpstate: FrameFpState | null;
  /** uc_sigmask / oldmask + extramask, as a list of signals */
  sigmask: number[];
  /** the mask as the kernel wrote it */
  readonly savedBlocked: Sigset;
  /** The siginfo of an rt_sigframe (null for a sigframe). */
  readonly info: SigInfo | null;
  /** FXSR layout (xmm + mxcsr present) or fsave only */
  readonly fxsr: boolean;
  /** what the kernel wrote, to tell a handler's edits apart */
  readonly original: {
    /** The sigcontext as setup_sigcontext wrote it. */
    sigcontext: FrameSigContext;
    /** The FP area as save_i387 wrote it (null: none). */
    fpstate: FrameFpState | null;
  };
  /** true when the frame carries an FP image (saved or written) */
  hasFp(): boolean;
  /** the FP view if it was materialised (only then can a handler have edited it) */
  materialisedView(): FrameFpState | null | undefined;
}
