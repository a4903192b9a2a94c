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

const ROOMY_L2: HierarchyShape = { ...SMALL, l2: { bytes: 64 * 1024, ways: 8, lineBytes: 128 } };

/** code of 12 "paths": 1-3 regions each, some shared, some straddling lines */
function paths(): Region[][] {
  const r = (base: number, bytes: number) => new Region(base, bytes, `f${base}`);
  const f = Array.from({ length: 10 }, (_, i) => r(i * 700 + (i % 3) * 40, 90 + i * 61));
  return [[f[0]!], [f[1]!, f[2]!], [f[3]!], [f[2]!, f[4]!], [f[5]!, f[6]!, f[0]!], [f[7]!], [f[8]!, f[9]!], [f[4]!], [f[9]!, f[1]!], [f[6]!], [f[3]!, f[8]!], [r(9000, 4000)]];
}

type Step = { kind: "flush" } | { kind: "fetch"; path: number; replayFirst: boolean } | { kind: "data"; at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "flush" } as Step) },
  { weight: 6, arbitrary: fc.record({ path: fc.integer({ min: 0, max: 11 }), replayFirst: fc.boolean() }).map((f) => ({ kind: "fetch", ...f }) as Step) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 200 }).map((at) => ({ kind: "data", at }) as Step) },
);

/**
 * Epochs as a loop of system calls makes them: a few sequences, each repeated, now and then a data
 * touch (over more than the roomy L2 holds, so a touch may evict a line a remembered fetch brought).
 */
const loopSteps: fc.Arbitrary<Step[]> = fc
  .tuple(
    fc.array(fc.array(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 }),
    fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.integer({ min: 0, max: 1000 }), fc.boolean()), { minLength: 1, maxLength: 120 }),
  )
  .map(([epochs, order]) =>
    order.flatMap(([which, touch, at, replayFirst]) => [
      { kind: "flush" } as Step,
      ...epochs[which % epochs.length]!.map((path) => ({ kind: "fetch", path, replayFirst }) as Step),
      ...(touch ? [{ kind: "data", at } as Step] : []),
    ]),
  );

/** fetches the executor's shortcut (TraceEpochs.replay) answered, over a test's runs */
let replayed = 0;

/** Runs the steps; each fetch's [fromL2, fromMemory]. `memo`: through TraceEpochs, else walking every region. */
function replay(steps: Step[], memo: boolean, shape: HierarchyShape = SMALL): number[][] {
  const m = new MemoryHierarchy(shape);
  const code = paths();
  const keys = code.map((_, i) => i);
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
        // the executor's shortcut first: when it answers, it answers as the walk does (all from L2)
        const quick = s.replayFirst ? epochs.replay(keys[s.path]!) : -1;
        if (quick >= 0) {
          replayed++;
          out.push([quick, 0]);
          continue;
        }
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

  it("answers a loop's repeated epochs through the shortcut as a walk of the caches does", () => {
    replayed = 0;
    fc.assert(
      fc.property(loopSteps, (steps) => {
        // an L2 that holds the code, as a real one does: a loop's fetches then stop changing it
        expect(replay(steps, true, ROOMY_L2)).toEqual(replay(steps, false, ROOMY_L2));
      }),
      { numRuns: 200 },
    );
    expect(replayed).toBeGreaterThan(200); // the shortcut was taken, not always declined
  });

  it("refuses an exclusive L2, whose lines move on every L1 miss (the executor walks such caches)", () => {
    expect(() => new TraceEpochs(new MemoryHierarchy({ ...SMALL, l2Exclusive: true }))).toThrow(/exclusive L2/);
  });

  it("replays a repeated epoch without walking: the same charges, and nothing new remembered", () => {
    const m = new MemoryHierarchy(SMALL);
    const code = paths();
    const keys = code.map((_, i) => i);
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

  it("declines the shortcut once L2 changed, and the fetch then finds the lines L2 lost in memory", () => {
    const m = new MemoryHierarchy(SMALL);
    const code = paths();
    const e = new TraceEpochs(m);
    const epoch = () => {
      e.flush();
      return [0, 1].map((i) => {
        const quick = e.replay(i);
        if (quick >= 0) return [quick, 0];
        e.fetch(i, code[i]!);
        return [e.fromL2, e.fromMemory];
      });
    };
    epoch();
    const warm = epoch(); // L2 settled: both fetches come through the shortcut, all from L2
    expect(warm.every(([l2, mem]) => l2! > 0 && mem === 0)).toBe(true);
    expect(e.replay(0)).toBe(-1); // no epoch started: nothing to replay from here
    // data over every set of the small L2, twice its ways deep: the code's lines leave it
    for (let i = 0; i < 64; i++) m.touchData(new Region(20_000 + i * 128, 128, "data"));
    const cold = epoch();
    expect(cold.every(([, mem]) => mem! > 0)).toBe(true);
    expect(cold.map(([l2, mem]) => l2! + mem!)).toEqual(warm.map(([l2]) => l2));
  });
});
