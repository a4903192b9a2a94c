/**
 * The register image's i386-frame part (machine/fpu.ts): copyLegacyFrom and equalsLegacy cover the
 * x87 stack, the control words and XMM0-7 — and nothing of XMM8-15 or the YMM/ZMM upper halves,
 * which an i386 frame does not carry (restore_i387 must leave them as they were).
 */
import { describe, expect, it } from "vitest";
import { FpuRegs } from "../src/machine/fpu.js";

function filled(seed: number): FpuRegs {
  const f = new FpuRegs();
  for (let i = 0; i < 8; i++) f.st[i] = seed + i + 0.5;
  for (let i = 0; i < f.xmm.length; i++) f.xmm[i] = (seed * 1000 + i) >>> 0;
  for (let i = 0; i < f.ymmHi.length; i++) f.ymmHi[i] = (seed * 2000 + i) >>> 0;
  for (let i = 0; i < f.zmmHi.length; i++) f.zmmHi[i] = (seed * 3000 + i) >>> 0;
  f.fcw = 0x027f + seed;
  f.fsw = seed;
  f.ftw = 0xff - seed;
  f.mxcsr = 0x1f80 + seed;
  return f;
}

describe("FpuRegs' i386-frame part", () => {
  it("copyLegacyFrom copies st, the control words and XMM0-7 only", () => {
    const src = filled(1), dst = filled(2);
    dst.copyLegacyFrom(src);
    expect(Array.from(dst.st)).toEqual(Array.from(src.st));
    expect([dst.fcw, dst.fsw, dst.ftw, dst.mxcsr]).toEqual([src.fcw, src.fsw, src.ftw, src.mxcsr]);
    expect(Array.from(dst.xmm.subarray(0, 32))).toEqual(Array.from(src.xmm.subarray(0, 32)));
    // XMM8-15 and the upper halves keep the destination's own values
    expect(Array.from(dst.xmm.subarray(32))).toEqual(Array.from(filled(2).xmm.subarray(32)));
    expect(Array.from(dst.ymmHi)).toEqual(Array.from(filled(2).ymmHi));
    expect(Array.from(dst.zmmHi)).toEqual(Array.from(filled(2).zmmHi));
    expect(dst.equalsLegacy(src)).toBe(true);
    expect(dst.equals(src)).toBe(false);
  });

  it("equalsLegacy sees every legacy register and control word, and ignores XMM8-15 and the upper halves", () => {
    const a = filled(3);
    const edits: [string, (f: FpuRegs) => void][] = [
      ["st7", (f) => (f.st[7] = -1)],
      ["fcw", (f) => (f.fcw ^= 1)],
      ["fsw", (f) => (f.fsw ^= 1)],
      ["ftw", (f) => (f.ftw ^= 1)],
      ["mxcsr", (f) => (f.mxcsr ^= 1)],
      ["xmm0", (f) => (f.xmm[0] ^= 1)],
      ["xmm7 lane 3", (f) => (f.xmm[31] ^= 1)],
    ];
    for (const [name, edit] of edits) {
      const b = filled(3);
      edit(b);
      expect(a.equalsLegacy(b), name).toBe(false);
    }
    const c = filled(3);
    c.xmm[32] ^= 1; // xmm8
    c.ymmHi[0] ^= 1;
    c.zmmHi[c.zmmHi.length - 1] ^= 1;
    expect(a.equalsLegacy(c)).toBe(true);
  });
});
