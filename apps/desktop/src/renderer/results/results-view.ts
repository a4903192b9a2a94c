/**
 * The results panel: charts (metrics, phases, sweep, histogram, timeline), findings with evidence,
 * the path inspector (op by op) and a table. Tables copy as TSV; charts export as PNG/SVG.
 */
import type { Chart, ChartConfiguration } from "chart.js";
import type { CpuProfileFile, ExperimentConfig, Finding, PathStat, RunResult } from "../../common/contracts.js";
import { clear, fmt, h, toast } from "../ui/dom.js";
import { histogramConfig, isDark, makeChart, metricConfig, phaseConfig, sweepConfig, timelineConfig, type ChartClick } from "./charts.js";
import { runLabel } from "./labels.js";
import { chartToSvg } from "./svg-export.js";
import { appWording } from "../sim-client.js";

export interface ResultsHost {
  saveExport(name: string, data: string | Uint8Array): Promise<void>;
}

type Tab = "charts" | "findings" | "inspector" | "table";

export class ResultsView {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private readonly tabs: Record<Tab, HTMLButtonElement>;
  private charts: Chart[] = [];
  private results: RunResult[] = [];
  private profiles: CpuProfileFile[] = [];
  private config: ExperimentConfig | null = null;
  private tab: Tab = "charts";
  private inspect: { run: number; phase?: string; path?: string } | null = null;

  constructor(private readonly host: ResultsHost) {
    const tab = (t: Tab, label: string): HTMLButtonElement => h("button.tab", { role: "tab", "data-tab": t, onclick: () => this.show(t) }, label);
    this.tabs = { charts: tab("charts", "Charts"), findings: tab("findings", "Findings"), inspector: tab("inspector", "Path inspector"), table: tab("table", "Table") };
    this.body = h("div.results-body", { role: "tabpanel" });
    this.el = h("section.results#results", { "aria-label": "Results" }, h("div.tabs", { role: "tablist" }, Object.values(this.tabs)), this.body);
    this.render();
  }

