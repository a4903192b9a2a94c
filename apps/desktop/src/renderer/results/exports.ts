/**
 * What leaves the app and what comes back: CSV and Perfetto trace exports of the results on
 * screen, .siglab bundles written from the experiment that ran (with the code of its third-party
 * plugins) and bundles opened into a new document with their configuration and results, ready to
 * re-run and compare.
 */
import type { RunResult } from "../../common/contracts.js";
import type { HostApi } from "../../common/host-api.js";
import { hasNoTimeline, toCsv, toPerfettoTrace, truncatedTimelines } from "@siglab/core/export";
import type { Bundle, BundleInput } from "@siglab/core/bundle";
import type { ExperimentRunner } from "../run/experiment-runner.js";
import type { SimClient } from "../sim-client.js";
import type { Catalog } from "../state/catalog.js";
import type { Documents } from "../ui/documents.js";
import { h, toast } from "../ui/dom.js";
import type { EditorPane } from "../ui/editor-pane.js";
import { showMessage } from "../ui/modal.js";
import { openInPerfetto } from "./perfetto.js";
import { BundlePlugins, type EmbeddedPlugin } from "../run/bundle-plugins.js";
import { restoredRunConfig } from "../state/restore.js";
import { clampRepeat, maxSecondsOf, type RunConfigView } from "../ui/run-config.js";
import { repeatCount } from "./repeat.js";
import type { ResultsView } from "./results-view.js";

export class Exports {
  constructor(
    private readonly host: HostApi,
    private readonly sim: SimClient,
    private readonly catalog: Catalog,
    private readonly results: ResultsView,
    private readonly runner: ExperimentRunner,
    private readonly documents: Documents,
    private readonly runConfig: RunConfigView,
    private readonly pane: EditorPane,
  ) {}

