/**
 * The predictions suite: the simulator's figures for published results that are NOT calibration
 * figures (they are kept to validate the model elsewhere). Runs the shipped workloads with their
 * default parameters on the shipped profiles; fits nothing and asserts nothing about values.
 */
import type { ParamValue, RunResult, VariantSpec } from "@siglab/core";
import { BUILTIN_PROFILE_FILES, type CpuProfileFile, type OpClass } from "@siglab/cpu-profiles";
import { FIT_GROUPS } from "./plan.js";
import { builtinPluginIds, exampleParams, runExample, type RunRequest } from "./env.js";
import { NGPT, NO_CLI_EXIT, pendingReason, SA_NOFP, SYSENTER } from "./plugins.js";
import { NGPT_CPU } from "./targets.js";

export interface Prediction {
  workload: string;
  /** "id@MHz" */
  cpu: string;
  /** CPUs of the machine (1: the UP kernel; 2: the 2.4 SMP kernel) */
  cpus: number;
  variants: VariantSpec[];
  metric: string;
  value: number | null;
  unit: string;
  pending: boolean;
  note?: string;
  /**
   * The fitted profile parameters this prediction's runs execute: every op class of a fit group
   * (plan.ts) of the run's CPU that a path the runs executed uses, directly or through a cost
   * defined relative to it (`via`: the executed ops that follow it, e.g. the PIII's sysenter
   * follows the fitted int_gate). Empty when the prediction depends on no fitted cost (or is pending).
   */
  fittedParams: FittedParam[];
}

export interface FittedParam {
  /** the fitted op class */
  op: string;
  /** its fit group (plan.ts) */
  group: string;
  /** the profile that defines it */
  profile: string;
  /** whether a run executed the op itself */
  executed: boolean;
  /** executed ops whose cost is defined relative to this one (they move with it) */
  via?: string[];
}

/** The op classes a run executed: every op of every path that ran at least once. */
export function executedOps(r: RunResult): Set<string> {
  const out = new Set<string>();
  for (const p of r.paths) if (p.count > 0) for (const o of p.ops) out.add(o.op);
  return out;
}

/**
 * The fitted parameters a set of runs depends on: the fit groups' ops of each run's CPU (the
 * groups' profile is the CPU the run names) that the run executed, or that a cost it executed is
 * defined relative to (chains followed).
 */
export function fittedParamsOf(results: readonly RunResult[], profiles: readonly CpuProfileFile[]): FittedParam[] {
  const found = new Map<string, { p: FittedParam; via: Set<string> }>();
  for (const r of results) {
    const profile = profiles.find((p) => p.id === r.cpu.id);
    const groupOf = (op: string) => FIT_GROUPS.find((g) => g.profile === r.cpu.id && op in g.start);
    for (const executed of executedOps(r)) {
      const seen = new Set<string>();
      // the executed op, then the ops its cost follows (relativeTo chains)
      for (let op: string | undefined = executed; op !== undefined && !seen.has(op); op = profile?.costs[op as OpClass]?.relativeTo?.op) {
        seen.add(op);
        const g = groupOf(op);
        if (!g) continue;
        const key = `${g.profile}\0${op}`;
        const e = found.get(key) ?? { p: { op, group: g.id, profile: g.profile, executed: false }, via: new Set<string>() };
        if (op === executed) e.p.executed = true;
        else e.via.add(executed);
        found.set(key, e);
      }
    }
  }
  const order = (p: FittedParam) => FIT_GROUPS.findIndex((g) => g.id === p.group);
  return [...found.values()]
    .map(({ p, via }) => (via.size ? { ...p, via: [...via].sort() } : p))
    .sort((a, b) => order(a) - order(b) || a.op.localeCompare(b.op));
}

interface PredictionSpec {
  workload: string;
  /** shown as the row's workload (e.g. to say getpid stands in for getppid) */
  label?: string;
  cpu: string;
  mhz: number;
  /** CPUs of the machine (default 1) */
  smp?: number;
  variants: VariantSpec[];
  params?: Record<string, ParamValue>;
  metric: string;
  unit: string;
  /** ratio: the run with `variants` over the same run on the baseline */
  how?: "value" | "ratio";
  /** the name printed for a ratio */
  ratioName?: string;
  requires: string[];
  note?: string;
}

/** The lmbench ports and the figure each prints (lmbench's own names, in µs). */
const LMBENCH: [string, string][] = [
  ["lat_syscall", "Simple syscall"],
  ["lat_sig_catch", "Signal handler overhead"],
  ["lat_sig_prot", "Protection fault"],
  ["lat_ctx", "2p/0K ctxsw"],
  ["lat_pipe", "Pipe latency"],
];
const LMBENCH_CPUS: [string, number][] = [
  ["p6-coppermine", 1000],
  ["p6-coppermine", 450],
  ["p4-northwood", 2400],
  ["k7-palomino", 1400],
];

/**
 * Dual-CPU machines of the era many published lmbench runs were taken on (2.4 SMP kernel):
 * dual PIII 450 and 1000 MHz, dual Athlon MP 1600+ (1.4 GHz, the Palomino core).
 */
const LMBENCH_SMP_CPUS: [string, number][] = [
  ["p6-coppermine", 1000],
  ["p6-coppermine", 450],
  ["k7-palomino", 1400],
];

