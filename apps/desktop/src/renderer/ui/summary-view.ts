/**
 * The LMbench summary view: CPUs (× CPUs per machine) × variant stacks of the run configuration as
 * rows, lmbench's latency benchmarks as columns, in µs; the measured figure beside the simulated
 * one wherever one is known (a calibration figure of the machine, a probe of this machine) and
 * the error. The app runs the five shipped examples through its execution host and hands the
 * results here; this view only draws.
 */
import type { CpuProfileFile, RunResult } from "../../common/contracts.js";
import { runErrorLine } from "../results/errors.js";
import { cpuLabel, shortCpuLabel, shortStackLabel, stackLabel } from "../results/labels.js";
import { toTsv } from "../results/results-view.js";
import { appWording } from "../sim-client.js";
import { calibrationFigures, errorPercent, formatError, formatUs, LMBENCH_BENCHMARKS, measuredFor, parseProbe, probeVmWarning, ProbeError, simulatedUs, type MeasuredFigure, type ProbeSummary, type SummaryRow } from "../summary/lmbench.js";
import { MachinePanel, type MachineHooks } from "../summary/machine-panel.js";
import { FigurePanel, type SaveExport } from "../summary/figure-panel.js";
import { clear, h, toast } from "./dom.js";
import { showMessage } from "./modal.js";

export interface SummaryHooks {
  /** Runs the five examples on the run configuration's CPUs and stacks (quick: a tenth of the iterations). */
  run(opts: { quick: boolean }): void;
  /** "Your machine" and its what-ifs (summary/machine-panel.ts): runs through the app's execution host */
  machine?: Omit<MachineHooks, "quick">;
  /** Saves an export of the figure view (SVG, PNG, CSV) as the app saves every export */
  save?: SaveExport;
}

export interface SummaryState {
  rows: SummaryRow[];
  /** per benchmark (example id), the result of each row (same order as rows) */
  results: Record<string, (RunResult | undefined)[]>;
  profiles: CpuProfileFile[];
  quick: boolean;
}

export class SummaryView {
  readonly el: HTMLElement;
  private state: SummaryState | null = null;
  private probe: ProbeSummary | null = null;
  /**
   * The row the probe is compared with (its measured cells and error), or null: by default the
   * first one-CPU row whose stack has the linux6 plugin (the kernel a probe measures); the user may
   * pick another row or none.
   */
  private probeRow: number | null = null;
  private probeRowChosen = false;
  private quick = false;
  private running = false;
  private readonly status = h("span.summary-status#summary-status", { role: "status", "aria-live": "polite" });
  private readonly body = h("div.summary-body");
  private readonly runButton: HTMLButtonElement;
  /** a loaded probe beside the linux-6 simulation of its CPU, and the what-ifs */
  readonly machine: MachinePanel | null;
  /** the summary as a grouped bar chart, exportable (summary/figure-panel.ts) */
  readonly figure: FigurePanel;

  constructor(private readonly hooks: SummaryHooks) {
    this.runButton = h("button.primary#summary-run", { onclick: () => this.hooks.run({ quick: this.quick }), title: "Run lat_syscall, lat_sig_catch, lat_sig_prot, lat_ctx and lat_pipe on every CPU and variant stack of the run configuration" }, "▶ Run the summary");
    const quick = h("label", { title: "A tenth of each example's iterations: faster, the same figures to within a few percent in a warm simulation" },
      h("input#summary-quick", { type: "checkbox", onchange: (e: Event) => (this.quick = (e.target as HTMLInputElement).checked) }), " quick (÷10 iterations)");
    const probeButton = h("button#summary-load-probe", { onclick: () => this.pickProbe(), title: "Load `siglab probe --json` output: this machine's measured lmbench figures" }, "Load probe JSON…");
    const copy = h("button#summary-copy", { onclick: () => void this.copy(), title: "Copy the table (tab-separated, µs)" }, "Copy table");
    this.el = h("section.summary-view#summary-view", { "aria-label": "LMbench summary" },
      h("div.doc-bar", null, h("span", null, "LMbench summary"), h("span.spacer"), h("span.muted", null, "all figures in µs")),
      h("div.summary-toolbar", null, this.runButton, quick, probeButton, copy, this.status),
      h("p.muted.summary-intro", null,
        "Rows are the CPUs (× CPUs per machine) and variant stacks of the run configuration; columns are lmbench's latency benchmarks, simulated by the shipped examples ",
        LMBENCH_BENCHMARKS.flatMap((b, i) => [i ? ", " : "", h("code", null, b.example)]), " with their default parameters and the run configuration's seed. ",
        "Where a measured figure is known it stands beside the simulated one, with the error (simulated − measured) / measured."),
      this.body);
    this.machine = hooks.machine ? new MachinePanel({ ...hooks.machine, quick: () => this.quick }) : null;
    if (this.machine) this.body.before(this.machine.el);
    this.figure = new FigurePanel(hooks.save ?? (async () => toast("Exports are not available here", "error")));
    this.body.after(this.figure.el);
    this.render();
  }

