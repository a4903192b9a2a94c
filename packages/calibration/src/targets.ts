/**
 * The calibration targets: each figure of calibration/figures.json (the project copy) tied to the
 * shipped workload, CPU, clock and variant stack that reproduce its measurement. The measured
 * values are read from figures.json, never written here.
 */
import { getCalibrationFigure } from "@siglab/cpu-profiles";
import type { RunRequest } from "./env.js";
import { NGPT, NO_CLI_EXIT, SA_NOFP, SYSENTER } from "./plugins.js";

export type TargetUnit = "cycles" | "us" | "ratio";

/** One run of a target and the metric it reads. */
export interface Measurement extends RunRequest {
  metric: string;
  /**
   * Repetitions with seeds 1..n (each a different phase of the timer tick against the loop), and
   * how the source combined them: lmbench's benchmp reports the median of TRIES = 11
   * (lib_timing.c save_median); Seaman averaged 3 runs. Absent: one run with seed 1.
   */
  repeat?: { n: number; combine: "median" | "mean" };
}

export interface Target {
  /** e.g. "p4-int80-vs-sysenter/int80" for one value of a two-valued figure */
  id: string;
  /** the figures.json ids this target is computed from */
  figures: string[];
  label: string;
  /** the measured figure (from figures.json) */
  measured: number;
  unit: TargetUnit;
  /** value: runs[0]; difference: runs[0] − runs[1]; ratio: runs[0] / runs[1] */
  how: "value" | "difference" | "ratio";
  runs: Measurement[];
  /** relative (fraction of the measured value) or absolute (in `unit`) tolerance; none = qualitative */
  tolerance?: { relative?: number; absolute?: number };
  /** plugin ids the runs need */
  requires: string[];
  note?: string;
  /**
   * For a target computed from other targets' measured values (a difference of two figures): their
   * ids. Leave-one-out (loo.ts) leaves those values out together. Absent: the target is one value.
   */
  from?: string[];
}

function figureValue(id: string, key?: string): number {
  const f = getCalibrationFigure(id);
  if (!f) throw new Error(`calibration/figures.json: no figure '${id}'`);
  const v = f.value;
  if (typeof v === "number") {
    if (key !== undefined) throw new Error(`calibration/figures.json: figure '${id}' has one value, not '${key}'`);
    return v;
  }
  if (key === undefined || v[key] === undefined) throw new Error(`calibration/figures.json: figure '${id}' has values ${Object.keys(v).join(", ")}; expected '${key}'`);
  return v[key]!;
}

// Iteration counts: enough that the per-operation figure has settled (timer ticks amortized),
// few enough that a fit (dozens of runs) takes seconds. lat_ctx keeps its default: its figure
// depends on where the timer ticks fall, and users see the default. ngpt_yield keeps its default
// (10 x 10,000 yields): fewer leave thread start-up in the LinuxThreads time; it is not fitted.
const P3 = { cpu: "p6-coppermine", mhz: 820 }; // 306 cycles at 373.6 ns per iteration
const P4 = { cpu: "p4-northwood", mhz: 2200 };
/** lmbench's benchmp: the median of TRIES = 11 repetitions (bench.h, lib_timing.c set_results -> save_median). */
const LMBENCH_TRIES = { n: 11, combine: "median" } as const;
/** Morton's getpid loop: lat_syscall with call=getpid (its default is lmbench's getppid). */
const GETPID = { workload: "lat_syscall", metric: "getpid", params: { iterations: 20_000, call: "getpid" } };
/**
 * lmbench's lat_sig catch (bench_catch): the kill-and-catch loop minus a kill(me, 0) loop, so the
 * figure holds the delivery, the handler and sigreturn but not the kill() system call.
 */
const SIG = { workload: "lat_sig_catch", params: { iterations: 1_000 }, metric: "Signal handler overhead", repeat: LMBENCH_TRIES };
/** "average of 3 runs" (figures.json) */
const SEAMAN_RUNS = { n: 3, combine: "mean" } as const;
/** Seaman does not name his machine: a 2002 desktop, the PIII at its default clock. */
export const NGPT_CPU = { cpu: "p6-coppermine", mhz: 733 };
const NO_FPU_SAVE = [{ id: SA_NOFP, options: { forceAll: true } }];
/** The P4 with FXSR switched off: 2.4 then saves 108-byte fnsave frames (see what-if.ts). */
export const P4_FSAVE_FRAMES = "p4-northwood~fsave-frames";

