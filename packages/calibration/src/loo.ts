/**
 * Leave-one-out: each calibration target predicted by a fit that did not see it. Every free
 * parameter is one group's scale, and each group is fitted to its own target, so a fit without a
 * target's measured value(s) leaves the groups fitted to them at their starting values (plan.ts
 * `start`, scale 1) while the other groups keep their fitted (shipped) values. The other groups
 * are not re-fitted: a group's target moves only slightly with another group's costs (the P4 gate
 * is in every P4 figure, but each target's own group was fitted last with the others held), so
 * the shipped values stand in for a re-fit without the left-out figure.
 *
 * The unit left out is a measured value: a target computed from several (p3-cli-saving is the
 * difference of the two getpid loops) is left out with all of them, and a value is left out of
 * every target computed from it. Targets whose values constrain no group (the qualitative FXSR
 * ratios, the NGPT ratio) were never fitted to: their leave-one-out error is the in-sample error.
 */
import { BUILTIN_PROFILE_SOURCES, type CpuProfileSource } from "@siglab/cpu-profiles";
import { candidateProfiles, type CostValues } from "./candidate.js";
import { evaluateTarget } from "./measure.js";
import { FIT_GROUPS, groupValues, type FitGroup } from "./plan.js";
import { getTarget, type Target } from "./targets.js";

/** The measured values a target is computed from (ids of value targets; itself for a value target). */
export function measuredValuesOf(t: Target): string[] {
  return t.from ?? [t.id];
}

/** The groups a fit without `t`'s measured values could not fit: they stay at their starting values. */
export function looGroups(t: Target, groups: readonly FitGroup[] = FIT_GROUPS): FitGroup[] {
  const left = new Set(measuredValuesOf(t));
  return groups.filter((g) => measuredValuesOf(getTarget(g.target)).some((v) => left.has(v)));
}

/** The costs of `t`'s leave-one-out fit, over the sources' (shipped) values: its groups at their starting values. */
export function looValues(t: Target, groups: readonly FitGroup[] = FIT_GROUPS): CostValues {
  const values: CostValues = {};
  for (const g of looGroups(t, groups)) values[g.profile] = { ...(values[g.profile] ?? {}), ...groupValues(g, 1) };
  return values;
}

export interface LooEval {
  /** the groups left at their starting values (empty: nothing was fitted to the target) */
  groups: string[];
  simulated: number;
  error: number;
  relError: number;
}

/**
 * Simulates `t` with the groups fitted to it at their starting values. `inSample` (the target's
 * simulated value on the sources as they are) is reused when no group is left out.
 */
export async function evaluateLoo(
  t: Target,
  o: { sources?: readonly CpuProfileSource[]; available?: readonly string[]; inSample?: number } = {},
): Promise<LooEval> {
  const groups = looGroups(t);
  if (!groups.length && o.inSample !== undefined) {
    const error = o.inSample - t.measured;
    return { groups: [], simulated: o.inSample, error, relError: error / t.measured };
  }
  const e = await evaluateTarget(t, candidateProfiles(o.sources ?? BUILTIN_PROFILE_SOURCES, looValues(t)), o.available);
  return { groups: groups.map((g) => g.id), simulated: e.simulated, error: e.error, relError: e.relError };
}

/** Free parameters and the independent measured values they are fitted to (the degrees of freedom). */
export function degreesOfFreedom(targets: readonly Target[], groups: readonly FitGroup[] = FIT_GROUPS): { parameters: number; values: number; constraining: number } {
  const values = new Set(targets.filter((t) => t.tolerance).flatMap(measuredValuesOf));
  const constraining = new Set(groups.flatMap((g) => measuredValuesOf(getTarget(g.target))));
  return { parameters: groups.length, values: values.size, constraining: constraining.size };
}
