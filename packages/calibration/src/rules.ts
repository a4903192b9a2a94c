/**
 * What a calibration may not do (issue 29): hide a missing mechanism in a fitted constant.
 *
 * 1. A fitted group may move its sourced starting values by at most ×1.5 either way
 *    (SCALE_BAND). A group that needs more is carrying work the model's paths lack.
 * 2. No group may consist of ops that a shipped variant removes wholesale from the group's own
 *    target workload (costs defined relative to the group's ops count as the group's): the
 *    variant's predicted effect would then be an artefact of the fit. Unless a quantitative
 *    figure measures that variant's effect on that workload and CPU (the P4's int $0x80 and
 *    SYSENTER are both measured): then the effect is the difference of two measured values.
 * 3. No cost marked as assumed may sit on a path a calibration figure or a variant's predicted
 *    effect (the predictions suite's variant rows) depends on: source it, or drop it with its reason.
 * `calibrate --check` fails on any of them; `suite calibration` prints them.
 */
import type { RunResult } from "@siglab/core";
import type { CpuProfileFile, OpClass } from "@siglab/cpu-profiles";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { exampleParams, runExample, type RunRequest } from "./env.js";
import type { FitResult, GroupFit } from "./fit.js";
import { withWhatIfs } from "./measure.js";
import { FIT_GROUPS, type FitGroup } from "./plan.js";
import { executedOps, predictionSpecs } from "./predictions.js";
import { calibrationTargets, type Target } from "./targets.js";

/** The band a fitted scale must stay in: [1/1.5, 1.5] of the sourced starting values. */
export const SCALE_BAND: readonly [number, number] = [1 / 1.5, 1.5];

export function inBand(scale: number): boolean {
  return scale >= SCALE_BAND[0] - 1e-9 && scale <= SCALE_BAND[1] + 1e-9;
}

/** Rule 1: the fitted groups whose scale left the band. */
export function bandViolations(fit: FitResult): string[] {
  return fit.groups
    .filter((g) => g.status === "fitted" && g.scale !== undefined && !inBand(g.scale))
    .map((g) => `${g.group.id} (${g.group.profile}): fitted at ×${g.scale!.toFixed(3)} of its sourced starting values, beyond ×${SCALE_BAND[0].toFixed(2)}–×${SCALE_BAND[1]}: the group is carrying work the model's paths lack (a missing mechanism)`);
}

/** Rule 3: executed costs of a run whose source says the number was assumed. */
export function assumedCosts(results: readonly RunResult[], profiles: readonly CpuProfileFile[]): string[] {
  const out = new Set<string>();
  for (const r of results) {
    const p = profiles.find((x) => x.id === r.cpu.id);
    if (!p) continue;
    for (const op of executedOps(r)) {
      const e = p.costs[op as OpClass];
      if (e && /\bassum(e|ed|ing|ption)\b/i.test(e.source)) out.add(`${p.id}/${op}: "${e.source.slice(0, 100)}…"`);
    }
  }
  return [...out].sort();
}

/** A run's cycles per op class (from its per-path, per-op statistics). */
export function opCyclesOf(r: RunResult): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of r.paths) for (const o of p.ops) if (p.count > 0) m.set(o.op, (m.get(o.op) ?? 0) + o.cycles * p.count);
  return m;
}

/**
 * Rule 2 for one group: runs the target's first run with each shipped plugin added (one at a time,
 * those that accept the run's CPU) and reports the plugins under which none of the group's ops is
 * executed although the baseline executes them. A plugin the target itself runs is the figure's
 * own subject (the group is fitted to its measured effect) and is not counted.
 */
export async function removedWholesale(g: FitGroup, t: Target, profiles: CpuProfileFile[], available?: readonly string[], targets: readonly Target[] = calibrationTargets()): Promise<string[]> {
  const run = t.runs[0]!;
  const all = withWhatIfs(profiles);
  const ops = Object.keys(g.start);
  const profile = all.find((p) => p.id === run.cpu);
  const base = await runExample(run, all, available);
  const baseOps = reachedOps(base, profile);
  if (!ops.some((o) => baseOps.has(o))) return [];
  // the variants whose effect on this workload and CPU a quantitative figure measures: there the
  // effect is the difference of two measured values, whatever the groups' split
  const measured = (id: string) => targets.some((x) => x.tolerance && x.runs.some((m) => m.workload === run.workload && m.cpu === run.cpu && (m.variants ?? []).some((v) => v.id === id)));
  const own = new Set(t.runs.flatMap((m) => (m.variants ?? []).map((v) => v.id)));
  const out: string[] = [];
  for (const plugin of BUILTIN_PLUGINS) {
    const id = plugin.manifest.id;
    if (own.has(id) || measured(id) || (available && !available.includes(id))) continue;
    const variants = [...(run.variants ?? []), ...variantsFor(id)];
    // a plugin that refuses this CPU or workload (or needs another in its stack) is no variant of this figure
    const r = await runExample({ ...run, variants }, all, available).catch(() => null);
    if (!r) continue;
    const ran = reachedOps(r, profile);
    if (!ops.some((o) => ran.has(o))) out.push(`${g.id} (${ops.join(", ")}): ${id} removes every op of the group from ${run.workload} on ${run.cpu}@${run.mhz}, so its predicted effect would come from the fit`);
  }
  return out;
}

