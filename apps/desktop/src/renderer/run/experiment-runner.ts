/**
 * Run: the type gate (a workload with a type error is not run, as `siglab run` refuses it), the CPU
 * check, the experiment built from the run configuration, then every run in the execution host
 * with progress and results as they arrive. Owns what ran last (the experiment, its profiles, a
 * bundle's results to compare a re-run with) and whether a run is starting or in progress, which
 * the LMbench summary shares.
 */
import type { CpuProfileFile, ExperimentConfig, RunResult } from "../../common/contracts.js";
import type { HostApi, RecentExperiment } from "../../common/host-api.js";
import { compareResults } from "@siglab/core/bundle/compare";
import type { PluginSource } from "@siglab/core/host";
import { describeRunError } from "../results/errors.js";
import type { ResultsView } from "../results/results-view.js";
import { appWording, RunCancelled, type RunCacheAccess, type SimClient } from "../sim-client.js";
import type { Catalog } from "../state/catalog.js";
import { firstTypeError } from "../typecheck.js";
import type { CpuNote } from "../ui/cpu-note.js";
import type { Doc, Documents } from "../ui/documents.js";
import { toast } from "../ui/dom.js";
import { showMessage } from "../ui/modal.js";
import { smpOf, type RunConfigView } from "../ui/run-config.js";
import type { Toolbar } from "../ui/toolbar.js";
import { thirdPartySources } from "./plugin-sources.js";

export class ExperimentRunner {
  /** the experiment on screen (run last, or opened from a bundle) and its CPU profiles */
  lastConfig: ExperimentConfig | null = null;
  lastProfiles: CpuProfileFile[] = [];
  /** a bundle's results, until its re-run is compared with them */
  private bundleExpected: RunResult[] | null = null;
  private starting = false;

  constructor(
    private readonly host: HostApi,
    private readonly sim: SimClient,
    private readonly catalog: Catalog,
    private readonly documents: Documents,
    private readonly runConfig: RunConfigView,
    private readonly results: ResultsView,
    private readonly toolbar: Toolbar,
    private readonly cpuNote: CpuNote,
    /** the recent experiments changed */
    private readonly listsChanged: () => void,
    /** an experiment finished (the result cache may hold more) */
    private readonly finished: () => void = () => {},
  ) {}

  /** A run is starting or in progress (the LMbench summary waits for it). */
  get busy(): boolean {
    return this.starting || this.sim.busy;
  }

  /** Holds Run off while something else starts (the summary); false when a run already holds it. */
  hold(): boolean {
    if (this.busy) return false;
    this.starting = true;
    return true;
  }

  release(): void {
    this.starting = false;
  }

