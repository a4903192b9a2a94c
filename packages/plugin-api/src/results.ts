/** What an experiment asks for and what a run produces. Plain data: structured-clone-able, JSON-serialisable. */

/**
 * The value of a workload parameter or a plugin option.
 * @category Results
 */
export type ParamValue = number | string | boolean;

/**
 * A CPU of an experiment: a profile id and its clock.
 * @category Results
 */
export interface CpuRef {
  /** The CPU profile's id, e.g. "p4-northwood". */
  id: string;
  /** The clock in MHz (0 in a request: the profile's default clock). */
  mhz: number;
  /** CPUs of the machine (API 2.2; absent or 1: one CPU and the UP kernel, more: the SMP kernel) */
  smp?: number;
}

/**
 * One plugin in a variant stack, with its options.
 * @category Results
 */
export interface VariantSpec {
  /** The plugin's id (its manifest's id). */
  id: string;
  /** Option values by name (checked against the manifest's options; the others take their defaults). */
  options?: Record<string, ParamValue>;
}

/**
 * A number a workload reported (`t.report(name, value, unit)`).
 * @category Results
 */
export interface Metric {
  /** The name the workload gave it, e.g. "getpid" or "signals lost". */
  name: string;
  /** The value (its last report when the workload reported it several times). */
  value: number;
  /** The unit the workload gave, e.g. "cycles", "us", "" for a count. */
  unit: string;
  /** Optional per-iteration samples (bounded) for histograms. */
  samples?: number[];
}

/**
 * How bad a finding is: "error" (a correctness bug the variant causes: corrupted registers, a
 * lost signal), "warning" (a hazard or a delay), "info".
 * @category Results
 */
export type Severity = "error" | "warning" | "info";

/**
 * Something a checker found during a run (InvariantChecker, k.report): what went wrong, where, and
 * the evidence. Repeats of the same finding are folded into one with a count.
 * @category Results
 */
export interface Finding {
  /** How bad it is. */
  severity: Severity;
  /** e.g. "fpu-corruption", "int-register-corruption", "blocked-signal-delivered", "delayed-signal", "lost-signal" */
  kind: string;
  /** One sentence for the user: what happened to which task. */
  message: string;
  /** Task, register, expected vs actual, the op/path and the plugin responsible, cycle, ... */
  evidence: Record<string, unknown>;
}

/**
 * One op of a kernel path as the path inspector shows it.
 * @category Results
 */
export interface PathOpStat {
  /** Kernel function or macro the op belongs to (e.g. "SAVE_ALL", "save_i387"). */
  fn: string;
  /** Op class (see OP_CLASSES). */
  op: string;
  /** Cycles of one occurrence of this op line (count × unit cost). */
  cycles: number;
  /** How many times the op line repeats within one path execution. */
  repeat: number;
  /** The path line's note (what it stands for in the Linux source). */
  note?: string;
}

/**
 * Per-path statistics: how often it ran, where its cycles went, and its ops.
 * @category Results
 */
export interface PathStat {
  /** The path's name, e.g. "system_call". */
  name: string;
  /** The phase its cycles were charged to. */
  phase: string;
  /** Plugin that contributed or changed this path ("core" for the baseline). */
  origin: string;
  /** How many times it ran in the run. */
  count: number;
  /** Cycles it was charged in all, over every run of it. */
  cycles: number;
  /** Its ops, with the cycles of one run of the path. */
  ops: PathOpStat[];
}

/**
 * One interval of the run's timeline (when the run asked for a timeline): what a task (or the
 * idle CPU) did from `start` to `end`.
 * @category Results
 */
export interface TimelineEvent {
  /** pid of the task */
  task: number;
  /** User code, kernel code, a signal handler, or the idle task. */
  kind: "user" | "kernel" | "handler" | "idle";
  /** path name or user activity */
  name: string;
  /** The phase its cycles were charged to. */
  phase: string;
  /** The first cycle of the interval. */
  start: number;
  /** The cycle after the interval's last. */
  end: number;
  /** the CPU it ran on (API 2.2; present only on an SMP machine) */
  cpu?: number;
}

/**
 * Why a run failed, where, and whose fault it was.
 * @category Results
 */
export interface RunError {
  /** "compile" | "workload" | "budget" | "plugin" | "config" | "cancelled" | "internal" */
  kind: string;
  /** What went wrong, naming the file, plugin or budget concerned. */
  message: string;
  /** The workload's or plugin's file the error points at. */
  file?: string;
  /** Its line (1-based). */
  line?: number;
  /** Its column (1-based). */
  column?: number;
  /** The pid of the task that was running. */
  task?: number;
  /** The simulated cycle at which the run stopped. */
  cycle?: number;
}

/**
 * The result of one run: what `siglab run --json` prints, the harness returns and bundles store.
 * @category Results
 */
export interface RunResult {
  /** The workload's id (an example id, or the workload file's name without `.ts`). */
  workload: string;
  /** The CPU it ran on (the profile's clock filled in when the request gave 0). */
  cpu: CpuRef;
  /** The variant stack, bottom first (empty: the Linux 2.4 baseline). */
  variants: VariantSpec[];
  /** The workload's parameters as they ran (its defaults, overridden by the request's). */
  params: Record<string, ParamValue>;
  /** The seed of the run's random numbers (k.random, the sandbox's Math.random). */
  seed: number;
  /** What the workload reported, in report order. */
  metrics: Metric[];
  /** cycles charged to each phase, e.g. { "syscall.entry": 123, "signal.fpu_save": 456 } */
  phases: Record<string, number>;
  /** counters: syscalls.<name>, signals.delivered, switches, tlb.flushes, fpu.nm_traps, fpu.saves, bytes.copied, ... */
  counters: Record<string, number>;
  /** What the run's checkers found. */
  findings: Finding[];
  /** Simulated cycles of the whole run. */
  totalCycles: number;
  /** simulated seconds = totalCycles / (mhz * 1e6) */
  simSeconds: number;
  /** Every path that ran, with its counts and cycles. */
  paths: PathStat[];
  /** The timeline, when the run asked for one. */
  timeline?: TimelineEvent[];
  /** Present when the run failed; metrics then hold what was reported before the failure. */
  error?: RunError;
}

/**
 * How far a run is (reported while it runs).
 * @category Results
 */
export interface RunProgress {
  /** 0..1 where the workload reports it (iterations done), else undefined */
  fraction?: number;
  /** Simulated cycles so far. */
  cycles: number;
  /** Workload steps so far (the step budget counts them). */
  steps: number;
}
