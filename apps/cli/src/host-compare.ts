/**
 * `siglab suite host`'s logic: this machine's probe figures beside the simulation of the same
 * lmbench methods on the profile that matches this CPU (issue 16, "Side by side"). How each probe
 * figure is simulated is core's table (common/host-figures.ts HOST_FIGURES), which the app's "your
 * machine" panel uses too.
 */
import { fmt } from "./numbers.js";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { signedErrorPercent, matchHostProfile, type ProfileMatch } from "@siglab/core/common";
import type { ProbeFigure, HostFacts } from "./probe/figures.js";

export interface HostRow {
  id: string;
  name: string;
  measured: number;
  simulated: number | null;
  unit: "us";
  /** (simulated - measured) / measured, in percent to two decimals (core's signedErrorPercent); null when not simulated or measured <= 0 */
  errorPercent: number | null;
  /** whether the figure was used to fit the profile being compared */
  fitted: boolean;
  note?: string;
}

/** A percent to two decimals (the JSON's errorPercent), null kept. */
export const round2 = (pct: number | null): number | null => (pct === null ? null : Math.round(pct * 100) / 100);

/** The row of one probe figure; `fittedTo` lists the probe figures the profile was fitted to. */
export function hostRow(f: ProbeFigure, simulated: number | null, fittedTo: readonly string[], note?: string): HostRow {
  const row: HostRow = {
    id: f.id,
    name: f.name,
    measured: f.median,
    simulated,
    unit: "us",
    errorPercent: round2(signedErrorPercent(simulated, f.median)),
    fitted: fittedTo.includes(f.id),
  };
  if (note) row.note = note;
  return row;
}

export type { ProfileMatch } from "@siglab/core/common";

/**
 * The profile of this machine's CPU (core's matchHostProfile): x86-64 profiles only when the
 * linux-6 preset will run (it runs on no other), any profile for the 2.4 kernel.
 */
export function matchProfile(host: Pick<HostFacts, "vendor" | "cpuid" | "cpuModel">, profiles: readonly CpuProfileFile[], opts: { longModeOnly?: boolean } = { longModeOnly: true }): ProfileMatch | null {
  return matchHostProfile(host, profiles, opts);
}

/** The text table of `suite host`. */
export function formatHostRows(rows: readonly HostRow[]): string {
  const w = Math.max(12, ...rows.map((r) => r.name.length));
  const num = (v: number | null): string => (v === null ? "—" : fmt(v));
  const lines = [`  ${"lmbench figure".padEnd(w)}  ${"measured µs".padStart(11)}  ${"simulated µs".padStart(12)}  ${"error".padStart(8)}  fitted`];
  for (const r of rows) {
    const err = r.errorPercent === null ? "—" : `${r.errorPercent > 0 ? "+" : ""}${r.errorPercent.toFixed(1)}%`;
    lines.push(`  ${r.name.padEnd(w)}  ${num(r.measured).padStart(11)}  ${num(r.simulated).padStart(12)}  ${err.padStart(8)}  ${r.fitted ? "yes" : "no"}${r.note ? `  (${r.note})` : ""}`);
  }
  return lines.join("\n");
}
