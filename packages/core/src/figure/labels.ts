/** Human labels for a CPU and a variant stack, short enough for a chart's legend and facets. */
import type { CpuRef, VariantSpec } from "../common/index.js";

/** "baseline", "sa-nofp(forceAll=true)", "ngpt + user-sigmask" */
export function stackLabel(variants: readonly VariantSpec[]): string {
  if (variants.length === 0) return "baseline";
  return variants
    .map((v) => {
      const opts = Object.entries(v.options ?? {}).map(([k, val]) => `${k}=${String(val)}`);
      return opts.length ? `${v.id}(${opts.join(",")})` : v.id;
    })
    .join(" + ");
}

/** The stack's plugin ids without their options ("sa-nofp", "ngpt + user-sigmask"). */
export function shortStackLabel(variants: readonly VariantSpec[]): string {
  return variants.length === 0 ? "baseline" : variants.map((v) => v.id).join(" + ");
}

/** " ×2" for an SMP machine (cpu.smp CPUs), "" for one CPU; as core's bundle labels say it. */
export function smpSuffix(cpu: { smp?: number }): string {
  return cpu.smp && cpu.smp > 1 ? ` ×${cpu.smp}` : "";
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
export function shortCpuLabel(cpu: CpuRef, profiles: readonly { id: string; name?: string }[] = []): string {
  const name = profiles.find((x) => x.id === cpu.id)?.name;
  const short = SHORT_CPU[cpu.id] ?? (name ? name.replace(/^(Intel|AMD|VIA|Cyrix)\s+/i, "").replace(/\s*\([^)]*\)/g, "").trim() || cpu.id : cpu.id);
  return `${short.length > 18 ? `${short.slice(0, 17)}…` : short} ${clockLabel(cpu.mhz)}${smpSuffix(cpu)}`;
}
