/**
 * machine/trace-epochs.ts: remembering the L1I's fetch sequences between IDT flushes gives, fetch
 * for fetch, the lines and levels that walking the caches every time gives (fast-check over random
 * sequences of flushes, fetches and data touches that change L2 underneath).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MemoryHierarchy, Region, type HierarchyShape } from "../src/machine/cache.js";
import { TraceEpochs } from "../src/machine/trace-epochs.js";

// a small P4-like hierarchy, so that evictions within an epoch and in L2 happen often
const SMALL: HierarchyShape = {
  l1i: { bytes: 1024, ways: 2, lineBytes: 64 },
  l1d: { bytes: 1024, ways: 2, lineBytes: 64 },
  l2: { bytes: 4096, ways: 2, lineBytes: 128 },
  l1dWriteAllocate: true,
};

/** code of 12 "paths": 1-3 regions each, some shared, some straddling lines */
function paths(): Region[][] {
  const r = (base: number, bytes: number) => new Region(base, bytes, `f${base}`);
  const f = Array.from({ length: 10 }, (_, i) => r(i * 700 + (i % 3) * 40, 90 + i * 61));
  return [[f[0]!], [f[1]!, f[2]!], [f[3]!], [f[2]!, f[4]!], [f[5]!, f[6]!, f[0]!], [f[7]!], [f[8]!, f[9]!], [f[4]!], [f[9]!, f[1]!], [f[6]!], [f[3]!, f[8]!], [r(9000, 4000)]];
}

type Step = { kind: "flush" } | { kind: "fetch"; path: number } | { kind: "data"; at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "flush" } as Step) },
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 11 }).map((path) => ({ kind: "fetch", path }) as Step) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 200 }).map((at) => ({ kind: "data", at }) as Step) },
);

/** Runs the steps; each fetch's [fromL2, fromMemory]. `memo`: through TraceEpochs, else walking every region. */
function replay(steps: Step[], memo: boolean): number[][] {
  const m = new MemoryHierarchy(SMALL);
  const code = paths();
  const keys = code.map(() => ({}));
  const epochs = memo ? new TraceEpochs(m) : null;
  const out: number[][] = [];
  for (const s of steps) {
    if (s.kind === "flush") {
      if (epochs) epochs.flush();
      else m.l1i.clear();
    } else if (s.kind === "data") {
      m.touchData(new Region(20_000 + s.at * 128, 128, "data"));
    } else {
      if (epochs?.active) {
        const n = epochs.fetch(keys[s.path]!, code[s.path]!);
        expect(n).toBeGreaterThanOrEqual(0);
        out.push([epochs.fromL2, epochs.fromMemory]);
        continue;
      }
      let l2 = 0, mem = 0;
      for (const r of code[s.path]!) {
        if (m.touchCode(r) === 0) continue;
        l2 += m.fromL2;
        mem += m.fromMemory;
      }
      out.push([l2, mem]);
    }
  }
  return out;
}

describe("TraceEpochs", () => {
  it("gives every fetch the lines and levels a walk of the caches gives", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 300 }), (steps) => {
        const s = [{ kind: "flush" } as Step, ...steps];
        expect(replay(s, true)).toEqual(replay(s, false));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses an exclusive L2, whose lines move on every L1 miss (the executor walks such caches)", () => {
    expect(() => new TraceEpochs(new MemoryHierarchy({ ...SMALL, l2Exclusive: true }))).toThrow(/exclusive L2/);
  });

  it("replays a repeated epoch without walking: the same charges, and nothing new remembered", () => {
    const m = new MemoryHierarchy(SMALL);
    const code = paths();
    const keys = code.map(() => ({}));
    const e = new TraceEpochs(m);
    const epoch = () => {
      e.flush();
      return [0, 1, 3, 4].map((i) => (e.fetch(keys[i]!, code[i]!), [e.fromL2, e.fromMemory]));
    };
    const first = epoch();
    const second = epoch();
    // the first epoch brings lines from memory; afterwards L2 holds them
    expect(first.some(([, mem]) => mem! > 0)).toBe(true);
    expect(second.every(([, mem]) => mem === 0)).toBe(true);
    expect(second.map(([l2, mem]) => l2! + mem!)).toEqual(first.map(([l2, mem]) => l2! + mem!));
    const walked = m.l1i.fills;
    epoch();
    expect(m.l1i.fills).toBe(walked); // replayed: no L1I line was filled again
  });
});