/**
 * The ops whose cost a run depends on: those it executed and those their costs are defined
 * relative to (the P6's sysenter follows int_gate: fitting the gate moves it too).
 */
function reachedOps(r: RunResult, profile: CpuProfileFile | undefined): Set<string> {
  const out = new Set<string>();
  for (const executed of executedOps(r)) {
    for (let op: string | undefined = executed; op !== undefined && !out.has(op); op = profile?.costs[op as OpClass]?.relativeTo?.op) out.add(op);
  }
  return out;
}

/** How a plugin is stacked to exercise its mechanism: with the option that applies it everywhere. */
function variantsFor(id: string): { id: string; options?: Record<string, boolean> }[] {
  // sa-nofp's handlers must ask for SA_NOFP unless forceAll: the shipped examples do not
  return id === "sa-nofp" ? [{ id, options: { forceAll: true } }] : [{ id }];
}

export interface RuleReport {
  band: string[];
  wholesale: string[];
  assumed: string[];
}

/** Every rule over a fit (its groups and targets) on given profiles. */
export async function checkRules(fit: FitResult, profiles: CpuProfileFile[], available?: readonly string[]): Promise<RuleReport> {
  const wholesale: string[] = [];
  const results: RunResult[] = [];
  const all = withWhatIfs(profiles);
  const seen = new Set<GroupFit["target"]>();
  for (const g of fit.groups) {
    if (g.status === "pending") continue;
    wholesale.push(...(await removedWholesale(g.group, g.target, profiles, available)));
    if (seen.has(g.target)) continue;
    seen.add(g.target);
    for (const m of g.target.runs) results.push(await runExample(m, all, available));
  }
  results.push(...(await variantEffectRuns(all, available)));
  return { band: bandViolations(fit), wholesale, assumed: assumedCosts(results, all) };
}

/** The predictions suite's variant comparisons (each with its baseline), short: what their ops are. */
async function variantEffectRuns(profiles: CpuProfileFile[], available?: readonly string[]): Promise<RunResult[]> {
  const out: RunResult[] = [];
  for (const s of await predictionSpecs()) {
    if (!s.variants.length || (available && s.variants.some((v) => !available.includes(v.id)))) continue;
    const params = { ...(s.params ?? {}) };
    if ("iterations" in (await exampleParams(s.workload))) params["iterations"] = 200;
    const req: RunRequest = { workload: s.workload, cpu: s.cpu, mhz: s.mhz, variants: s.variants, params };
    if (s.smp && s.smp > 1) req.smp = s.smp;
    out.push(await runExample(req, profiles, available), await runExample({ ...req, variants: [] }, profiles, available));
  }
  return out;
}

export function ruleViolations(r: RuleReport): string[] {
  return [...r.band.map((x) => `band: ${x}`), ...r.wholesale.map((x) => `variant: ${x}`), ...r.assumed.map((x) => `assumed: ${x}`)];
}

/** The leave-one-out error every calibration figure must stay within (percent of the measured value). */
export const LOO_LIMIT_PERCENT = 25;

export interface GroupScale {
  id: string;
  profile: string;
  /** the shipped (fitted) costs over the starting values, summed over the group's ops */
  scale: number;
  inBand: boolean;
}

/** The scale each fit group ships with: its ops' costs in the (fitted) profiles over their starting values. */
export function shippedGroupScales(profiles: readonly CpuProfileFile[], groups: readonly FitGroup[] = FIT_GROUPS): GroupScale[] {
  return groups.map((g) => {
    const p = profiles.find((x) => x.id === g.profile);
    let now = 0, start = 0;
    for (const [op, s] of Object.entries(g.start) as [OpClass, number][]) {
      start += s;
      now += p?.costs[op]?.cycles ?? Number.NaN;
    }
    const scale = now / start;
    return { id: g.id, profile: g.profile, scale, inBand: inBand(scale) };
  });
}
