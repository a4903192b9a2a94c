/**
 * Read-mostly hooks for end-to-end tests and the benchmark (`window.__siglabTest`): editor markers,
 * the editor text, where a chart element is on screen (the test then clicks there with the real
 * mouse), what a chart shows, the run configuration, the last shared link, the LMbench summary and
 * the execution host itself.
 */
import type { ExperimentConfig } from "../common/contracts.js";
import { monaco, workloadDeclarations } from "./monaco-setup.js";
import type { ResultsView } from "./results/results-view.js";
import type { SimClient } from "./sim-client.js";
import type { RunConfigState, RunConfigView } from "./ui/run-config.js";
import type { ShareActions } from "./ui/share-actions.js";
import type { SummaryView } from "./ui/summary-view.js";

export interface HookedParts {
  editor: () => monaco.editor.IStandaloneCodeEditor;
  results: ResultsView;
  sim: SimClient;
  runConfig: RunConfigView;
  share: ShareActions;
  summary: SummaryView;
}

export function exposeTestHooks(p: HookedParts): void {
  const editor = p.editor;
  (window as unknown as { __siglabTest: unknown }).__siglabTest = {
    markers: () => monaco.editor.getModelMarkers({ resource: editor().getModel()?.uri }).map((m) => ({ message: m.message, severity: m.severity, startLineNumber: m.startLineNumber })),
    source: () => editor().getValue(),
    /** where the TypeScript worker finds the open workload's `workload()` declared (once, whatever Monaco opened) */
    workloadDeclarations: () => workloadDeclarations(editor().getModel()!),
    setSource: (text: string) => editor().getModel()?.setValue(text),
    elementPoint: (chartId: string, datasetIndex: number, index: number) => p.results.elementPoint(chartId, datasetIndex, index),
    /** the tallest segment of a stacked bar (a click lands on it whatever the phase mix) */
    largestDataset: (chartId: string, index: number) => p.results.largestDataset(chartId, index),
    /** the results on screen, as the execution host returned them */
    results: () => p.results.currentResults,
    /** milliseconds from creating each sandbox worker to its "ready" */
    workerStarts: () => [...p.sim.workerStarts],
    /** requests sent to sandbox workers so far: none until something is run */
    sandboxRequests: () => p.sim.sandboxRequests,
    /** what a rendered chart shows: its x labels, axis titles, dataset colours and sums of numeric data (a histogram's count), and each bar's stack (the sum over datasets at each label) */
    chartInfo: (chartId: string) => {
      const c = p.results.chart(chartId);
      if (!c) return null;
      const title = (axis: string): string => String((c.options.scales?.[axis] as { title?: { text?: string } } | undefined)?.title?.text ?? "");
      return { labels: (c.data.labels ?? []).map(String), xTitle: title("x"), yTitle: title("y"), datasets: c.data.datasets.map((d) => ({ label: String(d.label ?? ""), color: String(d.backgroundColor ?? ""), total: (d.data as unknown[]).reduce<number>((n, v) => n + (typeof v === "number" ? v : 0), 0) })), stacks: (c.data.labels ?? []).map((_l, i) => c.data.datasets.reduce((n, d) => n + (typeof d.data[i] === "number" ? (d.data[i] as number) : 0), 0)) };
    },
    /**
     * Where a rendered chart's parts are on screen (client px): its card, canvas, plot area and
     * legend; per axis its type, title, font size and tick positions; which series are hidden.
     */
    chartLayout: (chartId: string) => {
      const c = p.results.chart(chartId);
      if (!c) return null;
      const box = (e: Element): { x: number; y: number; w: number; h: number } => {
        const r = e.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height };
      };
      const canvas = c.canvas as HTMLCanvasElement;
      const card = canvas.closest(".chart-card")!;
      const legend = card.querySelector(".chart-legend");
      const cr = canvas.getBoundingClientRect();
      const a = c.chartArea;
      return {
        card: box(card), canvas: box(canvas), legend: legend ? box(legend) : null,
        area: { x: cr.left + a.left, y: cr.top + a.top, w: a.right - a.left, h: a.bottom - a.top },
        indexAxis: c.options.indexAxis ?? "x",
        palette: canvas.dataset.palette ?? null,
        hidden: c.data.datasets.map((_d, i) => !c.isDatasetVisible(i)),
        markers: c.data.datasets.map((d) => `${String((d as { pointStyle?: unknown }).pointStyle ?? "")}${((d as { borderDash?: number[] }).borderDash ?? []).length ? " dashed" : ""}`),
        scales: Object.values(c.scales).map((sc) => ({
          id: sc.id, type: sc.type, horizontal: sc.isHorizontal(),
          title: String((sc.options as { title?: { text?: string } }).title?.text ?? ""),
          font: Number((sc.options as { ticks?: { font?: { size?: number } } }).ticks?.font?.size ?? 12),
          ticks: sc.ticks.map((t, i) => ({ label: String(t.label ?? ""), pos: sc.getPixelForTick(i) })),
        })),
      };
    },
    /** zoom level of a rendered chart (1 = not zoomed) */
    chartZoom: (chartId: string) => p.results.chart(chartId)?.getZoomLevel() ?? null,
    /** the last link "Copy link" made */
    shareLink: () => p.share.lastLink,
    /** the run configuration as the panel holds it */
    runConfig: () => JSON.parse(JSON.stringify(p.runConfig.state)) as RunConfigState,
    /** the LMbench summary: load a probe's JSON text (returns the problem or null), and what the table holds */
    summary: {
      loadProbe: (text: string) => p.summary.loadProbe(text, "probe.json"),
      probeHost: () => p.summary.probeHost,
      /** the figure view's SVG and layout (plots, legend, label boxes), or null */
      figure: () => p.summary.figure.current,
      /** the figure as PNG bytes (the canvas at slide resolution): their length and the PNG's width and height */
      figurePng: async () => {
        const b = await p.summary.figure.png();
        const dv = new DataView(b.buffer, b.byteOffset);
        return { bytes: b.length, width: dv.getUint32(16), height: dv.getUint32(20) };
      },
    },
    /** the app's execution host itself (the security corpus runs through it) */
    host: {
      run: (config: ExperimentConfig) => p.sim.run(config, [], [], { onProgress: () => undefined, onResult: () => undefined }),
      reset: () => p.sim.reset(),
    },
  };
}
