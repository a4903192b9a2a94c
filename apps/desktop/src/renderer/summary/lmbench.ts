/**
 * The LMbench-style summary's rules, without a DOM: the benchmarks (columns) and the shipped
 * examples that port them, the rows (CPU × CPUs per machine × variant stack), the measured figures
 * known for a row (the calibration figures of @siglab/cpu-profiles; a probe of this machine) and
 * the error of a simulated figure against a measured one. Every figure is in microseconds.
 */
import { signedErrorPercent, type HostKernelFacts, readVirtualization, virtualizationWarning, type HostVirtualization } from "@siglab/core/common";
import calibration from "@siglab/cpu-profiles/calibration/figures.json";
import type { CpuRef, RunResult, VariantSpec } from "../../common/contracts.js";
import { isRecord } from "../state/validate.js";

export interface LmbenchBenchmark {
  /** column id: the shipped example's id */
  example: string;
  /** lmbench's name of the figure (the column title) */
  name: string;
  /** the metric the example reports, in µs */
  metric: string;
  /** `siglab probe --json`'s figure id (apps/cli/src/probe/figures.ts) */
  probeId: string;
}

/** The columns: lmbench's latency benchmarks that the shipped examples port, in lmbench's order. */
export const LMBENCH_BENCHMARKS: readonly LmbenchBenchmark[] = [
  { example: "lat_syscall", name: "Simple syscall", metric: "Simple syscall", probeId: "lat_syscall_null" },
  { example: "lat_sig_catch", name: "Signal handler overhead", metric: "Signal handler overhead", probeId: "lat_sig_catch" },
  { example: "lat_sig_prot", name: "Protection fault", metric: "Protection fault", probeId: "lat_sig_prot" },
  { example: "lat_ctx", name: "2p/0K ctxsw", metric: "2p/0K ctxsw", probeId: "lat_ctx_2p_0k" },
  { example: "lat_pipe", name: "Pipe latency", metric: "Pipe latency", probeId: "lat_pipe" },
];

/** A figure measured on a real machine, in µs. */
export interface MeasuredFigure {
  us: number;
  /** where it comes from, one line ("Ingo Molnar, linux-kernel, 3 Aug 2002") */
  source: string;
  /** the figure's id (calibration figure id, or the probe's) */
  id: string;
  kind: "calibration" | "probe";
  /** the probe's spread (min, max), µs */
  min?: number;
  max?: number;
}

/** A calibration figure in µs and the machine it was measured on (a profile id, its clock, one CPU). */
export interface CalibrationFigure extends MeasuredFigure {
  kind: "calibration";
  benchmark: string;
  cpu: { id: string; mhz: number };
  machine: string;
}

/**
 * Which calibration figure measures which benchmark on which profile. The value, its unit, the
 * machine's clock and the source are read from figures.json; only this pairing is stated here.
 */
const CALIBRATION_PAIRS: readonly { figure: string; benchmark: string; profile: string }[] = [
  { figure: "p4-lat-sig-catch", benchmark: "lat_sig_catch", profile: "p4-northwood" },
  { figure: "p4-lat-ctx-2p-0k", benchmark: "lat_ctx", profile: "p4-northwood" },
];

interface RawFigure {
  id: string;
  cpu: string;
  value: unknown;
  unit: string;
  source: string;
}

/** "Intel Pentium 4 (Northwood), 2.2 GHz" → 2200; null when the text names no clock. */
export function clockOfMachine(text: string): number | null {
  const m = /(\d+(?:\.\d+)?)\s*(GHz|MHz)\b/.exec(text);
  if (!m) return null;
  return Math.round(Number(m[1]) * (m[2] === "GHz" ? 1000 : 1));
}

