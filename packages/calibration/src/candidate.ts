/** Candidate profiles: the profile sources with some fitted costs replaced, inheritance resolved. */
import { resolveInheritance, type CpuProfileFile, type CpuProfileSource, type OpClass } from "@siglab/cpu-profiles";

/** profile id -> op -> cycles */
export type CostValues = Record<string, Partial<Record<OpClass, number>>>;

export function withCosts(sources: readonly CpuProfileSource[], values: CostValues): CpuProfileSource[] {
  return sources.map((src) => {
    const v = values[src.id];
    if (!v || !Object.keys(v).length) return src;
    const costs = { ...(src.costs ?? {}) } as NonNullable<CpuProfileSource["costs"]>;
    for (const [op, cycles] of Object.entries(v) as [OpClass, number][]) {
      const e = costs[op];
      if (!e) throw new Error(`${src.id}.json: /costs/${op}: no such entry to set`);
      costs[op] = { ...e, cycles };
    }
    return { ...src, costs };
  });
}

/** Resolved runnable profiles (relative estimates recomputed from the new values). */
export function candidateProfiles(sources: readonly CpuProfileSource[], values: CostValues): CpuProfileFile[] {
  return resolveInheritance(withCosts(sources, values));
}
