/**
 * The calibration suite: every calibration target simulated on given profiles (the shipped ones
 * by default), measured vs simulated, the error and whether the target is met.
 */
import { BUILTIN_PROFILE_FILES, type CpuProfileFile } from "@siglab/cpu-profiles";
import { builtinPluginIds, variantLabel } from "./env.js";
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
}

export interface SuiteOptions {
  profiles?: CpuProfileFile[];
  /** plugin ids treated as built (default: the built-in plugins, which the sandbox always has); targets needing another are pending */
  available?: readonly string[];
  targets?: Target[];
}

/** Runs every target's runs in the execution host, one after another, in target order. */
export async function runCalibrationSuite(o: SuiteOptions = {}): Promise<SuiteRow[]> {
  const profiles = o.profiles ?? [...BUILTIN_PROFILE_FILES];
  const available = o.available ?? builtinPluginIds();
  const rows: SuiteRow[] = [];
  for (const t of o.targets ?? calibrationTargets()) rows.push(await suiteRow(t, profiles, available));
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

/** Targets that count: met or missed (pending and qualitative rows do not). */
export function missedRows(rows: readonly SuiteRow[]): SuiteRow[] {
  return rows.filter((r) => r.status === "miss");
}
