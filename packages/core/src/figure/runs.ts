/**
 * Any set of runs as a slide figure: one metric as grouped bars, a group per CPU, a bar per variant
 * stack (and sweep value), in the metric's unit — the app's metric charts at slide resolution
 * through the same renderer as the LMbench figure.
 */
import type { RunResult } from "../common/index.js";
import type { BarFigure, BarGroup } from "./bar-figure.js";
import { shortCpuLabel, stackLabel } from "./labels.js";

/** "us" → "µs"; other units as they are ("" → "value"). */
export function unitLabel(unit: string): string {
  return unit === "us" ? "µs" : unit || "value";
}

/** The figure of `metric` over `results` (failed runs and runs without the metric are left out). */
export function runsFigure(results: readonly RunResult[], metric: string, opts: { title?: string; sweepParam?: string; profiles?: readonly { id: string; name?: string }[] } = {}): BarFigure {
  const ok = results.filter((r) => !r.error && r.metrics.some((m) => m.name === metric));
  const unit = ok.flatMap((r) => r.metrics).find((m) => m.name === metric)?.unit ?? "";
  const seriesOf = (r: RunResult): string => [stackLabel(r.variants), ...(opts.sweepParam !== undefined ? [`${opts.sweepParam}=${String(r.params[opts.sweepParam])}`] : [])].join(" · ");
  const cpuKey = (r: RunResult): string => `${r.cpu.id}@${r.cpu.mhz}x${r.cpu.smp ?? 1}`;
  const series = [...new Set(ok.map(seriesOf))];
  const cpus = [...new Map(ok.map((r) => [cpuKey(r), r.cpu])).entries()];
  const groups: BarGroup[] = cpus.map(([key, cpu]) => ({
    label: shortCpuLabel(cpu, opts.profiles),
    bars: ok.filter((r) => cpuKey(r) === key).map((r) => ({ series: seriesOf(r), value: r.metrics.find((m) => m.name === metric)!.value, title: `${r.cpu.id}@${r.cpu.mhz}, ${seriesOf(r)}, seed ${r.seed}` })),
  }));
  return {
    title: opts.title ?? metric,
    subtitle: `${ok.length} run${ok.length === 1 ? "" : "s"}: ${groups.map((g) => g.label).join(", ")} · ${series.length} variant stack${series.length === 1 ? "" : "s"}${opts.sweepParam ? ` × ${opts.sweepParam}` : ""}`,
    quantity: metric,
    unit: unitLabel(unit),
    series: series.map((id) => ({ id, label: `simulated, ${id}` })),
    facets: [{ label: "", groups }],
    notes: [`Simulated by SigLab on a simulated Linux 2.4. Colours: Okabe–Ito.`],
  };
}