  setRunning(running: boolean, status?: string): void {
    this.running = running;
    this.runButton.disabled = running;
    if (status !== undefined) this.status.textContent = status;
  }

  setStatus(text: string): void {
    this.status.textContent = text;
  }

  setResults(state: SummaryState): void {
    if (this.state?.rows !== state.rows) this.probeRowChosen = false;
    this.state = state;
    this.render();
  }

  /** The default row for the probe: the first one-CPU row running the linux6 plugin, else none. */
  private defaultProbeRow(): number | null {
    const i = (this.state?.rows ?? []).findIndex((r) => (r.cpu.smp ?? 1) === 1 && r.variants.some((v) => v.id === "linux6"));
    return i < 0 ? null : i;
  }

  /** The probe loaded, for tests. */
  get probeHost(): string | null {
    return this.probe?.host ?? null;
  }

  /** Loads a probe's JSON text (the file picker's, or a test's). Returns the problem, or null. */
  loadProbe(text: string, name = "the probe"): string | null {
    try {
      this.probe = parseProbe(text);
    } catch (err) {
      const msg = err instanceof ProbeError ? `${name} cannot be read: ${err.message}.` : (err as Error).message;
      showMessage("Probe not loaded", msg);
      return msg;
    }
    toast(`Loaded ${name}: ${Object.keys(this.probe.figures).length} of the ${LMBENCH_BENCHMARKS.length} benchmarks measured on ${this.probe.host}`);
    this.render();
    this.machine?.setProbe(this.probe);
    return null;
  }

  private pickProbe(): void {
    const input = h("input", { type: "file", accept: ".json,application/json" });
    input.addEventListener("change", () => {
      const file = input.files?.[0];
      if (!file) return;
      if (file.size > 1024 * 1024) {
        showMessage("Probe not loaded", `${file.name} is larger than 1 MB; a probe's JSON is a few KB.`);
        return;
      }
      void file.text().then((t) => this.loadProbe(t, file.name));
    });
    input.click();
  }

  private measured(rowIndex: number, example: string): MeasuredFigure | null {
    const row = this.state?.rows[rowIndex];
    if (!row) return null;
    if (this.probe && rowIndex === this.probeRow && this.probe.figures[example]) return this.probe.figures[example]!;
    return measuredFor(row, example);
  }

  /** Benchmarks that get measured/error columns: any row (or the probe) has a measured figure. */
  private measuredColumns(): Set<string> {
    const out = new Set<string>();
    for (const b of LMBENCH_BENCHMARKS) {
      if (this.probe?.figures[b.example]) out.add(b.example);
      this.state?.rows.forEach((_r, i) => {
        if (this.measured(i, b.example)) out.add(b.example);
      });
    }
    return out;
  }

  /** "Intel Pentium 4 (Northwood) @ 2200 MHz ×2 · sa-nofp" */
  private rowLabel(row: SummaryRow): string {
    return `${cpuLabel(row.cpu, this.state?.profiles ?? [])} · ${stackLabel(row.variants)}`;
  }

  /** "P4 2.2 GHz ×2 · sa-nofp" (the long label is the row's tooltip) */
  private shortRowLabel(row: SummaryRow): string {
    return `${shortCpuLabel(row.cpu, this.state?.profiles ?? [])} · ${shortStackLabel(row.variants)}`;
  }

