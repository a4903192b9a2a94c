/**
 * A signal frame on the user stack (arch/i386/kernel/signal.c struct sigframe / rt_sigframe) as
 * setup_frame builds it and sys_sigreturn reads it back, and the checkers' record of the context
 * it interrupted.
 */
import { FpuRegs } from "../../machine/fpu.js";
import type { SigInfoK } from "../../kernel/siginfo.js";
import { Sigset } from "../../kernel/sigset.js";
import { StateMap } from "../../kernel/slots.js";
import { UserRegs } from "./regs.js";
import { cloneFpstate, fpstateOf, SigContextK, type FrameFpStateK, type FrameSigContextK } from "./sigcontext.js";

/** The interrupted context as the transparency checker recorded it (pooled: one per frame in flight). */
export class SignalSnapshot {
  readonly regs = new UserRegs();
  /** the x87 stack, XMM0-7 and control words only (what the checker compares); the rest is stale */
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
