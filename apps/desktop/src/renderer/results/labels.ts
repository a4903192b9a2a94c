/** Human labels for runs: CPU, variant stack and sweep value; long for tables, short for chart axes. */
import type { CpuProfileFile, RunResult, VariantSpec } from "../../common/contracts.js";

export function stackLabel(variants: VariantSpec[]): string {
  if (variants.length === 0) return "baseline";
  return variants
    .map((v) => {
      const opts = Object.entries(v.options ?? {}).map(([k, val]) => `${k}=${String(val)}`);
      return opts.length ? `${v.id}(${opts.join(",")})` : v.id;
    })
    .join(" + ");
}

/** The stack's plugin ids without their options ("sa-nofp", "ngpt + user-sigmask"). */
export function shortStackLabel(variants: VariantSpec[]): string {
  return variants.length === 0 ? "baseline" : variants.map((v) => v.id).join(" + ");
}

/** " ×2" for an SMP machine (cpu.smp CPUs), "" for one CPU; as core's bundle labels say it. */
export function smpSuffix(cpu: { smp?: number }): string {
  return cpu.smp && cpu.smp > 1 ? ` ×${cpu.smp}` : "";
}

export function cpuLabel(cpu: { id: string; mhz: number; smp?: number }, profiles: CpuProfileFile[]): string {
  const p = profiles.find((x) => x.id === cpu.id);
  return `${p?.name ?? cpu.id} @ ${cpu.mhz} MHz${smpSuffix(cpu)}`;
}

/** Short names of the shipped profiles, as people say them. */
const SHORT_CPU: Record<string, string> = {
  "p5-p54c": "Pentium",
  "p6-pentium-pro": "PPro",
  "p6-coppermine": "PIII",
  "p4-northwood": "P4",
  "k7-palomino": "Athlon XP",
  skylake: "Skylake",
  "skylake-x": "Skylake-X",
  zen4: "Zen 4",
  zen5: "Zen 5",
};

/** "2.2 GHz", "733 MHz" */
export function clockLabel(mhz: number): string {
  return mhz >= 1000 ? `${Number((mhz / 1000).toFixed(2))} GHz` : `${mhz} MHz`;
}

/** "P4 2.2 GHz" ("P4 2.2 GHz ×2" on SMP); a profile without a short name is named without vendor and parentheses. */
export function shortCpuLabel(cpu: { id: string; mhz: number; smp?: number }, profiles: CpuProfileFile[]): string {
  const name = profiles.find((x) => x.id === cpu.id)?.name;
  const short = SHORT_CPU[cpu.id] ?? (name ? name.replace(/^(Intel|AMD|VIA|Cyrix)\s+/i, "").replace(/\s*\([^)]*\)/g, "").trim() || cpu.id : cpu.id);
  return `${short.length > 18 ? `${short.slice(0, 17)}…` : short} ${clockLabel(cpu.mhz)}${smpSuffix(cpu)}`;
}

export function runLabel(r: RunResult, profiles: CpuProfileFile[], sweepParam?: string): string {
  const parts = [cpuLabel(r.cpu, profiles), stackLabel(r.variants)];
  if (sweepParam !== undefined) parts.push(`${sweepParam}=${String(r.params[sweepParam])}`);
  return parts.join(" · ");
}

/**
 * Short axis labels, one per run ("P4 2.2 GHz · sa-nofp"); runs whose short labels would be equal
 * (two user profiles with the same name, stacks that differ only in options) keep the long ones.
 */
export function shortRunLabels(results: RunResult[], profiles: CpuProfileFile[], sweepParam?: string): string[] {
  const short = results.map((r) => {
    const parts = [shortCpuLabel(r.cpu, profiles), shortStackLabel(r.variants)];
    if (sweepParam !== undefined) parts.push(`${sweepParam}=${String(r.params[sweepParam])}`);
    return parts.join(" · ");
  });
  const long = results.map((r) => runLabel(r, profiles, sweepParam));
  const owners = new Map<string, Set<string>>();
  short.forEach((s, i) => owners.set(s, (owners.get(s) ?? new Set()).add(long[i]!)));
  return short.map((s, i) => ((owners.get(s)?.size ?? 0) > 1 ? long[i]! : s));
}
