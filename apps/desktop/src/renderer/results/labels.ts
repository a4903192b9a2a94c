/** Human labels for runs: CPU, variant stack and sweep value. */
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

export function cpuLabel(cpu: { id: string; mhz: number }, profiles: CpuProfileFile[]): string {
  const p = profiles.find((x) => x.id === cpu.id);
  return `${p?.name ?? cpu.id} @ ${cpu.mhz} MHz`;
}

export function runLabel(r: RunResult, profiles: CpuProfileFile[], sweepParam?: string): string {
  const parts = [cpuLabel(r.cpu, profiles), stackLabel(r.variants)];
  if (sweepParam !== undefined) parts.push(`${sweepParam}=${String(r.params[sweepParam])}`);
  return parts.join(" · ");
}
