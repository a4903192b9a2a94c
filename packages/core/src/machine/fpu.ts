/**
 * The FPU/SSE/AVX register file with real values. Values are how corruption is detected:
 * the transparency checkers compare what a task sees before and after a signal or a switch.
 *
 * Layout is flat typed arrays so that save/restore (fxsave/fxrstor, frame copies) are cheap copies.
 */

/** Lanes per register: XMM = 4 × 32-bit, the upper YMM half = 4 more, the upper ZMM half = 8 more. */
export const XMM_LANES = 4;
export const YMM_HI_LANES = 4;
export const ZMM_HI_LANES = 8;
export const MAX_XMM = 16;

/** Default control words after fninit / the init state of XRSTOR. */
export const FCW_INIT = 0x037f;
export const MXCSR_INIT = 0x1f80;

/**
 * Byte layout of one register file image: st (8 doubles), control words, xmm, ymm upper, zmm
 * upper. What an i386 signal frame carries (st, control words, XMM0-7) is its first 208 bytes, so
 * saving or comparing that is one native copy or one loop.
 */
const ST_BYTES = 8 * 8;
const CTL_WORDS = 4; // fcw, fsw, ftw, mxcsr
const CTL_BYTES = CTL_WORDS * 4;
const XMM_BYTES = MAX_XMM * XMM_LANES * 4;
const YMM_BYTES = MAX_XMM * YMM_HI_LANES * 4;
const ZMM_BYTES = MAX_XMM * ZMM_HI_LANES * 4;
const IMAGE_BYTES = ST_BYTES + CTL_BYTES + XMM_BYTES + YMM_BYTES + ZMM_BYTES;
/** 32-bit words of the x87 stack, the control words and XMM0-7 (the start of the image) */
const LEGACY_WORDS = (ST_BYTES + CTL_BYTES + 8 * XMM_LANES * 4) / 4;

import { hot } from "./typed-arrays.js";

export class FpuRegs {
  /** one buffer for the whole image, so that fxsave/fxrstor-like copies are a single memcpy */
  private readonly bytes = hot(new Uint8Array(IMAGE_BYTES));
  /** x87 stack st0..st7 (80-bit values modelled as doubles) */
  readonly st = hot(new Float64Array(this.bytes.buffer, 0, 8));
  private readonly ctl = hot(new Uint32Array(this.bytes.buffer, ST_BYTES, CTL_WORDS));
  readonly xmm = hot(new Uint32Array(this.bytes.buffer, ST_BYTES + CTL_BYTES, MAX_XMM * XMM_LANES));
  readonly ymmHi = hot(new Uint32Array(this.bytes.buffer, ST_BYTES + CTL_BYTES + XMM_BYTES, MAX_XMM * YMM_HI_LANES));
  readonly zmmHi = hot(new Uint32Array(this.bytes.buffer, ST_BYTES + CTL_BYTES + XMM_BYTES + YMM_BYTES, MAX_XMM * ZMM_HI_LANES));
  private readonly words = hot(new Int32Array(this.bytes.buffer));
  /** the x87 stack, the control words and XMM0-7: what an i386 signal frame carries */
  private readonly legacy = hot(new Int32Array(this.bytes.buffer, 0, LEGACY_WORDS));

  constructor() {
    this.ctl[0] = FCW_INIT;
    this.ctl[3] = MXCSR_INIT;
  }

  get fcw(): number { return this.ctl[0]!; }
  set fcw(v: number) { this.ctl[0] = v; }
  get fsw(): number { return this.ctl[1]!; }
  set fsw(v: number) { this.ctl[1] = v; }
  /** abridged tag: bit i set = st(i) valid */
  get ftw(): number { return this.ctl[2]!; }
  set ftw(v: number) { this.ctl[2] = v; }
  get mxcsr(): number { return this.ctl[3]!; }
  set mxcsr(v: number) { this.ctl[3] = v; }

  copyFrom(o: FpuRegs): void {
    this.bytes.set(o.bytes);
  }

