// Leave-one-out: each target predicted with the groups fitted to it at their starting values.
import { BUILTIN_FITTED_OVERLAYS, BUILTIN_HANDWRITTEN_SOURCES, BUILTIN_PROFILE_SOURCES, type OpClass } from "@siglab/cpu-profiles";
import { afterAll, describe, expect, it } from "vitest";
import {
  calibrationTargets,
  candidateProfiles,
  closeCalibrationHost,
  degreesOfFreedom,
  evaluateTarget,
  FIT_GROUPS,
  getGroup,
  getTarget,
  groupValues,
  looGroups,
  looValues,
  runCalibrationSuite,
} from "../src/index.js";

afterAll(closeCalibrationHost);

const ids = (id: string) => looGroups(getTarget(id)).map((g) => g.id);

describe("leave-one-out", () => {
  it("leaves out the groups fitted to a target's measured values, and none for targets nothing is fitted to", () => {
    expect(ids("p3-getpid-loop-cli")).toEqual(["p3-cli", "p3-syscall-gate"]); // 306 is in the cli saving too
    expect(ids("p3-getpid-loop-no-cli")).toEqual(["p3-cli"]);
    expect(ids("p3-cli-saving")).toEqual(["p3-cli", "p3-syscall-gate"]);
    expect(ids("p4-int80-vs-sysenter/int80")).toEqual(["p4-int80-gate"]);
    expect(ids("p4-int80-vs-sysenter/sysenter")).toEqual(["p4-sysenter"]);
    expect(ids("p4-lat-sig-catch")).toEqual(["p4-signal-fpu"]);
    expect(ids("p4-lat-ctx-2p-0k")).toEqual(["p4-cr3"]);
    for (const id of ["fxsr-signal-tripling/no-fp-save", "fxsr-signal-tripling/fsave-frames", "ngpt-vs-linuxthreads-yield"]) expect(ids(id)).toEqual([]);
    // every group is left out by its own target
    for (const g of FIT_GROUPS) expect(ids(g.target)).toContain(g.id);
  });

  it("counts the degrees of freedom: one free parameter per constraining measured value", () => {
    const d = degreesOfFreedom(calibrationTargets());
    expect(d.parameters).toBe(FIT_GROUPS.length);
    expect(d.constraining).toBe(6);
  });

  it("the starting values a LOO fit uses are the hand-written profiles' cycles, not the fitted overlay's", () => {
    for (const g of FIT_GROUPS) {
      const hand = BUILTIN_HANDWRITTEN_SOURCES.find((s) => s.id === g.profile)!;
      const overlay = BUILTIN_FITTED_OVERLAYS[g.profile]!;
      for (const op of Object.keys(g.start) as OpClass[]) {
        expect(looValues(getTarget(g.target))[g.profile]![op], `${g.id}/${op}`).toBe(hand.costs![op]!.cycles);
        expect(overlay.costs[op]!.start, `${g.id}/${op}`).toBe(hand.costs![op]!.cycles);
      }
    }
  });

  it("a LOO row's error is the target run with its group at the starting values, the rest as shipped", async () => {
    const t = getTarget("p4-lat-sig-catch");
    const [row] = await runCalibrationSuite({ loo: true, targets: [t] });
    const g = getGroup("p4-signal-fpu");
    const e = await evaluateTarget(t, candidateProfiles(BUILTIN_PROFILE_SOURCES, { [g.profile]: groupValues(g, 1) }));
    expect(row!.looGroups).toEqual(["p4-signal-fpu"]);
    expect(row!.looErrorPercent).toBeCloseTo(e.relError * 100, 10);
    expect(row!.looSimulated).toBe(e.simulated);
    expect(row!.relError).not.toBeCloseTo(row!.looErrorPercent! / 100, 3); // the group moved from its start
  });

  it("a target that constrains no fitted group reports its in-sample error as the LOO error", async () => {
    const [row] = await runCalibrationSuite({ loo: true, targets: [getTarget("fxsr-signal-tripling/fsave-frames")] });
    expect(row!.looGroups).toEqual([]);
    expect(row!.looErrorPercent).toBe(row!.relError! * 100);
    expect(row!.looNote).toMatch(/constrains no fitted group/);
  });

  it("without --loo the rows are as before", async () => {
    const [row] = await runCalibrationSuite({ targets: [getTarget("p4-int80-vs-sysenter/sysenter")] });
    expect(row).not.toHaveProperty("looErrorPercent");
  });
});