export function calibrationTargets(): Target[] {
  const cli = figureValue("p3-getpid-loop-cli");
  const noCli = figureValue("p3-getpid-loop-no-cli");
  const ngpt = figureValue("ngpt-vs-linuxthreads-yield", "ngpt") / figureValue("ngpt-vs-linuxthreads-yield", "linuxthreads");
  return [
    {
      id: "p3-getpid-loop-cli",
      figures: ["p3-getpid-loop-cli"],
      label: "getpid loop, int $0x80, cli in the exit path (PIII)",
      measured: cli,
      unit: "cycles",
      how: "value",
      runs: [{ ...GETPID, ...P3 }],
      tolerance: { relative: 0.05 },
      requires: [],
    },
    {
      id: "p3-getpid-loop-no-cli",
      figures: ["p3-getpid-loop-no-cli"],
      label: "getpid loop without the cli (PIII)",
      measured: noCli,
      unit: "cycles",
      how: "value",
      runs: [{ ...GETPID, ...P3, variants: [{ id: NO_CLI_EXIT }] }],
      tolerance: { relative: 0.05 },
      requires: [NO_CLI_EXIT],
    },
    {
      id: "p3-cli-saving",
      figures: ["p3-getpid-loop-cli", "p3-getpid-loop-no-cli"],
      label: "cycles the cli adds per getpid (PIII)",
      measured: cli - noCli,
      unit: "cycles",
      how: "difference",
      from: ["p3-getpid-loop-cli", "p3-getpid-loop-no-cli"],
      runs: [{ ...GETPID, ...P3 }, { ...GETPID, ...P3, variants: [{ id: NO_CLI_EXIT }] }],
      tolerance: { absolute: 3 },
      requires: [NO_CLI_EXIT],
    },
    {
      id: "p4-int80-vs-sysenter/int80",
      figures: ["p4-int80-vs-sysenter"],
      label: "null system call through int $0x80 (P4)",
      measured: figureValue("p4-int80-vs-sysenter", "int80"),
      unit: "cycles",
      how: "value",
      runs: [{ ...GETPID, ...P4 }],
      tolerance: { relative: 0.05 },
      requires: [],
    },
    {
      id: "p4-int80-vs-sysenter/sysenter",
      figures: ["p4-int80-vs-sysenter"],
      label: "null system call through sysenter (P4)",
      measured: figureValue("p4-int80-vs-sysenter", "sysenter"),
      unit: "cycles",
      how: "value",
      runs: [{ ...GETPID, ...P4, variants: [{ id: SYSENTER }] }],
      tolerance: { relative: 0.05 },
      requires: [SYSENTER],
    },
    {
      id: "p4-lat-sig-catch",
      figures: ["p4-lat-sig-catch"],
      label: "lat_sig catch (lmbench: the kill+catch loop minus a kill(me, 0) loop), the task has an FPU context (P4 2.2 GHz)",
      measured: figureValue("p4-lat-sig-catch"),
      unit: "us",
      how: "value",
      runs: [{ ...SIG, ...P4 }],
      tolerance: { relative: 0.05 },
      requires: [],
    },
    {
      id: "p4-lat-ctx-2p-0k",
      figures: ["p4-lat-ctx-2p-0k"],
      label: "lat_ctx 2p/0K (P4 2.2 GHz)",
      measured: figureValue("p4-lat-ctx-2p-0k"),
      unit: "us",
      how: "value",
      runs: [{ workload: "lat_ctx", ...P4, metric: "2p/0K ctxsw", params: { iterations: 1_000 }, repeat: LMBENCH_TRIES }],
      tolerance: { relative: 0.05 },
      requires: [],
    },
    {
      id: "fxsr-signal-tripling/no-fp-save",
      figures: ["fxsr-signal-tripling"],
      label: "signal with the FXSR frame / without the FP save (sa-nofp forceAll), P4",
      measured: figureValue("fxsr-signal-tripling"),
      unit: "ratio",
      how: "ratio",
      runs: [
        { ...SIG, ...P4 },
        { ...SIG, ...P4, variants: NO_FPU_SAVE },
      ],
      requires: [SA_NOFP],
      note: "qualitative ('tripled'): reported, nothing is fitted to it",
    },
    {
      id: "fxsr-signal-tripling/fsave-frames",
      figures: ["fxsr-signal-tripling"],
      label: "signal with the FXSR frame / with a 108-byte fnsave frame, P4",
      measured: figureValue("fxsr-signal-tripling"),
      unit: "ratio",
      how: "ratio",
      runs: [
        { ...SIG, ...P4 },
        { ...SIG, cpu: P4_FSAVE_FRAMES, mhz: P4.mhz },
      ],
      requires: [],
      note: "qualitative ('tripled'): reported, nothing is fitted to it",
    },
    {
      id: "ngpt-vs-linuxthreads-yield",
      figures: ["ngpt-vs-linuxthreads-yield"],
      label: "10 threads x sched_yield: NGPT / LinuxThreads wall time",
      measured: ngpt,
      unit: "ratio",
      how: "ratio",
      runs: [
        { workload: "ngpt_yield", ...NGPT_CPU, metric: "wall time", variants: [{ id: NGPT }], repeat: SEAMAN_RUNS },
        { workload: "ngpt_yield", ...NGPT_CPU, metric: "wall time", repeat: SEAMAN_RUNS },
      ],
      tolerance: { relative: 0.1 },
      requires: [NGPT],
      note: "the machine is not stated; run on the PIII at its default clock",
    },
  ];
}

export function getTarget(id: string): Target {
  const t = calibrationTargets().find((x) => x.id === id);
  if (!t) throw new Error(`calibration: no target '${id}' (targets: ${calibrationTargets().map((x) => x.id).join(", ")})`);
  return t;
}
