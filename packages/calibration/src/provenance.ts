/**
 * What a fit writes: the new text of each profile file (only `cycles` and `source` of the fitted
 * entries change; layout and order are the shipped serializeProfile layout) and the provenance
 * report. Pure: the node side (node.ts) reads and writes the files.
 */
import { BUILTIN_PROFILE_SOURCES, resolveInheritance, serializeProfile, type CostEntry, type CpuProfileSource, type OpClass } from "@siglab/cpu-profiles";
import { fmt, type FitResult, type GroupFit } from "./fit.js";
import { isLargeCorrection, SCALE_BOUNDS } from "./plan.js";
import type { SuiteRow } from "./suite.js";

const MARK = /\s*(?:Not fitted|Fitted) by siglab calibrate\b[\s\S]*$/;

/** The entry's reasoning without a previous calibration note. */
export function baseSource(source: string): string {
  return source.replace(MARK, "");
}

function unitText(u: string): string {
  return u === "ratio" ? "" : ` ${u}`;
}

export function sourceNote(gf: GroupFit, op: OpClass): string | undefined {
  const t = gf.target;
  const figs = `${t.figures.join(", ")}${t.id.includes("/") ? ` (${t.id.split("/")[1]})` : ""}`;
  const start = gf.group.start[op];
  if (gf.status === "fitted") {
    return `Fitted by siglab calibrate to ${figs}: target ${fmt(t.measured)}${unitText(t.unit)}, simulated ${fmt(gf.simulated!)}${unitText(t.unit)} (group '${gf.group.id}', ×${gf.scale!.toFixed(4)} of the starting value ${start}).`;
  }
  if (gf.status === "unreachable") {
    return `Not fitted by siglab calibrate: ${figs} is out of reach of group '${gf.group.id}' (×${SCALE_BOUNDS[0]}..×${SCALE_BOUNDS[1]} of the starting values gives ${fmt(gf.reach![0])}..${fmt(gf.reach![1])}${unitText(t.unit)}, the figure is ${fmt(t.measured)}): the starting value ${start} is kept.`;
  }
  return undefined; // pending: the entry is left as it is
}

/**
 * The profile source with this fit's values and notes applied to its fitted entries. The entries
 * defined relative to another op show the value the loader computes (the loader recomputes them
 * anyway; the file must not show a stale number), resolved against `base` (the other profiles).
 */
export function applyFitToSource(src: CpuProfileSource, r: FitResult, base: readonly CpuProfileSource[] = BUILTIN_PROFILE_SOURCES): CpuProfileSource {
  const out = structuredClone(src);
  let changed = false;
  for (const gf of r.groups) {
    if (gf.group.profile !== src.id || gf.status === "pending") continue;
    for (const op of Object.keys(gf.group.start) as OpClass[]) {
      const e = out.costs![op] as CostEntry;
      e.cycles = gf.values[op]!;
      e.source = `${baseSource(e.source)} ${sourceNote(gf, op)!}`;
      changed = true;
    }
  }
  if (!changed || out.abstract) return out;
  const [resolved] = resolveInheritance([out], { base: base.filter((b) => b.id !== src.id) });
  for (const [op, e] of Object.entries(out.costs ?? {}) as [OpClass, CostEntry][]) {
    if (e.relativeTo) e.cycles = resolved!.costs[op].cycles;
  }
  return out;
}

/** New text of a profile file, from its current text. */
export function applyFitToText(text: string, file: string, r: FitResult): string {
  let src: CpuProfileSource;
  try {
    src = JSON.parse(text) as CpuProfileSource;
  } catch (e) {
    throw new Error(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  return serializeProfile(applyFitToSource(src, r));
}

export interface CalibrationReport {
  about: string;
  figures: string;
  scaleBounds: readonly [number, number];
  sweeps: number;
  converged: boolean;
  groups: {
    id: string;
    profile: string;
    target: string;
    figures: string[];
    status: string;
    scale: number | null;
    start: Partial<Record<OpClass, number>>;
    values: Partial<Record<OpClass, number>>;
    measured: number;
    simulated: number | null;
    unit: string;
    reach?: [number, number];
    floor?: number;
    reason?: string;
    warning?: string;
    why: string;
  }[];
  targets: SuiteRow[];
}

const round = (n: number) => Number(n.toPrecision(6));

export function buildReport(r: FitResult, rows: SuiteRow[]): CalibrationReport {
  return {
    about: "Written by `pnpm siglab calibrate` (packages/calibration); do not edit. The free parameters, what each was fitted to, and every calibration target simulated with the fitted costs.",
    figures: "packages/cpu-profiles/calibration/figures.json",
    scaleBounds: SCALE_BOUNDS,
    sweeps: r.sweeps,
    converged: r.converged,
    groups: r.groups.map((g) => ({
      id: g.group.id,
      profile: g.group.profile,
      target: g.target.id,
      figures: g.target.figures,
      status: g.status,
      scale: g.scale === undefined ? null : round(g.scale),
      start: g.group.start,
      values: g.values,
      measured: g.target.measured,
      simulated: g.simulated === undefined ? null : round(g.simulated),
      unit: g.target.unit,
      ...(g.reach ? { reach: g.reach.map(round) as [number, number] } : {}),
      ...(g.floor !== undefined ? { floor: round(g.floor) } : {}),
      ...(g.reason ? { reason: g.reason } : {}),
      ...(g.status === "fitted" && isLargeCorrection(g.scale) ? { warning: "large correction of the starting values: the fitted ops probably absorb work the model's paths lack" } : {}),
      why: g.group.why,
    })),
    targets: rows.map((x) => ({
      ...x,
      simulated: x.simulated === null ? null : round(x.simulated),
      error: x.error === null ? null : round(x.error),
      relError: x.relError === null ? null : round(x.relError),
    })),
  };
}

export function serializeReport(rep: CalibrationReport): string {
  return `${JSON.stringify(rep, null, 2)}\n`;
}