  /** Byte-wise equality of the whole image (the fast path of the transparency checks). */
  equals(o: FpuRegs): boolean {
    const a = this.words, b = o.words;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** Equality of the legacy (i386 frame) state: x87 stack, control words, XMM0-7. */
  equalsLegacy(o: FpuRegs): boolean {
    const a = this.words, b = o.words;
    for (let i = 0; i < LEGACY_WORDS; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /**
   * Copy the legacy (i386 frame) state only: x87 stack, control words, XMM0-7; no allocation.
   * One native copy (the image's first 208 bytes): an element-by-element loop took 4-5x as long
   * (and longer still in a locked-down realm), on every sigreturn.
   */
  copyLegacyFrom(o: FpuRegs): void {
    this.legacy.set(o.legacy);
  }

  clone(): FpuRegs {
    const c = new FpuRegs();
    c.copyFrom(this);
    return c;
  }

  /** fninit + the SSE init state (what init_fpu / XRSTOR of the init state leave). */
  init(): void {
    this.bytes.fill(0);
    this.ctl[0] = FCW_INIT;
    this.ctl[3] = MXCSR_INIT;
  }
}

/**
 * Recycles register-file images (frame FP images, checker snapshots): allocating typed arrays on
 * every signal would dominate the simulator's run time.
 */
export class FpuPool {
  private readonly free: FpuRegs[] = [];
  /** a copy of `src` */
  take(src: FpuRegs): FpuRegs {
    const f = this.free.pop() ?? new FpuRegs();
    f.copyFrom(src);
    return f;
  }
  give(f: FpuRegs | null | undefined): void {
    if (f && this.free.length < 64) this.free.push(f);
  }
}

export type FpuRegName = string;

/** A register's value as a list of numbers (one for st/mxcsr/fcw, lanes for vector registers). */
export function readReg(f: FpuRegs, name: FpuRegName, xmmRegs: number): number[] {
  const m = /^(st|xmm|ymm)(\d+)$/.exec(name);
  if (name === "mxcsr") return [f.mxcsr];
  if (name === "fcw") return [f.fcw];
  if (!m) throw new Error(`unknown FPU register '${name}'`);
  const i = Number(m[2]);
  if (m[1] === "st") {
    if (i > 7) throw new Error(`unknown FPU register '${name}'`);
    return [f.st[i]!];
  }
  if (i >= xmmRegs) throw new Error(`register '${name}' does not exist on this CPU (it has ${xmmRegs} XMM registers)`);
  const lo = Array.from(f.xmm.subarray(i * XMM_LANES, i * XMM_LANES + XMM_LANES));
  if (m[1] === "xmm") return lo;
  return lo.concat(Array.from(f.ymmHi.subarray(i * YMM_HI_LANES, i * YMM_HI_LANES + YMM_HI_LANES)));
}

export function writeReg(f: FpuRegs, name: FpuRegName, value: number | number[], xmmRegs: number, hasAvx: boolean): void {
  const vals = typeof value === "number" ? [value] : value;
  if (name === "mxcsr") { f.mxcsr = vals[0]! >>> 0; return; }
  if (name === "fcw") { f.fcw = vals[0]! & 0xffff; return; }
  const m = /^(st|xmm|ymm)(\d+)$/.exec(name);
  if (!m) throw new Error(`unknown FPU register '${name}'`);
  const i = Number(m[2]);
  if (m[1] === "st") {
    if (i > 7) throw new Error(`unknown FPU register '${name}'`);
    f.st[i] = vals[0]!;
    f.ftw |= 1 << i;
    return;
  }
  if (i >= xmmRegs) throw new Error(`register '${name}' does not exist on this CPU (it has ${xmmRegs} XMM registers)`);
  if (m[1] === "ymm" && !hasAvx) throw new Error(`register '${name}' needs AVX, which this CPU profile does not have`);
  for (let l = 0; l < XMM_LANES; l++) f.xmm[i * XMM_LANES + l] = (vals[l] ?? 0) >>> 0;
  if (m[1] === "ymm") for (let l = 0; l < YMM_HI_LANES; l++) f.ymmHi[i * YMM_HI_LANES + l] = (vals[XMM_LANES + l] ?? 0) >>> 0;
}

/** Differences between two register files, register by register (for findings' evidence). */
export interface RegDiff {
  reg: string;
  expected: number[];
  actual: number[];
}

export function diffFpu(expected: FpuRegs, actual: FpuRegs, xmmRegs: number, withSse: boolean, withAvx: boolean): RegDiff[] {
  const out: RegDiff[] = [];
  for (let i = 0; i < 8; i++) {
    const e = expected.st[i]!, a = actual.st[i]!;
    if (!(e === a || (Number.isNaN(e) && Number.isNaN(a)))) out.push({ reg: `st${i}`, expected: [e], actual: [a] });
  }
  if (expected.fcw !== actual.fcw) out.push({ reg: "fcw", expected: [expected.fcw], actual: [actual.fcw] });
  if (withSse) {
    for (let i = 0; i < xmmRegs; i++) {
      const b = i * XMM_LANES;
      for (let l = 0; l < XMM_LANES; l++) {
        if (expected.xmm[b + l] !== actual.xmm[b + l]) {
          out.push({ reg: `xmm${i}`, expected: Array.from(expected.xmm.subarray(b, b + XMM_LANES)), actual: Array.from(actual.xmm.subarray(b, b + XMM_LANES)) });
          break;
        }
      }
    }
    if (expected.mxcsr !== actual.mxcsr) out.push({ reg: "mxcsr", expected: [expected.mxcsr], actual: [actual.mxcsr] });
  }
  if (withAvx) {
    for (let i = 0; i < xmmRegs; i++) {
      const b = i * YMM_HI_LANES;
      for (let l = 0; l < YMM_HI_LANES; l++) {
        if (expected.ymmHi[b + l] !== actual.ymmHi[b + l]) {
          out.push({ reg: `ymm${i}.hi`, expected: Array.from(expected.ymmHi.subarray(b, b + YMM_HI_LANES)), actual: Array.from(actual.ymmHi.subarray(b, b + YMM_HI_LANES)) });
          break;
        }
      }
    }
  }
  return out;
}
