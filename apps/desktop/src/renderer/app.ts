/**
 * The SigLab window: explorer, Monaco editor, run configuration, toolbar with progress/cancel,
 * results, and the profiles/plugins views. Talks to the host only through HostApi and to the
 * simulation only through SimClient (core's execution host in Web Workers); never runs workload or
 * plugin code itself.
 */
import type { CpuProfileFile, ExperimentConfig, RunResult } from "../common/contracts.js";
import type { Draft, ExampleEntry, HostApi, HostEvent, HostInfo, MenuCommand, PluginCode, PluginEntry, PresetEntry, ProfileEntry, RecentExperiment, WorkloadFile } from "../common/host-api.js";
import { hasNoTimeline, toCsv, toPerfettoTrace, truncatedTimelines } from "@siglab/core/export/index.js";
import { compareResults } from "@siglab/core/bundle/compare.js";
import type { Bundle, BundleInput } from "@siglab/core/bundle/format.js";
import { monaco, workloadDeclarations } from "./monaco-setup.js";
import { describeRunError, runErrorLine } from "./results/errors.js";
import { cpuLabel } from "./results/labels.js";
import { ResultsView } from "./results/results-view.js";
import { appWording, RunCancelled, SimClient, toPluginSource } from "./sim-client.js";
import { adjustCpus, describeAdjustment, featureNeeds } from "./state/cpu-features.js";
import { LAYOUT_KEY, loadLayout, loadRunState, loadSettings, rememberParams, RUN_STATE_KEY, saveJson, SETTINGS_KEY, type LayoutPrefs, type SavedRunState, type Settings, type StorageLike } from "./state/persist.js";
import { decodeShare, encodeShare, findShareFragment, ShareError, type SharedConfig } from "./state/share.js";
import { firstTypeError } from "./typecheck.js";
import { clear, h, toast } from "./ui/dom.js";
import { askText, showMessage } from "./ui/modal.js";
import { PluginsView } from "./ui/plugins-view.js";
import { ProfilesView } from "./ui/profiles-view.js";
import { clampRepeat, defaultCpus, defaultRunConfig, maxSecondsOf, RunConfigView, smpOf, withSmp, type RunConfigState } from "./ui/run-config.js";
import { repeatCount } from "./results/repeat.js";
import { makeSplitter } from "./ui/splitter.js";
import { SummaryView, type SummaryState } from "./ui/summary-view.js";
import { LMBENCH_BENCHMARKS, summaryRows } from "./summary/lmbench.js";
import type { MachineRun } from "./summary/whatif.js";
import { checkSourceUrlTemplate, DEFAULT_SOURCE_URL_TEMPLATE, sourceUrl } from "../common/url-policy.js";
import type { CpuRef, ParamValue, VariantSpec } from "../common/contracts.js";
import type { PluginSource } from "@siglab/core/host/protocol.js";

interface Doc {
  key: string;
  kind: "example" | "user" | "new";
  /** example id, workload file name, or "untitled-N" */
  id: string;
  title: string;
  file: string;
  readOnly: boolean;
  saved: string;
  model: monaco.editor.ITextModel;
  /** Opened from a bundle: run under the bundle's workload id and file so results compare 1:1. */
  runAs?: { id: string; file: string };
}

type View = "workload" | "profiles" | "plugins" | "summary";

const AUTOSAVE_MS = 700;
const NEW_WORKLOAD = `import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "my workload",
  params: { iterations: 1000 },
  *main(t, { iterations }) {
    yield* t.sigaction(SIGUSR1, function* () {}, { flags: 0 });
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) yield* t.kill(t.pid, SIGUSR1);
    t.report("signal round trip", (t.rdtsc() - start) / iterations, "cycles");
  },
});
`;

