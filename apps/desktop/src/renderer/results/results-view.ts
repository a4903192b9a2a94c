/**
 * The results panel: charts (metrics, phases, sweep, histogram, timeline), findings with evidence,
 * the path inspector (op by op, every Linux function linked to its source), the path diff (one
 * kernel path in two runs, op by op) and a table. Tables copy as TSV; charts export as PNG/SVG.
 */
import type { Chart, ChartConfiguration } from "chart.js";
import type { CpuProfileFile, ExperimentConfig, Finding, PathStat, RunResult } from "../../common/contracts.js";
import { clear, fmt, h, toast } from "../ui/dom.js";
import { LOOP_NORM, loopBars, pickNorm } from "./loop-bars.js";
import { histogramConfig, isDark, makeChart, metricConfig, normChoices, normLabel, phaseConfig, repetitionsOf, sweepConfig, timelineConfig, UPRIGHT_BARS_MAX, type ChartClick, type PhaseNorm, type PhaseUnit } from "./charts.js";
import { shortCpuLabel } from "./labels.js";
import { PHASE_PALETTE } from "./palette.js";
import { renderBarFigure, runsFigure } from "@siglab/core/figure";
import { svgToPng } from "./slide-export.js";
import { runErrorLine } from "./errors.js";
import { runLabel } from "./labels.js";
import { counterpart, defaultPair, diffPath, pathSummary, type PathDiff } from "./path-diff.js";
import { metricStats } from "./repeat.js";
import { chartToSvg } from "./svg-export.js";
import { appWording } from "../sim-client.js";
import { variantNotices } from "./variant-notices.js";
import type { ParamValue } from "../../common/contracts.js";
import type { VariantEffectManifest } from "@siglab/core/common";

export interface ResultsHost {
  saveExport(name: string, data: string | Uint8Array): Promise<void>;
  /** The source link of a Linux function (the configured template), or null for no link. */
  sourceUrl(fn: string): string | null;
  /** Opens a validated https link outside the app (the host's narrow API). */
  openExternal(url: string): void;
  /** The phase chart's normalisation, remembered by the app. */
  phaseNorm: PhaseNorm;
  setPhaseNorm(norm: PhaseNorm): void;
  /** The phase chart's unit (cycles or µs), remembered by the app. */
  phaseUnit: PhaseUnit;
  setPhaseUnit(unit: PhaseUnit): void;
  /** results (or a run's first) are on show: the pane may take the room */
  shown(): void;
  /** A plugin's manifest (for why a variant had no effect, and the switch that makes it apply). */
  manifestOf?(id: string): VariantEffectManifest | undefined;
  /** Sets these options of every `variantId` in the run configuration and runs again. */
  applySwitch?(variantId: string, options: Record<string, ParamValue>): void;
}

type Tab = "charts" | "findings" | "inspector" | "diff" | "table";

/** A run that was refused before it started (a type error): shown instead of results. */
export interface Refusal {
  kind: string;
  line: string;
}

export class ResultsView {
  readonly el: HTMLElement;
  /** the tab bar (the app puts the status line at its end) */
  readonly bar: HTMLElement;
  private readonly body: HTMLElement;
  private readonly tabs: Record<Tab, HTMLButtonElement>;
  private charts: Chart[] = [];
  private results: RunResult[] = [];
  private profiles: CpuProfileFile[] = [];
  private config: ExperimentConfig | null = null;
  private refusal: Refusal | null = null;
  private tab: Tab = "charts";
  private inspect: { run: number; phase?: string; path?: string; filter?: string } | null = null;
  /** run A and run B; path of A, and the path of B it is compared with (default: its counterpart) */
  private diff: { a: number; b: number; path?: string; pathB?: string } | null = null;

  constructor(private readonly host: ResultsHost) {
    const tab = (t: Tab, label: string): HTMLButtonElement => h("button.tab", { role: "tab", "data-tab": t, onclick: () => this.show(t) }, label);
    this.tabs = { charts: tab("charts", "Charts"), findings: tab("findings", "Findings"), inspector: tab("inspector", "Path inspector"), diff: tab("diff", "Path diff"), table: tab("table", "Table") };
    this.body = h("div.results-body", { role: "tabpanel" });
    this.bar = h("div.tabs", { role: "tablist" }, Object.values(this.tabs));
    this.el = h("section.results#results", { "aria-label": "Results" }, this.bar, this.body);
    this.render();
  }

  setResults(results: RunResult[], config: ExperimentConfig | null, profiles: CpuProfileFile[]): void {
    this.results = results.filter(Boolean);
    this.config = config;
    this.profiles = profiles;
    this.refusal = null;
    if (this.inspect && this.inspect.run >= this.results.length) this.inspect = null;
    if (this.diff && (this.diff.a >= this.results.length || this.diff.b >= this.results.length)) this.diff = null;
    this.host.shown();
    this.render();
  }

  /** Nothing ran: show why (one line) and no charts. */
  setRefusal(r: Refusal): void {
    this.results = [];
    this.inspect = null;
    this.diff = null;
    this.refusal = r;
    this.render();
  }

