/** What an experiment asks for and what a run produces. Plain data: structured-clone-able, JSON-serialisable. */

/** The value of a workload parameter or a plugin option. */
export type ParamValue = number | string | boolean;

/** A CPU of an experiment: a profile id and its clock. */
export interface CpuRef {
  id: string;
  mhz: number;
  /** CPUs of the machine (API 2.2; absent or 1: one CPU and the UP kernel, more: the SMP kernel) */
  smp?: number;
}

/** One plugin in a variant stack, with its options. */
export interface VariantSpec {
  id: string;
  options?: Record<string, ParamValue>;
}

export interface Metric {
  name: string;
  value: number;
  unit: string;
  /** Optional per-iteration samples (bounded) for histograms. */
  samples?: number[];
}

export type Severity = "error" | "warning" | "info";

export interface Finding {
  severity: Severity;
  /** e.g. "fpu-corruption", "int-register-corruption", "blocked-signal-delivered", "delayed-signal", "lost-signal" */
  kind: string;
  message: string;
  /** Task, register, expected vs actual, the op/path and the plugin responsible, cycle, ... */
  evidence: Record<string, unknown>;
}

/** One op of a kernel path as the path inspector shows it. */
export interface PathOpStat {
  /** Kernel function or macro the op belongs to (e.g. "SAVE_ALL", "save_i387"). */
  fn: string;
  /** Op class (see @siglab/cpu-profiles OP_CLASSES). */
  op: string;
  /** Cycles of one occurrence of this op line (count × unit cost). */
  cycles: number;
  /** How many times the op line repeats within one path execution. */
  repeat: number;
  note?: string;
}

/** Per-path statistics: how often it ran, where its cycles went, and its ops. */
export interface PathStat {
  name: string;
  phase: string;
  /** Plugin that contributed or changed this path ("core" for the baseline). */
  origin: string;
  count: number;
  cycles: number;
  ops: PathOpStat[];
}

export interface TimelineEvent {
  /** pid of the task */
  task: number;
  kind: "user" | "kernel" | "handler" | "idle";
  /** path name or user activity */
  name: string;
  phase: string;
  start: number;
  end: number;
  /** the CPU it ran on (API 2.2; present only on an SMP machine) */
  cpu?: number;
}

export interface RunError {
  /** "compile" | "workload" | "budget" | "plugin" | "config" | "cancelled" | "internal" */
  kind: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  task?: number;
  cycle?: number;
}

export interface RunResult {
  workload: string;
  cpu: CpuRef;
  variants: VariantSpec[];
  params: Record<string, ParamValue>;
  seed: number;
  metrics: Metric[];
  /** cycles charged to each phase, e.g. { "syscall.entry": 123, "signal.fpu_save": 456 } */
  phases: Record<string, number>;
  /** counters: syscalls.<name>, signals.delivered, switches, tlb.flushes, fpu.nm_traps, fpu.saves, bytes.copied, ... */
  counters: Record<string, number>;
  findings: Finding[];
  totalCycles: number;
  /** simulated seconds = totalCycles / (mhz * 1e6) */
  simSeconds: number;
  paths: PathStat[];
  timeline?: TimelineEvent[];
  /** Present when the run failed; metrics then hold what was reported before the failure. */
  error?: RunError;
}

export interface RunProgress {
  /** 0..1 where the workload reports it (iterations done), else undefined */
  fraction?: number;
  cycles: number;
  steps: number;
}
