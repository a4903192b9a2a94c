/** The data-TLB model (machine/tlb.ts): misses, FIFO eviction, invlpg and flushes. */
import { describe, expect, it } from "vitest";
import { Tlb } from "../src/machine/tlb.js";

describe("Tlb", () => {
  it("misses, evicts first-in-first-out and forgets on invlpg and flushes", () => {
    const t = new Tlb(2);
    const a = Tlb.key(1, 10), b = Tlb.key(1, 11), c = Tlb.key(2, 10);
    expect([t.touch(a), t.touch(b), t.touch(a)]).toEqual([true, true, false]);
    expect(t.touch(c)).toBe(true); // full: a (first in) goes, though it was touched last
    expect([t.touch(b), t.touch(a)]).toEqual([false, true]); // b stayed; a missed and evicted b
    const epoch = t.epoch;
    expect(t.invalidate(c)).toBe(true);
    expect(t.invalidate(c)).toBe(false);
    expect(t.epoch).toBe(epoch + 1); // only an invlpg that evicted something changes the epoch
    expect(t.size).toBe(1);
    t.flushAll();
    expect([t.size, t.touch(a), t.misses, t.flushes]).toEqual([0, true, 5, 1]);
  });

  it("keeps address spaces apart: the same page of another mm misses", () => {
    const t = new Tlb(8);
    expect(t.touch(Tlb.key(1, 0x8048))).toBe(true);
    expect(t.touch(Tlb.key(2, 0x8048))).toBe(true);
    expect(t.touch(Tlb.key(1, 0x8048))).toBe(false);
  });
});