  async saveExport(name: string, data: string | Uint8Array): Promise<void> {
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

  private get baseName(): string {
    return this.runner.lastConfig?.workload.id ?? "results";
  }

  async exportCsv(): Promise<void> {
    const results = this.results.currentResults;
    if (!results.length) return toast("Nothing to export yet: run an experiment first", "error");
    await this.saveExport(`${this.baseName}.csv`, toCsv(results));
  }

  /**
   * The results' timelines as a Chrome/Perfetto trace (core's toPerfettoTrace), saved through the
   * host's saveExport like CSV. Without a timeline there is nothing to trace: say so (as `siglab
   * export trace` does) instead of writing an empty trace.
   */
  async exportTrace(): Promise<void> {
    const trace = this.trace();
    if (trace) await this.saveExport(`${this.baseName}.trace.json`, trace);
  }

  /**
   * Opens the runs' timelines in ui.perfetto.dev (results/perfetto.ts); where no window can be
   * opened (the Electron app sends the URL to the system browser) or the UI does not answer
   * (offline), the trace is saved instead, to be opened there by hand.
   */
  async openTraceInPerfetto(): Promise<void> {
    const trace = this.trace();
    if (!trace) return;
    const fileName = `${this.baseName}.trace.json`;
    const outcome = await openInPerfetto(trace, `SigLab: ${this.baseName}`, fileName);
    document.body.dataset.perfetto = outcome;
    if (outcome === "opened") return toast("The trace is open in ui.perfetto.dev (nothing was uploaded: it was handed to that tab)");
    await this.saveExport(fileName, trace);
    showMessage("Open the trace in Perfetto", outcome === "no-window"
      ? `The trace is saved as ${fileName}: open ui.perfetto.dev in your browser and drop the file on it ("Open trace file").`
      : `ui.perfetto.dev did not answer (offline, or its tab was closed). The trace is saved as ${fileName}: open it there with "Open trace file" when you are online.`);
  }

  /** The runs' timelines as a Chrome/Perfetto trace (JSON text), or null (said why) when there is none. */
  private trace(): string | null {
    const results = this.results.currentResults;
    if (!results.length) {
      toast("Nothing to export yet: run an experiment first", "error");
      return null;
    }
    if (hasNoTimeline(results)) {
      document.body.dataset.traceRefused = String(Number(document.body.dataset.traceRefused ?? 0) + 1);
      showMessage("No timeline to export", "No run of these results recorded a timeline, so a trace would be empty. Tick \"Record per-task timeline\" in the run configuration, run again, then export the trace.");
      return null;
    }
    const cut = truncatedTimelines(results);
    if (cut.length) toast(`The timeline is bounded: ${cut.join("; ")} (the trace's metadata says so too)`, "error");
    return JSON.stringify(toPerfettoTrace(results));
  }

  async exportBundle(): Promise<void> {
    const results = this.results.currentResults;
    const config = this.runner.lastConfig;
    if (!config || !results.length) return toast("Run an experiment before exporting a bundle", "error");
    try {
      const plugins: BundleInput["plugins"] = [];
      for (const id of new Set(config.stacks.flat().map((v) => v.id))) {
        const entry = this.catalog.plugins.find((p) => p.id === id);
        const fromBundle = this.catalog.bundlePlugins.source(id);
        if (fromBundle) {
          // a trusted bundle's plugin ran: the same code goes into this bundle
          const m = fromBundle.manifest as { version: string; apiVersion?: string };
          plugins.push({ source: "embedded", id, version: m.version, ...(m.apiVersion ? { apiVersion: m.apiVersion } : {}), files: { ...fromBundle.files, "plugin.json": JSON.stringify(fromBundle.manifest, null, 2) } });
        } else if (entry?.origin === "third-party") {
          const code = await this.host.readPluginCode(id);
          plugins.push({ source: "embedded", id, version: code.manifest.version, apiVersion: code.manifest.apiVersion, files: { ...code.files, "plugin.json": JSON.stringify(code.manifest, null, 2) } });
        } else plugins.push({ source: "builtin", id, version: entry?.manifest?.version ?? "0.0.0" });
      }
      // a result the cache answered is the run's result bit for bit: the bundle does not say where it came from
      const plain = results.map(({ cached: _, ...r }: RunResult & { cached?: boolean }) => r);
      const input: BundleInput = { experiment: config, profiles: this.runner.lastProfiles, plugins, results: plain, appVersion: this.catalog.info.appVersion };
      const bytes = await this.sim.bundleWrite(input);
      const r = await this.host.exportBundle(`${config.workload.id}.siglab`, bytes);
      if (r.saved) toast(`Bundle saved to ${r.path}`);
    } catch (err) {
      toast(`Export failed: ${(err as Error).message}`, "error");
    }
  }

  async importBundle(): Promise<void> {
    const file = await this.host.importBundle();
    if (file) await this.openBundleBytes(file.name, file.bytes);
  }

  /** Opens a bundle into a document of its own, with its configuration and results; Run re-runs and compares. */
  async openBundleBytes(name: string, bytes: Uint8Array): Promise<void> {
    let bundle: Bundle;
    try {
      bundle = (await this.sim.bundleRead(name, bytes)) as Bundle;
    } catch (err) {
      showMessage("Cannot open bundle", (err as Error).message);
      return;
    }
    const exp = bundle.experiment;
    // a built-in plugin is never taken from a bundle (the run would use the built-in anyway)
    const builtin = new Set(this.catalog.plugins.filter((p) => p.origin === "builtin").map((p) => p.id));
    const carried = BundlePlugins.of(bundle);
    const embedded = carried.filter((p) => !builtin.has(p.id));
    const clashes = carried.filter((p) => builtin.has(p.id)).map((p) => `the bundle's plugin code "${p.id}" has the id of a built-in plugin and is not used`);
    const trustedBefore = embedded.length > 0 && embedded.every((p) => this.catalog.bundlePlugins.isTrusted(p));
    if (trustedBefore) this.useBundlePlugins(embedded);
    const missing = bundle.plugins.filter((p) => !embedded.some((e) => e.id === p.id) && !this.catalog.plugins.some((x) => x.id === p.id && x.status === "ok")).map((p) => `${p.id}@${p.version}`);
    const key = `new:${exp.workload.id.replace(/[^A-Za-z0-9_.-]/g, "_")}-bundle`;
    this.documents.get(key)?.model.setValue(exp.workload.source);
    this.documents.openNew(exp.workload.source, key);
    this.documents.get(key)!.runAs = { id: exp.workload.id, file: exp.workload.file };
    // results made with repetitions say how many (the experiment itself does not)
    const repeat = clampRepeat(Math.max(1, ...bundle.results.map(repeatCount)));
    const maxSeconds = maxSecondsOf(exp);
    this.runConfig.setState(restoredRunConfig({ ...exp, repeat, ...(maxSeconds !== undefined ? { maxSeconds } : {}) }));
    this.runner.showBundle(exp, bundle.profiles, bundle.results);
    const notes = [...bundle.warnings, ...clashes, ...(missing.length ? [`Missing plugins (install or enable them to re-run): ${missing.join(", ")}`] : [])];
    const opened = `Opened bundle ${name}${bundle.migratedFrom ? ` (migrated from format ${bundle.migratedFrom})` : ""}.`;
    const plugins = embedded.map((p) => `${p.id}@${p.version}${p.hash ? ` (sha256 ${p.hash.slice(0, 12)}…)` : ""}`).join(", ");
    if (!embedded.length) this.pane.setBanner(h("span", null, `${opened} Press Run to re-run it and compare. ${notes.join(" ")}`));
    else if (trustedBefore) this.pane.setBanner(h("span", null, `${opened} It carries plugin code you trusted before: ${plugins}; it runs in the sandbox. Press Run to re-run it and compare. ${notes.join(" ")}`));
    else {
      const banner = h("span#bundle-trust", null, `${opened} It carries third-party plugin code: ${plugins}. Re-running it runs that code in SigLab's sandbox (no files, no network, the run's budgets), as \`siglab bundle run --trust-embedded\` does. ${notes.join(" ")} `,
        h("button.small#trust-bundle-plugins", { onclick: () => {
          this.useBundlePlugins(embedded);
          this.pane.setBanner(h("span", null, `${opened} Its plugins are trusted (${plugins}): press Run to re-run it and compare.`));
        } }, "Trust this code and use it"));
      this.pane.setBanner(banner);
    }
  }

  /** A bundle's embedded plugins, trusted: they run, and the run configuration offers them. */
  private useBundlePlugins(embedded: EmbeddedPlugin[]): void {
    this.catalog.bundlePlugins.trust(embedded);
    this.runConfig.setBundlePlugins(this.catalog.bundlePlugins.entries());
    document.body.dataset.bundlePlugins = embedded.map((p) => p.id).join(",");
  }
}