  get currentResults(): RunResult[] {
    return this.results;
  }

  show(tab: Tab): void {
    this.tab = tab;
    this.render();
  }

  openInspector(run: number, phase?: string): void {
    this.inspect = { run, ...(phase ? { phase } : {}) };
    this.show("inspector");
  }

  openDiff(a: number, b: number, path?: string): void {
    this.diff = { a, b, ...(path ? { path } : {}) };
    this.show("diff");
  }

  /** A rendered chart by its data-chart id (for tests). */
  chart(chartId: string): Chart | undefined {
    return this.charts.find((c) => (c.canvas as HTMLCanvasElement).dataset.chart === chartId);
  }

  /** Client coordinates of a bar/point of a rendered chart (for tests), or null. */
  /** The dataset with the largest value at `index` (the tallest segment of a stacked bar), or -1. */
  largestDataset(chartId: string, index: number): number {
    const chart = this.chart(chartId);
    let best = -1;
    let value = -Infinity;
    chart?.data.datasets.forEach((d, i) => {
      const v = Number((d.data as unknown[])[index] ?? 0);
      if (v > value) {
        value = v;
        best = i;
      }
    });
    return best;
  }

  elementPoint(chartId: string, datasetIndex: number, index: number): { x: number; y: number } | null {
    const chart = this.chart(chartId);
    const el = chart?.getDatasetMeta(datasetIndex).data[index];
    if (!chart || !el) return null;
    const rect = chart.canvas.getBoundingClientRect();
    const p = el.getProps(["x", "y", "base"], true) as unknown as { x: number; y: number; base?: number };
    const y = p.base !== undefined && Number.isFinite(p.base) ? (p.y + p.base) / 2 : p.y;
    return { x: rect.left + p.x, y: rect.top + y };
  }

  private label(r: RunResult): string {
    return runLabel(r, this.profiles, this.config?.sweep?.param);
  }

  private render(): void {
    for (const c of this.charts) c.destroy();
    this.charts = [];
    clear(this.body);
    const findings = this.results.flatMap((r) => r.findings);
    this.tabs.findings.textContent = `Findings (${findings.length})`;
    this.tabs.findings.classList.toggle("alert", findings.some((f) => f.severity === "error"));
    for (const [t, b] of Object.entries(this.tabs)) b.setAttribute("aria-selected", String(t === this.tab));
    if (this.refusal) {
      this.body.append(h("div.run-errors", { role: "alert" }, h("div.run-error.refusal", { "data-kind": this.refusal.kind }, h("strong", null, "Not run: "), this.refusal.line)));
      return;
    }
    if (this.results.length === 0) {
      this.body.append(h("p.empty", null, "Run an experiment (Ctrl/Cmd+Enter) to see where the cycles go."));
      return;
    }
    const errors = this.results.filter((r) => r.error);
    if (errors.length) {
      this.body.append(
        h("div.run-errors", { role: "alert" }, errors.map((r) => h("div.run-error", { "data-kind": r.error!.kind }, errors.length > 1 || this.results.length > 1 ? h("strong", null, `${this.label(r)}: `) : null, runErrorLine(r.error!, appWording)))),
      );
    }
    const notices = variantNotices(this.results, (id) => this.host.manifestOf?.(id), this.host.applySwitch ? (id, o) => this.host.applySwitch!(id, o) : undefined);
    if (notices) this.body.append(notices);
    if (this.tab === "charts") this.renderCharts();
    else if (this.tab === "findings") this.renderFindings();
    else if (this.tab === "inspector") this.renderInspector();
    else if (this.tab === "diff") this.renderDiff();
    else this.renderTable();
  }

