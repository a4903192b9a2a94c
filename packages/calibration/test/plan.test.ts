import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_SOURCES, type CpuProfileSource } from "@siglab/cpu-profiles";
import { FIT_GROUPS, calibrationTargets, groupValues, validatePlan } from "../src/index.js";

function edit(id: string, f: (s: CpuProfileSource) => void): CpuProfileSource[] {
  return BUILTIN_PROFILE_SOURCES.map((s) => {
    if (s.id !== id) return s;
    const c = structuredClone(s);
    f(c);
    return c;
  });
}

describe("the fit plan", () => {
  it("covers every fitted entry of the shipped profiles exactly once", () => {
    expect(() => validatePlan(BUILTIN_PROFILE_SOURCES)).not.toThrow();
  });

  it("has fewer free parameters than fitted entries, and no more than the figures they are fitted to", () => {
    const entries = FIT_GROUPS.reduce((n, g) => n + Object.keys(g.start).length, 0);
    expect(FIT_GROUPS.length).toBeLessThan(entries);
    const fitTargets = new Set(FIT_GROUPS.map((g) => g.target));
    expect(fitTargets.size).toBe(FIT_GROUPS.length); // one target per free parameter, none shared
    for (const t of fitTargets) expect(calibrationTargets().some((x) => x.id === t)).toBe(true);
  });

  it("refuses a fitted entry no group covers, naming the file and the op", () => {
    const sources = edit("p4-northwood", (s) => {
      s.costs!.cli = { cycles: 36, kind: "fitted", source: "test", fittedTo: ["p4-lat-sig-catch"] };
    });
    expect(() => validatePlan(sources)).toThrow(/p4-northwood\.json: \/costs\/cli: fitted to \[p4-lat-sig-catch\], but no fit group/);
  });

  it("refuses a group whose op is no longer fitted, or fitted to another figure", () => {
    const notFitted = edit("p4-northwood", (s) => {
      s.costs!.mov_cr3 = { cycles: 384, kind: "estimated", source: "test" };
    });
    expect(() => validatePlan(notFitted)).toThrow(/p4-northwood\.json: \/costs\/mov_cr3: group 'p4-cr3' fits it, but its kind is "estimated"/);
    const otherFigure = edit("p4-northwood", (s) => {
      s.costs!.mov_cr3 = { ...s.costs!.mov_cr3!, fittedTo: ["p4-lat-sig-catch"] };
    });
    expect(() => validatePlan(otherFigure)).toThrow(/mov_cr3: fittedTo \[p4-lat-sig-catch\] does not name the figure of group 'p4-cr3'/);
  });

  it("scales a group's starting values by one factor, rounded to whole cycles", () => {
    const g = FIT_GROUPS.find((x) => x.id === "p4-int80-gate")!;
    expect(groupValues(g, 1)).toEqual(g.start);
    expect(groupValues(g, 0.5)).toEqual({ int_gate: 297, iret_user: 257 }); // 594 × 0.5, 513 × 0.5 rounded
  });
});
