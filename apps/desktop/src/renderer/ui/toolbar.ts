/**
 * The toolbar: the view tabs, the export / bundle / link / settings buttons, and the run controls
 * with the progress bar; and the status line (the one place a run's state is said), which the app
 * puts where it has the room (the results pane's tab bar).
 */
import { h } from "./dom.js";

export type View = "workload" | "profiles" | "plugins" | "summary";
export const VIEWS: readonly View[] = ["workload", "profiles", "plugins", "summary"];

export interface ToolbarActions {
  showView(v: View): void;
  exportBundle(): void;
  copyShortLink(): void;
  /** short links are offered (the HTTP host: a link is a URL of this server) */
  shortLinks: boolean;
  /** the runs' timelines in ui.perfetto.dev */
  openPerfetto(): void;
  importBundle(): void;
  exportCsv(): void;
  exportTrace(): void;
  copyLink(): void;
  openLink(): void;
  settings(): void;
  run(): void;
  cancel(): void;
}

export class Toolbar {
  readonly el: HTMLElement;
  private readonly tabs: Record<View, HTMLButtonElement>;
  private readonly runButton: HTMLButtonElement;
  private readonly cancelButton: HTMLButtonElement;
  private readonly progress = h("progress#run-progress", { max: 1, value: 0 });
  readonly statusLine = h("span.status#run-status", { role: "status", "aria-live": "polite" }, "Ready");

  constructor(a: ToolbarActions) {
    const tab = (v: View, label: string, title?: string): HTMLButtonElement => h("button.view-tab", { "data-view": v, onclick: () => a.showView(v), ...(title ? { title } : {}) }, label);
    this.tabs = { workload: tab("workload", "Workload"), profiles: tab("profiles", "CPU profiles"), plugins: tab("plugins", "Plugins"), summary: tab("summary", "LMbench", "LMbench summary: CPUs × variant stacks against lmbench's latency benchmarks, in µs, measured beside simulated (Ctrl/Cmd+4)") };
    this.runButton = h("button.primary.run#run-button", { title: "Run (Ctrl/Cmd+Enter)", onclick: () => a.run() }, "▶ Run");
    this.cancelButton = h("button#cancel-button", { disabled: true, title: "Cancel the run", onclick: () => a.cancel() }, "■ Cancel");
    this.el = h("header.toolbar", null,
      h("span.brand", null, h("img", { src: "./icon.svg", alt: "", width: 20, height: 20 }), " SigLab"),
      h("span.view-tabs", { role: "tablist" }, Object.values(this.tabs)),
      h("span.spacer"),
      h("button#export-bundle", { onclick: () => a.exportBundle(), title: "Export experiment as a .siglab bundle" }, "Export bundle"),
      h("button#import-bundle", { onclick: () => a.importBundle(), title: "Open a .siglab bundle" }, "Open bundle"),
      h("button#export-csv", { onclick: () => a.exportCsv(), title: "Export results as CSV" }, "CSV"),
      h("button#export-trace", { onclick: () => a.exportTrace(), title: "Export the runs' timelines as a Perfetto / Chrome trace (JSON; open it in ui.perfetto.dev). Needs \"Record per-task timeline\"." }, "Trace"),
      h("button#open-perfetto", { onclick: () => a.openPerfetto(), title: "Open the runs' timelines in ui.perfetto.dev (the trace is handed to that tab, not uploaded). Needs \"Record per-task timeline\"." }, "Perfetto ↗"),
      h("button#copy-link", { onclick: () => a.copyLink(), title: "Copy a link with this workload, its configuration and seed (nothing is uploaded: it is all in the link)" }, "Copy link"),
      h("button#copy-short-link", { onclick: () => a.copyShortLink(), hidden: !a.shortLinks, title: "Copy a short link: the experiment is kept in this SigLab's workspace, so the link opens in any browser profile that has opened the address siglab serve printed (on this machine only)" }, "Short link"),
      h("button#open-link", { onclick: () => a.openLink(), title: "Open a SigLab link someone shared" }, "Open link…"),
      h("button#settings", { onclick: () => a.settings(), title: "Settings: where Linux function names link to", "aria-label": "Settings" }, "⚙"),
      this.progress, this.cancelButton, this.runButton);
  }

  selectTab(v: View): void {
    for (const [k, b] of Object.entries(this.tabs)) b.setAttribute("aria-selected", String(k === v));
  }

  set status(text: string) {
    this.statusLine.textContent = text;
    this.statusLine.title = text;
  }

  setProgress(fraction: number): void {
    this.progress.value = fraction;
  }

  /** Run and Cancel follow a run; its end resets the progress bar and is counted (tests wait on it). */
  setRunning(running: boolean): void {
    this.runButton.disabled = running;
    this.cancelButton.disabled = !running;
    document.body.dataset.running = String(running);
    if (!running) {
      this.progress.value = 0;
      document.body.dataset.runsFinished = String(Number(document.body.dataset.runsFinished ?? 0) + 1);
    }
  }
}
