/**
 * What a signal frame saves of the interrupted context (include/asm-i386/sigcontext.h: struct
 * sigcontext and struct _fpstate), and the i387/FXSR view of an FP image as convert_fxsr_to_user
 * lays it out.
 */
import type { FpuRegs } from "../../machine/fpu.js";

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
