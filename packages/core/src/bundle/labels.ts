/** Short text forms of variants and params, shared by the summary, CSV and trace exports. */
import type { ParamValue, VariantSpec } from "../common/index.js";

/** "k=v,k2=v2" in key order (stable whatever order the options were written in). */
export function formatParams(params: Record<string, ParamValue> | undefined, sep = ","): string {
  if (!params) return "";
  return Object.keys(params)
    .sort()
    .map((k) => `${k}=${String(params[k])}`)
    .join(sep);
}

/** "sa-nofp:force=true;sysenter" — variants in stack order, options after a colon. */
export function formatVariants(variants: VariantSpec[]): string {
  return variants
    .map((v) => {
      const opts = formatParams(v.options);
      return opts ? `${v.id}:${opts}` : v.id;
    })
    .join(";");
}

/** "p4-northwood@2200 [sa-nofp]" */
export function runLabel(r: { cpu: { id: string; mhz: number }; variants: VariantSpec[] }): string {
  const v = formatVariants(r.variants);
  return `${cpuLabel(r.cpu)} [${v || "baseline"}]`;
}

/** "id@MHz", with "×N" for an SMP machine. */
export function cpuLabel(cpu: { id: string; mhz: number; smp?: number }): string {
  return `${cpu.id}@${cpu.mhz}${cpu.smp && cpu.smp > 1 ? ` ×${cpu.smp}` : ""}`;
}