/** lmbench's null call (lat_syscall's default), in cycles per call. */
const GETPPID: Pick<PredictionSpec, "label" | "params" | "metric"> = { label: "lat_syscall (getppid)", params: { call: "getppid" }, metric: "getppid" };
/** Andrew Morton's getpid loop. */
const GETPID: Pick<PredictionSpec, "params" | "metric"> = { params: { call: "getpid" }, metric: "getpid" };

export async function predictionSpecs(): Promise<PredictionSpec[]> {
  const out: PredictionSpec[] = [];
  for (const [cpu, mhz] of LMBENCH_CPUS) {
    for (const [workload, metric] of LMBENCH) out.push({ workload, cpu, mhz, variants: [], metric, unit: "us", requires: [] });
  }
  for (const [cpu, mhz] of LMBENCH_SMP_CPUS) {
    for (const [workload, metric] of LMBENCH) out.push({ workload, cpu, mhz, smp: 2, variants: [], metric, unit: "us", requires: [] });
  }
  const k7 = { cpu: "k7-palomino", mhz: 1400 };
  out.push({ workload: "lat_syscall", ...k7, ...GETPID, variants: [], unit: "cycles", requires: [] });
  out.push({ workload: "lat_syscall", ...k7, ...GETPID, variants: [{ id: NO_CLI_EXIT }], unit: "cycles", requires: [NO_CLI_EXIT] });
  for (const [cpu, mhz] of [["p6-coppermine", 600], ["p5-p54c", 133]] as const) {
    out.push({ workload: "gc_barrier", cpu, mhz, variants: [], metric: "barrier trap", unit: "us", requires: [] });
  }
  out.push({ workload: "lat_sig_catch", cpu: "p4-northwood", mhz: 2200, variants: [{ id: SA_NOFP, options: { forceAll: true } }], metric: "Signal handler overhead", unit: "us", requires: [SA_NOFP] });
  const gp = GETPPID;
  const p3 = { cpu: "p6-coppermine", mhz: 1000 };
  out.push({ workload: "lat_syscall", ...gp, ...p3, variants: [], unit: "cycles", requires: [] });
  out.push({ workload: "lat_syscall", ...gp, ...p3, variants: [{ id: SYSENTER }], unit: "cycles", requires: [SYSENTER] });
  out.push({
    workload: "ngpt_readwrite",
    ...NGPT_CPU,
    variants: [{ id: NGPT }],
    metric: "wall time",
    how: "ratio",
    ratioName: "NGPT/LinuxThreads wall-time ratio",
    unit: "ratio",
    requires: [NGPT],
  });
  return out;
}

export interface PredictionOptions {
  profiles?: CpuProfileFile[];
  /** plugin ids treated as built (default: the built-in plugins, which the sandbox always has); rows needing another are pending */
  available?: readonly string[];
  /** override `iterations` of every workload that has it (tests keep runs short) */
  iterations?: number;
}

function metricValue(r: RunResult, s: PredictionSpec, req: RunRequest): number {
  const m = r.metrics.find((x) => x.name === s.metric) ?? r.metrics.find((x) => x.unit === s.unit);
  if (!m) throw new Error(`${req.workload} on ${req.cpu}@${req.mhz}: no metric '${s.metric}' (metrics: ${r.metrics.map((x) => x.name).join(", ")})`);
  return m.value;
}

/** Runs every prediction in the execution host, one after another, in spec order. */
export async function runPredictions(o: PredictionOptions = {}): Promise<Prediction[]> {
  const profiles = o.profiles ?? [...BUILTIN_PROFILE_FILES];
  const available = o.available ?? builtinPluginIds();
  const out: Prediction[] = [];
  for (const s of await predictionSpecs()) out.push(await prediction(s, profiles, available, o.iterations));
  return out;
}

async function prediction(s: PredictionSpec, profiles: CpuProfileFile[], available: readonly string[], iterations: number | undefined): Promise<Prediction> {
  const row: Prediction = {
    workload: s.label ?? s.workload,
    cpu: `${s.cpu}@${s.mhz}`,
    cpus: s.smp ?? 1,
    variants: s.variants,
    metric: s.ratioName ?? s.metric,
    value: null,
    unit: s.unit,
    pending: false,
    fittedParams: [],
  };
  if (s.note) row.note = s.note;
  const pending = pendingReason(s.requires, available);
  if (pending) return { ...row, pending: true, note: pending };
  const params = { ...(s.params ?? {}) };
  if (iterations !== undefined && "iterations" in (await exampleParams(s.workload))) params["iterations"] = iterations;
  const req: RunRequest = { workload: s.workload, cpu: s.cpu, mhz: s.mhz, variants: s.variants, params };
  if (s.smp && s.smp > 1) req.smp = s.smp;
  const results = [await runExample(req, profiles, available)];
  const v = metricValue(results[0]!, s, req);
  if (s.how === "ratio") {
    const base: RunRequest = { ...req, variants: [] };
    results.push(await runExample(base, profiles, available));
    row.value = v / metricValue(results[1]!, s, base);
  } else row.value = v;
  row.fittedParams = fittedParamsOf(results, profiles);
  return row;
}
