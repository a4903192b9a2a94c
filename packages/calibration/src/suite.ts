/**
 * The calibration suite: every calibration target simulated on given profiles (the shipped ones
 * by default), measured vs simulated, the error and whether the target is met.
 */
import { BUILTIN_PROFILE_FILES, BUILTIN_PROFILE_SOURCES, type CpuProfileFile, type CpuProfileSource } from "@siglab/cpu-profiles";
import { builtinPluginIds, variantLabel } from "./env.js";
import { evaluateLoo } from "./loo.js";
import { evaluateTarget, toleranceText, withinTolerance } from "./measure.js";
import { pendingReason } from "./plugins.js";
import { calibrationTargets, type Target } from "./targets.js";

export type RowStatus = "pass" | "miss" | "info" | "pending";

export interface SuiteRow {
  id: string;
  figures: string[];
  label: string;
  /** "id@MHz" of each run, with its variant stack */
  runs: string[];
  unit: string;
  measured: number;
  simulated: number | null;
  error: number | null;
  relError: number | null;
  tolerance: string;
  status: RowStatus;
  note?: string;
  /**
   * With `loo`: the signed error (percent of the measured value) of the target simulated by a fit
   * that left it out (loo.ts): the groups fitted to it at their starting values, the others as
   * shipped. null when pending.
   */
  looErrorPercent?: number | null;
  /** With `loo`: the simulated value of that leave-one-out fit */
  looSimulated?: number | null;
  /** With `loo`: the groups left at their starting values; empty when nothing was fitted to the target */
  looGroups?: string[];
  /** With `loo`: how the leave-one-out value was obtained */
  looNote?: string;
}

export interface SuiteOptions {
  profiles?: CpuProfileFile[];
  /** plugin ids treated as built (default: the built-in plugins, which the sandbox always has); targets needing another are pending */
  available?: readonly string[];
  targets?: Target[];
  /**
   * Also predict each target by a leave-one-out fit (loo.ts). Its costs are `sources` (default the
   * shipped profile sources, whose fitted entries hold the shipped fit) with the left-out groups at
   * their starting values; give `sources` matching `profiles` when those are not the shipped ones.
   */
  loo?: boolean;
  sources?: readonly CpuProfileSource[];
}

/** Runs every target's runs in the execution host, one after another, in target order. */
export async function runCalibrationSuite(o: SuiteOptions = {}): Promise<SuiteRow[]> {
  const profiles = o.profiles ?? [...BUILTIN_PROFILE_FILES];
  const available = o.available ?? builtinPluginIds();
  const rows: SuiteRow[] = [];
  for (const t of o.targets ?? calibrationTargets()) {
    const row = await suiteRow(t, profiles, available);
    if (o.loo) await addLoo(row, t, o.sources ?? BUILTIN_PROFILE_SOURCES, available);
    rows.push(row);
  }
  return rows;
}

async function suiteRow(t: Target, profiles: CpuProfileFile[], available: readonly string[]): Promise<SuiteRow> {
  const base = {
    id: t.id,
    figures: t.figures,
    label: t.label,
    runs: t.runs.map((r) => `${r.workload} ${r.cpu}@${r.mhz} ${variantLabel(r.variants ?? [])}`),
    unit: t.unit,
    measured: t.measured,
    tolerance: toleranceText(t),
  };
  const pending = pendingReason(t.requires, available);
  if (pending) return { ...base, simulated: null, error: null, relError: null, status: "pending" as const, note: pending };
  const e = await evaluateTarget(t, profiles, available);
  const ok = withinTolerance(t, e);
  const status: RowStatus = ok === undefined ? "info" : ok ? "pass" : "miss";
  const row: SuiteRow = { ...base, simulated: e.simulated, error: e.error, relError: e.relError, status };
  if (t.note) row.note = t.note;
  return row;
}

async function addLoo(row: SuiteRow, t: Target, sources: readonly CpuProfileSource[], available: readonly string[]): Promise<void> {
  if (row.status === "pending") {
    Object.assign(row, { looErrorPercent: null, looSimulated: null, looGroups: [], looNote: "pending" });
    return;
  }
  const l = await evaluateLoo(t, { sources, available, inSample: row.simulated! });
  row.looErrorPercent = l.relError * 100;
  row.looSimulated = l.simulated;
  row.looGroups = l.groups;
  row.looNote = l.groups.length
    ? `fit without this figure: ${l.groups.join(", ")} at the starting values, the other groups as fitted`
    : "constrains no fitted group (nothing was fitted to it): the leave-one-out error is the in-sample error";
}

/** Targets that count: met or missed (pending and qualitative rows do not). */
export function missedRows(rows: readonly SuiteRow[]): SuiteRow[] {
  return rows.filter((r) => r.status === "miss");
}
