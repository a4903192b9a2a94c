/**
 * The calibration suite: every calibration target simulated on given profiles (the shipped ones
 * by default), measured vs simulated, the error and whether the target is met.
 */
import type { LoadedPlugin } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
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
  plugins?: readonly LoadedPlugin[];
  targets?: Target[];
}

export function runCalibrationSuite(o: SuiteOptions = {}): SuiteRow[] {
  const profiles = o.profiles ?? [...BUILTIN_PROFILE_FILES];
  const plugins = o.plugins ?? BUILTIN_PLUGINS;
  const available = builtinPluginIds(plugins);
  return (o.targets ?? calibrationTargets()).map((t) => {
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
    const e = evaluateTarget(t, profiles, plugins);
    const ok = withinTolerance(t, e);
    const status: RowStatus = ok === undefined ? "info" : ok ? "pass" : "miss";
    const row: SuiteRow = { ...base, simulated: e.simulated, error: e.error, relError: e.relError, status };
    if (t.note) row.note = t.note;
    return row;
  });
}

/** Targets that count: met or missed (pending and qualitative rows do not). */
export function missedRows(rows: readonly SuiteRow[]): SuiteRow[] {
  return rows.filter((r) => r.status === "miss");
}
