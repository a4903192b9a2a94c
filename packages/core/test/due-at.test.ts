/** Executor.dueAt: one compare stands for "an event is due or the SMP horizon is passed". */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { above, Executor } from "../src/exec/executor.js";
import { PhaseTable } from "../src/exec/phases.js";

describe("above", () => {
  it("is the next double: nothing lies between x and above(x)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e300, noNaN: true }), (x) => {
        const y = above(x);
        expect(y).toBeGreaterThan(x);
        expect((x + y) / 2 === x || (x + y) / 2 === y).toBe(true);
      }),
    );
    expect(above(0)).toBe(Number.MIN_VALUE);
    expect(above(-0)).toBe(Number.MIN_VALUE);
    expect(above(1)).toBe(1 + Number.EPSILON);
    expect(above(2 ** 53)).toBe(2 ** 53 + 2);
    expect(above(Number.MAX_VALUE)).toBe(Infinity);
    expect(above(Infinity)).toBe(Infinity);
  });
});

describe("Executor.dueAt", () => {
  it("holds from the first cycle at which cycles >= nextEvent or cycles > syncAt, whatever order they are set in", () => {
    const cyc = fc.oneof(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.constant(Infinity), fc.integer({ min: 0, max: 100 }));
    fc.assert(
      fc.property(cyc, cyc, fc.double({ min: 0, max: 1e12, noNaN: true }), fc.boolean(), (next, sync, cycles, syncFirst) => {
        const ex = new Executor({ IF: 1, cpl: 3 }, new PhaseTable(), { costs: {} } as never);
        if (syncFirst) (ex.syncAt = sync), (ex.nextEvent = next);
        else (ex.nextEvent = next), (ex.syncAt = sync);
        expect(cycles >= ex.dueAt).toBe(cycles >= next || cycles > sync);
        // at the boundary itself
        for (const c of [next, sync, above(sync)]) if (Number.isFinite(c)) expect(c >= ex.dueAt).toBe(c >= next || c > sync);
      }),
    );
  });
});
