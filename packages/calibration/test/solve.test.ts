import { describe, expect, it } from "vitest";
import { solveScale } from "../src/solve.js";

const key = (s: number) => String(Math.round(100 * s)); // costs of 100 cycles at scale s, rounded

describe("solveScale", () => {
  it("finds the scale of a linear figure to the rounding of the costs", async () => {
    // figure = 50 + 100·s (rounded costs), target 180 -> s = 1.3
    const r = await solveScale((s) => 50 + Math.round(100 * s) - 180, { lo: 0.25, hi: 4, tolerance: 0.01, key });
    expect(r.status).toBe("solved");
    if (r.status === "solved") {
      expect(r.best.s).toBeCloseTo(1.3, 2);
      expect(r.best.f).toBe(0);
    }
  });

  it("reports a figure out of reach with the values at the bounds", async () => {
    const r = await solveScale((s) => 500 + Math.round(100 * s) - 180, { lo: 0.25, hi: 4, tolerance: 0.01, key });
    expect(r.status).toBe("unreachable");
    if (r.status === "unreachable") {
      expect(r.lo.f).toBe(500 + 25 - 180);
      expect(r.hi.f).toBe(500 + 400 - 180);
    }
  });

  it("on a figure with a jump, returns the best point it evaluated, and the same one every time", async () => {
    // a step at s = 2 (a timer tick falling elsewhere): no exact root
    const f = (s: number) => Math.round(100 * s) + (s > 2 ? 40 : 0) - 220;
    const a = await solveScale(f, { lo: 0.25, hi: 4, tolerance: 0.01, key });
    const b = await solveScale(f, { lo: 0.25, hi: 4, tolerance: 0.01, key });
    expect(a).toEqual(b);
    expect(a.status).toBe("solved");
    if (a.status === "solved") {
      expect(Math.abs(a.best.f)).toBeLessThanOrEqual(20);
      for (const p of a.points) expect(Math.abs(p.f)).toBeGreaterThanOrEqual(Math.abs(a.best.f));
    }
  });

  it("works for a decreasing figure too", async () => {
    const r = await solveScale((s) => 1000 - Math.round(100 * s) - 850, { lo: 0.25, hi: 4, tolerance: 0.01, key });
    expect(r.status === "solved" && r.best.f === 0 && Math.abs(r.best.s - 1.5) < 0.01).toBe(true);
  });
});
