/**
 * The calibration procedure. Free parameters: one scale per fit group (plan.ts). Coordinate-wise:
 * each sweep solves every group's scale in turn (solve.ts) with the others held, until a sweep
 * changes no rounded cost. Groups whose target needs a plugin that is not built are pending and
 * keep the values in the files. Deterministic: the same profiles, figures, workloads and plugins
 * give the same fit. Every evaluation is a run in the execution host (env.ts), one at a time.
 */
import { BUILTIN_PROFILE_SOURCES, type CpuProfileSource, type OpClass } from "@siglab/cpu-profiles";
import { candidateProfiles, type CostValues } from "./candidate.js";
import { builtinPluginIds } from "./env.js";
import { evaluateTarget, type TargetEval } from "./measure.js";
import { FIT_GROUPS, groupValues, SCALE_BOUNDS, type FitGroup } from "./plan.js";
import { pendingReason } from "./plugins.js";
import { solveScale } from "./solve.js";
import { getTarget, type Target } from "./targets.js";
import { validatePlan } from "./validate.js";

export type GroupStatus = "fitted" | "unreachable" | "pending";

export interface GroupFit {
  group: FitGroup;
  target: Target;
  status: GroupStatus;
  /** the scale applied to the starting values (1 when unreachable; undefined when pending) */
  scale?: number;
  /** the costs the fit settles on (the files' values when pending) */
  values: Partial<Record<OpClass, number>>;
  /** the target simulated with the final costs of every group (undefined when pending) */
  simulated?: number;
  /** the figure at the scale bounds, when it is out of reach */
  reach?: [number, number];
  /** the figure with the group's ops at 0 cycles, when it is out of reach: what the rest of the model costs */
  floor?: number;
  reason?: string;
  evaluations: number;
}

export interface FitResult {
  groups: GroupFit[];
  sweeps: number;
  converged: boolean;
  /** every fitted group's costs, by profile */
  values: CostValues;
}

export interface FitOptions {
  sources?: readonly CpuProfileSource[];
  /** plugin ids treated as built (default: the built-in plugins, which the sandbox always has); groups whose target needs another are pending */
  available?: readonly string[];
  /** fit only these groups (the others keep the files' values); default all */
  only?: readonly string[];
  maxSweeps?: number;
  log?: (line: string) => void;
}

function currentValues(sources: readonly CpuProfileSource[], g: FitGroup): Partial<Record<OpClass, number>> {
  const src = sources.find((s) => s.id === g.profile)!;
  const out: Partial<Record<OpClass, number>> = {};
  for (const op of Object.keys(g.start) as OpClass[]) out[op] = src.costs![op]!.cycles;
  return out;
}

function setGroup(values: CostValues, g: FitGroup, v: Partial<Record<OpClass, number>>): void {
  values[g.profile] = { ...(values[g.profile] ?? {}), ...v };
}

const keyOf = (v: Partial<Record<OpClass, number>>) => JSON.stringify(v);

export async function fit(o: FitOptions = {}): Promise<FitResult> {
  const sources = o.sources ?? BUILTIN_PROFILE_SOURCES;
  const available = o.available ?? builtinPluginIds();
  const log = o.log ?? (() => {});
  validatePlan(sources);

  const values: CostValues = {};
  const state = FIT_GROUPS.map((group) => {
    const target = getTarget(group.target);
    const reason = pendingReason(target.requires, available) ?? (o.only && !o.only.includes(group.id) ? "not selected" : undefined);
    const fitState: GroupFit = { group, target, status: reason ? "pending" : "fitted", values: currentValues(sources, group), evaluations: 0 };
    if (reason) fitState.reason = reason;
    else {
      fitState.scale = 1;
      fitState.values = groupValues(group, 1);
    }
    setGroup(values, group, fitState.values);
    return fitState;
  });

  const maxSweeps = o.maxSweeps ?? 8;
  let sweeps = 0;
  let converged = false;
  while (!converged && sweeps < maxSweeps) {
    sweeps++;
    const before = JSON.stringify(values);
    for (const st of state) {
      if (st.status === "pending") continue;
      const g = st.group;
      const tol = 1e-4 * Math.abs(st.target.measured);
      const r = await solveScale(
        (s) => {
          st.evaluations++;
          const trial = structuredClone(values);
          setGroup(trial, g, groupValues(g, s));
          return evaluateTarget(st.target, candidateProfiles(sources, trial), available).then((e) => e.error);
        },
        { lo: SCALE_BOUNDS[0], hi: SCALE_BOUNDS[1], tolerance: tol, key: (s) => keyOf(groupValues(g, s)) },
      );
      if (r.status === "unreachable") {
        const m = st.target.measured;
        st.status = "unreachable";
        st.scale = 1;
        st.reach = [m + r.lo.f, m + r.hi.f];
        st.reason = `out of reach: ×${SCALE_BOUNDS[0]}..×${SCALE_BOUNDS[1]} of the starting values gives ${fmt(st.reach[0])}..${fmt(st.reach[1])} ${st.target.unit}, the figure is ${fmt(m)}`;
      } else {
        st.status = "fitted";
        st.scale = r.best.s;
        delete st.reach;
        delete st.reason;
      }
      st.values = groupValues(g, st.scale);
      setGroup(values, g, st.values);
      log(`sweep ${sweeps}: ${g.id} ${st.status} ×${st.scale.toFixed(4)} -> ${keyOf(st.values)}`);
    }
    converged = JSON.stringify(values) === before;
  }

  // the final figures, every group at its final costs
  const profiles = candidateProfiles(sources, values);
  for (const st of state) {
    if (st.status === "pending") continue;
    st.simulated = (await evaluateTarget(st.target, profiles, available)).simulated;
    if (st.status === "unreachable") {
      const zero = structuredClone(values);
      setGroup(zero, st.group, groupValues(st.group, 0));
      st.floor = (await evaluateTarget(st.target, candidateProfiles(sources, zero), available)).simulated;
    }
  }
  return { groups: state, sweeps, converged, values };
}

export function fmt(n: number): string {
  const a = Math.abs(n);
  return a >= 100 ? n.toFixed(1) : a >= 1 ? n.toFixed(3) : n.toPrecision(4);
}

/** The final evaluation of one target on the fitted profiles (for reports). */
export function evaluateFitted(t: Target, r: FitResult, o: FitOptions = {}): Promise<TargetEval> {
  return evaluateTarget(t, candidateProfiles(o.sources ?? BUILTIN_PROFILE_SOURCES, r.values), o.available);
}
