/**
 * The LMbench summary's rules and its figure, without a DOM or Node: the benchmarks (lmbench's
 * latency figures and the shipped examples that port them), the rows (CPU × CPUs per machine ×
 * variant stack), the measured figures known for a row (the calibration figures of
 * @siglab/cpu-profiles), and the grouped bar chart of a summary with the data behind it. The CLI
 * (`siglab summary --plot`) and the app's figure view both draw it from here. Every figure is in µs.
 */
import calibration from "@siglab/cpu-profiles/calibration/figures.json" with { type: "json" };
import type { CpuRef, RunResult, VariantSpec } from "../common/index.js";
import type { BarFigure, BarGroup } from "./bar-figure.js";
import { shortCpuLabel, stackLabel } from "./labels.js";

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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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

// ---- the figure ------------------------------------------------------------------------------------

/** A summary: its rows and, per benchmark (example id), each row's result (rows' order). */
export interface LmbenchSummary {
  rows: readonly SummaryRow[];
  results: Readonly<Record<string, readonly (RunResult | undefined)[]>>;
}

/** One number of the figure: the data file's row. */
export interface FigureDatum {
  cpu: string;
  stack: string;
  benchmark: string;
  example: string;
  kind: "simulated" | "measured";
  us: number | null;
  /** a measured figure's source; a simulated one's run ("p4-northwood@2200, seed 1") */
  source: string;
}

export interface LmbenchFigureOptions {
  /** profiles' names for the CPU labels (id → "Intel Pentium 4 (Northwood)") */
  profiles?: readonly { id: string; name?: string }[];
  /** the measured figure of a row's benchmark (default: the calibration figures, measuredFor) */
  measured?: (row: SummaryRow, rowIndex: number, example: string) => MeasuredFigure | null;
  /** the benchmarks drawn (default: all five) */
  benchmarks?: readonly LmbenchBenchmark[];
  /** a line saying how the figure was made (the command) */
  madeBy?: string;
}

const MEASURED_SERIES = "measured";

function cpuKey(c: CpuRef): string {
  return `${c.id}@${c.mhz}x${c.smp ?? 1}`;
}

/** The grouped bar chart of a summary (facets: CPUs; groups: benchmarks; bars: stacks, then measured) and its data. */
export function lmbenchFigure(s: LmbenchSummary, opts: LmbenchFigureOptions = {}): { figure: BarFigure; data: FigureDatum[] } {
  const benchmarks = opts.benchmarks ?? LMBENCH_BENCHMARKS;
  const measured = opts.measured ?? ((row: SummaryRow, _i: number, ex: string) => measuredFor(row, ex));
  const stacks: string[] = [];
  const cpus: { key: string; cpu: CpuRef }[] = [];
  for (const row of s.rows) {
    const st = stackLabel(row.variants);
    if (!stacks.includes(st)) stacks.push(st);
    if (!cpus.some((c) => c.key === cpuKey(row.cpu))) cpus.push({ key: cpuKey(row.cpu), cpu: row.cpu });
  }
  const data: FigureDatum[] = [];
  const sources = new Map<string, MeasuredFigure>();
  let anyMeasured = false;
  const facets = cpus.map(({ key, cpu }) => {
    const cpuName = shortCpuLabel(cpu, opts.profiles);
    const groups: BarGroup[] = benchmarks.map((b) => {
      const bars: BarGroup["bars"] = [];
      const meas: MeasuredFigure[] = [];
      s.rows.forEach((row, i) => {
        if (cpuKey(row.cpu) !== key) return;
        const st = stackLabel(row.variants);
        const r = s.results[b.example]?.[i];
        const us = simulatedUs(r, b);
        const run = `simulated: ${row.cpu.id}@${row.cpu.mhz}${row.cpu.smp && row.cpu.smp > 1 ? ` ×${row.cpu.smp}` : ""}, ${st}${r ? `, seed ${r.seed}` : ""}`;
        bars.push({ series: st, value: us, title: r?.error ? `failed: ${r.error.message}` : run });
        data.push({ cpu: cpuName, stack: st, benchmark: b.name, example: b.example, kind: "simulated", us, source: run });
        const m = measured(row, i, b.example);
        if (m && !meas.some((x) => x.id === m.id)) meas.push(m);
      });
      for (const m of meas) {
        anyMeasured = true;
        sources.set(m.id, m);
        bars.push({ series: MEASURED_SERIES, value: m.us, title: `measured: ${m.source}` });
        data.push({ cpu: cpuName, stack: "baseline (real machine)", benchmark: b.name, example: b.example, kind: "measured", us: m.us, source: m.source });
      }
      return { label: b.name, bars };
    });
    return { label: cpuName, groups };
  });
  const series = [...stacks.map((st) => ({ id: st, label: `simulated, ${st}` })), ...(anyMeasured ? [{ id: MEASURED_SERIES, label: "measured on a real machine (hatched)", measured: true }] : [])];
  const notes = [
    ...(anyMeasured ? [`Measured (hatched, black): ${[...sources.values()].map((m) => `${m.id}: ${m.source}`).join("; ")}.${[...sources.values()].some((m) => m.kind === "calibration") ? " Calibration figures: the profile's fitted costs were fitted to them." : ""}`] : []),
    `Simulated: SigLab's shipped lmbench ports (${benchmarks.map((b) => b.example).join(", ")}) on a simulated Linux 2.4. Colours: Okabe–Ito.`,
    ...(opts.madeBy ? [`Drawn by: ${opts.madeBy}`] : []),
  ];
  const figure: BarFigure = {
    title: "LMbench latencies, simulated and measured",
    subtitle: `${cpus.map((c) => shortCpuLabel(c.cpu, opts.profiles)).join(", ")} · ${stacks.join(" vs ")}`,
    quantity: "latency",
    unit: "µs",
    series,
    facets,
    notes,
  };
  return { figure, data };
}

/** The figure's data as CSV (RFC 4180 quoting), µs. */
export function figureDataCsv(data: readonly FigureDatum[]): string {
  const q = (v: string | number | null): string => {
    const s = v === null ? "" : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const head = ["cpu", "stack", "benchmark", "example", "kind", "us", "source"];
  return [head.join(","), ...data.map((d) => [d.cpu, d.stack, d.benchmark, d.example, d.kind, d.us, d.source].map(q).join(","))].join("\n") + "\n";
}

/** The figure's data as JSON: { unit: "µs", data: [...] }. */
export function figureDataJson(data: readonly FigureDatum[]): string {
  return JSON.stringify({ unit: "µs", data }, null, 2) + "\n";
}
