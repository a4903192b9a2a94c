/**
 * The plan must match the profile files: every `kind: "fitted"` entry belongs to exactly one fit
 * group of its own profile, and the group's target uses a figure the entry names in `fittedTo`.
 */
import type { CpuProfileSource, OpClass } from "@siglab/cpu-profiles";
import { FIT_GROUPS, type FitGroup } from "./plan.js";
import { calibrationTargets } from "./targets.js";

export class PlanError extends Error {}

const fileOf = (id: string) => `packages/cpu-profiles/profiles/${id}.json`;

export function validatePlan(sources: readonly CpuProfileSource[], groups: readonly FitGroup[] = FIT_GROUPS): void {
  const problems: string[] = [];
  const targets = calibrationTargets();
  const seen = new Map<string, string>(); // "profile/op" -> group id
  for (const g of groups) {
    const t = targets.find((x) => x.id === g.target);
    if (!t) problems.push(`packages/calibration/src/plan.ts: group '${g.id}' targets unknown target '${g.target}'`);
    const src = sources.find((s) => s.id === g.profile);
    if (!src) {
      problems.push(`packages/calibration/src/plan.ts: group '${g.id}' names unknown profile '${g.profile}'`);
      continue;
    }
    for (const op of Object.keys(g.start) as OpClass[]) {
      const key = `${g.profile}/${op}`;
      if (seen.has(key)) problems.push(`packages/calibration/src/plan.ts: ${key} is in groups '${seen.get(key)}' and '${g.id}'`);
      seen.set(key, g.id);
      const e = src.costs?.[op];
      if (!e) {
        problems.push(`${fileOf(g.profile)}: /costs/${op}: group '${g.id}' fits it, but the file does not define it`);
        continue;
      }
      if (e.kind !== "fitted") problems.push(`${fileOf(g.profile)}: /costs/${op}: group '${g.id}' fits it, but its kind is "${e.kind}", not "fitted"`);
      else if (t && !t.figures.some((f) => e.fittedTo?.includes(f))) {
        problems.push(`${fileOf(g.profile)}: /costs/${op}: fittedTo [${(e.fittedTo ?? []).join(", ")}] does not name the figure of group '${g.id}' (${t.figures.join(", ")})`);
      }
    }
  }
  for (const src of sources) {
    for (const [op, e] of Object.entries(src.costs ?? {})) {
      if (e?.kind === "fitted" && !seen.has(`${src.id}/${op}`)) {
        problems.push(`${fileOf(src.id)}: /costs/${op}: fitted to [${(e.fittedTo ?? []).join(", ")}], but no fit group in packages/calibration/src/plan.ts covers it`);
      }
    }
  }
  if (problems.length) throw new PlanError(`calibration plan does not match the profiles:\n  ${problems.join("\n  ")}`);
}