  private render(): void {
    clear(this.body);
    const st = this.state;
    if (!this.probeRowChosen) this.probeRow = this.defaultProbeRow();
    if (!st && !this.probe) {
      this.figure.set(null, {});
      this.body.append(h("p.empty", null, "Press “Run the summary” to fill the table, or load a probe of this machine (", h("code", null, "siglab probe --json -o my-machine.json"), ")."));
      this.body.append(this.sources());
      return;
    }
    const withMeasured = this.measuredColumns();
    const head1 = h("tr", null, h("th", { rowspan: 2 }, "CPU · variant stack"),
      LMBENCH_BENCHMARKS.map((b) => h("th.bench", { colspan: withMeasured.has(b.example) ? 3 : 1, "data-bench": b.example, title: `${b.example} (${b.metric})` }, `${b.name} (µs)`)));
    const head2 = h("tr", null, LMBENCH_BENCHMARKS.flatMap((b) => withMeasured.has(b.example)
      ? [h("th.sub", { title: "simulated, µs" }, "sim. µs"), h("th.sub", { title: "measured on a real machine, µs" }, "meas. µs"), h("th.sub", { title: "(simulated − measured) / measured" }, "error")]
      : [h("th.sub", { title: "simulated, µs" }, "sim. µs")]));
    const rows = (st?.rows ?? []).map((row, i) => h("tr", { "data-row": String(i), "data-cpu": row.cpu.id, "data-smp": String(row.cpu.smp ?? 1) },
      h("th.row", { scope: "row", title: this.rowLabel(row) }, this.shortRowLabel(row)),
      LMBENCH_BENCHMARKS.flatMap((b) => {
        const r = st!.results[b.example]?.[i];
        const sim = simulatedUs(r, b);
        const simCell = r?.error
          ? h("td.num.failed", { "data-bench": b.example, "data-kind": "simulated", title: runErrorLine(r.error, appWording) }, "failed")
          : h("td.num", { "data-bench": b.example, "data-kind": "simulated", ...(sim !== null ? { "data-us": String(sim) } : {}) }, sim === null ? (r ? "—" : "…") : formatUs(sim));
        if (!withMeasured.has(b.example)) return [simCell];
        const m = this.measured(i, b.example);
        // a probe figure may be 0 (lmbench's settime(0) when a subtraction comes out negative): no error then
        const err = errorPercent(sim, m?.us);
        const title = m?.kind === "probe" ? `this machine's probe (median; min ${formatUs(m.min!)}, max ${formatUs(m.max!)} µs)` : m ? `${m.id}: ${m.source}` : undefined;
        return [simCell,
          h("td.num.measured", { "data-bench": b.example, "data-kind": "measured", ...(m ? { "data-us": String(m.us), "data-source": m.kind, title } : {}) }, m ? formatUs(m.us) : "—"),
          h("td.num.error", { "data-bench": b.example, "data-kind": "error", ...(err !== null ? { "data-error": String(err), class: Math.abs(err) > 25 ? "far" : "" } : {}) }, err === null ? "—" : formatError(err))];
      })));
    const probeRow = this.probe ? h("tr.probe-row", { "data-row": "probe" },
      h("th.row", { scope: "row", title: "Measured on this machine by siglab probe: no simulated row runs this machine's kernel (see below)" }, `This machine, measured: ${this.probe.host}`),
      LMBENCH_BENCHMARKS.flatMap((b) => {
        const m = this.probe!.figures[b.example];
        const cell = h("td.num.measured", { "data-bench": b.example, "data-kind": "measured", ...(m ? { "data-us": String(m.us), title: `median of the probe's repetitions; min ${formatUs(m.min!)}, max ${formatUs(m.max!)} µs` } : {}) }, m ? formatUs(m.us) : "—");
        return withMeasured.has(b.example) ? [h("td.num", null, "—"), cell, h("td.num", null, "—")] : [cell];
      })) : null;
    this.body.append(h("table.results-table.summary-table#summary-table", null, h("thead", null, head1, head2), h("tbody", null, rows, probeRow)));
    this.figure.set(st ? { rows: st.rows, results: st.results } : null, { profiles: st?.profiles ?? [], measured: (_row, i, ex) => this.measured(i, ex) });
    const vm = probeVmWarning(this.probe);
    if (vm) this.body.append(h("p.warn#summary-probe-vm", { role: "note" }, vm));
    if (this.probe && st?.rows.length) {
      const pick = h("select#summary-probe-row", { "aria-label": "Row the probe is compared with", onchange: (e: Event) => {
        const v = (e.target as HTMLSelectElement).value;
        this.probeRow = v === "" ? null : Number(v);
        this.probeRowChosen = true;
        this.render();
      } }, h("option", { value: "", selected: this.probeRow === null }, "no row"), st.rows.map((r, i) => h("option", { value: String(i), selected: this.probeRow === i }, this.shortRowLabel(r))));
      this.body.append(h("p.summary-probe-pick", null, "Compare the probe of this machine with ", pick,
        this.probeRow === null ? " (its figures then stand beside that row's, with the error)." : ": read the error with docs/modern.md (a VM's hypervisor, estimated modern costs and 2.4's scheduler and pipe paths are in it; nothing is fitted)."));
    }
    if (st?.quick) this.body.append(h("p.muted", null, "Quick run: each example ran a tenth of its default iterations."));
    this.body.append(this.sources());
  }

