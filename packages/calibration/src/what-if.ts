/**
 * What-if profiles the calibration checks need: the P4 with FXSR switched off, so 2.4 saves the
 * 108-byte fnsave frame (the kernel before SSE state went into signal frames) on the same CPU.
 * Built from the candidate P4 profile, so it follows every fitted value.
 */
import { checkResolvedProfile, type CostEntry, type CpuProfileFile } from "@siglab/cpu-profiles";
import { P4_FSAVE_FRAMES } from "./targets.js";

const WHY = "what-if for the fxsr-signal-tripling check: FXSR off, so signal frames hold the fnsave image";

function off(): CostEntry {
  return { cycles: 0, kind: "derived", source: WHY, unavailable: true };
}

export function fsaveFramesProfile(p4: CpuProfileFile): CpuProfileFile {
  const copy = structuredClone(p4) as CpuProfileFile & { inheritedFrom?: unknown };
  delete copy.inheritedFrom;
  const out: CpuProfileFile = {
    ...copy,
    id: P4_FSAVE_FRAMES,
    name: `${p4.name}, FXSR off (what-if)`,
    features: { ...copy.features, fxsr: false, sse: false, sse2: false },
    geometry: {
      ...copy.geometry,
      xsaveBytes: { value: 108, kind: "derived", source: WHY },
      xmmRegs: { value: 0, kind: "derived", source: WHY },
    },
    costs: { ...copy.costs, fxsave: off(), fxrstor: off(), fxsr_convert_reg: off(), sse_memcpy_line: off() },
  };
  return checkResolvedProfile(out, `${P4_FSAVE_FRAMES} (what-if profile)`);
}

/** The what-if profiles derived from a set of resolved profiles. */
export function whatIfProfiles(profiles: readonly CpuProfileFile[]): CpuProfileFile[] {
  const p4 = profiles.find((p) => p.id === "p4-northwood");
  return p4 ? [fsaveFramesProfile(p4)] : [];
}