/** The calibration figures that are lmbench µs figures of a stated machine (others are left out). */
export function calibrationFigures(raw: unknown = calibration): CalibrationFigure[] {
  const figures = (isRecord(raw) && Array.isArray(raw["figures"]) ? raw["figures"] : []) as RawFigure[];
  const out: CalibrationFigure[] = [];
  for (const pair of CALIBRATION_PAIRS) {
    const f = figures.find((x) => x.id === pair.figure);
    const mhz = f ? clockOfMachine(f.cpu) : null;
    if (!f || typeof f.value !== "number" || !/^us\b/.test(f.unit) || mhz === null) continue;
    out.push({ kind: "calibration", id: f.id, benchmark: pair.benchmark, us: f.value, source: f.source, cpu: { id: pair.profile, mhz }, machine: f.cpu });
  }
  return out;
}

/** One row: a CPU (with its CPUs per machine) under one variant stack. */
export interface SummaryRow {
  cpu: CpuRef;
  variants: VariantSpec[];
}

/** Rows in the order the execution host expands an experiment (CPU-major, then stack). */
export function summaryRows(cpus: readonly CpuRef[], stacks: readonly VariantSpec[][]): SummaryRow[] {
  return cpus.flatMap((cpu) => stacks.map((variants) => ({ cpu, variants })));
}

/**
 * The measured figure of a benchmark for a row: a calibration figure when the row is the machine
 * it was measured on (that profile, that clock, one CPU) running the baseline kernel — a variant
 * stack changes the kernel, so a real machine's figure does not describe it.
 */
export function measuredFor(row: SummaryRow, benchmark: string, figures: readonly CalibrationFigure[] = calibrationFigures()): CalibrationFigure | null {
  if ((row.cpu.smp ?? 1) !== 1 || row.variants.length !== 0) return null;
  return figures.find((f) => f.benchmark === benchmark && f.cpu.id === row.cpu.id && f.cpu.mhz === row.cpu.mhz) ?? null;
}

/** The simulated figure (µs) of a benchmark in a run, or null (failed, or not reported in µs). */
export function simulatedUs(r: RunResult | undefined, b: LmbenchBenchmark): number | null {
  if (!r || r.error) return null;
  const m = r.metrics.find((x) => x.name === b.metric && (x.unit === "us" || x.unit === "µs"));
  return m && Number.isFinite(m.value) ? m.value : null;
}

/**
 * Signed relative error of simulated against measured, in percent ((sim − measured) / measured):
 * core's signedErrorPercent. Null when measured is not positive (lmbench's settime(0) for a
 * subtraction that came out negative): there is no error relative to 0.
 */
export function errorPercent(simulated: number | null, measured: number | null | undefined): number | null {
  return signedErrorPercent(simulated, measured);
}

/** "+4.3 %", "−12.0 %", "0.0 %" */
export function formatError(pct: number): string {
  const r = Math.round(pct * 10) / 10;
  return r > 0 ? `+${r.toFixed(1)} %` : r < 0 ? `−${(-r).toFixed(1)} %` : "0.0 %";
}

/** µs with three significant digits (at least two decimals below 10): "0.900", "3.09", "12.5", "1,234". */
export function formatUs(us: number): string {
  if (us === 0) return "0";
  if (Math.abs(us) >= 1000) return Math.round(us).toLocaleString("en-US");
  return Number(us.toPrecision(3)).toFixed(Math.max(0, 2 - Math.floor(Math.log10(Math.abs(us)))));
}

// ---- a probe of this machine (`siglab probe --json`) ------------------------------------------------

export class ProbeError extends Error {}

/** What the summary keeps of a probe: the host's name, its CPU, its kernel's mitigations and the five benchmarks' figures. */
export interface ProbeSummary {
  host: string;
  figures: Record<string, MeasuredFigure>;
  /** the CPU as the probe read it (vendor and CPUID family/model): which profile matches it */
  cpu: { vendor?: string; cpuid?: { family: number; model: number }; cpuModel?: string };
  /** the kernel's lines of /sys/devices/system/cpu/vulnerabilities/ that are not "Not affected" */
  mitigations: [string, string][];
  /** what the simulated kernel's options are read off (every vulnerabilities line, the CPU flags, the kernel) */
  kernel: HostKernelFacts;
  /** host.virtualization: whether the probe measured a virtual machine; null when the probe does not say */
  virtualization: HostVirtualization | null;
}

