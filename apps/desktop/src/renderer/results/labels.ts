/** Human labels for runs: CPU, variant stack and sweep value; long for tables, short for chart axes. */
import type { CpuProfileFile, RunResult } from "../../common/contracts.js";
import { shortCpuLabel, shortStackLabel, smpSuffix, stackLabel } from "@siglab/core/figure";

export { clockLabel, shortCpuLabel, shortStackLabel, smpSuffix, stackLabel } from "@siglab/core/figure";

export function cpuLabel(cpu: { id: string; mhz: number; smp?: number }, profiles: CpuProfileFile[]): string {
  const p = profiles.find((x) => x.id === cpu.id);
  return `${p?.name ?? cpu.id} @ ${cpu.mhz} MHz${smpSuffix(cpu)}`;
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
