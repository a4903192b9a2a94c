/**
 * The result charts. Only the chart.js pieces used here are registered; animation is off so
 * screenshots and exports are deterministic. Each canvas carries data-* attributes describing
 * what it shows (labels, datasets, bars), which the end-to-end tests read.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LogarithmicScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ActiveElement,
  type ChartConfiguration,
  type Plugin,
} from "chart.js";
import zoomPlugin from "chartjs-plugin-zoom";
import type { CpuProfileFile, RunResult } from "../../common/contracts.js";
import { cpuLabel, runLabel, shortCpuLabel, shortRunLabels, shortStackLabel, stackLabel } from "./labels.js";
import { orderPhases, phaseColors } from "./palette.js";
import { fmtNum, histogramData } from "./histogram.js";
import { metricStats, repeatCount } from "./repeat.js";
import { allNameLoops, LOOP_NORM, loopBars } from "./loop-bars.js";

export { repetitionsOf } from "./histogram.js";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LogarithmicScale, LineController, LineElement, PointElement, Legend, Tooltip);
Chart.defaults.animation = false;
Chart.defaults.responsive = true;
Chart.defaults.maintainAspectRatio = false;

export const PALETTE = [
  "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
  "#2f4b7c", "#a05195", "#d45087", "#665191", "#ffa600", "#003f5c", "#7a5195", "#8cd17d", "#b6992d", "#499894",
];
const color = (i: number): string => PALETTE[i % PALETTE.length]!;

export const isDark = (): boolean => window.matchMedia("(prefers-color-scheme: dark)").matches;

/** Paints the canvas background so PNG exports are not transparent. */
const background: Plugin = {
  id: "siglabBackground",
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.globalCompositeOperation = "destination-over";
    ctx.fillStyle = isDark() ? "#1e1e1e" : "#ffffff";
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

export interface ChartClick {
  datasetIndex: number;
  index: number;
}

export function makeChart(canvas: HTMLCanvasElement, config: ChartConfiguration, onClick?: (c: ChartClick) => void): Chart {
  const fg = isDark() ? "#ccc" : "#333";
  const grid = isDark() ? "rgba(255,255,255,0.1)" : "rgba(0,0,0,0.1)";
  Chart.defaults.color = fg;
  Chart.defaults.borderColor = grid;
  const chart = new Chart(canvas, {
    ...config,
    plugins: [...(config.plugins ?? []), background],
    options: {
      ...config.options,
      // the legend is the card's (results-view.ts): outside the plot, wrapping, a series picker
      plugins: { ...config.options?.plugins, legend: { display: false } },
      onClick: (_e, elements: ActiveElement[]) => {
        const el = elements[0];
        if (el && onClick) onClick({ datasetIndex: el.datasetIndex, index: el.index });
      },
      onHover: (e, elements) => {
        const target = e.native?.target as HTMLElement | undefined;
        if (target) target.style.cursor = elements.length && onClick ? "pointer" : "default";
      },
    },
  });
  const ds = chart.data.datasets;
  canvas.dataset.labels = String(chart.data.labels?.length ?? 0);
  canvas.dataset.datasets = String(ds.length);
  canvas.dataset.bars = String(ds.reduce((n, d) => n + (d.data as unknown[]).filter((v) => v !== null && v !== undefined).length, 0));
  return chart;
}

const axisTitle = (text: string) => ({ display: true, text });

/** Grouped bars of one metric: x = CPU, one bar per variant stack. */
export function metricConfig(metric: string, results: RunResult[], profiles: CpuProfileFile[]): { config: ChartConfiguration; runAt: (c: ChartClick) => number } {
  const cpuKey = (c: RunResult["cpu"]): string => `${c.id}@${c.mhz}x${c.smp ?? 1}`;
  const cpus = [...new Map(results.map((r) => [cpuKey(r.cpu), r.cpu])).values()];
  const stacks = [...new Map(results.map((r) => [stackLabel(r.variants), r.variants])).keys()];
  const find = (ci: number, si: number): number =>
    results.findIndex((r) => cpuKey(r.cpu) === cpuKey(cpus[ci]!) && stackLabel(r.variants) === stacks[si]);
  const unit = results.flatMap((r) => r.metrics).find((m) => m.name === metric)?.unit ?? "";
  const short = cpus.map((c) => shortCpuLabel(c, profiles));
  const labels = new Set(short).size === short.length ? short : cpus.map((c) => cpuLabel(c, profiles));
  return {
    config: {
      type: "bar",
      data: {
        labels,
        datasets: stacks.map((s, si) => ({
          label: s,
          backgroundColor: color(si),
          data: cpus.map((_c, ci) => {
            const i = find(ci, si);
            return i < 0 ? null : (results[i]!.metrics.find((m) => m.name === metric)?.value ?? null);
          }),
        })),
      },
      options: {
        scales: { x: { title: axisTitle("CPU") }, y: { beginAtZero: true, title: axisTitle(unit ? `${metric} (${unit})` : metric) } },
        plugins: {
          tooltip: {
            callbacks: {
              title: (items) => (items[0] ? cpuLabel(cpus[items[0].dataIndex]!, profiles) : ""),
              // repetitions: the bar is the median; say the spread
              afterLabel: (item) => {
                const i = find(item.dataIndex, item.datasetIndex);
                const st = i < 0 ? null : metricStats(results[i]!, metric);
                return st ? `median of ${repeatCount(results[i]!)} seeds; min ${fmtNum(st.min)}, max ${fmtNum(st.max)}${unit ? ` ${unit}` : ""}` : "";
              },
            },
          },
        },
      },
    },
    runAt: (c) => find(c.index, c.datasetIndex),
  };
}

/**
 * How the phase chart scales each run's cycles: "run" (the total of the run), LOOP_NORM (each
 * loop the workload named ÷ its own count: loop-bars.ts) or the name of a numeric parameter to
 * divide by (e.g. "iterations": cycles per iteration, like the metrics).
 */
export type PhaseNorm = "run" | string;

/** The divisor of a run under `norm` (1 for "run", LOOP_NORM or when the run has no such positive number). */
export function normDivisor(r: RunResult, norm: PhaseNorm): number {
  if (norm === "run" || norm === LOOP_NORM) return 1;
  const v = r.params[norm];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 1;
}

/** What the phase chart can divide by: each named loop by its count (when every run named its loops), then the numeric parameters every run has with a positive value. */
export function normChoices(results: RunResult[]): string[] {
  const first = results[0];
  if (!first) return [];
  return [...(allNameLoops(results) ? [LOOP_NORM] : []), ...Object.keys(first.params).filter((k) => results.every((r) => typeof r.params[k] === "number" && (r.params[k] as number) > 0)).sort((a, b) => (a === "iterations" ? -1 : b === "iterations" ? 1 : a.localeCompare(b)))];
}

/** "per iteration" for "iterations", else "per <param>" */
export function normLabel(norm: PhaseNorm): string {
  if (norm === "run") return "per run";
  if (norm === LOOP_NORM) return "per iteration of each loop";
  return norm === "iterations" ? "per iteration" : `per ${norm.replace(/s$/, "")}`;
}

/** The phase chart's unit: simulated cycles, or µs (cycles ÷ the run's clock in MHz; clocks differ across CPUs). */
export type PhaseUnit = "cycles" | "us";

/** Runs up to which the phase chart stands its bars up; more lie down, one labelled row each (labels never overlap). */
export const UPRIGHT_BARS_MAX = 8;

/**
 * Stacked bars of cycles (or µs) per phase: one bar per run, phases grouped and coloured by
 * subsystem; under LOOP_NORM one bar per loop of each run (loop-bars.ts: each loop ÷ its own count,
 * then each loop less its overhead loop).
 */
export function phaseConfig(results: RunResult[], profiles: CpuProfileFile[], sweepParam?: string, norm: PhaseNorm = "run", unit: PhaseUnit = "cycles", facetCpu = false): { config: ChartConfiguration; phaseAt: (c: ChartClick) => { run: number; phase: string } } {
  const perUs = (r: RunResult): number => (unit === "us" ? r.cpu.mhz : 1);
  const loops = norm === LOOP_NORM;
  const bars = loops
    ? results.flatMap((r, run) => loopBars(r).map((b) => ({ run, phases: b.phases, divisor: perUs(r), loop: b.label })))
    : results.map((r, run) => ({ run, phases: r.phases, divisor: normDivisor(r, norm) * perUs(r), loop: undefined }));
  const phases = orderPhases([...new Set(bars.flatMap((b) => Object.keys(b.phases)))]);
  const colors = phaseColors(phases);
  const long = results.map((r) => runLabel(r, profiles, sweepParam));
  const what = unit === "us" ? "µs" : "cycles";
  const valueTitle = norm === "run" ? `${what} per run (total)` : loops ? `${what} per iteration (each loop ÷ its own count)` : `${what} ${normLabel(norm)} (÷ ${norm})`;
  // in a CPU's facet the CPU is the facet's title: a bar is named by its stack (and sweep value)
  const runLabels = facetCpu ? results.map((r) => [shortStackLabel(r.variants), ...(sweepParam !== undefined ? [`${sweepParam}=${String(r.params[sweepParam])}`] : [])].join(" · ")) : shortRunLabels(results, profiles, sweepParam);
  // a loop's bar: the loop's name over its run's label (two lines)
  const labels = bars.map((b) => (b.loop === undefined ? runLabels[b.run]! : [b.loop, runLabels[b.run]!]));
  const lying = bars.length > UPRIGHT_BARS_MAX;
  const runText = facetCpu ? (sweepParam ? `run (variant stack · ${sweepParam})` : "run (variant stack)") : sweepParam ? `run (CPU · variant stack · ${sweepParam})` : "run (CPU · variant stack)";
  const runTitle = axisTitle(loops ? `loop · ${runText}` : runText);
  const runAxis = { stacked: true, title: runTitle, ticks: lying ? { autoSkip: false } : { maxRotation: 30, autoSkip: false } };
  const valueAxis = { stacked: true, beginAtZero: true, title: axisTitle(valueTitle) };
  return {
    config: {
      type: "bar",
      data: {
        labels,
        datasets: phases.map((p) => ({ label: p, backgroundColor: colors.get(p)!, data: bars.map((b) => (b.phases[p] ?? 0) / b.divisor) })),
      },
      options: {
        ...(lying ? { indexAxis: "y" as const } : {}),
        scales: lying ? { y: runAxis, x: valueAxis } : { x: runAxis, y: valueAxis },
        plugins: {
          tooltip: { callbacks: { title: (items) => (items[0] ? [long[bars[items[0].dataIndex]!.run]!, bars[items[0].dataIndex]!.loop ?? ""].filter(Boolean).join(" · ") : "") } },
        },
      },
    },
    phaseAt: (c) => ({ run: bars[c.index]!.run, phase: phases[c.datasetIndex]! }),
  };
}

/**
 * Whether a sweep's values call for a log axis: all numbers above 0, spanning 16× or more, spaced
 * by ratios rather than differences (each step's ratio varies less than its difference).
 */
export function logSpaced(values: readonly unknown[]): boolean {
  const v = values.map(Number);
  if (v.length < 3 || v.some((x) => !Number.isFinite(x) || x <= 0)) return false;
  const s = [...v].sort((a, b) => a - b);
  if (s.at(-1)! / s[0]! < 16) return false;
  const spread = (xs: number[]): number => Math.max(...xs) / Math.min(...xs);
  const ratios = s.slice(1).map((x, i) => x / s[i]!);
  const diffs = s.slice(1).map((x, i) => x - s[i]!);
  return spread(ratios) < spread(diffs);
}

const POINT_STYLES = ["circle", "rect", "triangle", "rectRot", "crossRot", "star"] as const;

/** One line per CPU × stack over the swept parameter (per stack in a CPU's facet); a log-spaced sweep gets a log axis, labelled so. */
export function sweepConfig(metric: string, param: string, results: RunResult[], profiles: CpuProfileFile[], facetCpu = false): ChartConfiguration {
  const unit = results.flatMap((r) => r.metrics).find((m) => m.name === metric)?.unit ?? "";
  const values = [...new Set(results.map((r) => String(r.params[param])))];
  const series = new Map<string, RunResult[]>();
  for (const r of results) {
    const key = facetCpu ? stackLabel(r.variants) : `${cpuLabel(r.cpu, profiles)} · ${stackLabel(r.variants)}`;
    series.set(key, [...(series.get(key) ?? []), r]);
  }
  const log = logSpaced(values);
  const valueOf = (rs: RunResult[], v: string): number | null => rs.find((r) => String(r.params[param]) === v)?.metrics.find((m) => m.name === metric)?.value ?? null;
  return {
    type: "line",
    data: {
      labels: values,
      // coinciding lines stay apart: each series has its own marker, and every other one is dashed
      datasets: [...series].map(([label, rs], i) => ({
        label,
        borderColor: color(i),
        backgroundColor: color(i),
        pointStyle: POINT_STYLES[i % POINT_STYLES.length]!,
        pointRadius: 4,
        borderDash: i % 2 ? [6, 4] : [],
        data: (log ? values.map((v) => ({ x: Number(v), y: valueOf(rs, v) })) : values.map((v) => valueOf(rs, v))) as never,
      })),
    },
    options: {
      scales: {
        x: log ? { type: "logarithmic", title: axisTitle(`${param} (log scale)`), ticks: { callback: (v) => (values.includes(String(v)) ? String(v) : "") } } : { title: axisTitle(param) },
        y: { beginAtZero: true, title: axisTitle(unit ? `${metric} (${unit})` : metric) },
      },
    },
  };
}

/**
 * Histogram of one metric (histogram.ts): the distribution over the seeds of results made with
 * repetitions, one dataset per configuration; otherwise each run's per-iteration samples.
 */
export function histogramConfig(metric: string, results: RunResult[], profiles: CpuProfileFile[], bins = 30): ChartConfiguration | null {
  const hd = histogramData(metric, results, profiles, bins);
  if (!hd) return null;
  return {
    type: "bar",
    data: { labels: hd.labels, datasets: hd.datasets.map((d, i) => ({ label: d.label, backgroundColor: color(i), data: d.counts })) },
    options: {
      scales: { x: { title: axisTitle(hd.xTitle) }, y: { beginAtZero: true, title: axisTitle(hd.yTitle), ...(hd.seeds > 1 ? { ticks: { precision: 0 } } : {}) } },
    },
  };
}

/**
 * Per-task timeline of one run: floating horizontal bars, a dataset per activity kind; zoom and pan
 * on x. On an SMP machine (events carry `cpu`) there is a row per task and CPU it ran on
 * ("task 3 · CPU 1"), so a task that moved shows on each CPU's row.
 */
export function timelineConfig(result: RunResult, maxEvents = 1500): ChartConfiguration | null {
  const events = (result.timeline ?? []).slice(0, maxEvents);
  if (events.length === 0) return null;
  const smp = events.some((e) => e.cpu !== undefined);
  const rowOf = (e: { task: number; cpu?: number }): string => (smp ? `task ${e.task} · CPU ${e.cpu ?? 0}` : `task ${e.task}`);
  const rows = [...new Map(events.map((e) => [rowOf(e), [e.task, e.cpu ?? 0] as const])).entries()]
    .sort((a, b) => a[1][0] - b[1][0] || a[1][1] - b[1][1])
    .map(([label]) => label);
  const kinds = ["user", "kernel", "handler", "idle"] as const;
  return {
    type: "bar",
    data: {
      labels: rows,
      datasets: kinds.map((k, i) => ({
        label: k,
        backgroundColor: color(i),
        grouped: false,
        data: events.filter((e) => e.kind === k).map((e) => ({ x: [e.start, e.end], y: rowOf(e) })) as never,
      })),
    },
    plugins: [zoomPlugin],
    options: {
      indexAxis: "y",
      scales: { x: { type: "linear", title: axisTitle("simulated cycles since the run's start") }, y: { stacked: true, title: axisTitle(smp ? "task (pid) · CPU it ran on" : "task (pid)") } },
      plugins: {
        zoom: {
          // wheel or pinch zooms the cycle axis, drag pans it; limits keep the view inside the run
          zoom: { wheel: { enabled: true }, pinch: { enabled: true }, drag: { enabled: true, modifierKey: "shift" }, mode: "x" },
          pan: { enabled: true, mode: "x" },
          limits: { x: { min: "original", max: "original", minRange: 10 } },
        },
      },
    },
  };
}