  setResults(results: RunResult[], config: ExperimentConfig | null, profiles: CpuProfileFile[]): void {
    this.results = results.filter(Boolean);
    this.config = config;
    this.profiles = profiles;
    if (this.inspect && this.inspect.run >= this.results.length) this.inspect = null;
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

  /** Client coordinates of a bar/point of a rendered chart (for tests), or null. */
  elementPoint(chartId: string, datasetIndex: number, index: number): { x: number; y: number } | null {
    const chart = this.charts.find((c) => (c.canvas as HTMLCanvasElement).dataset.chart === chartId);
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
    if (this.results.length === 0) {
      this.body.append(h("p.empty", null, "Run an experiment (Ctrl/Cmd+Enter) to see where the cycles go."));
      return;
    }
    const errors = this.results.filter((r) => r.error);
    if (errors.length) {
      this.body.append(
        h("div.run-errors", { role: "alert" }, errors.map((r) => h("div.run-error", { "data-kind": r.error!.kind }, h("strong", null, `${this.label(r)}: ${r.error!.kind} error`), ` ${errorText(r.error!)}`))),
      );
    }
    if (this.tab === "charts") this.renderCharts();
    else if (this.tab === "findings") this.renderFindings();
    else if (this.tab === "inspector") this.renderInspector();
    else this.renderTable();
  }

  // ---- charts -------------------------------------------------------------------------------------
  private chartCard(title: string, id: string, config: ChartConfiguration, onClick?: (c: ChartClick) => void, table?: () => string): HTMLElement {
    const canvas = h("canvas", { "data-chart": id, "aria-label": title, role: "img" });
    const card = h("figure.chart-card", { "data-chart-card": id }, h("figcaption", null, h("span.title", null, title)), h("div.chart-box", null, canvas));
    const chart = makeChart(canvas, config, onClick);
    this.charts.push(chart);
    const safe = id.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 80);
    const actions = h(
      "span.actions",
      null,
      h("button.small", { title: "Export PNG", onclick: () => void this.exportPng(chart, safe) }, "PNG"),
      h("button.small", { title: "Export SVG", onclick: () => void this.host.saveExport(`${safe}.svg`, chartToSvg(chart, title, isDark())) }, "SVG"),
      table ? h("button.small", { title: "Copy the data as a table", onclick: () => void copy(table()) }, "Copy") : null,
    );
    card.querySelector("figcaption")!.append(actions);
    return card;
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
    const { config, phaseAt } = phaseConfig(ok, this.profiles, sweep);
    grid.append(this.chartCard("Where the cycles go (by phase)", "phases", config, (c) => {
      const { run, phase } = phaseAt(c);
      this.openInspector(okIndex[run]!, phase);
    }, () => this.phaseTsv()));
    for (const m of metrics) {
      if (sweep) {
        grid.append(this.chartCard(`${m} vs ${sweep}`, `sweep:${m}`, sweepConfig(m, sweep, ok, this.profiles), undefined, () => this.metricTsv(m)));
      } else {
        const { config, runAt } = metricConfig(m, ok, this.profiles);
        grid.append(
          this.chartCard(m, `metric:${m}`, config, (c) => {
            const run = runAt(c);
            if (run >= 0) this.openInspector(okIndex[run]!);
          }, () => this.metricTsv(m)),
        );
      }
    }
    for (const m of metrics) {
      const hc = histogramConfig(m, ok, this.profiles);
      if (hc) grid.append(this.chartCard(`${m}: per-iteration histogram`, `histogram:${m}`, hc));
    }
    ok.forEach((r, j) => {
      const tc = timelineConfig(r);
      if (tc) grid.append(this.chartCard(`Timeline: ${this.label(r)}`, `timeline:${okIndex[j]}`, tc));
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

  // ---- path inspector -------------------------------------------------------------------------------
  private renderInspector(): void {
    const box = h("div.inspector#inspector");
    this.body.append(box);
    if (!this.inspect) {
      box.append(h("p.empty", null, "Click a bar segment in a chart to open the kernel paths behind it."));
      return;
    }
    const r = this.results[this.inspect.run];
    if (!r) return;
    const { phase } = this.inspect;
    box.dataset.run = String(this.inspect.run);
    if (phase) box.dataset.phase = phase;
    const paths = r.paths.filter((p) => !phase || p.phase === phase).sort((a, b) => b.cycles - a.cycles);
    const selected = paths.find((p) => p.name === this.inspect!.path) ?? paths[0];
    const phaseSelect = h("select", { "aria-label": "Phase", onchange: (e: Event) => { this.inspect = { run: this.inspect!.run, ...((e.target as HTMLSelectElement).value ? { phase: (e.target as HTMLSelectElement).value } : {}) }; this.render(); } },
      h("option", { value: "" }, "all phases"),
      [...new Set(r.paths.map((p) => p.phase))].sort().map((p) => h("option", { value: p, selected: p === phase }, p)));
    box.append(h("header", null, h("strong", null, this.label(r)), " ", phaseSelect, h("span.muted", null, ` ${fmt(r.phases[phase ?? ""] ?? r.totalCycles)} cycles`)));
    const table = h("table.paths", null,
      h("thead", null, h("tr", null, ["path", "phase", "origin", "count", "cycles", "cycles/exec"].map((c) => h("th", null, c)))),
      h("tbody", null, paths.map((p) => h("tr", { class: p === selected ? "selected" : "", "data-path": p.name, onclick: () => { this.inspect = { ...this.inspect!, path: p.name }; this.render(); } },
        h("td", null, h("code", null, p.name)), h("td", null, p.phase), h("td", null, p.origin), h("td.num", null, fmt(p.count)), h("td.num", null, fmt(p.cycles)), h("td.num", null, fmt(p.count ? p.cycles / p.count : 0))))));
    box.append(h("div.table-actions", null, h("button.small", { onclick: () => void copy(this.pathsTsv(paths)) }, "Copy paths")), table);
    if (!paths.length) box.append(h("p.empty", null, `No kernel path was charged to ${phase ?? "this run"}.`));
    if (selected) box.append(this.opsTable(selected));
  }

  private opsTable(p: PathStat): HTMLElement {
    const total = p.ops.reduce((s, o) => s + o.cycles, 0) || 1;
    return h("div.ops", { "data-ops-for": p.name },
      h("h3", null, h("code", null, p.name), ` — ${p.ops.length} op lines, ${fmt(total)} cycles per execution (${p.origin})`),
      h("div.table-actions", null, h("button.small", { onclick: () => void copy(this.opsTsv(p)) }, "Copy ops")),
      h("table.ops-table", null,
        h("thead", null, h("tr", null, ["#", "function", "op", "repeat", "cycles", "", "note"].map((c) => h("th", null, c)))),
        h("tbody", null, p.ops.map((o, i) => h("tr", null, h("td.num", null, i + 1), h("td", null, h("code", null, o.fn)), h("td", null, h("code", null, o.op)), h("td.num", null, o.repeat), h("td.num", null, fmt(o.cycles)),
          h("td.bar", null, h("span", { style: { width: `${Math.max(1, (100 * o.cycles) / total)}%` } })), h("td", null, o.note ?? ""))))));
  }

  // ---- table ----------------------------------------------------------------------------------------
  private renderTable(): void {
    const metrics = [...new Set(this.results.flatMap((r) => r.metrics.map((m) => `${m.name} (${m.unit})`)))];
    const head = ["run", ...metrics, "total cycles", "sim seconds", "findings"];
    const rows = this.results.map((r) => [this.label(r), ...metrics.map((m) => r.metrics.find((x) => `${x.name} (${x.unit})` === m)?.value ?? ""), r.totalCycles, r.simSeconds, r.findings.length]);
    this.body.append(
      h("div.table-actions", null, h("button.small", { onclick: () => void copy(toTsv([head, ...rows])) }, "Copy table")),
      h("table.results-table", null, h("thead", null, h("tr", null, head.map((c) => h("th", null, c)))), h("tbody", null, rows.map((row) => h("tr", null, row.map((c, i) => h(i === 0 ? "td" : "td.num", null, typeof c === "number" ? fmt(c, 6) : String(c))))))),
    );
    const counters = [...new Set(this.results.flatMap((r) => Object.keys(r.counters)))].sort();
    if (counters.length) {
      this.body.append(h("h3", null, "Counters"), h("table.results-table", null,
        h("thead", null, h("tr", null, h("th", null, "counter"), this.results.map((r) => h("th", null, this.label(r))))),
        h("tbody", null, counters.map((c) => h("tr", null, h("td", null, c), this.results.map((r) => h("td.num", null, fmt(r.counters[c] ?? 0))))))));
    }
  }

  private metricTsv(metric: string): string {
    return toTsv([["run", metric, "unit"], ...this.results.map((r) => { const m = r.metrics.find((x) => x.name === metric); return [this.label(r), m?.value ?? "", m?.unit ?? ""]; })]);
  }

  private phaseTsv(): string {
    const phases = [...new Set(this.results.flatMap((r) => Object.keys(r.phases)))].sort();
    return toTsv([["run", ...phases], ...this.results.map((r) => [this.label(r), ...phases.map((p) => r.phases[p] ?? 0)])]);
  }

  private pathsTsv(paths: PathStat[]): string {
    return toTsv([["path", "phase", "origin", "count", "cycles"], ...paths.map((p) => [p.name, p.phase, p.origin, p.count, p.cycles])]);
  }

  private opsTsv(p: PathStat): string {
    return toTsv([["function", "op", "repeat", "cycles", "note"], ...p.ops.map((o) => [o.fn, o.op, o.repeat, o.cycles, o.note ?? ""])]);
  }
}

/** One line for a run's error: "file:line:column: message" without repeating a prefix the message has. */
function errorText(e: NonNullable<RunResult["error"]>): string {
  const message = appWording(e.message);
  const where = e.file ? `${e.file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ""}` : ""}` : "";
  return where && !message.startsWith(e.file ?? "") ? `${where}: ${message}` : message;
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
