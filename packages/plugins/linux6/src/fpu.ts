/**
 * Eager FPU with the deferred restore of Linux 6.x (kernel-paths.md §6, §7.2, V8):
 *  - switch_fpu_prepare saves the outgoing task's registers with XSAVES at switch-out and sets
 *    TIF_NEED_FPU_LOAD; nothing is restored at switch-in;
 *  - on the way back to user mode (arch_exit_to_user_mode_prepare) TIF_NEED_FPU_LOAD makes
 *    fpregs_restore_userregs XRSTOR the task's state, unless the registers still hold it
 *    (fpregs_state_valid: nobody else loaded theirs since);
 *  - signal delivery XSAVEs straight into the user frame (copy_fpstate_to_sigframe), the handler
 *    starts with init FPU state (fpu__clear_user_states), rt_sigreturn XRSTORs from the frame.
 * CR0.TS is never set, so there is no #NM.
 */
import { SA_ONSTACK, stateKey, type FpuRegs, type Kernel, type SigAction, type SignalFpuPolicy, type SignalFrame, type SwitchFpuPolicy, type Task } from "@siglab/plugin-api";
import { altstackOf } from "./altstack.js";
import { MAGIC2_BYTES, MINSIGSTKSZ, RED_ZONE_BYTES, RT_SIGFRAME64_BYTES, SIGSTKSZ } from "./paths.js";

interface FpuState {
  /** TIF_NEED_FPU_LOAD */
  needLoad: boolean;
  /** the registers were last loaded (XRSTORS) from this task's buffer: XSAVES's modified optimisation applies */
  tracked: boolean;
}

const FPU = stateKey<FpuState>("linux6.fpu", () => ({ needLoad: false, tracked: false }));
/** the init state (fninit + MXCSR reset), one per run, to recognise XSAVES's init optimisation */
const INIT = stateKey<{ regs: FpuRegs | null }>("linux6.init_fpstate", () => ({ regs: null }));

function initRegs(k: Kernel): FpuRegs {
  const s = k.slot(INIT);
  if (!s.regs) s.regs = k.fpu.blank();
  return s.regs;
}

/** 64-byte chunks of the XSAVE area for the CPU's enabled features (profile geometry xsaveBytes). */
export function xsaveChunks(k: Kernel): number {
  return Math.ceil(k.profile.xsaveBytes / 64);
}

/** PKRU is enabled when the area ends 8 bytes past a 64-B boundary (2688 + 8 = 2696; x86-costs.md §0.1). */
function hasPkru(k: Kernel): boolean {
  return k.profile.xsaveBytes % 64 === 8;
}

/**
 * The x86-64 signal frame's stack use below `sp` (get_sigframe + fpu__alloc_mathframe,
 * kernel-paths.md §6 step 4): returns the frame's lowest address.
 */
export function sigframeBottom(sp: number, xsaveBytes: number): number {
  const bufFx = Math.floor((sp - (xsaveBytes + MAGIC2_BYTES)) / 64) * 64;
  return Math.floor((bufFx - RT_SIGFRAME64_BYTES) / 16) * 16 - 8;
}

/** fpregs_restore_userregs (switch_fpu_return): called on every return to user mode. */
export function restoreUserRegs(k: Kernel, t: Task): void {
  if (t === k.idle) return;
  if (k.cpu.TS) {
    // 6.x never sets CR0.TS; the core starts with it set and sets it in do_exit. Clearing it here
    // is state repair, not a kernel step, so it is not charged.
    k.cpu.TS = false;
    k.count("linux6.ts_cleared");
  }
  const s = t.slot(FPU);
  if (k.cpu.fpuOwner === t) {
    if (s.needLoad) {
      k.run("fpregs_restore_userregs.valid");
      s.needLoad = false;
      k.count("linux6.fpu_restores_skipped");
    }
    t.usedFpu = true;
    return;
  }
  const owner = k.cpu.fpuOwner;
  if (owner && owner.usedFpu) {
    // cannot happen when every switch-out saves; kept so a live state is never lost silently
    owner.fpu.copyFrom(k.cpu.fpu);
    owner.usedFpu = false;
    owner.slot(FPU).needLoad = true;
    k.count("linux6.fpu_unsaved_owner");
  }
  k.run("fpregs_restore_userregs");
  k.runN("os_xrstor", t.fpu.equals(initRegs(k)) ? 1 : xsaveChunks(k));
  k.cpu.fpu.copyFrom(t.fpu);
  k.cpu.fpuOwner = t;
  t.usedFpu = true;
  t.usedMath = true;
  s.needLoad = false;
  s.tracked = true;
  k.count("linux6.fpu_restores");
}

