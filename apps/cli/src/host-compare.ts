/**
 * `siglab suite host`'s logic: this machine's probe figures beside the simulation of the same
 * lmbench methods on the profile that matches this CPU (issue 16, "Side by side").
 */
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { matchHostProfile, type ProfileMatch } from "@siglab/core/common/host-profile.js";
import type { ProbeFigure, HostFacts } from "./probe/figures.js";

/** How each probe figure is simulated: the shipped example that ports the same lmbench loop, and its metric. */
export interface SimulatedFigure {
  id: string;
  example: string;
  metric: string;
  /** CPUs of the simulated machine (the "across" figures run their partner on another CPU) */
  smp?: number;
  params?: Record<string, number | string | boolean>;
}

export const HOST_FIGURES: readonly SimulatedFigure[] = [
  { id: "lat_syscall_null", example: "lat_syscall", metric: "Simple syscall" },
  { id: "lat_sig_install", example: "lat_sig_install", metric: "Signal handler installation" },
  { id: "lat_sig_catch", example: "lat_sig_catch", metric: "Signal handler overhead" },
  { id: "lat_sig_prot", example: "lat_sig_prot", metric: "Protection fault" },
  // the probe pins both processes to one CPU, or each to its own: lmbench's LMBENCH_SCHED=SINGLE
  // and UNIQUE (the examples' `sched`), on a two-CPU machine
  { id: "lat_pipe", example: "lat_pipe", metric: "Pipe latency", smp: 2, params: { sched: "SINGLE" } },
  { id: "lat_pipe_across", example: "lat_pipe", metric: "Pipe latency", smp: 2, params: { sched: "UNIQUE" } },
  { id: "lat_ctx_2p_0k", example: "lat_ctx", metric: "2p/0K ctxsw", smp: 2, params: { sched: "SINGLE" } },
  { id: "lat_ctx_2p_0k_across", example: "lat_ctx", metric: "2p/0K ctxsw", smp: 2, params: { sched: "UNIQUE" } },
  { id: "gc_barrier", example: "gc_barrier", metric: "barrier trap" },
  // the probe's wake loops pin both processes to one CPU too
  { id: "sigwaitinfo_wake", example: "sig_wake", metric: "Signal wake-up, sigwaitinfo", smp: 2, params: { wait: "sigwaitinfo", sched: "SINGLE" } },
  { id: "sigsuspend_wake", example: "sig_wake", metric: "Signal wake-up, sigsuspend", smp: 2, params: { wait: "sigsuspend", sched: "SINGLE" } },
];

/** Probe figures no shipped workload simulates yet, and why. */
export const NOT_SIMULATED: Readonly<Record<string, string>> = {
  lat_proc_fork: "fork's copy-on-write faults and the exit's page-table teardown are not modelled",
};

export interface HostRow {
  id: string;
  name: string;
  measured: number;
  simulated: number | null;
  unit: "us";
  /** (simulated - measured) / measured, in percent; null when not simulated */
  errorPercent: number | null;
  /** whether the figure was used to fit the profile being compared */
  fitted: boolean;
  note?: string;
}

/** The row of one probe figure; `fittedTo` lists the probe figures the profile was fitted to. */
export function hostRow(f: ProbeFigure, simulated: number | null, fittedTo: readonly string[], note?: string): HostRow {
  const row: HostRow = {
    id: f.id,
    name: f.name,
    measured: f.median,
    simulated,
    unit: "us",
    errorPercent: simulated === null || f.median <= 0 ? null : Math.round(((simulated - f.median) / f.median) * 1e4) / 100,
    fitted: fittedTo.includes(f.id),
  };
  if (note) row.note = note;
  return row;
}

export type { ProfileMatch } from "@siglab/core/common/host-profile.js";

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
  const num = (v: number | null): string => (v === null ? "—" : v >= 100 ? v.toFixed(1) : v.toFixed(3));
  const lines = [`  ${"lmbench figure".padEnd(w)}  ${"measured µs".padStart(11)}  ${"simulated µs".padStart(12)}  ${"error".padStart(8)}  fitted`];
  for (const r of rows) {
    const err = r.errorPercent === null ? "—" : `${r.errorPercent > 0 ? "+" : ""}${r.errorPercent.toFixed(1)}%`;
    lines.push(`  ${r.name.padEnd(w)}  ${num(r.measured).padStart(11)}  ${num(r.simulated).padStart(12)}  ${err.padStart(8)}  ${r.fitted ? "yes" : "no"}${r.note ? `  (${r.note})` : ""}`);
  }
  return lines.join("\n");
}