  // ---- charts -------------------------------------------------------------------------------------
  private chartCard(title: string, id: string, config: ChartConfiguration, onClick?: (c: ChartClick) => void, table?: () => string, extra?: (chart: Chart) => (HTMLElement | null)[]): HTMLElement {
    const canvas = h("canvas", { "data-chart": id, "aria-label": title, role: "img" });
    const card = h("figure.chart-card", { "data-chart-card": id }, h("figcaption", null, h("span.title", null, title)), h("div.chart-box", null, canvas));
    const chart = makeChart(canvas, config, onClick);
    this.charts.push(chart);
    card.append(chartLegend(chart));
    const safe = id.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 80);
    const actions = h(
      "span.actions",
      null,
      extra ? extra(chart) : null,
      h("button.small", { title: "Export PNG", onclick: () => void this.exportPng(chart, safe) }, "PNG"),
      h("button.small", { title: "Export SVG", onclick: () => void this.host.saveExport(`${safe}.svg`, chartToSvg(chart, title, isDark())) }, "SVG"),
      table ? h("button.small", { title: "Copy the data as a table", onclick: () => void copy(table()) }, "Copy") : null,
    );
    card.querySelector("figcaption")!.append(actions);
    return card;
  }

  /** "Slide": the metric as a slide figure (@siglab/core/figure, 1920×1080), saved as SVG and PNG. */
  private slideButton(metric: string, runs: RunResult[]): HTMLElement {
    const name = `${this.config?.workload.id ?? "results"}.${metric}`.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 80);
    return h("button.small", { "data-action": "slide", title: "Export as a slide figure: SVG and PNG at 1920×1080, Okabe–Ito colours, the unit on the axis", onclick: async () => {
      const { svg } = renderBarFigure(runsFigure(runs, metric, { ...(this.config?.sweep ? { sweepParam: this.config.sweep.param } : {}), profiles: this.profiles, title: `${metric}${this.config?.workload.id ? ` (${this.config.workload.id})` : ""}` }));
      await this.host.saveExport(`${name}.slide.svg`, svg);
      try {
        await this.host.saveExport(`${name}.slide.png`, await svgToPng(svg));
      } catch (err) {
        toast(`PNG export failed: ${(err as Error).message}`, "error");
      }
    } }, "Slide");
  }

  private async exportPng(chart: Chart, name: string): Promise<void> {
    const url = chart.toBase64Image("image/png", 1);
    const bin = atob(url.slice(url.indexOf(",") + 1));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    await this.host.saveExport(`${name}.png`, bytes);
  }

  private renderCharts(): void {
    // Failed runs draw no charts (their numbers stop wherever the failure came); the table keeps them.
    const okIndex = this.results.flatMap((r, i) => (r.error ? [] : [i]));
    const ok = okIndex.map((i) => this.results[i]!);
    if (ok.length === 0) {
      this.body.append(h("p.empty", null, "No run completed, so there is nothing to chart."));
      return;
    }
    const grid = h("div.chart-grid");
    this.body.append(grid);
    const metrics = [...new Set(ok.flatMap((r) => r.metrics.map((m) => m.name)))];
    const sweep = this.config?.sweep?.param;
    // "Where the cycles go" first: it is the chart the lab is about.
    const choices = normChoices(ok);
    const norm = pickNorm(this.host.phaseNorm, choices);
    const unit = this.host.phaseUnit;
    const normSelect = (): HTMLElement =>
      h("label.norm", { title: "Scale each run's cycles: the run's total, each loop the workload named ÷ its own count (and less its overhead loop: the metric), or divided by a parameter (cycles per iteration compare with the metrics)" }, "",
        h("select", { "aria-label": "Phase chart unit", "data-unit": unit, title: "Simulated cycles, or µs (each run's cycles ÷ its CPU's clock: cycles mislead across clocks)", onchange: (e: Event) => { this.host.setPhaseUnit((e.target as HTMLSelectElement).value as PhaseUnit); this.render(); } },
          h("option", { value: "cycles", selected: unit === "cycles" }, "cycles"),
          h("option", { value: "us", selected: unit === "us" }, "µs")),
        " ",
        h("select", { "aria-label": "Phase chart normalisation", "data-norm": norm, onchange: (e: Event) => { this.host.setPhaseNorm((e.target as HTMLSelectElement).value); this.render(); } },
          h("option", { value: "run", selected: norm === "run" }, "per run (total)"),
          choices.map((c) => h("option", { value: c, selected: norm === c }, c === LOOP_NORM ? "per iteration (each loop ÷ its count)" : `${normLabel(c)} (÷ ${c})`))));
    // many runs on several CPUs: a chart per CPU (facets), so each keeps room for its runs
    const cpuKey = (r: RunResult): string => `${r.cpu.id}@${r.cpu.mhz}x${r.cpu.smp ?? 1}`;
    const cpuKeys = [...new Set(ok.map(cpuKey))];
    const facets = cpuKeys.length > 1 && ok.length > UPRIGHT_BARS_MAX ? cpuKeys.map((k) => ({ key: k, runs: ok.flatMap((r, j) => (cpuKey(r) === k ? [j] : [])) })) : [{ key: "", runs: ok.map((_r, j) => j) }];
    for (const f of facets) {
      const runs = f.runs.map((j) => ok[j]!);
      const cpuName = f.key ? shortCpuLabel(runs[0]!.cpu, this.profiles) : "";
      const { config, phaseAt } = phaseConfig(runs, this.profiles, sweep, norm, unit, f.key !== "");
      const id = f.key ? `phases@${f.key}` : "phases";
      const card = this.chartCard(`Where the cycles go (by phase, ${normLabel(norm)}${unit === "us" ? ", µs" : ""})${cpuName ? ` — ${cpuName}` : ""}`, id, config, (c) => {
        const { run, phase } = phaseAt(c);
        this.openInspector(okIndex[f.runs[run]!]!, phase);
      }, () => (norm === LOOP_NORM ? this.loopTsv() : this.phaseTsv()), () => [normSelect()]);
      card.classList.add("phase-card");
      card.querySelector("canvas")!.dataset.palette = PHASE_PALETTE;
      // lying bars: a row per run, at a height its label reads at
      const bars = config.data.labels?.length ?? runs.length;
      if (bars > UPRIGHT_BARS_MAX) card.querySelector<HTMLElement>(".chart-box")!.style.height = `${Math.min(1400, 90 + 20 * bars)}px`;
      grid.append(card);
    }
    for (const m of metrics) {
      if (sweep) {
        for (const f of facets) {
          const runs = f.runs.map((j) => ok[j]!);
          const cpuName = f.key ? ` — ${shortCpuLabel(runs[0]!.cpu, this.profiles)}` : "";
          grid.append(this.chartCard(`${m} vs ${sweep}${cpuName}`, f.key ? `sweep:${m}@${f.key}` : `sweep:${m}`, sweepConfig(m, sweep, runs, this.profiles, f.key !== ""), undefined, () => this.metricTsv(m)));
        }
      } else {
        const { config, runAt } = metricConfig(m, ok, this.profiles);
        grid.append(
          this.chartCard(m, `metric:${m}`, config, (c) => {
            const run = runAt(c);
            if (run >= 0) this.openInspector(okIndex[run]!);
          }, () => this.metricTsv(m), () => [this.slideButton(m, ok)]),
        );
      }
    }
    for (const m of metrics) {
      const hc = histogramConfig(m, ok, this.profiles);
      const seeds = repetitionsOf(ok);
      if (hc) grid.append(this.chartCard(seeds > 1 ? `${m}: distribution over ${seeds} seeds` : `${m}: per-iteration histogram`, `histogram:${m}`, hc));
    }
    ok.forEach((r, j) => {
      const tc = timelineConfig(r);
      if (tc) {
        // the whole pane's width (cycles need it), a row per task and CPU at a readable height
        const rows = tc.data.labels?.length ?? 1;
        const card = this.chartCard(`Timeline: ${this.label(r)}`, `timeline:${okIndex[j]}`, tc, undefined, undefined, (chart) => [
          h("span.hint", null, "wheel: zoom · drag: pan"),
          h("button.small", { title: "Reset the timeline's zoom", "data-action": "reset-zoom", onclick: () => chart.resetZoom() }, "Reset zoom"),
        ]);
        card.querySelector<HTMLElement>(".chart-box")!.style.height = `${Math.min(480, Math.max(170, 110 + 30 * rows))}px`;
        grid.append(card);
      }
    });
  }

  // ---- findings -----------------------------------------------------------------------------------
  private renderFindings(): void {
    const list = h("div.findings#findings");
    this.body.append(list);
    let n = 0;
    this.results.forEach((r, run) => {
      for (const f of r.findings) {
        n++;
        list.append(this.findingCard(f, r, run));
      }
    });
    if (n === 0) list.append(h("p.empty", null, "No correctness violations: every checked invariant held in every run."));
  }

  private findingCard(f: Finding, r: RunResult, run: number): HTMLElement {
    const rows = Object.entries(f.evidence).map(([k, v]) => h("tr", null, h("th", null, k), h("td", null, h("code", null, typeof v === "string" ? v : JSON.stringify(v)))));
    return h(
      "article.finding",
      { "data-kind": f.kind, "data-severity": f.severity },
      h("header", null, h(`span.badge.${f.severity}`, null, f.severity), h("strong", null, f.kind), h("span.run", null, this.label(r))),
      h("p", null, f.message),
      h("table.evidence", null, h("tbody", null, rows)),
      h("button.small", { onclick: () => this.openInspector(run) }, "Inspect this run's paths"),
    );
  }

  // ---- links to the Linux source --------------------------------------------------------------------
  private fnCell(fn: string): HTMLElement {
    const url = this.host.sourceUrl(fn);
    if (!url) return h("code", null, fn);
    return h("a.src-link", {
      href: url, target: "_blank", rel: "noopener noreferrer", "data-fn": fn, title: `${fn} in the Linux source (${new URL(url).host})`,
      onclick: (e: Event) => { e.preventDefault(); this.host.openExternal(url); },
    }, h("code", null, fn));
  }

  private runSelect(value: number, label: string, onChange: (run: number) => void, attrs: Record<string, unknown> = {}): HTMLSelectElement {
    return h("select", { "aria-label": label, ...attrs, onchange: (e: Event) => onChange(Number((e.target as HTMLSelectElement).value)) },
      this.results.map((r, i) => h("option", { value: String(i), selected: i === value, disabled: !!r.error }, `${i + 1}. ${this.label(r)}${r.error ? " (failed)" : ""}`)));
  }

  // ---- path inspector -------------------------------------------------------------------------------
  private renderInspector(): void {
    const box = h("div.inspector#inspector");
    this.body.append(box);
    if (!this.inspect) {
      const first = this.results.findIndex((r) => !r.error);
      if (first < 0) {
        box.append(h("p.empty", null, "No run completed: there are no kernel paths to inspect."));
        return;
      }
      this.inspect = { run: first };
    }
    const r = this.results[this.inspect.run];
    if (!r) return;
    const { phase, filter } = this.inspect;
    box.dataset.run = String(this.inspect.run);
    if (phase) box.dataset.phase = phase;
    const needle = (filter ?? "").trim().toLowerCase();
    const paths = r.paths.filter((p) => (!phase || p.phase === phase) && (!needle || p.name.toLowerCase().includes(needle) || p.ops.some((o) => o.fn.toLowerCase().includes(needle)))).sort((a, b) => b.cycles - a.cycles);
    const selected = paths.find((p) => p.name === this.inspect!.path) ?? paths[0];
    const phaseSelect = h("select", { "aria-label": "Phase", onchange: (e: Event) => { const v = (e.target as HTMLSelectElement).value; this.inspect = { run: this.inspect!.run, ...(v ? { phase: v } : {}), ...(filter ? { filter } : {}) }; this.render(); } },
      h("option", { value: "" }, "all phases"),
      [...new Set(r.paths.map((p) => p.phase))].sort().map((p) => h("option", { value: p, selected: p === phase }, p)));
    const runSelect = this.runSelect(this.inspect.run, "Run", (run) => { this.inspect = { run, ...(phase ? { phase } : {}), ...(filter ? { filter } : {}) }; this.render(); }, { "data-inspect-run": "" });
    const search = h("input.text.path-filter", { type: "search", placeholder: "filter: path or function", value: filter ?? "", "aria-label": "Filter paths", onchange: (e: Event) => { this.inspect = { ...this.inspect!, filter: (e.target as HTMLInputElement).value }; delete this.inspect.path; this.render(); } });
    box.append(h("header", null, runSelect, " ", phaseSelect, " ", search, h("span.muted", null, ` ${paths.length} of ${r.paths.length} paths · ${fmt(phase ? (r.phases[phase] ?? 0) : r.totalCycles)} cycles`)));
    if (r.error) box.append(h("p.empty", null, "This run failed: its paths stop where the failure came."));
    const others = this.results.map((_x, i) => i).filter((i) => i !== this.inspect!.run && !this.results[i]!.error);
    const table = h("table.paths", null,
      h("thead", null, h("tr", null, ["path", "phase", "origin", "count", "cycles", "cycles/exec"].map((c) => h("th", null, c)))),
      h("tbody", null, paths.map((p) => h("tr", { class: p === selected ? "selected" : "", "data-path": p.name, onclick: () => { this.inspect = { ...this.inspect!, path: p.name }; this.render(); } },
        h("td", null, h("code", null, p.name)), h("td", null, p.phase), h("td", null, p.origin), h("td.num", null, fmt(p.count)), h("td.num", null, fmt(p.cycles)), h("td.num", null, fmt(p.count ? p.cycles / p.count : 0))))));
    box.append(h("div.inspector-split", null,
      h("div.path-list", null, h("div.table-actions", null, h("button.small", { onclick: () => void copy(this.pathsTsv(paths)) }, "Copy paths")), table,
        paths.length ? null : h("p.empty", null, `No kernel path${needle ? ` matching "${filter}"` : ""} was charged to ${phase ?? "this run"}.`)),
      selected ? this.opsTable(selected, others.length ? () => this.openDiff(this.inspect!.run, others[0]!, selected.name) : null) : null));
  }

  private opsTable(p: PathStat, diff: (() => void) | null): HTMLElement {
    const total = p.ops.reduce((s, o) => s + o.cycles, 0) || 1;
    return h("div.ops", { "data-ops-for": p.name },
      h("h3", null, h("code", null, p.name), ` — ${p.ops.length} op lines, ${fmt(total)} cycles per execution (${p.origin})`),
      h("div.table-actions", null, h("button.small", { onclick: () => void copy(this.opsTsv(p)) }, "Copy ops"), diff ? h("button.small", { "data-action": "diff-path", onclick: diff }, "Compare with another run…") : null),
      h("table.ops-table", null,
        h("thead", null, h("tr", null, ["#", "function", "op", "repeat", "cycles", "", "note"].map((c) => h("th", null, c)))),
        h("tbody", null, p.ops.map((o, i) => h("tr", null, h("td.num", null, i + 1), h("td", null, this.fnCell(o.fn)), h("td", null, h("code", null, o.op)), h("td.num", null, o.repeat), h("td.num", null, fmt(o.cycles)),
          h("td.bar", null, h("span", { style: { width: `${Math.max(1, (100 * o.cycles) / total)}%` } })), h("td", null, o.note ?? ""))))));
  }

  // ---- path diff -----------------------------------------------------------------------------------
  private renderDiff(): void {
    const box = h("div.path-diff#path-diff");
    this.body.append(box);
    const usable = this.results.filter((r) => !r.error).length;
    if (usable < 2) {
      box.append(h("p.empty", null, "Run at least two configurations (two variant stacks, or two CPUs) to compare a kernel path between them."));
      return;
    }
    if (!this.diff || this.results[this.diff.a]?.error || this.results[this.diff.b]?.error) {
      const ok = this.results.map((r, i) => (r.error ? -1 : i)).filter((i) => i >= 0);
      const pair = defaultPair(ok.map((i) => this.results[i]!))!;
      this.diff = { a: ok[pair[0]]!, b: ok[pair[1]]! };
    }
    const d = this.diff;
    const ra = this.results[d.a]!;
    const rb = this.results[d.b]!;
    const summary = pathSummary(ra, rb);
    const name = summary.some((s) => s.name === d.path) ? d.path! : summary[0]?.name;
    box.dataset.a = String(d.a);
    box.dataset.b = String(d.b);
    if (name) box.dataset.path = name;
    const swap = h("button.small", { title: "Swap A and B", "data-action": "swap", onclick: () => { this.diff = { a: d.b, b: d.a, ...(name ? { path: name } : {}) }; this.render(); } }, "⇄");
    box.append(h("header", null,
      h("label", null, "A ", this.runSelect(d.a, "Run A", (a) => { this.diff = { a, b: d.b, ...(name ? { path: name } : {}) }; this.render(); }, { "data-diff-run": "a" })), " ", swap, " ",
      h("label", null, "B ", this.runSelect(d.b, "Run B", (b) => { this.diff = { a: d.a, b, ...(name ? { path: name } : {}) }; this.render(); }, { "data-diff-run": "b" })),
      h("span.muted", null, " Δ = B − A, cycles per execution of the path")));
    if (d.a === d.b) box.append(h("p.muted", null, "A and B are the same run: pick two runs to see differences."));
    const sel = summary.find((s) => s.name === name);
    const pathRows = summary.map((s) => h("tr", { class: s === sel ? "selected" : "", "data-diff-path": s.name, title: `${s.phase}: A ran it ${s.a ? fmt(s.a.count) : 0}×, B ${s.b ? fmt(s.b.count) : 0}×`, onclick: () => { this.diff = { a: d.a, b: d.b, path: s.name }; this.render(); } },
      h("td", null, h("code", null, s.name)),
      h("td.num", null, s.a ? fmt(s.perExecA) : "—"), h("td.num", null, s.b ? fmt(s.perExecB) : "—"),
      deltaCell(s.perExecB - s.perExecA), deltaCell(s.totalDelta)));
    box.append(h("div.diff-split", null,
      h("div.path-list", null, h("table.paths.diff-paths", null,
        h("thead", null, h("tr", null, h("th", null, "path"), h("th", { title: "cycles per execution in A" }, "A/exec"), h("th", { title: "cycles per execution in B" }, "B/exec"), h("th", { title: "B − A per execution" }, "Δ/exec"), h("th", { title: "B − A, all executions of the run (count × per execution)" }, "Δ run"))),
        h("tbody", null, pathRows))),
      name ? this.opsDiffFor(ra, rb, name) : h("p.empty", null, "These runs charged no kernel path.")));
  }

  /** The op diff of A's path `name` against B's chosen path (its counterpart unless one was picked). */
  private opsDiffFor(ra: RunResult, rb: RunResult, name: string): HTMLElement {
    const d = this.diff!;
    // a path only B ran is compared with its counterpart in A, the other way round
    const inA = ra.paths.some((p) => p.name === name);
    const nameA = inA ? name : (counterpart(name, rb, ra) ?? name);
    const picked = d.pathB !== undefined && rb.paths.some((p) => p.name === d.pathB) ? d.pathB : null;
    const nameB = picked ?? (inA ? (counterpart(name, ra, rb) ?? name) : name);
    const pd = diffPath(ra, rb, nameA, nameB);
    const phase = (pd.a ?? pd.b)?.phase;
    const options = [...rb.paths].sort((x, y) => Number(y.phase === phase) - Number(x.phase === phase) || x.name.localeCompare(y.name));
    const pickB = h("select", { "aria-label": "Path of B", "data-diff-path-b": "", onchange: (e: Event) => { this.diff = { ...d, path: name, pathB: (e.target as HTMLSelectElement).value }; this.render(); } },
      rb.paths.some((p) => p.name === nameB) ? null : h("option", { value: nameB, selected: true }, `${nameB} (not run in B)`),
      options.map((p) => h("option", { value: p.name, selected: p.name === nameB }, `${p.name} (${p.phase})`)));
    return this.opsDiff(pd, nameA, nameB, pickB);
  }

  private opsDiff(pd: PathDiff, nameA: string, nameB: string, pickB: HTMLElement): HTMLElement {
    const pct = pd.perExecA ? ` (${pd.perExecB >= pd.perExecA ? "+" : ""}${(((pd.perExecB - pd.perExecA) / pd.perExecA) * 100).toFixed(1)} %)` : "";
    const side = (o: PathDiff["rows"][number]["a"]): HTMLElement[] => (o ? [h("td", null, this.fnCell(o.fn)), h("td", null, h("code", null, o.op)), h("td.num", null, o.repeat), h("td.num", null, fmt(o.cycles))] : [h("td.gap", { colspan: 4 }, "")]);
    const rows = pd.rows.map((r, i) => h("tr", { "data-kind": r.kind }, h("td.num", null, i + 1), ...side(r.a), h("td.sep"), ...side(r.b), deltaCell(r.delta)));
    return h("div.ops-diff", { "data-diff-for": nameA, "data-diff-for-b": nameB },
      h("h3", null, h("code", null, nameA), nameB !== nameA ? [" vs ", h("code", null, nameB)] : null, ` — A ${pd.a ? `${fmt(pd.perExecA)} cycles/exec` : "not run"}, B ${pd.b ? `${fmt(pd.perExecB)} cycles/exec` : "not run"}, Δ ${signed(pd.perExecB - pd.perExecA)}${pct}`),
      h("div.table-actions", null, h("label", null, "B's path ", pickB), " ", h("button.small", { onclick: () => void copy(this.diffTsv(pd)) }, "Copy diff")),
      h("table.ops-table.op-diff", null,
        h("thead", null,
          h("tr", null, h("th"), h("th", { colspan: 4 }, "A"), h("th.sep"), h("th", { colspan: 4 }, "B"), h("th")),
          h("tr", null, ["#", "function", "op", "repeat", "cycles", "", "function", "op", "repeat", "cycles", "Δ"].map((c) => h("th", null, c)))),
        h("tbody", null, rows)),
      h("h3", null, "By Linux function (cycles per execution)"),
      h("table.fn-diff", null,
        h("thead", null, h("tr", null, ["function", "A", "B", "Δ"].map((c) => h("th", null, c)))),
        h("tbody", null, pd.fns.map((f) => h("tr", { "data-fn": f.fn }, h("td", null, this.fnCell(f.fn)), h("td.num", null, fmt(f.a)), h("td.num", null, fmt(f.b)), deltaCell(f.delta))))));
  }

  // ---- table ----------------------------------------------------------------------------------------
  private renderTable(): void {
    const metrics = [...new Map(this.results.flatMap((r) => r.metrics.map((m) => [`${m.name} (${m.unit})`, m] as const))).entries()];
    // with repetitions every metric has min, median and max over the seeds (the value is the median)
    const seeds = repetitionsOf(this.results);
    const stats = seeds > 1 ? (["min", "median", "max"] as const) : null;
    const metricHead = metrics.flatMap(([key, m]) => (stats ? stats.map((st) => `${m.name} ${st} (${m.unit})`) : [key]));
    const head = ["run", ...(stats ? ["seeds"] : []), ...metricHead, "total cycles", "sim seconds", "findings"];
    const cells = (r: RunResult): { v: string | number; metric?: string; stat?: string }[] => {
      const out: { v: string | number; metric?: string; stat?: string }[] = [];
      for (const [key, m] of metrics) {
        const x = r.metrics.find((y) => `${y.name} (${y.unit})` === key);
        if (!stats) out.push({ v: x?.value ?? "", metric: m.name });
        else {
          const st = x ? metricStats(r, m.name) : null;
          for (const k of stats) out.push({ v: st ? st[k] : k === "median" ? (x?.value ?? "") : "", metric: m.name, stat: k });
        }
      }
      return out;
    };
    const rows = this.results.map((r) => [{ v: this.label(r) }, ...(stats ? [{ v: seedRange(r) }] : []), ...cells(r), { v: r.totalCycles }, { v: r.simSeconds }, { v: r.findings.length }]);
    this.body.append(
      h("div.table-actions", null, h("button.small", { onclick: () => void copy(toTsv([head, ...rows.map((row) => row.map((c) => c.v))])) }, "Copy table")),
      h("table.results-table", { "data-repetitions": String(seeds) }, h("thead", null, h("tr", null, head.map((c) => h("th", null, c)))),
        h("tbody", null, rows.map((row, ri) => h("tr", null, row.map((c: { v: string | number; metric?: string; stat?: string }, i) =>
          h(i === 0 ? "td" : "td.num", { ...(c.metric ? { "data-metric": c.metric } : {}), ...(c.stat ? { "data-stat": c.stat, "data-value": String(c.v) } : {}) }, typeof c.v === "number" ? fmt(c.v, 6) : String(c.v),
            i === 0 && isCached(this.results[ri]!) ? h("span.badge.cached", { title: "Read from the result cache: an identical run (same workload, configuration, plugins, profiles and simulator) was simulated before" }, "cached") : null)))))),
    );
    const counters = [...new Set(this.results.flatMap((r) => Object.keys(r.counters)))].sort();
    if (counters.length) {
      this.body.append(h("h3", null, "Counters"), h("table.results-table", null,
        h("thead", null, h("tr", null, h("th", null, "counter"), this.results.map((r) => h("th", null, this.label(r))))),
        h("tbody", null, counters.map((c) => h("tr", null, h("td", null, c), this.results.map((r) => h("td.num", null, fmt(r.counters[c] ?? 0))))))));
    }
  }

  private metricTsv(metric: string): string {
    if (repetitionsOf(this.results) > 1) {
      return toTsv([["run", "seeds", `${metric} median`, "min", "max", "unit"], ...this.results.map((r) => {
        const m = r.metrics.find((x) => x.name === metric);
        const st = metricStats(r, metric);
        return [this.label(r), seedRange(r), m?.value ?? "", st?.min ?? "", st?.max ?? "", m?.unit ?? ""];
      })]);
    }
    return toTsv([["run", metric, "unit"], ...this.results.map((r) => { const m = r.metrics.find((x) => x.name === metric); return [this.label(r), m?.value ?? "", m?.unit ?? ""]; })]);
  }

  private phaseTsv(): string {
    const phases = [...new Set(this.results.flatMap((r) => Object.keys(r.phases)))].sort();
    return toTsv([["run", ...phases], ...this.results.map((r) => [this.label(r), ...phases.map((p) => r.phases[p] ?? 0)])]);
  }

  /** The loops mode's data: a row per loop bar of each run, cycles per iteration by phase. */
  private loopTsv(): string {
    const rows = this.results.flatMap((r) => loopBars(r).map((b) => ({ run: this.label(r), ...b })));
    const phases = [...new Set(rows.flatMap((b) => Object.keys(b.phases)))].sort();
    return toTsv([["run", "loop", ...phases], ...rows.map((b) => [b.run, b.label, ...phases.map((p) => b.phases[p] ?? 0)])]);
  }

  private pathsTsv(paths: PathStat[]): string {
    return toTsv([["path", "phase", "origin", "count", "cycles"], ...paths.map((p) => [p.name, p.phase, p.origin, p.count, p.cycles])]);
  }

  private opsTsv(p: PathStat): string {
    return toTsv([["function", "op", "repeat", "cycles", "note"], ...p.ops.map((o) => [o.fn, o.op, o.repeat, o.cycles, o.note ?? ""])]);
  }

  private diffTsv(pd: PathDiff): string {
    return toTsv([["A function", "A op", "A repeat", "A cycles", "B function", "B op", "B repeat", "B cycles", "delta"],
      ...pd.rows.map((r) => [r.a?.fn ?? "", r.a?.op ?? "", r.a?.repeat ?? "", r.a?.cycles ?? "", r.b?.fn ?? "", r.b?.op ?? "", r.b?.repeat ?? "", r.b?.cycles ?? "", r.delta])]);
  }
}