/** switch_fpu_prepare at switch-out; the restore is deferred to the return to user mode. */
export class EagerSwitchFpu implements SwitchFpuPolicy {
  readonly id = "linux6:eager-fpu";
  private prevMm = -1;
  constructor(private readonly opts: { rsbFill: () => boolean; ibpb: () => boolean }) {}

  switchOut(k: Kernel, prev: Task): void {
    this.prevMm = prev === k.idle ? -1 : prev.mm.asid;
    // __switch_to_asm: FILL_RETURN_BUFFER sits between the stack swap and the jmp to __switch_to
    if (this.opts.rsbFill()) k.run("FILL_RETURN_BUFFER");
    if (prev === k.idle || k.cpu.fpuOwner !== prev || !prev.usedFpu) return; // kernel thread, or TIF_NEED_FPU_LOAD already set
    const s = prev.slot(FPU);
    k.run("switch_fpu_prepare");
    // XSAVES's optimisations: components in init state are not written (init); with the registers
    // unchanged since the last XRSTORS from this buffer nothing but the header is (modified, with
    // "unchanged" judged by comparing the register values with the buffer)
    const init = k.cpu.fpu.equals(initRegs(k));
    const unmodified = s.tracked && k.cpu.fpu.equals(prev.fpu);
    const chunks = init || unmodified ? 1 : xsaveChunks(k);
    k.runN("os_xsave", chunks);
    if (init) k.count("linux6.xsaves_init_opt");
    else if (unmodified) k.count("linux6.xsaves_modified_opt");
    prev.fpu.copyFrom(k.cpu.fpu);
    prev.usedFpu = false;
    s.needLoad = true;
    s.tracked = true;
    // fpu_fpregs_owner_ctx stays prev: its registers are valid until someone else restores
    k.count("linux6.fpu_switch_saves");
  }

  switchIn(k: Kernel, next: Task): void {
    // switch_mm_irqs_off's cond_mitigation ran before; charged here, where both mms are known
    if (this.opts.ibpb() && next !== k.idle && this.prevMm !== -1 && next.mm.asid !== this.prevMm) {
      k.run("cond_mitigation.ibpb");
      k.count("linux6.ibpb");
    }
    // no restore: TIF_NEED_FPU_LOAD defers it to exit_to_user_mode
  }

  deviceNotAvailable(k: Kernel, t: Task): void {
    // only reachable through the core's initial/do_exit CR0.TS: not a 6.x trap (see restoreUserRegs)
    restoreUserRegs(k, t);
  }
}

/** copy_fpstate_to_sigframe / fpu__restore_sig, and the sigaltstack fit check (the hazard). */
export class XsaveSignalFpu implements SignalFpuPolicy {
  readonly id = "linux6:xsave-sigframe";

  saveToFrame(k: Kernel, t: Task, frame: SignalFrame, ka: SigAction): void {
    this.checkAltstack(k, t, frame, ka);
    if (hasPkru(k)) k.run("sig_prepare_pkru");
    k.run("copy_fpstate_to_sigframe");
    // TIF_NEED_FPU_LOAD: fpregs_restore_userregs first, so XSAVE sees the task's registers
    if (k.cpu.fpuOwner !== t || !t.usedFpu) restoreUserRegs(k, t);
    // XSAVE (not XSAVEOPT): every enabled user component is written, whatever its state
    const chunks = xsaveChunks(k);
    k.runN("xsave_to_user_sigframe", chunks);
    k.run("save_xstate_epilog");
    k.count("bytes.copied", k.profile.xsaveBytes + MAGIC2_BYTES);
    k.count("linux6.sigframe_xsaves");
    frame.fpImage = k.fpu.take(k.cpu.fpu);
    // handle_signal: fpu__clear_user_states -- the handler starts with a clean FPU
    k.run("fpu__clear_user_states");
    k.cpu.fpu.init();
    k.cpu.fpuOwner = t;
    t.usedFpu = true;
    t.usedMath = true;
    const s = t.slot(FPU);
    s.needLoad = false;
    s.tracked = false;
  }