  /** Shows an opened bundle's experiment; its next run is compared with `results`. */
  showBundle(config: ExperimentConfig, profiles: CpuProfileFile[], results: RunResult[]): void {
    this.lastConfig = config;
    this.lastProfiles = profiles;
    this.bundleExpected = results;
    this.results.setResults(results, config, profiles);
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

  cancel(): void {
    if (!this.sim.busy) return;
    this.sim.cancel();
  }

  /** The first type or syntax error refuses the run (shown as one line, the cursor on it); true when refused. */
  private async refusedForTypes(doc: Doc): Promise<boolean> {
    this.toolbar.status = "Checking types…";
    let problem: Awaited<ReturnType<typeof firstTypeError>> = null;
    try {
      problem = await firstTypeError(doc.model);
    } catch (err) {
      toast(`Could not type-check the workload (${(err as Error).message}); running it anyway`, "error");
    }
    if (doc !== this.documents.current) return true;
    if (!problem) return false;
    const file = doc.file.split("/").pop()!;
    const more = problem.count > 1 ? ` (${problem.count - 1} more error${problem.count > 2 ? "s" : ""})` : "";
    const what = problem.syntax ? "syntax error" : "type error";
    const line = `${what[0]!.toUpperCase()}${what.slice(1)} at ${file}:${problem.line}:${problem.column}: ${problem.message}${more}`;
    this.results.setRefusal({ kind: problem.syntax ? "syntax" : "type", line });
    this.toolbar.status = `Not run: ${what} at line ${problem.line}:${problem.column}`;
    document.body.dataset.refused = String(Number(document.body.dataset.refused ?? 0) + 1);
    const editor = this.documents.editor;
    editor.setPosition({ lineNumber: problem.line, column: problem.column });
    editor.revealPositionInCenterIfOutsideViewport({ lineNumber: problem.line, column: problem.column });
    return true;
  }

  private async runExperiment(): Promise<void> {
    const doc = this.documents.current;
    if (!doc || this.sim.busy) return;
    // Type errors refuse the run, as `siglab run file.ts` does (shipped examples are not type-checked
    // there either: they are read-only, and the CLI runs them as they are).
    if (doc.kind !== "example" && (await this.refusedForTypes(doc))) return;
    // Every run would fail on CPUs without a feature the workload needs: pick one that has it.
    if (this.runConfig.state.cpus.length && this.cpuNote.needsAdjustment(true)) this.cpuNote.check(true);
    // The parameter panel must match the source being run (edits may be newer than the last read).
    await this.documents.readParams();
    let config: ExperimentConfig;
    try {
      config = this.runConfig.experiment(this.documents.workloadRef(doc));
    } catch (err) {
      toast((err as Error).message, "error");
      return;
    }
    const profiles = config.cpus.map((c) => this.catalog.profileFile(c.id)!);
    let plugins: PluginSource[];
    try {
      plugins = await thirdPartySources(config.stacks, this.catalog, this.host);
    } catch (err) {
      toast((err as Error).message, "error");
      return;
    }
    this.lastConfig = config;
    this.lastProfiles = profiles;
    const repeat = this.runConfig.state.repeat ?? 1;
    // a bundle's re-run is always simulated (it is what checks the bundle), never read from the cache
    const cache = this.bundleExpected ? undefined : this.cacheFor(plugins, profiles);
    const partial: RunResult[] = [];
    const started = performance.now();
    this.toolbar.setRunning(true);
    this.toolbar.status = "Starting…";
    this.results.setResults([], config, profiles);
    try {
      const results = await this.sim.run(config, profiles, plugins, {
        onProgress: ({ index, total, progress, done, running, overall }) => {
          this.toolbar.setProgress(overall);
          const elapsed = (performance.now() - started) / 1000;
          const eta = overall > 0.02 ? ` · ~${Math.max(0, Math.round(elapsed / overall - elapsed))} s left` : "";
          // several runs at a time (the pool): how many are done and running rather than one run's cycles
          this.toolbar.status = running > 1 ? `Runs ${done}/${total} done, ${running} running${eta}` : `Run ${index + 1}/${total} · ${progress.cycles.toLocaleString("en-US")} cycles${eta}`;
        },
        onResult: ({ index, total, result }) => {
          partial[index] = result;
          this.toolbar.setProgress((index + 1) / total);
          this.results.setResults(partial, config, profiles);
        },
      }, { repeat, ...(cache ? { cache: cache.access } : {}) });
      this.results.setResults(results, config, profiles);
      this.toolbar.status = doneLine(results, repeat, started, cache?.hits ?? 0);
      if (this.bundleExpected) this.reportBundleComparison(results);
      await this.remember(doc, config, results);
    } catch (err) {
      if (err instanceof RunCancelled) this.toolbar.status = `Cancelled (${partial.filter(Boolean).length} run(s) kept)`;
      else {
        this.toolbar.status = "Failed";
        toast(appWording((err as Error).message), "error");
      }
    } finally {
      this.toolbar.setRunning(false);
      this.finished();
    }
  }

  /**
   * The result cache for one experiment's runs, through the host (node/run-cache.ts keys a run by
   * its spec, the plugin code and profiles handed to it, the budgets and the built simulator);
   * counts the runs it answered. Off (every lookup a miss) when the setting says so.
   */
  private cacheFor(plugins: PluginSource[], profiles: CpuProfileFile[]): { access: RunCacheAccess; readonly hits: number } {
    const host = this.host;
    const limits = this.sim.limits;
    const state = { hits: 0 };
    const req = (spec: Parameters<RunCacheAccess["lookup"]>[0]) => ({ spec, plugins, profiles, limits });
    return {
      get hits() {
        return state.hits;
      },
      access: {
        async lookup(spec) {
          const r = await host.lookupRun(req(spec));
          if (r) state.hits++;
          return r;
        },
        async store(spec, result) {
          await host.storeRun(req(spec), result);
        },
      },
    };
  }

  private reportBundleComparison(results: RunResult[]): void {
    const expected = this.bundleExpected!;
    this.bundleExpected = null;
    const c = compareResults(expected, results);
    showMessage("Re-run of the bundle", c.identical ? "The results are identical to the bundle's, bit for bit." : `The results differ from the bundle's in ${c.differences.length} place(s): ${c.differences.slice(0, 5).map((d) => `${d.path}: ${String(d.expected)} → ${String(d.actual)}`).join("; ")}`);
  }

  /** Adds the experiment to the recent list (not for untitled documents). */
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
      this.catalog.recent = await this.host.addRecent(entry);
      this.listsChanged();
    } catch {
      /* recent list is a convenience */
    }
  }
}

/** The status line after a run: how many ran, how long, findings, failures. */
function doneLine(results: RunResult[], repeat: number, started: number, cached: number): string {
  const findings = results.reduce((n, r) => n + r.findings.length, 0);
  const failed = results.filter((r) => r.error);
  const runs = (n: number): string => `${n} run${n === 1 ? "" : "s"}${repeat > 1 ? ` × ${repeat} seeds` : ""}`;
  const secs = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  if (failed.length && failed.length === results.length) {
    const kinds = [...new Set(failed.map((r) => describeRunError(r.error!).category))];
    return `Failed: ${failed.length === 1 ? "the run" : `all ${runs(failed.length)}`} (${kinds.join(", ")}) in ${secs}`;
  }
  const fromCache = cached ? ` · ${cached === results.length * repeat ? "all" : cached} cached` : "";
  return `Done: ${runs(results.length)} in ${secs}${fromCache} · ${findings} finding${findings === 1 ? "" : "s"}${failed.length ? ` · ${failed.length} failed` : ""}`;
}