/** "1..5" for a run repeated with seeds 1 to 5, the seed of a plain run. */
function seedRange(r: RunResult): string {
  const seeds = (r as { repeat?: { seeds?: number[] } }).repeat?.seeds;
  return seeds && seeds.length > 1 ? `${seeds[0]}..${seeds.at(-1)}` : String(r.seed);
}

function signed(n: number): string {
  return n > 0 ? `+${fmt(n)}` : n < 0 ? `−${fmt(-n)}` : "0";
}

function deltaCell(n: number): HTMLElement {
  return h("td.num.delta", { class: n > 0 ? "up" : n < 0 ? "down" : "", "data-delta": String(n) }, signed(n));
}

export function toTsv(rows: (string | number)[][]): string {
  return rows.map((r) => r.map((c) => String(c).replace(/[\t\n]/g, " ")).join("\t")).join("\n") + "\n";
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast("Copied to the clipboard (tab-separated)");
  } catch (err) {
    toast(`Copy failed: ${(err as Error).message}`, "error");
  }
}

/**
 * A chart's legend outside its plot: the series as checkboxes (a series picker: untick to hide),
 * wrapping, and scrolling past a few lines, with "all" and "none".
 */
function chartLegend(chart: Chart): HTMLElement {
  const boxes: HTMLInputElement[] = [];
  const set = (i: number, on: boolean): void => {
    chart.setDatasetVisibility(i, on);
    boxes[i]!.checked = on;
  };
  const items = chart.data.datasets.map((d, i) => {
    const color = String(Array.isArray(d.backgroundColor) ? d.backgroundColor[0] : (d.backgroundColor ?? d.borderColor ?? "#888"));
    const box = h("input", { type: "checkbox", checked: chart.isDatasetVisible(i), "aria-label": `show ${String(d.label ?? "")}`, onchange: (e: Event) => { set(i, (e.target as HTMLInputElement).checked); chart.update(); } }) as HTMLInputElement;
    boxes.push(box);
    return h("label.legend-item", { "data-series": String(d.label ?? ""), title: String(d.label ?? "") }, box, h("span.swatch", { style: `background:${color}` }), String(d.label ?? ""));
  });
  const all = (on: boolean) => () => {
    chart.data.datasets.forEach((_d, i) => set(i, on));
    chart.update();
  };
  const controls = items.length > 3 ? [h("button.link", { onclick: all(true), title: "Show every series" }, "all"), h("button.link", { onclick: all(false), title: "Hide every series" }, "none")] : [];
  return h("div.chart-legend", { role: "group", "aria-label": "Series (untick to hide)" }, controls, items);
}

/** A result the result cache answered (the host marks it `cached: true`). */
function isCached(r: RunResult): boolean {
  return (r as RunResult & { cached?: boolean }).cached === true;
}
