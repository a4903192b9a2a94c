import { afterAll, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { closeCalibrationHost, fsaveFramesProfile, runExample } from "../src/index.js";

afterAll(closeCalibrationHost);

describe("the fsave-frames what-if P4", () => {
  const p4 = BUILTIN_PROFILE_FILES.find((p) => p.id === "p4-northwood")!;
  const nofx = fsaveFramesProfile(p4);

  it("is the same P4 with FXSR off: fnsave frames, every other cost unchanged", () => {
    expect(nofx.features.fxsr).toBe(false);
    expect(nofx.geometry.xsaveBytes.value).toBe(108);
    expect(nofx.costs.fxsave.unavailable).toBe(true);
    for (const op of ["int_gate", "fsave", "frstor", "write_cr0", "mov_cr3"] as const) expect(nofx.costs[op].cycles).toBe(p4.costs[op].cycles);
  });

  it("makes signal delivery save the fnsave image", async () => {
    const r = await runExample({ workload: "lat_sig_catch", cpu: nofx.id, mhz: 2200, params: { iterations: 50 } }, [...BUILTIN_PROFILE_FILES, nofx]);
    const ran = (name: string) => r.paths.some((p) => p.name === name && p.count > 0);
    expect(ran("save_i387_fsave")).toBe(true);
    expect(ran("unlazy_fpu.fxsave")).toBe(false);
  });
});
