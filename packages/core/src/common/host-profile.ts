/**
 * The CPU profile of the machine a probe measured (`siglab probe --json`'s host.vendor,
 * host.cpuid): the same vendor, family and model (CPUID); else the same vendor and family, the
 * nearest model; else the vendor's newest. Common code (no DOM, no Node): `siglab suite host`,
 * `calibrate --from-probe` and the app's "your machine" panel pick the same profile.
 */
import type { CpuProfileFile } from "@siglab/cpu-profiles";

/** What the probe says about the host's CPU. */
export interface HostCpu {
  vendor?: string | null;
  cpuid?: { family: number; model: number } | null;
  cpuModel?: string | null;
}

export interface ProfileMatch {
  profile: CpuProfileFile;
  /** how it was chosen, one line */
  how: string;
}

/** Whether a profile has long mode (x86-64): the CPUs the linux-6 preset runs on. */
export const longMode = (p: CpuProfileFile): boolean => p.features.lm === true;

/**
 * `longModeOnly`: only x86-64 profiles are candidates (for the linux-6 preset, which runs on no
 * other), so an Intel family-6 CPU is never matched to the Pentium III, also family 6. CPUID
 * family numbers are not in date order (the P4 is 15), so "newest" prefers x86-64 profiles, then
 * the higher family and model. Null when no candidate of the vendor exists.
 */
export function matchHostProfile(host: HostCpu, profiles: readonly CpuProfileFile[], opts: { longModeOnly?: boolean } = {}): ProfileMatch | null {
  const vendor = host.vendor ?? "";
  const kind = opts.longModeOnly ? "x86-64 profile" : "profile";
  const same = profiles.filter((p) => p.vendor === vendor && !p.abstract && !p.id.startsWith("_") && (!opts.longModeOnly || longMode(p)));
  if (!same.length) return null;
  const name = host.cpuModel ?? vendor;
  const id = host.cpuid;
  if (id) {
    const exact = same.find((p) => p.cpuid?.family === id.family && p.cpuid?.model === id.model);
    if (exact) return { profile: exact, how: `CPUID family ${id.family} model ${id.model} (${name})` };
    const fam = same.filter((p) => p.cpuid?.family === id.family);
    if (fam.length) {
      const near = [...fam].sort((a, b) => Math.abs((a.cpuid?.model ?? id.model) - id.model) - Math.abs((b.cpuid?.model ?? id.model) - id.model))[0]!;
      return { profile: near, how: `CPUID family ${id.family} (${name}); no ${kind} of model ${id.model}: the nearest of the family` };
    }
  }
  const lm = (p: CpuProfileFile) => (longMode(p) ? 1 : 0);
  const newest = [...same].sort((a, b) => lm(b) - lm(a) || (b.cpuid?.family ?? 0) - (a.cpuid?.family ?? 0) || (b.cpuid?.model ?? 0) - (a.cpuid?.model ?? 0))[0]!;
  return { profile: newest, how: `no ${kind} of this CPU's family (${name}): ${vendor}'s newest ${kind}` };
}
