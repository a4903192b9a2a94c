// The calibration's rules (src/rules.ts): a fit may not hide a missing mechanism.
import { afterAll, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES, type CpuProfileFile } from "@siglab/cpu-profiles";
import type { RunResult } from "@siglab/core";
import { assumedCosts, bandViolations, closeCalibrationHost, FIT_GROUPS, getGroup, getTarget, inBand, removedWholesale, shippedGroupScales, type FitResult, type GroupFit } from "../src/index.js";

afterAll(closeCalibrationHost);

function fitWith(scales: Record<string, number>): FitResult {
  const groups: GroupFit[] = FIT_GROUPS.map((group) => ({ group, target: getTarget(group.target), status: "fitted", scale: scales[group.id] ?? 1, values: {}, evaluations: 0 }));
  return { groups, sweeps: 1, converged: true, values: {} };
}

describe("the calibration's rules", () => {
  it("band: a group beyond ×1.5 (or below ×1/1.5) of its sourced start is a missing mechanism", () => {
    expect([inBand(1.5), inBand(1 / 1.5), inBand(1.51), inBand(0.66)]).toEqual([true, true, false, false]);
    const v = bandViolations(fitWith({ "p4-cr3": 3.33, "p3-cli": 0.7 }));
    expect(v).toHaveLength(1);
    expect(v[0]).toMatch(/^p4-cr3 \(p4-northwood\): fitted at ×3\.330 .*missing mechanism/);
  });

  it("band: reads each group's shipped scale from the fitted profiles", () => {
    const scales = shippedGroupScales(BUILTIN_PROFILE_FILES);
    expect(scales.map((s) => s.id)).toEqual(FIT_GROUPS.map((g) => g.id));
    const g = getGroup("p3-syscall-gate");
    const p = BUILTIN_PROFILE_FILES.find((x) => x.id === g.profile)!;
    const want = (p.costs.int_gate.cycles + p.costs.iret_user.cycles) / (g.start.int_gate! + g.start.iret_user!);
    expect(scales.find((s) => s.id === g.id)!.scale).toBeCloseTo(want, 12);
  });

  it("assumed: names an executed cost whose source says it was assumed, and only executed ones", () => {
    const p = structuredClone(BUILTIN_PROFILE_FILES.find((x) => x.id === "p6-coppermine")!) as CpuProfileFile;
    p.costs.cli = { ...p.costs.cli, source: "No figure; assumed like the STI." };
    p.costs.sti = { ...p.costs.sti, source: "Assumed equal to cli." };
    const run = { cpu: { id: "p6-coppermine", mhz: 733 }, paths: [{ name: "ret_from_sys_call", count: 3, ops: [{ op: "cli", cycles: 9 }] }, { name: "never", count: 0, ops: [{ op: "sti", cycles: 17 }] }] } as unknown as RunResult;
    expect(assumedCosts([run], [p])).toEqual([`p6-coppermine/cli: "No figure; assumed like the STI.…"`]);
  });

  it("variant: SA_NOFP removes every op of a group made of the signal frame's FPU work, and the sysenter figure exempts the P4 gate", async () => {
    const files = [...BUILTIN_PROFILE_FILES];
    const fpu = await removedWholesale({ ...getGroup("p4-signal-fpu"), start: { fxsr_convert_reg: 40 } }, getTarget("p4-lat-sig-catch"), files);
    expect(fpu.some((v) => v.includes("sa-nofp removes every op"))).toBe(true);
    // the P4's int $0x80 gate: sysenter removes it, but a figure measures sysenter's effect on that loop
    expect(await removedWholesale(getGroup("p4-int80-gate"), getTarget("p4-int80-vs-sysenter/int80"), files)).toEqual([]);
  }, 60_000);
});
