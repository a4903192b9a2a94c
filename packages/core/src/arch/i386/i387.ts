/**
 * Linux 2.4 FPU handling (arch/i386/kernel/i387.c, traps.c): lazy switching with CR0.TS/#NM,
 * and save_i387/restore_i387 for signal frames (FXSR conversion on FXSR CPUs, fsave otherwise).
 */
import { TALLY } from "../../kernel/tallies.js";
import { FpuRegs, XMM_LANES } from "../../machine/fpu.js";
import type { SignalFpuPolicy, SwitchFpuPolicy } from "../../plugin-api/extension-points.js";
import type { KernelCore } from "../../kernel/core.js";
import type { Task } from "../../kernel/task.js";
import { cloneFpstate, fpstateOf, type FrameFpStateK } from "./sigcontext.js";
import type { SignalFrameK } from "./sigframe.js";
import { pathRefs } from "../../kernel/path-refs.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["clear_fpu", "convert_fxsr_to_user", "copy.signal.fpu_restore", "copy.signal.fpu_save", "device_not_available", "fxsr_reg_from_user", "fxsr_reg_to_user", "init_fpu", "init_fpu.nofxsr", "math_state_restore.exit", "restore_fpu.frstor", "restore_fpu.fxrstor", "restore_i387", "restore_i387_fsave", "restore_i387_fxsave", "save_i387", "save_i387_fsave"]);

/** i386 signal frames carry XMM0-7 only (32-bit mode). */
export const I386_XMM_REGS = 8;
/** bytes of the FP image in a frame: 624 with FXSR (112 + 512), 112 without */
export const FP_FRAME_BYTES_FXSR = 624;
export const FP_FRAME_BYTES_FSAVE = 112;

export function fxsrMagic(k: KernelCore): number {
  return k.profile.features.fxsr ? 0x0000 : 0xffff;
}

/** unlazy_fpu: if the task's state is live in the registers, save it to thread.i387 and set TS. */
export function unlazy_fpu(k: KernelCore, t: Task, pathFxsr: string, pathFsave: string): void {
  if (!t.usedFpu) return;
  k.run(k.profile.features.fxsr ? pathFxsr : pathFsave);
  if (t.mem !== null) k.copyTraffic(null, t.mem.fields.i387);
  t.fpu.copyFrom(k.cpu.fpu);
  if (!k.profile.features.fxsr) k.cpu.fpu.init(); // fnsave reinitialises the FPU
  t.usedFpu = false;
  k.cpu.TS = true;
  k.cpu.fpuOwner = null;
  k.tally(TALLY.fpu_saves);
}

/** The i387 view + FXSR image of thread.i387, as convert_fxsr_to_user lays it out in the frame. */
export function fpstateFromRegs(k: KernelCore, f: FpuRegs): FrameFpStateK {
  return fpstateOf(f, k.profile.features.fxsr);
}

/** restore_i387: the FXSR part first, then the i387 part over it (so handler edits of st/cw win). */
export function regsFromFpstate(k: KernelCore, s: FrameFpStateK, into: FpuRegs): void {
  if (k.profile.features.fxsr && s.xmm) {
    for (let i = 0; i < I386_XMM_REGS; i++) {
      const lanes = s.xmm[i] ?? [];
      for (let l = 0; l < XMM_LANES; l++) into.xmm[i * XMM_LANES + l] = (lanes[l] ?? 0) >>> 0;
    }
    into.mxcsr = ((s.mxcsr ?? 0x1f80) & 0xffbf) >>> 0; // fxsave.mxcsr &= 0xffbf
  }
  for (let i = 0; i < 8; i++) into.st[i] = s.st[i] ?? 0;
  into.fcw = s.cw & 0xffff;
  into.fsw = s.sw & 0xffff;
  into.ftw = s.tag & 0xff;
}

/** Load a frame's FP image into thread.i387: the edited view if materialised, else the raw image. */
export function loadFrameFp(k: KernelCore, frame: SignalFrameK, into: FpuRegs): void {
  const view = frame.materialisedView();
  if (view) regsFromFpstate(k, view, into);
  else if (frame.fpImage) {
    // i386 frames carry no AVX state: the upper halves are left as they are
    into.copyLegacyFrom(frame.fpImage);
    into.mxcsr = (into.mxcsr & 0xffbf) >>> 0;
  }
}

export { cloneFpstate };

/** 2.4 save_i387 / restore_i387 (the baseline signal-frame FPU policy). */
export class I387SignalFpu implements SignalFpuPolicy {
  readonly id = "core:save_i387";