  restoreFromFrame(k: Kernel, t: Task, frame: SignalFrame): void {
    k.run("fpu__restore_sig");
    const s = t.slot(FPU);
    if (!frame.fpImage) {
      // buf == NULL: fpu__clear_user_states
      k.run("fpu__clear_user_states");
      k.cpu.fpu.init();
    } else {
      k.runN("xrstor_from_user_sigframe", xsaveChunks(k));
      k.cpu.fpu.copyFrom(frame.fpImage);
      // a handler that edited the frame's FP area: those values are what XRSTOR loads
      const view = frame.materialisedView();
      if (view) k.fpu.regsFromFpstate(view, k.cpu.fpu);
      k.count("linux6.sigreturn_xrstors");
    }
    k.run("fpu__restore_sig.tail");
    const owner = k.cpu.fpuOwner;
    if (owner && owner !== t && owner.usedFpu) {
      owner.fpu.copyFrom(k.cpu.fpu);
      owner.usedFpu = false;
    }
    k.cpu.fpuOwner = t;
    t.usedFpu = true;
    t.usedMath = true;
    s.needLoad = false;
    s.tracked = false;
  }

  /**
   * get_sigframe's "overflowed sigaltstack" case (kernel-paths.md §6 step 4): the frame for the
   * CPU's XSAVE size does not fit between the altstack's top (or the interrupted sp, when already
   * on it) and its base. The kernel then fails the delivery with SIGSEGV; the core builds its own
   * (i386-sized) frame and the API cannot abort the delivery, so the plugin reports it.
   */
  private checkAltstack(k: Kernel, t: Task, frame: SignalFrame, ka: SigAction): void {
    if (!(ka.flags & SA_ONSTACK)) return;
    const sas = altstackOf(t);
    if (!sas) return;
    const interrupted = frame.sigcontext.esp >>> 0;
    const onStack = interrupted - sas.base < sas.mappedBytes && interrupted >= sas.base;
    // the core placed its frame at (top - its size) & ~7 when it switched: the top is recovered
    const top = onStack ? interrupted - RED_ZONE_BYTES : Math.ceil((frame.address + frame.size) / 8) * 8;
    const size = onStack ? sas.size ?? sas.mappedBytes : top - sas.base;
    if (!onStack && sas.size === null) sas.size = size;
    const bottom = sigframeBottom(top, k.profile.xsaveBytes);
    const need = top - bottom + (onStack ? RED_ZONE_BYTES : 0);
    k.count("linux6.altstack_deliveries");
    if (bottom >= sas.base) return;
    k.count("linux6.altstack_overflows");
    const consts = size <= MINSIGSTKSZ ? `MINSIGSTKSZ (${MINSIGSTKSZ})` : size <= SIGSTKSZ ? `SIGSTKSZ (${SIGSTKSZ})` : `${size} bytes`;
    k.report({
      severity: "error",
      kind: "sigaltstack-overflow",
      message: `task ${t.pid}: signal ${frame.sig}'s x86-64 frame needs ${need} bytes of the sigaltstack but ${onStack ? `only ${interrupted - sas.base} are left below the interrupted sp` : `the altstack has ${size}`} (${consts}): the CPU's XSAVE area is ${k.profile.xsaveBytes} bytes (${k.profile.id}). Linux 6.x's get_sigframe returns -1 ("overflowed sigaltstack") and kills the task with SIGSEGV; size the altstack from getauxval(AT_MINSIGSTKSZ) / sysconf(_SC_SIGSTKSZ) [variants: ${k.variantIds.join(", ")}]`,
      evidence: { task: t.pid, signal: frame.sig, frameBytes: need, altstackBytes: size, xsaveBytes: k.profile.xsaveBytes, nested: onStack, cpu: k.profile.id },
    });
  }
}
