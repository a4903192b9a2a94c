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
import { cpuLabel, runLabel, shortCpuLabel, shortRunLabels, stackLabel } from "./labels.js";
import { orderPhases, phaseColors } from "./palette.js";
import { fmtNum, histogramData } from "./histogram.js";
import { metricStats, repeatCount } from "./repeat.js";

export { repetitionsOf } from "./histogram.js";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);
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
          legend: { position: "bottom" },
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
 * How the phase chart scales each run's cycles: "run" (the total of the run) or the name of a
 * numeric parameter to divide by (e.g. "iterations": cycles per iteration, like the metrics).
 */
export type PhaseNorm = "run" | string;

/** The divisor of a run under `norm` (1 for "run" or when the run has no such positive number). */
export function normDivisor(r: RunResult, norm: PhaseNorm): number {
  if (norm === "run") return 1;
  const v = r.params[norm];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 1;
}

/** Numeric parameters every run has with a positive value: what the phase chart can divide by. */
export function normChoices(results: RunResult[]): string[] {
  const first = results[0];
  if (!first) return [];
  return Object.keys(first.params).filter((k) => results.every((r) => typeof r.params[k] === "number" && (r.params[k] as number) > 0)).sort((a, b) => (a === "iterations" ? -1 : b === "iterations" ? 1 : a.localeCompare(b)));
}

/** "per iteration" for "iterations", else "per <param>" */
export function normLabel(norm: PhaseNorm): string {
  if (norm === "run") return "per run";
  return norm === "iterations" ? "per iteration" : `per ${norm.replace(/s$/, "")}`;
}

/** Stacked bars of cycles per phase: one bar per run, phases grouped and coloured by subsystem. */
export function phaseConfig(results: RunResult[], profiles: CpuProfileFile[], sweepParam?: string, norm: PhaseNorm = "run"): { config: ChartConfiguration; phaseAt: (c: ChartClick) => { run: number; phase: string } } {
  const phases = orderPhases([...new Set(results.flatMap((r) => Object.keys(r.phases)))]);
  const colors = phaseColors(phases);
  const long = results.map((r) => runLabel(r, profiles, sweepParam));
  const divisors = results.map((r) => normDivisor(r, norm));
  const yTitle = norm === "run" ? "cycles per run (total)" : `cycles ${normLabel(norm)} (÷ ${norm})`;
  return {
    config: {
      type: "bar",
      data: {
        labels: shortRunLabels(results, profiles, sweepParam),
        datasets: phases.map((p) => ({ label: p, backgroundColor: colors.get(p)!, data: results.map((r, i) => (r.phases[p] ?? 0) / divisors[i]!) })),
      },
      options: {
        scales: {
          x: { stacked: true, title: axisTitle(sweepParam ? `run (CPU · variant stack · ${sweepParam})` : "run (CPU · variant stack)"), ticks: { maxRotation: 30, autoSkip: false } },
          y: { stacked: true, beginAtZero: true, title: axisTitle(yTitle) },
        },
        plugins: {
          legend: { position: "right", labels: { boxWidth: 12, font: { size: 11 } } },
          tooltip: { callbacks: { title: (items) => (items[0] ? long[items[0].dataIndex]! : "") } },
        },
      },
    },
    phaseAt: (c) => ({ run: c.index, phase: phases[c.datasetIndex]! }),
  };
}

/** One line per CPU × stack over the swept parameter. */
export function sweepConfig(metric: string, param: string, results: RunResult[], profiles: CpuProfileFile[]): ChartConfiguration {
  const unit = results.flatMap((r) => r.metrics).find((m) => m.name === metric)?.unit ?? "";
  const values = [...new Set(results.map((r) => String(r.params[param])))];
  const series = new Map<string, RunResult[]>();
  for (const r of results) {
    const key = `${cpuLabel(r.cpu, profiles)} · ${stackLabel(r.variants)}`;
    series.set(key, [...(series.get(key) ?? []), r]);
  }
  return {
    type: "line",
    data: {
      labels: values,
      datasets: [...series].map(([label, rs], i) => ({
        label,
        borderColor: color(i),
        backgroundColor: color(i),
        data: values.map((v) => rs.find((r) => String(r.params[param]) === v)?.metrics.find((m) => m.name === metric)?.value ?? null),
      })),
    },
    options: { scales: { x: { title: axisTitle(param) }, y: { beginAtZero: true, title: axisTitle(unit ? `${metric} (${unit})` : metric) } }, plugins: { legend: { position: "bottom" } } },
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
      plugins: { legend: { position: "bottom" } },
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
        legend: { position: "bottom" },
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