  saveToFrame(k: KernelCore, t: Task, frame: SignalFrameK): void {
    k.runRef(P["save_i387"]);
    if (!t.usedMath) {
      frame.fpstate = null;
      return;
    }
    t.usedMath = false; // the handler's first FPU use traps and gets a fresh FPU
    const line = k.profile.cacheLineBytes;
    if (k.profile.features.fxsr) {
      unlazy_fpu(k, t, "unlazy_fpu.fxsave", "unlazy_fpu.fnsave");
      // thread.i387 is read (the frame's lines were written with the frame: setup_frame)
      if (t.mem !== null) k.touch(t.mem.fields.i387);
      k.runRef(P["convert_fxsr_to_user"]);
      k.runNRef(P["fxsr_reg_to_user"], 8);
      k.runNRef(P["copy.signal.fpu_save"], Math.ceil(512 / line));
      k.tally(TALLY.bytes_copied, FP_FRAME_BYTES_FXSR);
    } else {
      unlazy_fpu(k, t, "unlazy_fpu.fxsave", "unlazy_fpu.fnsave");
      if (t.mem !== null) k.touch(t.mem.fields.i387);
      k.runRef(P["save_i387_fsave"]);
      k.runNRef(P["copy.signal.fpu_save"], Math.ceil(FP_FRAME_BYTES_FSAVE / line));
      k.tally(TALLY.bytes_copied, FP_FRAME_BYTES_FSAVE);
    }
    frame.fpImage = k.fpuPool.take(t.fpu);
    k.tally(TALLY.fpu_frame_saves);
  }

  restoreFromFrame(k: KernelCore, t: Task, frame: SignalFrameK): void {
    if (frame.hasFp()) restore_i387(k, t, frame);
  }
}

/**
 * restore_i387 (2.4): discard the handler's live FPU state (clear_fpu), copy the frame's image
 * back into thread.i387 (the i387 part over the FXSR part), used_math = 1. The next FPU
 * instruction of the interrupted code traps (#NM) and reloads it.
 */
export function restore_i387(k: KernelCore, t: Task, frame: SignalFrameK): void {
  k.runRef(P["restore_i387"]);
  if (t.usedFpu) {
    // clear_fpu: the handler's live FPU state is discarded
    k.runRef(P["clear_fpu"]);
    t.usedFpu = false;
    k.cpu.TS = true;
    k.cpu.fpuOwner = null;
  }
  const line = k.profile.cacheLineBytes;
  // the frame's image is copied into thread.i387 (the frame was read by sys_sigreturn)
  if (t.mem !== null) k.copyTraffic(null, t.mem.fields.i387);
  if (k.profile.features.fxsr) {
    k.runRef(P["restore_i387_fxsave"]);
    k.runNRef(P["copy.signal.fpu_restore"], Math.ceil(512 / line));
    k.runNRef(P["fxsr_reg_from_user"], 8);
  } else {
    k.runRef(P["restore_i387_fsave"]);
    k.runNRef(P["copy.signal.fpu_restore"], Math.ceil(FP_FRAME_BYTES_FSAVE / line));
  }
  loadFrameFp(k, frame, t.fpu);
  t.usedMath = true;
  k.tally(TALLY.fpu_frame_restores);
}

/** 2.4 lazy FPU switching: save on switch-out if used this slice, set TS; restore on #NM. */
export class LazySwitchFpu implements SwitchFpuPolicy {
  readonly id = "core:lazy-fpu";

  switchOut(k: KernelCore, prev: Task): void {
    unlazy_fpu(k, prev, "unlazy_fpu.switch", "unlazy_fpu.switch.fnsave");
  }

  switchIn(): void {
    // TS stays set: next's first FPU instruction traps (#NM)
  }

  deviceNotAvailable(k: KernelCore, t: Task): void {
    k.runRef(P["device_not_available"]);
    k.cpu.TS = false;
    if (t.usedMath) {
      if (t.mem !== null) k.touch(t.mem.fields.i387);
      k.run(k.profile.features.fxsr ? P["restore_fpu.fxrstor"] : P["restore_fpu.frstor"]);
      k.cpu.fpu.copyFrom(t.fpu);
      k.tally(TALLY.fpu_restores);
    } else {
      k.run(k.profile.features.fxsr ? P["init_fpu"] : P["init_fpu.nofxsr"]);
      k.cpu.fpu.init();
      t.usedMath = true;
      k.tally(TALLY.fpu_inits);
    }
    k.runRef(P["math_state_restore.exit"]);
    t.usedFpu = true;
    k.cpu.fpuOwner = t;
  }
}

/**
 * #NM dispatch: plugins' trap hooks first (lazy frame variants), then the switch policy.
 * Called by the runtime before a user FPU instruction when CR0.TS is set.
 */
export function do_device_not_available(k: KernelCore, t: Task): void {
  k.tally(TALLY.fpu_nm_traps);
  for (const h of k.deps.fpuTrapHooks) if (h.onDeviceNotAvailable(k, t)) return;
  k.deps.switchFpu.deviceNotAvailable(k, t);
}

/** What the task would see if it executed an FPU instruction now (for the checkers). */
export function userFpuView(k: KernelCore, t: Task): FpuRegs {
  if (k.cpu.fpuOwner === t && t.usedFpu) return k.cpu.fpu;
  if (t.usedMath) return t.fpu;
  return INIT_FPU;
}

/** The init state a task without an FPU context would get (read-only). */
const INIT_FPU = new FpuRegs();