  private sources(): HTMLElement {
    const cal = calibrationFigures();
    return h("div.summary-notes", null,
      h("h3", null, "Measured figures"),
      h("ul", null,
        cal.map((f) => h("li", { "data-figure": f.id }, h("strong", null, `${formatUs(f.us)} µs`), ` ${LMBENCH_BENCHMARKS.find((b) => b.example === f.benchmark)?.name ?? f.benchmark} on ${f.machine} (${f.id}; ${f.source}). Shown on the `, h("code", null, `${f.cpu.id} @ ${f.cpu.mhz} MHz`), " baseline row with one CPU: a variant stack or another machine is not what was measured. It is a calibration figure: the profile's fitted costs were fitted to it, so its error shows the fit, not a prediction.")),
        h("li", null, this.probe
          ? `The probe of this machine (${this.probe.host}) is its own row, and stands beside the row chosen above (by default the first one-CPU row with the linux6 plugin: a row under Linux 2.4 runs no kernel the probe measured). The probe's figures are medians of its repetitions.`
          : "Load a probe of this machine (siglab probe --json) to see its measured figures as a row of their own, and beside a row of your choice (by default the first with the linux-6 preset).")));
  }

  private tsv(): string {
    const st = this.state;
    const withMeasured = this.measuredColumns();
    const head = ["CPU · variant stack", ...LMBENCH_BENCHMARKS.flatMap((b) => (withMeasured.has(b.example) ? [`${b.name} simulated (µs)`, `${b.name} measured (µs)`, `${b.name} error (%)`] : [`${b.name} simulated (µs)`]))];
    const rows: (string | number)[][] = (st?.rows ?? []).map((row, i) => [this.rowLabel(row), ...LMBENCH_BENCHMARKS.flatMap((b) => {
      const sim = simulatedUs(st!.results[b.example]?.[i], b);
      if (!withMeasured.has(b.example)) return [sim ?? ""];
      const m = this.measured(i, b.example);
      const err = errorPercent(sim, m?.us);
      return [sim ?? "", m?.us ?? "", err === null ? "" : Number(err.toFixed(2))];
    })]);
    if (this.probe) rows.push([`This machine, measured: ${this.probe.host}`, ...LMBENCH_BENCHMARKS.flatMap((b) => (withMeasured.has(b.example) ? ["", this.probe!.figures[b.example]?.us ?? "", ""] : [""]))]);
    return toTsv([head, ...rows]);
  }

  private async copy(): Promise<void> {
    if (!this.state && !this.probe) return toast("Nothing to copy yet: run the summary first", "error");
    try {
      await navigator.clipboard.writeText(this.tsv());
      toast("Copied the summary (tab-separated, µs)");
    } catch (err) {
      toast(`Copy failed: ${(err as Error).message}`, "error");
    }
  }
}