/** The warning to show beside a probe of a virtual machine ("Warning: this machine is a virtual machine …"), or null. */
export function probeVmWarning(p: Pick<ProbeSummary, "virtualization"> | null): string | null {
  const w = virtualizationWarning(p?.virtualization);
  return w ? `Warning: ${w}` : null;
}

/** Largest probe file read (a probe's JSON is a few KB). */
export const MAX_PROBE_BYTES = 1024 * 1024;

/**
 * Reads `siglab probe --json` output: `{ host, figures: [{ id, name, unit: "us", min, median,
 * max }] }`. Validated field by field; figures of other benchmarks are ignored.
 */
export function parseProbe(text: string): ProbeSummary {
  if (text.length > MAX_PROBE_BYTES) throw new ProbeError(`the file is larger than ${MAX_PROBE_BYTES / 1024} KB; a probe's JSON is a few KB`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ProbeError("it is not JSON: save the output of `siglab probe --json -o my-machine.json`");
  }
  if (!isRecord(doc) || !Array.isArray(doc["figures"])) throw new ProbeError("it is not a probe's JSON (no figures list): save the output of `siglab probe --json`");
  const host = isRecord(doc["host"]) ? doc["host"] : {};
  const name = [host["cpuModel"], host["kernel"] ?? host["kernelVersion"]].filter((x): x is string => typeof x === "string" && x.length > 0).map((x) => x.slice(0, 120)).join(", ");
  const figures: Record<string, MeasuredFigure> = {};
  for (const f of doc["figures"] as unknown[]) {
    if (!isRecord(f)) continue;
    const b = LMBENCH_BENCHMARKS.find((x) => x.probeId === f["id"]);
    if (!b) continue;
    const [min, median, max] = [f["min"], f["median"], f["max"]];
    if (f["unit"] !== "us") throw new ProbeError(`figure ${b.probeId}: expected unit "us", got ${JSON.stringify(f["unit"])?.slice(0, 20)}`);
    for (const [k, v] of [["min", min], ["median", median], ["max", max]] as const) {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new ProbeError(`figure ${b.probeId}: ${k} is not a number of µs`);
    }
    figures[b.example] = { kind: "probe", id: b.probeId, us: median as number, min: min as number, max: max as number, source: `siglab probe (${String(f["name"] ?? b.name).slice(0, 80)}, median)` };
  }
  if (Object.keys(figures).length === 0) throw new ProbeError(`it has none of the figures ${LMBENCH_BENCHMARKS.map((b) => b.probeId).join(", ")}`);
  const cpu: ProbeSummary["cpu"] = {};
  if (typeof host["vendor"] === "string" && host["vendor"].length <= 40) cpu.vendor = host["vendor"];
  if (typeof host["cpuModel"] === "string") cpu.cpuModel = host["cpuModel"].slice(0, 120);
  const id = host["cpuid"];
  if (isRecord(id) && Number.isInteger(id["family"]) && Number.isInteger(id["model"])) cpu.cpuid = { family: id["family"] as number, model: id["model"] as number };
  const mitigations: [string, string][] = isRecord(host["mitigations"])
    ? Object.entries(host["mitigations"]).filter((e): e is [string, string] => typeof e[1] === "string" && !/^not affected$/i.test(e[1].trim())).slice(0, 40).map(([k, v]) => [k.slice(0, 60), v.slice(0, 200)])
    : [];
  const str = (v: unknown, max: number): string | null => (typeof v === "string" ? v.slice(0, max) : null);
  const kernel: HostKernelFacts = {
    mitigations: isRecord(host["mitigations"]) ? Object.fromEntries(Object.entries(host["mitigations"]).filter((e): e is [string, string] => typeof e[1] === "string").slice(0, 40).map(([k, v]) => [k.slice(0, 60), v.slice(0, 200)])) : {},
    flags: Array.isArray(host["flags"]) ? host["flags"].filter((f): f is string => typeof f === "string" && f.length <= 40).slice(0, 600) : [],
    kernel: str(host["kernel"], 120),
    kernelVersion: str(host["kernelVersion"], 300),
  };
  return { host: name || "this machine", figures, cpu, mitigations, kernel, virtualization: readVirtualization(host["virtualization"]) };
}
