// The fit on a subset of groups (the full fit runs the same code on more groups; keeping the
// test to the cheap workloads keeps it fast).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_SOURCES } from "@siglab/cpu-profiles";
import { candidateProfiles, closeCalibrationHost, evaluateTarget, fit, getTarget, SCALE_BOUNDS, withinTolerance, type FitResult } from "../src/index.js";

const ONLY = ["p3-syscall-gate", "p4-int80-gate", "p4-signal-fpu"];

afterAll(closeCalibrationHost);

describe("calibration fit", () => {
  let a: FitResult;
  beforeAll(async () => {
    a = await fit({ only: ONLY });
  });

  it("is deterministic: two fits give the same scales, costs and figures", async () => {
    const b = await fit({ only: ONLY });
    const strip = (r: FitResult) => r.groups.map((g) => ({ id: g.group.id, status: g.status, scale: g.scale, values: g.values, simulated: g.simulated, reach: g.reach, floor: g.floor }));
    expect(strip(b)).toEqual(strip(a));
    expect(b.values).toEqual(a.values);
    expect(b.sweeps).toBe(a.sweeps);
  });

  it("converges, and each fitted group meets its own target with the fitted costs", async () => {
    expect(a.converged).toBe(true);
    const profiles = candidateProfiles(BUILTIN_PROFILE_SOURCES, a.values);
    for (const g of a.groups.filter((x) => x.status === "fitted")) {
      const t = getTarget(g.group.target);
      const e = await evaluateTarget(t, profiles);
      expect(e.simulated).toBe(g.simulated);
      expect(withinTolerance(t, e), g.group.id).toBe(true);
      expect(Math.abs(e.relError), g.group.id).toBeLessThan(0.005); // the fit itself lands much closer than the 5% target
    }
  });

  it("changes only the selected groups, keeping each group's split of its starting values", () => {
    for (const g of a.groups) {
      if (!ONLY.includes(g.group.id)) {
        expect(g.status).toBe("pending");
        expect(g.reason).toMatch(/^(not selected|pending \(plugin .* not built\))$/);
        continue;
      }
      expect(g.scale!).toBeGreaterThanOrEqual(SCALE_BOUNDS[0]);
      expect(g.scale!).toBeLessThanOrEqual(SCALE_BOUNDS[1]);
      for (const [op, start] of Object.entries(g.group.start)) expect(g.values[op as keyof typeof g.values]).toBe(Math.round(start * g.scale!));
    }
  });

  it("keeps the starting values of a group whose figure is out of reach, and says what the rest of the model costs", () => {
    for (const g of a.groups.filter((x) => x.status === "unreachable")) {
      expect(g.scale).toBe(1);
      expect(g.values).toEqual(g.group.start);
      const [lo, hi] = g.reach!;
      const m = g.target.measured;
      expect(Math.sign(lo - m)).toBe(Math.sign(hi - m)); // no scale in the bounds crosses the figure
      expect(g.floor).toBeDefined();
      expect(g.reason).toMatch(/out of reach/);
    }
  });
});
