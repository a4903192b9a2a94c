/**
 * The SigLab window, put together: the toolbar, the explorer, the workload pane (Monaco), the run
 * configuration, the results and the profiles / plugins / LMbench views. Each pane and feature is a
 * module of its own (ui/, results/, run/, state/); shared state has one owner each — the host's
 * lists: state/catalog.ts; what local storage keeps: state/local-state.ts; the open document:
 * ui/documents.ts; the run configuration: ui/run-config.ts; what ran last and whether a run is
 * going: run/experiment-runner.ts. Talks to the host only through HostApi and to the simulation
 * only through SimClient (core's execution host in Web Workers); never runs workload or plugin
 * code itself.
 */
import type { HostApi, HostEvent, MenuCommand, RecentExperiment } from "../common/host-api.js";
import { checkSourceUrlTemplate, DEFAULT_SOURCE_URL_TEMPLATE, sourceUrl } from "../common/url-policy.js";
import { Exports } from "./results/exports.js";
import { ResultsView } from "./results/results-view.js";
import { LOOP_NORM } from "./results/loop-bars.js";
import { ExperimentRunner } from "./run/experiment-runner.js";
import { SummaryRunner } from "./run/summary-runner.js";
import { SimClient } from "./sim-client.js";
import { Catalog } from "./state/catalog.js";
import { LocalState } from "./state/local-state.js";
import { exposeTestHooks } from "./test-hooks.js";
import { CpuNote } from "./ui/cpu-note.js";
import { Documents, NEW_WORKLOAD } from "./ui/documents.js";
import { clear, h, toast } from "./ui/dom.js";
import { EditorPane } from "./ui/editor-pane.js";
import { Explorer } from "./ui/explorer.js";
import { askConfirm, askText, showMessage } from "./ui/modal.js";
import { PluginsView } from "./ui/plugins-view.js";
import { ProfilesView } from "./ui/profiles-view.js";
import { restoredRunConfig } from "./state/restore.js";
import { maxSecondsOf, RunConfigView } from "./ui/run-config.js";
import { ResultCacheSetting } from "./ui/result-cache-setting.js";
import { ShareActions } from "./ui/share-actions.js";
import { PaneSizes } from "./ui/pane-sizes.js";
import { makeSplitter } from "./ui/splitter.js";
import { SummaryView } from "./ui/summary-view.js";
import { Toolbar, VIEWS, type View } from "./ui/toolbar.js";

export class App {
  private readonly catalog: Catalog;
  private readonly local = new LocalState();
  private readonly sim = new SimClient();
  private readonly runConfig: RunConfigView;
  private readonly resultCache: ResultCacheSetting;
  private readonly cpuNote: CpuNote;
  private readonly pane: EditorPane;
  private readonly documents: Documents;
  private readonly explorer: Explorer;
  private readonly toolbar: Toolbar;
  private readonly results: ResultsView;
  private readonly profilesView: ProfilesView;
  private readonly pluginsView: PluginsView;
  private readonly summaryView: SummaryView;
  private readonly runner: ExperimentRunner;
  private readonly summaryRunner: SummaryRunner;
  private readonly share: ShareActions;
  private readonly exports: Exports;
  private readonly center = h("main.center");
  private paneSizes: PaneSizes | null = null;

