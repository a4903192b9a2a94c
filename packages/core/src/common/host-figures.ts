/**
 * A probe of this machine (`siglab probe --json`, apps/cli/src/probe/figures.ts) beside its
 * simulation: which shipped example simulates each probe figure, with which metric, CPUs and
 * params, and the signed error of a simulated figure against a measured one. Common code (no DOM,
 * no Node): `siglab suite host`, `calibrate --from-probe` and the app's "your machine" panel
 * simulate the same runs and compute the same error.
 */

/** How a probe figure is simulated: the shipped example that ports the same lmbench loop, and its metric. */
export interface SimulatedFigure {
  /** the probe's figure id */
  id: string;
  /** the shipped example (EXAMPLES) */
  example: string;
  /** the metric the example reports, in µs */
  metric: string;
  /** CPUs of the simulated machine (the "across" figures run their partner on another CPU) */
  smp?: number;
  /** the example's parameters (each one the example declares) */
  params?: Record<string, number | string | boolean>;
  /** what the simulation of this figure leaves out, shown beside its row */
  caveat?: string;
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
  // the probe's fork loop is lat_proc.c's: no pinning, the machine's one CPU
  {
    id: "lat_proc_fork",
    example: "lat_proc",
    metric: "Process fork+exit",
    caveat: "2.4's fork and exit (linux-6 has no 6.x ones yet) of a ~50-page process with hot caches: a real one maps libc, ld.so and stdio, and fork's cache misses are not modelled, so expect it far below",
  },
];

/** Probe figures no shipped workload simulates yet, and why. */
export const NOT_SIMULATED: Readonly<Record<string, string>> = {};

/** How the probe figure `id` is simulated, or undefined when no shipped example simulates it. */
export function hostFigure(id: string): SimulatedFigure | undefined {
  return HOST_FIGURES.find((f) => f.id === id);
}

/**
 * The signed error of a simulated figure against a measured one, in percent:
 * (simulated − measured) / measured × 100, positive when the simulation is slower. Unrounded: each
 * caller rounds or formats it as it shows it.
 *
 * Null when there is nothing to compare: no simulated figure (null or undefined: the run failed or
 * was not made), no measured figure, or a measured figure that is not a positive number (0, a
 * negative or NaN: lmbench reports 0 when its subtraction comes out negative, and an error
 * relative to 0 means nothing).
 */
export function signedErrorPercent(simulated: number | null | undefined, measured: number | null | undefined): number | null {
  if (simulated === null || simulated === undefined || measured === null || measured === undefined || !(measured > 0)) return null;
  return ((simulated - measured) / measured) * 100;
}
