/** The cache model (machine/cache.ts): sets, FIFO replacement, regions, exclusive L2, write allocation. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MemoryHierarchy, Region, SetAssocCache, type HierarchyShape } from "../src/machine/cache.js";

// a PIII-like L1D: 16 KB, 4-way, 32-B lines: 128 sets, addresses 4 KB apart share a set
const PIII: HierarchyShape = {
  l1d: { bytes: 16384, ways: 4, lineBytes: 32 },
  l1i: { bytes: 16384, ways: 4, lineBytes: 32 },
  l2: { bytes: 262144, ways: 8, lineBytes: 32 },
  l1dWriteAllocate: true,
};

describe("SetAssocCache", () => {
  it("maps lines to sets and evicts first-in-first-out within a set", () => {
    const c = new SetAssocCache({ bytes: 256, ways: 2, lineBytes: 32 }); // 4 sets
    expect([c.sets, c.ways, c.lineShift]).toEqual([4, 2, 5]);
    expect(c.fill(0)).toBe(-1);
    expect(c.fill(4)).toBe(-1); // set 0, second way
    expect(c.fill(1)).toBe(-1); // set 1: set 0 untouched
    expect(c.has(0) && c.has(4) && c.has(1)).toBe(true);
    expect(c.has(0)).toBe(true); // a hit changes nothing: 0 is still the first in
    expect(c.fill(8)).toBe(0);
    expect(c.fill(12)).toBe(4);
    expect([c.has(8), c.has(12), c.has(0), c.has(4)]).toEqual([true, true, false, false]);
    expect(c.remove(8)).toBe(true);
    expect(c.remove(8)).toBe(false);
    expect(c.fill(16)).toBe(-1); // the emptied way is taken before evicting
    expect(c.has(12)).toBe(true);
  });

  it("refuses shapes whose sets or lines are not powers of two", () => {
    expect(() => new SetAssocCache({ bytes: 3000, ways: 4, lineBytes: 32 })).toThrow(/powers of two/);
    expect(() => new SetAssocCache({ bytes: 4096, ways: 4, lineBytes: 48 })).toThrow(/powers of two/);
  });

  it("agrees with a model of per-set FIFO queues (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 200 }), (lines) => {
        const c = new SetAssocCache({ bytes: 512, ways: 4, lineBytes: 32 }); // 4 sets of 4
        const model = new Map<number, number[]>();
        for (const l of lines) {
          const q = model.get(l & 3) ?? [];
          model.set(l & 3, q);
          if (q.includes(l)) {
            expect(c.has(l)).toBe(true);
            continue;
          }
          expect(c.has(l)).toBe(false);
          const evicted = q.length === 4 ? q.shift()! : -1;
          q.push(l);
          expect(c.fill(l)).toBe(evicted);
        }
      }),
    );
  });
});

describe("MemoryHierarchy", () => {
  it("charges a region's lines once from memory, then from nowhere while nothing else was filled", () => {
    const m = new MemoryHierarchy(PIII);
    const stack = new Region(0x100000 - 64, 64, "kernel stack top");
    expect(m.touchData(stack)).toBe(2);
    expect([m.fromL2, m.fromMemory]).toEqual([0, 2]);
    expect(m.touchData(stack)).toBe(0);
    expect(stack.seenD).toBe(m.l1d.changes);
    // another region filled lines (elsewhere): the stack region is walked again, and still hits
    m.touchData(new Region(0x200000, 32, "other"));
    expect(stack.seenD).not.toBe(m.l1d.changes);
    expect(m.touchData(stack)).toBe(0);
    expect(stack.seenD).toBe(m.l1d.changes);
  });

  it("finds lines evicted from L1 in L2, and the cost of aliasing: five regions 4 KB apart in a 4-way L1", () => {
    const m = new MemoryHierarchy(PIII);
    const r = [0, 1, 2, 3, 4].map((i) => new Region(0x400000 + i * 4096, 32, `r${i}`));
    for (const x of r) expect(m.touchData(x)).toBe(1);
    // r0 went to make room for r4 (one set, four ways): it comes back from L2, evicting r1
    expect(m.touchData(r[0]!)).toBe(1);
    expect([m.fromL2, m.fromMemory]).toEqual([1, 0]);
    expect(m.touchData(r[1]!)).toBe(1);
    expect(m.touchData(r[4]!)).toBe(0);
  });

  it("an exclusive L2 holds L1's victims and gives a hit line up", () => {
    const m = new MemoryHierarchy({ ...PIII, l2Exclusive: true });
    const r = [0, 1, 2, 3, 4].map((i) => new Region(0x400000 + i * 4096, 32, `r${i}`));
    for (const x of r) m.touchData(x);
    expect(m.l2!.has(0x400000 >>> 5)).toBe(true); // r0, evicted from L1, is in L2 now (same 32-B lines)
    m.touchData(r[0]!);
    expect([m.fromL2, m.fromMemory]).toEqual([1, 0]);
    expect(m.l2!.has(0x400000 >>> 5)).toBe(false); // moved up, not copied
  });

  it("a cache that does not allocate on a write miss leaves written lines out of L1", () => {
    const m = new MemoryHierarchy({ ...PIII, l1dWriteAllocate: false });
    const frame = new Region(0xbfff0000, 128, "signal frame");
    expect(m.touchData(frame, true)).toBe(0);
    expect(m.l1d.has(0xbfff0000 >>> 5)).toBe(false);
    expect(m.touchData(frame)).toBe(4); // the reads bring it in
  });

  it("a region larger than its sets' ways evicts itself and is walked on every touch", () => {
    const m = new MemoryHierarchy({ ...PIII, l1d: { bytes: 256, ways: 2, lineBytes: 32 } }); // 4 sets × 2 ways
    const big = new Region(0, 512, "16 lines over 4 sets");
    expect(m.touchData(big)).toBe(16);
    expect(big.seenD).toBe(-1);
    expect(m.touchData(big)).toBe(16); // FIFO, 4 lines per set through 2 ways: every line misses again
    expect(m.fromL2).toBe(16);
  });

  it("L2 lines longer than L1's: one L2 fill serves two L1 lines (the P4's 128-B sectors)", () => {
    const m = new MemoryHierarchy({ l1d: { bytes: 8192, ways: 4, lineBytes: 64 }, l1i: { bytes: 8192, ways: 4, lineBytes: 64 }, l2: { bytes: 524288, ways: 8, lineBytes: 128 }, l1dWriteAllocate: true });
    expect(m.touchData(new Region(0x10000, 128, "two lines of one sector"))).toBe(2);
    expect([m.fromL2, m.fromMemory]).toEqual([1, 1]);
  });

  it("invalidate drops a region's lines from every level (another CPU wrote them)", () => {
    const m = new MemoryHierarchy(PIII);
    const r = new Region(0x8000, 64, "pipe inode");
    m.touchData(r);
    m.invalidate(r);
    expect(m.touchData(r)).toBe(2);
    expect(m.fromMemory).toBe(2);
  });

  it("code and data are cached apart", () => {
    const m = new MemoryHierarchy(PIII);
    const code = new Region(0x100000, 96, "system_call");
    expect(m.touchCode(code)).toBe(3);
    expect(m.touchCode(code)).toBe(0);
    expect(m.touchData(code)).toBe(3); // L1D has none of it (L2 has: a shared L2)
    expect(m.fromL2).toBe(3);
  });
});