  constructor(
    private readonly host: HostApi,
    private readonly root: HTMLElement,
  ) {
    const app = this;
    const listsChanged = (): void => this.explorer.render();
    this.catalog = new Catalog(host);
    this.resultCache = new ResultCacheSetting(host);
    this.runConfig = new RunConfigView(
      { cpus: [], stacks: [{ variants: [] }], params: {}, sweep: { enabled: false, param: "", values: "" }, seed: 1, timeline: false },
      { changed: () => this.local.persistRunConfig(this.runConfig.state, this.documents?.current?.key), stackAdded: () => this.cpuNote.check(), footer: () => this.resultCache.el },
    );
    this.cpuNote = new CpuNote(this.catalog, this.runConfig, () => this.documents.current?.model.getValue() ?? null);
    this.pane = new EditorPane(this.cpuNote.el);
    this.documents = new Documents(host, this.catalog, this.pane, this.runConfig, this.local, this.sim, {
      activated: () => {
        this.showView("workload");
        this.explorer.render();
        this.runConfig.render();
        this.cpuNote.check();
      },
      stackAdded: () => this.cpuNote.check(),
      listsChanged,
    });
    this.explorer = new Explorer(this.catalog, {
      openExample: (id) => this.documents.openExample(id),
      openUser: (name) => void this.documents.openUser(name),
      openDraft: (d) => this.documents.openNew(d.source, d.key),
      reopen: (key) => this.documents.reopen(key),
      renameUntitled: (key) => void this.documents.renameUntitled(key),
      deleteUntitled: (key) => void this.documents.deleteUntitled(key),
      newWorkload: () => this.documents.openNew(NEW_WORKLOAD),
      openRecent: (r) => void this.openRecent(r),
      showPlugins: () => this.showView("plugins"),
      showProfile: (id) => {
        this.showView("profiles");
        this.profilesView.select(id);
      },
    }, () => this.documents.current?.key, () => this.documents.transient());
    this.toolbar = new Toolbar({
      showView: (v) => this.showView(v),
      exportBundle: () => void this.exports.exportBundle(),
      importBundle: () => void this.exports.importBundle(),
      exportCsv: () => void this.exports.exportCsv(),
      exportTrace: () => void this.exports.exportTrace(),
      openPerfetto: () => void this.exports.openTraceInPerfetto(),
      copyLink: () => void this.share.copyLink(),
      copyShortLink: () => void this.share.copyShortLink(),
      shortLinks: !window.siglab, // the HTTP host (siglab serve): a link is a URL of this server
      openLink: () => void this.share.openLinkDialog(),
      settings: () => void this.editSettings(),
      run: () => void this.runner.run(),
      cancel: () => this.runner.cancel(),
    });
    this.results = new ResultsView({
      saveExport: (n, d) => this.exports.saveExport(n, d),
      sourceUrl: (fn) => sourceUrl(this.local.settings.sourceUrlTemplate ?? DEFAULT_SOURCE_URL_TEMPLATE, fn),
      openExternal: (url) => void this.openExternal(url),
      get phaseNorm() {
        // per iteration: each named loop by its own count, else ÷ the iterations parameter (results-view.ts)
        return app.local.layout.phaseNorm ?? LOOP_NORM;
      },
      setPhaseNorm: (norm) => {
        this.local.layout.phaseNorm = norm;
        this.local.saveLayout();
      },
      get phaseUnit() {
        return app.local.layout.phaseUnit ?? "cycles";
      },
      setPhaseUnit: (unit) => {
        this.local.layout.phaseUnit = unit;
        this.local.saveLayout();
      },
      shown: () => this.paneSizes?.show("results"),
      manifestOf: (id) => this.catalog.plugins.find((p) => p.id === id)?.manifest ?? undefined,
      applySwitch: (id, options) => {
        if (this.runConfig.setVariantOptions(id, options) > 0) void this.runner.run();
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
        this.catalog.plugins = await this.host.setPluginEnabled(id, enabled);
        this.onPluginsChanged();
      },
      install: () => this.installPlugin(),
      installFromFile: () => this.installPlugin("file"),
    });
    this.runner = new ExperimentRunner(host, this.sim, this.catalog, this.documents, this.runConfig, this.results, this.toolbar, this.cpuNote, listsChanged, () => void this.resultCache.refresh());
    this.summaryRunner = new SummaryRunner(host, this.sim, this.catalog, this.runConfig, this.runner, this.toolbar, () => this.summaryView);
    this.summaryView = new SummaryView({
      run: (opts) => void this.summaryRunner.runSummary(opts),
      machine: {
        catalog: () => ({ profiles: this.catalog.profiles.map((p) => p.profile), plugins: this.catalog.plugins, presets: this.catalog.presets }),
        simulate: (runs, opts, onResult) => this.summaryRunner.simulateMachine(runs, opts, onResult),
      },
      save: (name, data) => this.exports.saveExport(name, data),
    });
    this.share = new ShareActions(host, this.catalog, this.documents, this.runConfig, this.local, this.cpuNote, listsChanged);
    this.exports = new Exports(host, this.sim, this.catalog, this.results, this.runner, this.documents, this.runConfig, this.pane);
  }