export class App {
  private info!: HostInfo;
  private examples: ExampleEntry[] = [];
  /** examples shipped in third-party plugins' examples/ folders (enabled plugins only) */
  private pluginExamples: ExampleEntry[] = [];
  private presets: PresetEntry[] = [];
  private profiles: ProfileEntry[] = [];
  private plugins: PluginEntry[] = [];
  private workloads: WorkloadFile[] = [];
  private drafts: Draft[] = [];
  private recent: RecentExperiment[] = [];
  private doc: Doc | null = null;
  private docs = new Map<string, Doc>();
  private editor!: monaco.editor.IStandaloneCodeEditor;
  private readonly sim = new SimClient();
  private readonly runConfig = new RunConfigView(
    { cpus: [], stacks: [{ variants: [] }], params: {}, sweep: { enabled: false, param: "", values: "" }, seed: 1, timeline: false },
    { changed: () => this.persistRunConfig(), stackAdded: () => this.checkCpuFeatures() },
  );
  /** local storage (null where the page may not use it) */
  private readonly storage: StorageLike | null = ((): StorageLike | null => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })();
  /** each document's parameters, kept across reloads */
  private savedParams: Record<string, Record<string, ParamValue>> = {};
  /** set once the saved run configuration was read: saving before that would overwrite it */
  private restored = false;
  private layoutPrefs: LayoutPrefs = {};
  private settings: Settings = {};
  private lastShareLink = "";
  private readonly results: ResultsView;
  private readonly profilesView: ProfilesView;
  private readonly pluginsView: PluginsView;
  private readonly summaryView: SummaryView;
  private lastConfig: ExperimentConfig | null = null;
  private lastProfiles: CpuProfileFile[] = [];
  private bundleExpected: RunResult[] | null = null;
  private autosaveTimer: number | undefined;
  private inspectTimer: number | undefined;
  private view: View = "workload";
  private untitled = 0;
  private starting = false;

  // layout parts
  private readonly explorer = h("nav.explorer#explorer", { "aria-label": "Explorer" });
  private readonly banner = h("div.banner#doc-banner", { hidden: true });
  /** one line when the open workload's parameters could not be read from its text (a syntax error, no workload) */
  private readonly inspectStatus = h("div.inspect-status#inspect-status", { role: "status", "aria-live": "polite", hidden: true });
  /** why the CPU selection was changed for this workload (SSE registers, SEP for sysenter), with Undo */
  private readonly cpuNote = h("div.cpu-note#cpu-note", { role: "status", "aria-live": "polite", hidden: true });
  private readonly docTitle = h("span.doc-title#doc-title");
  private readonly editorHost = h("div.editor#editor");
  private readonly workloadView = h("section.workload-view#workload-view", null, h("div.doc-bar", null, this.docTitle, h("span.spacer")), this.banner, this.cpuNote, this.inspectStatus, this.editorHost);
  private readonly center = h("main.center");
  private readonly runButton = h("button.primary.run#run-button", { title: "Run (Ctrl/Cmd+Enter)", onclick: () => void this.run() }, "▶ Run");
  private readonly cancelButton = h("button#cancel-button", { disabled: true, title: "Cancel the run", onclick: () => this.cancel() }, "■ Cancel");
  private readonly progress = h("progress#run-progress", { max: 1, value: 0 });
  private readonly status = h("span.status#run-status", { role: "status", "aria-live": "polite" }, "Ready");
  private readonly viewTabs: Record<View, HTMLButtonElement>;

  constructor(
    private readonly host: HostApi,
    private readonly root: HTMLElement,
  ) {
    const app = this;
    this.results = new ResultsView({
      saveExport: (n, d) => this.saveExport(n, d),
      sourceUrl: (fn) => sourceUrl(this.settings.sourceUrlTemplate ?? DEFAULT_SOURCE_URL_TEMPLATE, fn),
      openExternal: (url) => void this.openExternal(url),
      get phaseNorm() {
        return app.layoutPrefs.phaseNorm ?? "iterations";
      },
      setPhaseNorm: (norm) => {
        this.layoutPrefs.phaseNorm = norm;
        this.saveLayout();
      },
    });
    this.profilesView = new ProfilesView(async (p) => {
      try {
        await this.host.saveUserProfile(p);
        await this.refreshProfiles();
        this.profilesView.select(p.id);
        toast(`Saved profile ${p.id}`);
      } catch (err) {
        toast((err as Error).message, "error");
      }
    });
    this.pluginsView = new PluginsView({
      setEnabled: async (id, enabled) => {
        this.plugins = await this.host.setPluginEnabled(id, enabled);
        this.onPluginsChanged();
      },
      install: () => this.installPlugin(),
    });
    this.summaryView = new SummaryView({
      run: (opts) => void this.runSummary(opts),
      machine: {
        catalog: () => ({ profiles: this.profiles.map((p) => p.profile), plugins: this.plugins, presets: this.presets }),
        simulate: (runs, opts, onResult) => this.simulateMachine(runs, opts, onResult),
      },
    });
    const tab = (v: View, label: string, title?: string): HTMLButtonElement => h("button.view-tab", { "data-view": v, onclick: () => this.showView(v), ...(title ? { title } : {}) }, label);
    this.viewTabs = { workload: tab("workload", "Workload"), profiles: tab("profiles", "CPU profiles"), plugins: tab("plugins", "Plugins"), summary: tab("summary", "LMbench", "LMbench summary: CPUs × variant stacks against lmbench's latency benchmarks, in µs, measured beside simulated (Ctrl/Cmd+4)") };
  }

  async start(): Promise<void> {
    const toolbar = h("header.toolbar", null,
      h("span.brand", null, h("img", { src: "./icon.svg", alt: "", width: 20, height: 20 }), " SigLab"),
      h("span.view-tabs", { role: "tablist" }, Object.values(this.viewTabs)),
      h("span.spacer"),
      h("button#export-bundle", { onclick: () => void this.exportBundle(), title: "Export experiment as a .siglab bundle" }, "Export bundle"),
      h("button#import-bundle", { onclick: () => void this.importBundle(), title: "Open a .siglab bundle" }, "Open bundle"),
      h("button#export-csv", { onclick: () => void this.exportCsv(), title: "Export results as CSV" }, "CSV"),
      h("button#export-trace", { onclick: () => void this.exportTrace(), title: "Export the runs' timelines as a Perfetto / Chrome trace (JSON; open it in ui.perfetto.dev). Needs \"Record per-task timeline\"." }, "Trace"),
      h("button#copy-link", { onclick: () => void this.copyLink(), title: "Copy a link with this workload, its configuration and seed (nothing is uploaded: it is all in the link)" }, "Copy link"),
      h("button#open-link", { onclick: () => void this.openLinkDialog(), title: "Open a SigLab link someone shared" }, "Open link…"),
      h("button#settings", { onclick: () => void this.editSettings(), title: "Settings: where Linux function names link to", "aria-label": "Settings" }, "⚙"),
      this.progress, this.status, this.cancelButton, this.runButton);
    this.center.append(this.workloadView);
    if (this.storage) {
      this.layoutPrefs = loadLayout(this.storage);
      const st = loadSettings(this.storage, checkSourceUrlTemplate);
      this.settings = st.value ?? {};
      if (st.note) toast(st.note, "error");
    }
    const splitter = makeSplitter({
      root: this.root, pane: this.results.el, ...(this.layoutPrefs.resultsHeight !== undefined ? { initial: this.layoutPrefs.resultsHeight } : {}),
      onResize: (px) => {
        this.layoutPrefs.resultsHeight = px;
        this.saveLayout();
      },
    });
    this.root.append(toolbar, h("div.layout", null, this.explorer, this.center, this.runConfig.el), splitter, this.results.el);
    this.editor = monaco.editor.create(this.editorHost, { automaticLayout: true, minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false, tabSize: 2 });
    this.editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => void this.run());
    this.editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => void this.save());
    window.addEventListener("keydown", (e) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key === "Enter") { e.preventDefault(); void this.run(); }
      else if (mod && e.key.toLowerCase() === "s") { e.preventDefault(); void this.save(); }
      else if (mod && e.key === ".") { e.preventDefault(); this.cancel(); }
      else if (mod && ["1", "2", "3", "4"].includes(e.key)) { e.preventDefault(); this.showView((["workload", "profiles", "plugins", "summary"] as const)[Number(e.key) - 1]!); }
    });
    this.host.onEvent((e) => void this.onHostEvent(e));
    this.showView("workload");
    [this.info, this.examples, this.presets, this.profiles, this.plugins, this.workloads, this.drafts, this.recent] = await Promise.all([
      this.host.info(), this.host.listExamples(), this.host.listPresets(), this.host.listProfiles(), this.host.listPlugins(), this.host.listWorkloads(), this.host.listDrafts(), this.host.listRecent(),
    ]);
    this.runConfig.state = this.restoreRunConfig();
    this.runConfig.setCatalog(this.profiles, this.plugins, this.presets);
    this.restored = true;
    this.persistRunConfig();
    this.profilesView.setEntries(this.profiles);
    this.pluginsView.setEntries(this.plugins, this.info.pluginDir);
    await this.refreshPluginExamples();
    this.renderExplorer();
    const lastNew = this.drafts.find((d) => d.key.startsWith("new:"));
    if (lastNew) this.openNew(lastNew.source, lastNew.key);
    else if (this.examples[0]) this.openExample(this.examples[0].id);
    this.exposeTestHooks();
    window.addEventListener("hashchange", () => void this.openSharedFromLocation());
    await this.openSharedFromLocation();
    this.root.removeAttribute("aria-busy");
    document.body.dataset.ready = "true";
    performance.mark("siglab-ready");
  }

  /**
   * Read-mostly hooks for end-to-end tests and the benchmark: editor markers, the editor text, and
   * where a chart element is on screen (the test then clicks there with the real mouse).
   */
  private exposeTestHooks(): void {
    (window as unknown as { __siglabTest: unknown }).__siglabTest = {
      markers: () => monaco.editor.getModelMarkers({ resource: this.editor.getModel()?.uri }).map((m) => ({ message: m.message, severity: m.severity, startLineNumber: m.startLineNumber })),
      source: () => this.editor.getValue(),
      /** where the TypeScript worker finds the open workload's `workload()` declared (once, whatever Monaco opened) */
      workloadDeclarations: () => workloadDeclarations(this.editor.getModel()!),
      setSource: (text: string) => this.editor.getModel()?.setValue(text),
      elementPoint: (chartId: string, datasetIndex: number, index: number) => this.results.elementPoint(chartId, datasetIndex, index),
      /** the tallest segment of a stacked bar (a click lands on it whatever the phase mix) */
      largestDataset: (chartId: string, index: number) => this.results.largestDataset(chartId, index),
      /** the results on screen, as the execution host returned them */
      results: () => this.results.currentResults,
      /** milliseconds from creating each sandbox worker to its "ready" */
      workerStarts: () => [...this.sim.workerStarts],
      /** requests sent to sandbox workers so far: none until something is run */
      sandboxRequests: () => this.sim.sandboxRequests,
      /** what a rendered chart shows: its x labels, axis titles, dataset colours and sums of numeric data (a histogram's count) */
      chartInfo: (chartId: string) => {
        const c = this.results.chart(chartId);
        if (!c) return null;
        const title = (axis: string): string => String((c.options.scales?.[axis] as { title?: { text?: string } } | undefined)?.title?.text ?? "");
        return { labels: (c.data.labels ?? []).map(String), xTitle: title("x"), yTitle: title("y"), datasets: c.data.datasets.map((d) => ({ label: String(d.label ?? ""), color: String(d.backgroundColor ?? ""), total: (d.data as unknown[]).reduce<number>((n, v) => n + (typeof v === "number" ? v : 0), 0) })) };
      },
      /** zoom level of a rendered chart (1 = not zoomed) */
      chartZoom: (chartId: string) => this.results.chart(chartId)?.getZoomLevel() ?? null,
      /** the last link "Copy link" made */
      shareLink: () => this.lastShareLink,
      /** the run configuration as the panel holds it */
      runConfig: () => JSON.parse(JSON.stringify(this.runConfig.state)) as RunConfigState,
      /** the LMbench summary: load a probe's JSON text (returns the problem or null), and what the table holds */
      summary: {
        loadProbe: (text: string) => this.summaryView.loadProbe(text, "probe.json"),
        probeHost: () => this.summaryView.probeHost,
      },
      /** the app's execution host itself (the security corpus runs through it) */
      host: {
        run: (config: ExperimentConfig) => this.sim.run(config, [], [], { onProgress: () => undefined, onResult: () => undefined }),
        reset: () => this.sim.reset(),
      },
    };
  }

  // ---- views & explorer ------------------------------------------------------------------------------
  showView(v: View): void {
    this.view = v;
    this.root.dataset.view = v;
    for (const [k, b] of Object.entries(this.viewTabs)) b.setAttribute("aria-selected", String(k === v));
    clear(this.center);
    this.center.append(v === "workload" ? this.workloadView : v === "profiles" ? this.profilesView.el : v === "plugins" ? this.pluginsView.el : this.summaryView.el);
  }

  private renderExplorer(): void {
    clear(this.explorer);
    const item = (label: string, attrs: Record<string, unknown>, active = false, extra?: Node | string | null): HTMLElement =>
      h("li", null, h("button.list-item", { ...attrs, class: active ? "active" : "" }, label, extra ?? null));
    const section = (title: string, items: HTMLElement[], action?: HTMLElement): HTMLElement =>
      h("section", null, h("h3", null, title, action ?? null), h("ul", null, items.length ? items : h("li.muted", null, "none")));
    const draftKeys = new Set(this.drafts.map((d) => d.key));
    this.explorer.append(
      section("Examples", this.allExamples().map((e) => item(e.title, { "data-example": e.id, title: e.file, onclick: () => this.openExample(e.id) }, this.doc?.key === `example:${e.id}`))),
      section("My workloads", [
        ...this.workloads.map((w) => item(w.name, { "data-workload": w.name, onclick: () => void this.openUser(w.name) }, this.doc?.key === `user:${w.name}`, draftKeys.has(`user:${w.name}`) ? h("span.dot", { title: "unsaved changes recovered" }, " ●") : null)),
        ...this.drafts.filter((d) => d.key.startsWith("new:")).map((d) => item(`${d.key.slice(4)} (unsaved)`, { "data-draft": d.key, onclick: () => this.openNew(d.source, d.key) }, this.doc?.key === d.key)),
      ], h("button.icon", { title: "New workload", "aria-label": "New workload", onclick: () => this.openNew(NEW_WORKLOAD) }, "+")),
      section("Recent experiments", this.recent.slice(0, 10).map((r) => item(r.title, { "data-recent": r.id, title: r.summary ?? "", onclick: () => void this.openRecent(r) }))),
      section("Plugins", this.plugins.map((p) => item(p.manifest?.displayName ?? p.id, { "data-plugin-link": p.id, onclick: () => this.showView("plugins") }, false, p.status === "refused" ? h("span.warn", null, " refused") : !p.enabled ? h("span.muted", null, " off") : null))),
      section("CPU profiles", this.profiles.map((p) => item(p.profile.name, { "data-profile-link": p.profile.id, onclick: () => { this.showView("profiles"); this.profilesView.select(p.profile.id); } }, false, p.origin === "user" ? h("span.tag", null, "mine") : null))),
    );
  }

  // ---- documents -----------------------------------------------------------------------------------
  private docFor(key: string, make: () => Omit<Doc, "model" | "key"> & { source: string; uri: string }): Doc {
    const existing = this.docs.get(key);
    if (existing) return existing;
    const d = make();
    const uri = monaco.Uri.parse(d.uri);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(d.source, "typescript", uri);
    const doc: Doc = { key, kind: d.kind, id: d.id, title: d.title, file: d.file, readOnly: d.readOnly, saved: d.saved, model };
    model.onDidChangeContent(() => this.onEdit(doc));
    this.docs.set(key, doc);
    return doc;
  }

  private activate(doc: Doc, banner?: HTMLElement | null): void {
    this.doc = doc;
    // each document keeps its own parameters (across reloads too)
    this.runConfig.state.params = { ...(this.savedParams[doc.key] ?? {}) };
    this.editor.setModel(doc.model);
    this.editor.updateOptions({ readOnly: doc.readOnly });
    this.docTitle.textContent = doc.title + (doc.readOnly ? " (read-only example)" : "");
    this.docTitle.dataset.key = doc.key;
    clear(this.banner);
    this.banner.hidden = true;
    if (doc.readOnly) this.setBanner(h("span", null, "Examples are read-only. "), h("button.primary#save-as-mine", { onclick: () => void this.saveAs() }, "Save as my workload"));
    if (banner) this.setBanner(banner);
    this.showView("workload");
    this.renderExplorer();
    this.runConfig.render();
    this.checkCpuFeatures();
    this.scheduleInspect(0);
  }

  private setBanner(...nodes: Node[]): void {
    this.banner.append(...nodes);
    this.banner.hidden = false;
  }

  private allExamples(): ExampleEntry[] {
    return [...this.examples, ...this.pluginExamples];
  }

  openExample(id: string): void {
    const e = this.allExamples().find((x) => x.id === id);
    if (!e) return;
    const doc = this.docFor(`example:${id}`, () => ({ kind: "example", id, title: e.title, file: e.file, readOnly: true, saved: e.source, source: e.source, uri: `file:///${e.file}` }));
    const wanted = e.suggestedVariants ?? [];
    const has = (v: { id: string }): boolean => this.runConfig.state.stacks.some((st) => st.variants.some((x) => x.id === v.id));
    const banner = wanted.length && !wanted.every(has)
      ? h("span", null, `This example is meant to be compared with ${wanted.map((v) => v.id).join(" + ")}. `,
          h("button#add-suggested", { onclick: () => { this.runConfig.state.stacks.push({ variants: wanted.map((v) => ({ ...v })) }); this.runConfig.render(); this.checkCpuFeatures(); } }, "Add that variant stack"))
      : null;
    this.activate(doc, banner);
  }

  async openUser(name: string): Promise<void> {
    const key = `user:${name}`;
    let doc = this.docs.get(key);
    let banner: HTMLElement | null = null;
    if (!doc) {
      const source = await this.host.readWorkload(name);
      doc = this.docFor(key, () => ({ kind: "user", id: name.replace(/\.ts$/, ""), title: name, file: `workloads/${name}`, readOnly: false, saved: source, source, uri: `file:///workloads/${name}` }));
      const draft = this.drafts.find((d) => d.key === key);
      if (draft && draft.source !== source) {
        doc.model.setValue(draft.source);
        banner = h("span", null, `Recovered unsaved changes from ${new Date(draft.savedAtMs).toLocaleString()}. `,
          h("button", { onclick: () => { doc!.model.setValue(doc!.saved); void this.host.discardDraft(key); this.banner.hidden = true; } }, "Discard them"));
      }
    }
    this.activate(doc, banner);
  }

  openNew(source: string, key?: string, opts: { saveDraft?: boolean; banner?: HTMLElement } = {}): void {
    const k = key ?? `new:untitled-${Date.now().toString(36)}`;
    const id = k.slice(4);
    const doc = this.docFor(k, () => ({ kind: "new", id, title: `${id} (unsaved)`, file: `${id}.ts`, readOnly: false, saved: "", source, uri: `file:///new/${id}.ts` }));
    this.untitled++;
    this.activate(doc, opts.banner ?? null);
    if (!key || opts.saveDraft) void this.host.saveDraft(k, source);
  }

  private onEdit(doc: Doc): void {
    if (doc.readOnly) return;
    window.clearTimeout(this.autosaveTimer);
    this.autosaveTimer = window.setTimeout(() => {
      const source = doc.model.getValue();
      if (source === doc.saved && doc.kind === "user") void this.host.discardDraft(doc.key);
      else void this.host.saveDraft(doc.key, source).then(() => (document.body.dataset.autosaved = doc.key));
    }, AUTOSAVE_MS);
    if (doc === this.doc) this.scheduleInspect(500);
  }

  /** Reads the workload's default params from its text (never by running it). */
  private scheduleInspect(ms: number): void {
    window.clearTimeout(this.inspectTimer);
    this.inspectTimer = window.setTimeout(() => void this.inspectNow(), ms);
  }

  /**
   * Reads the open workload's parameters from its text in the compile worker (workload-outline.ts):
   * nothing of a document or a shared link runs before Run (issue 30). A syntax error, a missing
   * workload or parameters computed by code are shown as one line above the editor; params keep
   * their last good values when nothing could be read.
   */
  private async inspectNow(): Promise<void> {
    window.clearTimeout(this.inspectTimer);
    const doc = this.doc;
    if (!doc) return;
    const source = doc.model.getValue();
    try {
      const outline = await this.sim.outline(source, doc.file);
      if (doc !== this.doc || doc.model.getValue() !== source) return;
      if (!outline.problem) this.runConfig.setWorkloadParams(outline.params);
      const file = doc.file.split("/").pop()!;
      if (outline.syntax) this.showInspectStatus(runErrorLine({ kind: "compile", message: `${file}:${outline.syntax.line}:${outline.syntax.column}: ${outline.syntax.message}`, file: doc.file, line: outline.syntax.line, column: outline.syntax.column }), "compile");
      else if (outline.problem) this.showInspectStatus(`${file}: ${outline.problem}: the parameters cannot be shown`, "error");
      else if (outline.unread.length) this.showInspectStatus(`${file}: ${outline.unread.join(", ")} ${outline.unread.length === 1 ? "is" : "are"} computed by the workload's code: it takes its own default when it runs (only constants can be shown before Run)`, "note");
      else this.showInspectStatus(null);
    } catch (err) {
      if (doc === this.doc) this.showInspectStatus(appWording((err as Error).message), "error");
    }
  }

  private showInspectStatus(text: string | null, kind?: string): void {
    this.inspectStatus.hidden = text === null;
    this.inspectStatus.textContent = text ?? "";
    if (kind) this.inspectStatus.dataset.kind = kind;
    else delete this.inspectStatus.dataset.kind;
  }

  async save(): Promise<void> {
    const doc = this.doc;
    if (!doc) return;
    if (doc.kind !== "user") return this.saveAs();
    const source = doc.model.getValue();
    await this.host.saveWorkload(doc.title, source);
    doc.saved = source;
    await this.host.discardDraft(doc.key);
    this.drafts = this.drafts.filter((d) => d.key !== doc.key);
    toast(`Saved ${doc.title}`);
    this.renderExplorer();
  }

  async saveAs(): Promise<void> {
    const doc = this.doc;
    if (!doc) return;
    const base = doc.kind === "example" ? `${doc.id}_mine` : doc.kind === "new" ? "my_workload" : doc.id + "_copy";
    const name = await askText("Save as my workload", `File name in ${this.info.workspace}/workloads:`, `${base}.ts`, (v) =>
      /^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}\.ts$/.test(v) && !v.includes("..") ? null : "use letters, digits, _ . - and end with .ts");
    if (!name) return;
    try {
      const source = doc.model.getValue();
      await this.host.saveWorkload(name, source);
      if (doc.kind === "new") {
        await this.host.discardDraft(doc.key);
        this.docs.delete(doc.key);
        doc.model.dispose();
      }
      this.docs.get(`user:${name}`)?.model.dispose();
      this.docs.delete(`user:${name}`);
      [this.workloads, this.drafts] = await Promise.all([this.host.listWorkloads(), this.host.listDrafts()]);
      await this.openUser(name);
      toast(`Saved ${name}`);
    } catch (err) {
      toast((err as Error).message, "error");
    }
  }

  // ---- running ---------------------------------------------------------------------------------------
  private workloadRef(doc: Doc): { id: string; file: string; source: string } {
    if (doc.runAs) return { ...doc.runAs, source: doc.model.getValue() };
    return { id: doc.id.replace(/[^A-Za-z0-9_.-]/g, "_"), file: doc.file, source: doc.model.getValue() };
  }

  async run(): Promise<void> {
    if (this.starting) return;
    this.starting = true;
    try {
      await this.runExperiment();
    } finally {
      this.starting = false;
    }
  }

  private async runExperiment(): Promise<void> {
    const doc = this.doc;
    if (!doc || this.sim.busy) return;
    // Type errors refuse the run, as `siglab run file.ts` does (shipped examples are not type-checked
    // there either: they are read-only, and the CLI runs them as they are).
    if (doc.kind !== "example") {
      this.status.textContent = "Checking types…";
      let problem: Awaited<ReturnType<typeof firstTypeError>> = null;
      try {
        problem = await firstTypeError(doc.model);
      } catch (err) {
        toast(`Could not type-check the workload (${(err as Error).message}); running it anyway`, "error");
      }
      if (doc !== this.doc) return;
      if (problem) {
        const file = doc.file.split("/").pop()!;
        const more = problem.count > 1 ? ` (${problem.count - 1} more error${problem.count > 2 ? "s" : ""})` : "";
        const what = problem.syntax ? "syntax error" : "type error";
        const line = `${what[0]!.toUpperCase()}${what.slice(1)} at ${file}:${problem.line}:${problem.column}: ${problem.message}${more}`;
        this.results.setRefusal({ kind: problem.syntax ? "syntax" : "type", line });
        this.status.textContent = `Not run: ${what} at line ${problem.line}:${problem.column}`;
        document.body.dataset.refused = String(Number(document.body.dataset.refused ?? 0) + 1);
        this.editor.setPosition({ lineNumber: problem.line, column: problem.column });
        this.editor.revealPositionInCenterIfOutsideViewport({ lineNumber: problem.line, column: problem.column });
        return;
      }
    }
    // Every run would fail on CPUs without a feature the workload needs: pick one that has it.
    if (this.runConfig.state.cpus.length && this.needsAdjustment(true)) this.checkCpuFeatures(true);
    // The parameter panel must match the source being run (edits may be newer than the last read).
    await this.inspectNow();
    let config: ExperimentConfig;
    try {
      config = this.runConfig.experiment(this.workloadRef(doc));
    } catch (err) {
      toast((err as Error).message, "error");
      return;
    }
    const profiles = config.cpus.map((c) => this.profiles.find((p) => p.profile.id === c.id)!.profile);
    const thirdParty = [...new Set(config.stacks.flat().map((v) => v.id))].filter((id) => this.plugins.find((p) => p.id === id)?.origin === "third-party");
    let plugins: PluginSource[];
    try {
      plugins = await Promise.all(thirdParty.map(async (id) => toPluginSource(await this.host.readPluginCode(id), this.plugins.find((p) => p.id === id)?.folder)));
    } catch (err) {
      toast((err as Error).message, "error");
      return;
    }
    this.lastConfig = config;
    this.lastProfiles = profiles;
    const repeat = this.runConfig.state.repeat ?? 1;
    const partial: RunResult[] = [];
    const started = performance.now();
    this.setRunning(true);
    this.status.textContent = "Starting…";
    this.results.setResults([], config, profiles);
    try {
      const results = await this.sim.run(config, profiles, plugins, {
        onProgress: ({ index, total, progress, done, running, overall }) => {
          this.progress.value = overall;
          const elapsed = (performance.now() - started) / 1000;
          const eta = overall > 0.02 ? ` · ~${Math.max(0, Math.round(elapsed / overall - elapsed))} s left` : "";
          // several runs at a time (the pool): how many are done and running rather than one run's cycles
          this.status.textContent = running > 1 ? `Runs ${done}/${total} done, ${running} running${eta}` : `Run ${index + 1}/${total} · ${progress.cycles.toLocaleString("en-US")} cycles${eta}`;
        },
        onResult: ({ index, total, result }) => {
          partial[index] = result;
          this.progress.value = (index + 1) / total;
          this.results.setResults(partial, config, profiles);
        },
      }, { repeat });
      this.results.setResults(results, config, profiles);
      const findings = results.reduce((n, r) => n + r.findings.length, 0);
      const failed = results.filter((r) => r.error);
      const runs = (n: number): string => `${n} run${n === 1 ? "" : "s"}${repeat > 1 ? ` × ${repeat} seeds` : ""}`;
      const secs = `${((performance.now() - started) / 1000).toFixed(1)} s`;
      if (failed.length && failed.length === results.length) {
        const kinds = [...new Set(failed.map((r) => describeRunError(r.error!).category))];
        this.status.textContent = `Failed: ${failed.length === 1 ? "the run" : `all ${runs(failed.length)}`} (${kinds.join(", ")}) in ${secs}`;
      } else {
        this.status.textContent = `Done: ${runs(results.length)} in ${secs} · ${findings} finding${findings === 1 ? "" : "s"}${failed.length ? ` · ${failed.length} failed` : ""}`;
      }
      if (this.bundleExpected) this.reportBundleComparison(results);
      await this.remember(doc, config, results);
    } catch (err) {
      if (err instanceof RunCancelled) this.status.textContent = `Cancelled (${partial.filter(Boolean).length} run(s) kept)`;
      else {
        this.status.textContent = "Failed";
        toast(appWording((err as Error).message), "error");
      }
    } finally {
      this.setRunning(false);
    }
  }

  // ---- LMbench summary --------------------------------------------------------------------------------
  /**
   * Runs the five lmbench examples (LMBENCH_BENCHMARKS) on the run configuration's CPUs (with CPUs
   * per machine) and variant stacks, one experiment per example through the same execution host as
   * Run, and fills the summary table as results arrive. Cancel stops it like any run.
   */
  private async runSummary(opts: { quick: boolean }): Promise<void> {
    if (this.starting || this.sim.busy) return toast("A run is in progress: wait for it to end, or cancel it", "error");
    const examples = LMBENCH_BENCHMARKS.map((b) => this.examples.find((e) => e.id === b.example));
    const missing = LMBENCH_BENCHMARKS.filter((_b, i) => !examples[i]).map((b) => b.example);
    if (missing.length) return toast(`Cannot run the summary: the examples ${missing.join(", ")} are not shipped with this build`, "error");
    let machines: ReturnType<RunConfigView["machines"]>;
    try {
      machines = this.runConfig.machines();
    } catch (err) {
      return toast(`Cannot run the summary: ${(err as Error).message}`, "error");
    }
    const profiles = machines.cpus.map((c) => this.profiles.find((p) => p.profile.id === c.id)!.profile);
    const thirdParty = [...new Set(machines.stacks.flat().map((v) => v.id))].filter((id) => this.plugins.find((p) => p.id === id)?.origin === "third-party");
    this.starting = true;
    let plugins: PluginSource[];
    try {
      plugins = await Promise.all(thirdParty.map(async (id) => toPluginSource(await this.host.readPluginCode(id), this.plugins.find((p) => p.id === id)?.folder)));
    } catch (err) {
      this.starting = false;
      return toast((err as Error).message, "error");
    }
    const state: SummaryState = { rows: summaryRows(machines.cpus, machines.stacks), results: {}, profiles, quick: opts.quick };
    const n = LMBENCH_BENCHMARKS.length;
    const started = performance.now();
    this.setRunning(true);
    this.summaryView.setRunning(true, "Starting…");
    this.summaryView.setResults(state);
    let failed = 0;
    try {
      for (const [bi, b] of LMBENCH_BENCHMARKS.entries()) {
        const ex = examples[bi]!;
        let params: ExperimentConfig["params"] = {};
        if (opts.quick) {
          const it = (await this.sim.outline(ex.source, ex.file)).params["iterations"];
          if (typeof it === "number") params = { iterations: Math.max(100, Math.round(it / 10)) };
        }
        const config: ExperimentConfig = { workload: { id: ex.id, file: ex.file, source: ex.source }, cpus: machines.cpus, stacks: machines.stacks, params, seed: machines.seed, ...(machines.budget ? { budget: machines.budget } : {}) };
        const row: (RunResult | undefined)[] = [];
        state.results[b.example] = row;
        await this.sim.run(config, profiles, plugins, {
          onProgress: ({ index, total, progress }) => {
            this.progress.value = (bi + (index + (progress.fraction ?? 0)) / total) / n;
            const text = `Summary: ${b.example} (${bi + 1}/${n}) · run ${index + 1}/${total}`;
            this.status.textContent = text;
            this.summaryView.setStatus(text);
          },
          onResult: ({ index, result }) => {
            row[index] = result;
            if (result.error) failed++;
            this.summaryView.setResults(state);
          },
        });
      }
      const text = `Done: ${n} benchmarks × ${state.rows.length} row${state.rows.length === 1 ? "" : "s"} in ${((performance.now() - started) / 1000).toFixed(1)} s${failed ? ` · ${failed} run${failed === 1 ? "" : "s"} failed (hover “failed” for why)` : ""}`;
      this.status.textContent = text;
      this.summaryView.setStatus(text);
    } catch (err) {
      const text = err instanceof RunCancelled ? "Summary cancelled (the figures so far are kept)" : `Summary failed: ${appWording((err as Error).message)}`;
      this.status.textContent = text;
      this.summaryView.setStatus(text);
    } finally {
      this.starting = false;
      this.setRunning(false);
      this.summaryView.setRunning(false);
      document.body.dataset.summaryRuns = String(Number(document.body.dataset.summaryRuns ?? 0) + 1);
    }
  }

  /**
   * "Your machine" and its what-ifs (summary/machine-panel.ts): runs `runs` in order through the
   * same execution host as Run, one experiment each, with the given seed (a what-if reuses its
   * baseline's) or the run configuration's, and its budget. Cancel stops it like any run.
   */
  private async simulateMachine(runs: MachineRun[], opts: { quick: boolean; seed?: number; label: string }, onResult: (index: number, result: RunResult) => void): Promise<{ seed: number }> {
    if (this.starting || this.sim.busy) throw new Error("a run is in progress: wait for it to end, or cancel it");
    const seed = opts.seed ?? this.runConfig.state.seed;
    const maxSeconds = this.runConfig.state.maxSeconds;
    const budget = maxSeconds !== undefined && Number.isFinite(maxSeconds) && maxSeconds > 0 ? { maxHostMs: Math.round(maxSeconds * 1000) } : undefined;
    this.starting = true;
    this.setRunning(true);
    this.summaryView.setRunning(true, `${opts.label}…`);
    try {
      for (const [i, run] of runs.entries()) {
        const ex = this.examples.find((e) => e.id === run.example);
        const profile = this.profiles.find((p) => p.profile.id === run.cpu.id)?.profile;
        if (!ex) throw new Error(`the example ${run.example} is not shipped with this build`);
        if (!profile) throw new Error(`no CPU profile ${run.cpu.id}`);
        const params: ExperimentConfig["params"] = { ...run.params };
        if (opts.quick) {
          const it = (await this.sim.outline(ex.source, ex.file)).params["iterations"];
          if (typeof it === "number") params["iterations"] = Math.max(100, Math.round(it / 10));
        }
        const thirdParty = run.stack.map((v) => this.plugins.find((p) => p.id === v.id)).filter((p) => p?.origin === "third-party");
        const plugins = await Promise.all(thirdParty.map(async (p) => toPluginSource(await this.host.readPluginCode(p!.id), p!.folder)));
        const config: ExperimentConfig = { workload: { id: ex.id, file: ex.file, source: ex.source }, cpus: [run.cpu], stacks: [run.stack], params, seed, ...(budget ? { budget } : {}) };
        const text = `${opts.label}: ${run.example} (${i + 1}/${runs.length})`;
        this.status.textContent = text;
        this.summaryView.setStatus(text);
        await this.sim.run(config, [profile], plugins, {
          onProgress: ({ progress }) => (this.progress.value = (i + (progress.fraction ?? 0)) / runs.length),
          onResult: ({ result }) => onResult(i, result),
        });
      }
      this.status.textContent = `${opts.label}: done`;
      this.summaryView.setStatus(`${opts.label}: done`);
    } catch (err) {
      const text = err instanceof RunCancelled ? `${opts.label}: cancelled` : `${opts.label}: ${appWording((err as Error).message)}`;
      this.status.textContent = text;
      this.summaryView.setStatus(text);
      throw err;
    } finally {
      this.starting = false;
      this.setRunning(false);
      this.summaryView.setRunning(false);
      document.body.dataset.machineRuns = String(Number(document.body.dataset.machineRuns ?? 0) + 1);
    }
    return { seed };
  }

  // ---- CPU features ------------------------------------------------------------------------------------
  private featureAdjustment(): { needs: ReturnType<typeof featureNeeds>; adj: ReturnType<typeof adjustCpus> } | null {
    const doc = this.doc;
    if (!doc) return null;
    const needs = featureNeeds(doc.model.getValue(), this.runConfig.state.stacks.map((st) => st.variants));
    return { needs, adj: adjustCpus(this.runConfig.state.cpus, this.profiles.map((p) => p.profile), needs) };
  }

  /** Whether the selection must change: any chosen CPU lacks a need (onlyIfAll: every chosen CPU does). */
  private needsAdjustment(onlyIfAll = false): boolean {
    const f = this.featureAdjustment();
    if (!f || f.adj.impossible || f.adj.removed.length === 0) return false;
    return !onlyIfAll || f.adj.removed.length === this.runConfig.state.cpus.length;
  }

  /**
   * When the open workload (SSE registers) or a variant stack (SEP for sysenter) needs a feature a
   * chosen CPU lacks, selects CPUs that have it and says so above the editor, with Undo.
   */
  private checkCpuFeatures(keepNote = false): void {
    const f = this.featureAdjustment();
    if (!keepNote || (f && (f.adj.removed.length || f.adj.impossible))) {
      clear(this.cpuNote);
      this.cpuNote.hidden = true;
    }
    if (!f || (f.adj.removed.length === 0 && !f.adj.impossible)) return;
    const profiles = this.profiles.map((p) => p.profile);
    const text = describeAdjustment(f.adj, f.needs, profiles, (c) => cpuLabel(c, profiles));
    this.cpuNote.dataset.kind = f.adj.impossible ? "impossible" : "adjusted";
    if (f.adj.impossible) {
      this.cpuNote.append(h("span", null, text));
    } else {
      const before = this.runConfig.state.cpus.map((c) => ({ ...c }));
      this.runConfig.state.cpus = f.adj.cpus;
      this.runConfig.render();
      this.cpuNote.append(h("span", null, text), " ",
        h("button.small#undo-cpu", { onclick: () => { this.runConfig.state.cpus = before; this.runConfig.render(); this.cpuNote.hidden = true; } }, "Undo"));
    }
    this.cpuNote.hidden = false;
  }

  // ---- choices kept across reloads ---------------------------------------------------------------------
  private restoreRunConfig(): RunConfigState {
    const base = defaultRunConfig(this.profiles);
    if (!this.storage) return base;
    const loaded = loadRunState(this.storage);
    const notes: string[] = loaded.note ? [loaded.note] : [];
    const s = loaded.value;
    if (!s) {
      if (loaded.note) toast(notes.join(" "), "error");
      return base;
    }
    const fixed = this.fitToCatalog(s.cpus, s.stacks);
    if (fixed.notes.length) notes.push(`From your saved run configuration: ${fixed.notes.join("; ")}.`);
    if (notes.length) toast(notes.join(" "), "error");
    this.savedParams = s.params;
    const state: RunConfigState = { ...base, cpus: fixed.cpus.length ? fixed.cpus : defaultCpus(this.profiles), stacks: fixed.stacks.map((variants) => ({ variants })), seed: s.seed, timeline: s.timeline };
    if (s.maxSeconds !== undefined) state.maxSeconds = s.maxSeconds;
    if (s.smp !== undefined && s.smp > 1) state.smp = s.smp;
    if (s.repeat !== undefined && s.repeat > 1) state.repeat = s.repeat;
    return state;
  }

  /** CPUs and stacks this app can run: unknown profiles and plugins are dropped, clocks kept in range. */
  private fitToCatalog(cpus: CpuRef[], stacks: VariantSpec[][]): { cpus: CpuRef[]; stacks: VariantSpec[][]; notes: string[] } {
    const notes: string[] = [];
    const out: CpuRef[] = [];
    for (const c of cpus) {
      const p = this.profiles.find((x) => x.profile.id === c.id)?.profile;
      if (!p) notes.push(`no CPU profile "${c.id}" here`);
      else if (out.some((x) => x.id === c.id)) continue;
      else if (c.mhz < p.clock.minMhz || c.mhz > p.clock.maxMhz) {
        notes.push(`${p.name}: ${c.mhz} MHz is outside ${p.clock.minMhz}-${p.clock.maxMhz} MHz, using ${p.clock.defaultMhz} MHz`);
        out.push({ id: c.id, mhz: p.clock.defaultMhz });
      } else out.push({ id: c.id, mhz: c.mhz });
    }
    const known = new Set(this.plugins.map((p) => p.id));
    const missing = new Set<string>();
    const kept = stacks.map((st) => st.filter((v) => (known.has(v.id) ? true : (missing.add(v.id), false))));
    if (missing.size) notes.push(`no plugin ${[...missing].map((m) => `"${m}"`).join(", ")} here (left out of the variant stacks)`);
    const seen = new Set<string>();
    const unique = kept.filter((st) => {
      const k = JSON.stringify(st);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    return { cpus: out, stacks: unique.length ? unique : [[]], notes };
  }

  private persistRunConfig(): void {
    if (!this.restored || !this.storage) return;
    const st = this.runConfig.state;
    if (this.doc) this.savedParams = rememberParams(this.savedParams, this.doc.key, st.params);
    const saved: SavedRunState = { v: 1, cpus: st.cpus, stacks: st.stacks.map((x) => x.variants), seed: st.seed, timeline: st.timeline, params: this.savedParams };
    if (st.maxSeconds !== undefined && Number.isFinite(st.maxSeconds) && st.maxSeconds > 0) saved.maxSeconds = st.maxSeconds;
    if (st.smp !== undefined && st.smp > 1) saved.smp = st.smp;
    if (st.repeat !== undefined && st.repeat > 1) saved.repeat = st.repeat;
    saveJson(this.storage, RUN_STATE_KEY, saved);
  }

  private saveLayout(): void {
    if (this.storage) saveJson(this.storage, LAYOUT_KEY, this.layoutPrefs);
  }

  // ---- settings and links ------------------------------------------------------------------------------
  private async editSettings(): Promise<void> {
    const current = this.settings.sourceUrlTemplate ?? DEFAULT_SOURCE_URL_TEMPLATE;
    const v = await askText("Settings", `Linux source links: a URL template, {fn} is the function name (default ${DEFAULT_SOURCE_URL_TEMPLATE})`, current, checkSourceUrlTemplate);
    if (v === null) return;
    this.settings = v === DEFAULT_SOURCE_URL_TEMPLATE ? {} : { ...this.settings, sourceUrlTemplate: v };
    if (this.storage) saveJson(this.storage, SETTINGS_KEY, this.settings);
    this.results.show("inspector");
    toast("Linux source links updated");
  }

  private async openExternal(url: string): Promise<void> {
    try {
      if (!(await this.host.openExternal(url))) toast(`The link was refused: ${url}`, "error");
    } catch (err) {
      toast((err as Error).message, "error");
    }
  }

  /** Copies a link carrying the open workload, the run configuration and the seed (all in the fragment). */
  private async copyLink(): Promise<void> {
    const doc = this.doc;
    if (!doc) return;
    let cfg: ExperimentConfig;
    try {
      cfg = this.runConfig.experiment(this.workloadRef(doc));
    } catch (err) {
      return toast(`Cannot make a link: ${(err as Error).message}`, "error");
    }
    const config: SharedConfig = { cpus: cfg.cpus, stacks: cfg.stacks, params: cfg.params, seed: cfg.seed };
    if (cfg.sweep) config.sweep = cfg.sweep;
    if (cfg.timeline) config.timeline = true;
    const maxSeconds = maxSecondsOf(cfg);
    if (maxSeconds !== undefined) config.maxSeconds = maxSeconds;
    const repeat = this.runConfig.state.repeat ?? 1;
    if (repeat > 1) config.repeat = repeat;
    const name = (doc.kind === "user" ? doc.id : doc.kind === "example" ? doc.id : doc.id.replace(/-shared-[a-z0-9]+$/, "")).replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^[^A-Za-z0-9]+/, "").slice(0, 60) || "workload";
    let fragment: string;
    try {
      fragment = await encodeShare({ name, source: doc.model.getValue(), config });
    } catch (err) {
      return toast(err instanceof ShareError ? `Cannot make a link: ${err.message}` : (err as Error).message, "error");
    }
    // never the query string: the HTTP host's session token must not travel with a link
    const link = `${location.origin}${location.pathname}${fragment}`;
    this.lastShareLink = link;
    try {
      await navigator.clipboard.writeText(link);
      toast(`Link copied (${(link.length / 1024).toFixed(1)} KB): it holds the workload, the configuration and seed ${cfg.seed}`);
    } catch {
      showMessage("Copy this link", h("textarea.link-text", { readonly: true, rows: 4, "aria-label": "Shareable link" }, link));
    }
  }

  private async openLinkDialog(): Promise<void> {
    const text = await askText("Open link", "Paste a SigLab link (it opens in a new untitled workload):", "", (v) => (findShareFragment(v) ? null : "this is not a SigLab link (it has no #share=…)"));
    if (text) await this.openShared(findShareFragment(text)!);
  }

  private async openSharedFromLocation(): Promise<void> {
    const data = findShareFragment(location.hash);
    if (data === null) return;
    // the link is consumed: a reload shows the new document (autosaved), not a second copy
    history.replaceState(null, "", `${location.pathname}${location.search}`);
    await this.openShared(data);
  }

  /** Restores a shared link into a new untitled document; never touches an existing one. */
  private async openShared(data: string): Promise<void> {
    let payload;
    try {
      payload = await decodeShare(data);
    } catch (err) {
      showMessage("Cannot open this link", err instanceof ShareError ? `This SigLab link cannot be opened: ${err.message}.` : (err as Error).message);
      document.body.dataset.linkError = String(Number(document.body.dataset.linkError ?? 0) + 1);
      return;
    }
    const c = payload.config;
    const fixed = this.fitToCatalog(c.cpus, c.stacks);
    const key = `new:${payload.name}-shared-${Date.now().toString(36)}`;
    this.savedParams = rememberParams(this.savedParams, key, c.params);
    const notes = fixed.notes.length ? ` Not available here: ${fixed.notes.join("; ")}.` : "";
    const banner = h("span#shared-banner", null, `Opened a shared link as a new workload (${payload.name}): ${fixed.cpus.length} CPU${fixed.cpus.length === 1 ? "" : "s"} × ${fixed.stacks.length} variant stack${fixed.stacks.length === 1 ? "" : "s"}, seed ${c.seed}. Press Run to run it.${notes}`);
    this.openNew(payload.source, key, { saveDraft: true, banner });
    const state: RunConfigState = {
      cpus: fixed.cpus.length ? fixed.cpus : defaultCpus(this.profiles),
      stacks: fixed.stacks.map((variants) => ({ variants })),
      params: { ...c.params },
      sweep: c.sweep ? { enabled: true, param: c.sweep.param, values: c.sweep.values.join(", ") } : { enabled: false, param: "", values: "" },
      seed: c.seed,
      timeline: !!c.timeline,
    };
    if (c.maxSeconds !== undefined) state.maxSeconds = c.maxSeconds;
    if (smpOf(c.cpus) > 1) state.smp = smpOf(c.cpus);
    if (c.repeat !== undefined && c.repeat > 1) state.repeat = c.repeat;
    this.runConfig.setState(state);
    this.checkCpuFeatures();
    this.drafts = await this.host.listDrafts().catch(() => this.drafts);
    this.renderExplorer();
    document.body.dataset.linkOpened = key;
  }

  cancel(): void {
    if (!this.sim.busy) return;
    this.sim.cancel();
  }

  private setRunning(running: boolean): void {
    this.runButton.disabled = running;
    this.cancelButton.disabled = !running;
    document.body.dataset.running = String(running);
    if (!running) {
      this.progress.value = 0;
      document.body.dataset.runsFinished = String(Number(document.body.dataset.runsFinished ?? 0) + 1);
    }
  }

  private async remember(doc: Doc, config: ExperimentConfig, results: RunResult[]): Promise<void> {
    if (doc.kind === "new") return;
    const entry: RecentExperiment = {
      id: `${doc.key}|${config.cpus.map((c) => `${c.id}@${c.mhz}${c.smp ? `x${c.smp}` : ""}`).join(",")}|${JSON.stringify(config.stacks)}`.slice(0, 190),
      title: `${doc.title} · ${config.cpus.length} CPU${smpOf(config.cpus) > 1 ? ` ×${smpOf(config.cpus)}` : ""} × ${config.stacks.length} stack${config.stacks.length === 1 ? "" : "s"}`,
      savedAtMs: Date.now(),
      workload: { kind: doc.kind, id: doc.kind === "example" ? doc.id : doc.title },
      config: { ...config, workload: { ...config.workload, source: "" } },
      summary: `${results.length} runs, ${results.reduce((n, r) => n + r.findings.length, 0)} findings`,
    };
    try {
      this.recent = await this.host.addRecent(entry);
      this.renderExplorer();
    } catch {
      /* recent list is a convenience */
    }
  }

  private async openRecent(r: RecentExperiment): Promise<void> {
    if (r.workload.kind === "example") this.openExample(r.workload.id);
    else await this.openUser(r.workload.id);
    const s: RunConfigState = {
      cpus: r.config.cpus.map((c) => withSmp(c, 1)),
      stacks: r.config.stacks.map((variants) => ({ variants })),
      params: { ...r.config.params },
      sweep: r.config.sweep ? { enabled: true, param: r.config.sweep.param, values: r.config.sweep.values.join(", ") } : { enabled: false, param: "", values: "" },
      seed: r.config.seed,
      timeline: !!r.config.timeline,
    };
    const maxSeconds = maxSecondsOf(r.config);
    if (maxSeconds !== undefined) s.maxSeconds = maxSeconds;
    if (smpOf(r.config.cpus) > 1) s.smp = smpOf(r.config.cpus);
    // a recent experiment does not record repetitions: the current choice stays
    if (this.runConfig.state.repeat !== undefined) s.repeat = this.runConfig.state.repeat;
    this.runConfig.setState(s);
    toast("Configuration restored: press Run to re-run it");
  }

  // ---- plugins & profiles -------------------------------------------------------------------------------
  private onPluginsChanged(): void {
    this.runConfig.setCatalog(this.profiles, this.plugins);
    this.pluginsView.setEntries(this.plugins);
    this.renderExplorer();
    void this.refreshPluginExamples().then(() => this.renderExplorer());
  }

  /**
   * The example workloads of enabled third-party plugins (the .ts files of their examples/ folder,
   * read by the host as text), each suggesting its plugin as a variant stack. An id already taken
   * by a built-in example keeps the built-in one.
   */
  private async refreshPluginExamples(): Promise<void> {
    const taken = new Set(this.examples.map((e) => e.id));
    const out: ExampleEntry[] = [];
    for (const p of this.plugins.filter((x) => x.origin === "third-party" && x.status === "ok" && x.enabled)) {
      let code: PluginCode;
      try {
        code = await this.host.readPluginCode(p.id);
      } catch {
        continue; // listed as refused or gone: the Plugins view says why
      }
      for (const [rel, source] of Object.entries(code.examples ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
        const id = rel.replace(/^.*\//, "").replace(/\.ts$/, "");
        if (taken.has(id)) continue;
        taken.add(id);
        const title = /name:\s*"([^"]+)"/.exec(source)?.[1] ?? id;
        out.push({ id, title: `${title} (${p.id})`, file: `${p.id}/${rel}`, source, suggestedVariants: [{ id: p.id }] });
      }
    }
    this.pluginExamples = out;
  }

  private async installPlugin(): Promise<void> {
    const r = await this.host.installPluginFromFolder();
    if (r.installed) toast(`Installed plugin ${r.entry?.id ?? ""}`);
    else if (r.error) showMessage("Plugin refused", r.error);
    this.plugins = await this.host.listPlugins();
    this.onPluginsChanged();
  }

  private async refreshProfiles(): Promise<void> {
    this.profiles = await this.host.listProfiles();
    this.profilesView.setEntries(this.profiles);
    this.runConfig.setCatalog(this.profiles, this.plugins);
    this.renderExplorer();
  }

  // ---- exports & bundles --------------------------------------------------------------------------------
  private async saveExport(name: string, data: string | Uint8Array): Promise<void> {
    try {
      const r = await this.host.saveExport(name, data);
      if (r.saved) {
        toast(`Saved ${r.path ?? name}`);
        document.body.dataset.lastExport = r.path ?? name;
      }
    } catch (err) {
      toast((err as Error).message, "error");
    }
  }

  private async exportCsv(): Promise<void> {
    const results = this.results.currentResults;
    if (!results.length) return toast("Nothing to export yet: run an experiment first", "error");
    await this.saveExport(`${this.lastConfig?.workload.id ?? "results"}.csv`, toCsv(results));
  }

  /**
   * The results' timelines as a Chrome/Perfetto trace (core's toPerfettoTrace), saved through the
   * host's saveExport like CSV. Without a timeline there is nothing to trace: say so (as `siglab
   * export trace` does) instead of writing an empty trace.
   */
  private async exportTrace(): Promise<void> {
    const results = this.results.currentResults;
    if (!results.length) return toast("Nothing to export yet: run an experiment first", "error");
    if (hasNoTimeline(results)) {
      document.body.dataset.traceRefused = String(Number(document.body.dataset.traceRefused ?? 0) + 1);
      showMessage("No timeline to export", "No run of these results recorded a timeline, so a trace would be empty. Tick \"Record per-task timeline\" in the run configuration, run again, then export the trace.");
      return;
    }
    const cut = truncatedTimelines(results);
    await this.saveExport(`${this.lastConfig?.workload.id ?? "results"}.trace.json`, JSON.stringify(toPerfettoTrace(results)));
    if (cut.length) toast(`The timeline is bounded: ${cut.join("; ")} (the trace's metadata says so too)`, "error");
  }

  private async exportBundle(): Promise<void> {
    const results = this.results.currentResults;
    if (!this.lastConfig || !results.length) return toast("Run an experiment before exporting a bundle", "error");
    try {
      const plugins: BundleInput["plugins"] = [];
      for (const id of new Set(this.lastConfig.stacks.flat().map((v) => v.id))) {
        const entry = this.plugins.find((p) => p.id === id);
        if (entry?.origin === "third-party") {
          const code = await this.host.readPluginCode(id);
          plugins.push({ source: "embedded", id, version: code.manifest.version, apiVersion: code.manifest.apiVersion, files: { ...code.files, "plugin.json": JSON.stringify(code.manifest, null, 2) } });
        } else plugins.push({ source: "builtin", id, version: entry?.manifest?.version ?? "0.0.0" });
      }
      const input: BundleInput = { experiment: this.lastConfig, profiles: this.lastProfiles, plugins, results, appVersion: this.info.appVersion };
      const bytes = await this.sim.bundleWrite(input);
      const r = await this.host.exportBundle(`${this.lastConfig.workload.id}.siglab`, bytes);
      if (r.saved) toast(`Bundle saved to ${r.path}`);
    } catch (err) {
      toast(`Export failed: ${(err as Error).message}`, "error");
    }
  }

  private async importBundle(): Promise<void> {
    const file = await this.host.importBundle();
    if (file) await this.openBundleBytes(file.name, file.bytes);
  }

  private async openBundleBytes(name: string, bytes: Uint8Array): Promise<void> {
    let bundle: Bundle;
    try {
      bundle = (await this.sim.bundleRead(name, bytes)) as Bundle;
    } catch (err) {
      showMessage("Cannot open bundle", (err as Error).message);
      return;
    }
    const exp = bundle.experiment;
    const missing = bundle.plugins.filter((p) => !this.plugins.some((x) => x.id === p.id && x.status === "ok")).map((p) => `${p.id}@${p.version}`);
    const key = `new:${exp.workload.id.replace(/[^A-Za-z0-9_.-]/g, "_")}-bundle`;
    this.docs.get(key)?.model.setValue(exp.workload.source);
    this.openNew(exp.workload.source, key);
    this.docs.get(key)!.runAs = { id: exp.workload.id, file: exp.workload.file };
    const profiles = bundle.profiles;
    const bundledRepeat = clampRepeat(Math.max(1, ...bundle.results.map(repeatCount)));
    this.runConfig.setState({
      cpus: exp.cpus.map((c) => withSmp(c, 1)), stacks: exp.stacks.map((variants) => ({ variants })), params: { ...exp.params },
      sweep: exp.sweep ? { enabled: true, param: exp.sweep.param, values: exp.sweep.values.join(", ") } : { enabled: false, param: "", values: "" },
      seed: exp.seed, timeline: !!exp.timeline,
      ...(maxSecondsOf(exp) !== undefined ? { maxSeconds: maxSecondsOf(exp)! } : {}),
      ...(smpOf(exp.cpus) > 1 ? { smp: smpOf(exp.cpus) } : {}),
      // results made with repetitions say how many (the experiment itself does not)
      ...(bundledRepeat > 1 ? { repeat: bundledRepeat } : {}),
    });
    this.lastConfig = exp;
    this.lastProfiles = profiles;
    this.bundleExpected = bundle.results;
    this.results.setResults(bundle.results, exp, profiles);
    const notes = [...bundle.warnings, ...(missing.length ? [`Missing plugins (install or enable them to re-run): ${missing.join(", ")}`] : [])];
    this.setBanner(h("span", null, `Opened bundle ${name}${bundle.migratedFrom ? ` (migrated from format ${bundle.migratedFrom})` : ""}. Press Run to re-run it and compare. ${notes.join(" ")}`));
  }

  private reportBundleComparison(results: RunResult[]): void {
    const expected = this.bundleExpected!;
    this.bundleExpected = null;
    const c = compareResults(expected, results);
    showMessage("Re-run of the bundle", c.identical ? "The results are identical to the bundle's, bit for bit." : `The results differ from the bundle's in ${c.differences.length} place(s): ${c.differences.slice(0, 5).map((d) => `${d.path}: ${String(d.expected)} → ${String(d.actual)}`).join("; ")}`);
  }

  // ---- host events ---------------------------------------------------------------------------------------
  private async onHostEvent(e: HostEvent): Promise<void> {
    if (e.type === "plugins-changed") {
      this.plugins = await this.host.listPlugins();
      this.onPluginsChanged();
    } else if (e.type === "open-bundle") await this.openBundleBytes(e.file.name, e.file.bytes);
    else if (e.type === "menu") await this.onMenu(e.command);
  }

  private async onMenu(c: MenuCommand): Promise<void> {
    const actions: Record<MenuCommand, () => unknown> = {
      "new-workload": () => this.openNew(NEW_WORKLOAD),
      save: () => this.save(),
      "save-as": () => this.saveAs(),
      run: () => this.run(),
      cancel: () => this.cancel(),
      "export-bundle": () => this.exportBundle(),
      "import-bundle": () => this.importBundle(),
      "export-csv": () => this.exportCsv(),
      "export-trace": () => this.exportTrace(),
      "install-plugin": () => this.installPlugin(),
      "show-workload": () => this.showView("workload"),
      "show-profiles": () => this.showView("profiles"),
      "show-plugins": () => this.showView("plugins"),
      "show-summary": () => this.showView("summary"),
      about: () => showMessage("About SigLab", `SigLab ${this.info.appVersion} (${this.info.kind} host, plugin API ${this.info.pluginApiVersion}). Workspace: ${this.info.workspace}`),
    };
    await actions[c]();
  }
}