  async start(): Promise<void> {
    this.center.append(this.pane.el);
    const note = this.local.loadPrefs();
    if (note) toast(note, "error");
    const splitter = makeSplitter({ root: this.root, pane: this.results.el, onResize: (px) => this.paneSizes?.resized(px) });
    this.paneSizes = new PaneSizes(this.local, splitter);
    this.paneSizes.apply();
    this.results.bar.append(this.toolbar.statusLine);
    this.root.append(this.toolbar.el, h("div.layout", null, this.explorer.el, this.center, this.runConfig.el), splitter.el, this.results.el);
    this.pane.mount({ run: () => void this.runner.run(), save: () => void this.documents.save() });
    window.addEventListener("keydown", (e) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key === "Enter") { e.preventDefault(); void this.runner.run(); }
      else if (mod && e.key.toLowerCase() === "s") { e.preventDefault(); void this.documents.save(); }
      else if (mod && e.key === ".") { e.preventDefault(); this.runner.cancel(); }
      else if (mod && ["1", "2", "3", "4"].includes(e.key)) { e.preventDefault(); this.showView(VIEWS[Number(e.key) - 1]!); }
    });
    this.host.onEvent((e) => void this.onHostEvent(e));
    this.showView("workload");
    const c = this.catalog;
    await c.load();
    void this.resultCache.refresh();
    const restored = this.local.restoreRunConfig(c.profiles, c.plugins);
    if (restored.note) toast(restored.note, "error");
    this.runConfig.state = restored.state;
    this.runConfig.setCatalog(c.profiles, c.plugins, c.presets);
    this.local.markRestored();
    this.local.persistRunConfig(this.runConfig.state, this.documents.current?.key);
    this.profilesView.setEntries(c.profiles);
    this.pluginsView.setEntries(c.plugins, c.info.pluginDir);
    await c.refreshPluginExamples();
    this.explorer.render();
    // the document open before a reload, else the last untitled draft, else the first example
    if (!(await this.documents.restoreOpen())) {
      const lastNew = c.drafts.find((d) => d.key.startsWith("new:"));
      if (lastNew) this.documents.openNew(lastNew.source, lastNew.key);
      else if (c.examples[0]) this.documents.openExample(c.examples[0].id);
    }
    exposeTestHooks({ editor: () => this.pane.editor, results: this.results, sim: this.sim, runConfig: this.runConfig, share: this.share, summary: this.summaryView });
    window.addEventListener("hashchange", () => void this.share.openFromLocation());
    await this.share.openFromLocation();
    this.root.removeAttribute("aria-busy");
    document.body.dataset.ready = "true";
    performance.mark("siglab-ready");
  }

  showView(v: View): void {
    this.root.dataset.view = v;
    this.toolbar.selectTab(v);
    clear(this.center);
    this.center.append(v === "workload" ? this.pane.el : v === "profiles" ? this.profilesView.el : v === "plugins" ? this.pluginsView.el : this.summaryView.el);
  }

  private async openRecent(r: RecentExperiment): Promise<void> {
    if (r.workload.kind === "example") this.documents.openExample(r.workload.id);
    else await this.documents.openUser(r.workload.id);
    const maxSeconds = maxSecondsOf(r.config);
    // a recent experiment does not record repetitions: the current choice stays
    const repeat = this.runConfig.state.repeat;
    const s = restoredRunConfig({ ...r.config, ...(maxSeconds !== undefined ? { maxSeconds } : {}), ...(repeat !== undefined ? { repeat } : {}) });
    if (repeat !== undefined) s.repeat = repeat;
    this.runConfig.setState(s);
    toast("Configuration restored: press Run to re-run it");
  }

  // ---- plugins, profiles, settings ------------------------------------------------------------------
  private onPluginsChanged(): void {
    this.runConfig.setCatalog(this.catalog.profiles, this.catalog.plugins);
    this.pluginsView.setEntries(this.catalog.plugins);
    this.explorer.render();
    void this.catalog.refreshPluginExamples().then(() => this.explorer.render());
  }

  private async installPlugin(from: "folder" | "file" = "folder"): Promise<void> {
    let r = await (from === "file" ? this.host.installPluginFromFile() : this.host.installPluginFromFolder());
    // another version is installed: nothing was replaced yet
    if (r.confirm && (await askConfirm("Replace plugin?", `Plugin "${r.confirm.id}" ${r.confirm.installedVersion} is installed. Replace it with ${r.confirm.version}?`, "Replace"))) r = await this.host.confirmPluginReplace(r.confirm.token);
    if (r.installed) toast(`Installed plugin ${r.entry?.id ?? ""}`);
    else if (r.error) showMessage("Plugin refused", r.error);
    await this.catalog.reloadPlugins();
    this.onPluginsChanged();
  }

  private async refreshProfiles(): Promise<void> {
    await this.catalog.reloadProfiles();
    this.profilesView.setEntries(this.catalog.profiles);
    this.runConfig.setCatalog(this.catalog.profiles, this.catalog.plugins);
    this.explorer.render();
  }

  private async editSettings(): Promise<void> {
    const current = this.local.settings.sourceUrlTemplate ?? DEFAULT_SOURCE_URL_TEMPLATE;
    const v = await askText("Settings", `Linux source links: a URL template, {fn} is the function name (default ${DEFAULT_SOURCE_URL_TEMPLATE})`, current, checkSourceUrlTemplate);
    if (v === null) return;
    this.local.saveSettings(v === DEFAULT_SOURCE_URL_TEMPLATE ? {} : { ...this.local.settings, sourceUrlTemplate: v });
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

  // ---- host events ---------------------------------------------------------------------------------------
  private async onHostEvent(e: HostEvent): Promise<void> {
    if (e.type === "plugins-changed") {
      await this.catalog.reloadPlugins();
      this.onPluginsChanged();
    } else if (e.type === "open-bundle") await this.exports.openBundleBytes(e.file.name, e.file.bytes);
    else if (e.type === "menu") await this.onMenu(e.command);
  }

  private async onMenu(c: MenuCommand): Promise<void> {
    const actions: Record<MenuCommand, () => unknown> = {
      "new-workload": () => this.documents.openNew(NEW_WORKLOAD),
      save: () => this.documents.save(),
      "save-as": () => this.documents.saveAs(),
      run: () => this.runner.run(),
      cancel: () => this.runner.cancel(),
      "export-bundle": () => this.exports.exportBundle(),
      "import-bundle": () => this.exports.importBundle(),
      "export-csv": () => this.exports.exportCsv(),
      "export-trace": () => this.exports.exportTrace(),
      "install-plugin": () => this.installPlugin(),
      "install-plugin-file": () => this.installPlugin("file"),
      "show-workload": () => this.showView("workload"),
      "show-profiles": () => this.showView("profiles"),
      "show-plugins": () => this.showView("plugins"),
      "show-summary": () => this.showView("summary"),
      about: () => showMessage("About SigLab", `SigLab ${this.catalog.info.appVersion} (${this.catalog.info.kind} host, plugin API ${this.catalog.info.pluginApiVersion}). Workspace: ${this.catalog.info.workspace}`),
    };
    await actions[c]();
  }
}
