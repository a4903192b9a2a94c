/**
 * The LMbench tab's runs: the summary (the five lmbench examples on the run configuration's CPUs
 * and variant stacks) and "your machine" with its what-ifs. Each goes through the same execution
 * host as Run, one experiment at a time, holding Run off meanwhile; Cancel stops it like any run.
 */
import type { ExperimentConfig, RunResult } from "../../common/contracts.js";
import type { HostApi } from "../../common/host-api.js";
import { appWording, RunCancelled, type SimClient } from "../sim-client.js";
import type { Catalog } from "../state/catalog.js";
import { LMBENCH_BENCHMARKS, summaryRows } from "../summary/lmbench.js";
import type { MachineRun } from "../summary/whatif.js";
import { toast } from "../ui/dom.js";
import type { RunConfigView } from "../ui/run-config.js";
import type { SummaryState, SummaryView } from "../ui/summary-view.js";
import type { Toolbar } from "../ui/toolbar.js";
import type { ExperimentRunner } from "./experiment-runner.js";
import { thirdPartySources } from "./plugin-sources.js";
import { summaryProgress } from "./progress-line.js";

export class SummaryRunner {
  constructor(
    private readonly host: HostApi,
    private readonly sim: SimClient,
    private readonly catalog: Catalog,
    private readonly runConfig: RunConfigView,
    private readonly runner: ExperimentRunner,
    private readonly toolbar: Toolbar,
    private readonly view: () => SummaryView,
  ) {}

  private status(text: string): void {
    this.toolbar.status = text;
    this.view().setStatus(text);
  }

  /** "quick": a tenth of an example's iterations (at least 100), read from its text. */
  private async quickIterations(ex: { source: string; file: string }): Promise<number | undefined> {
    const it = (await this.sim.outline(ex.source, ex.file)).params["iterations"];
    return typeof it === "number" ? Math.max(100, Math.round(it / 10)) : undefined;
  }

  /**
   * Runs the five lmbench examples (LMBENCH_BENCHMARKS) on the run configuration's CPUs (with CPUs
   * per machine) and variant stacks, one experiment per example, and fills the summary table as
   * results arrive.
   */
  async runSummary(opts: { quick: boolean }): Promise<void> {
    if (this.runner.busy) return toast("A run is in progress: wait for it to end, or cancel it", "error");
    const examples = LMBENCH_BENCHMARKS.map((b) => this.catalog.examples.find((e) => e.id === b.example));
    const missing = LMBENCH_BENCHMARKS.filter((_b, i) => !examples[i]).map((b) => b.example);
    if (missing.length) return toast(`Cannot run the summary: the examples ${missing.join(", ")} are not shipped with this build`, "error");
    let machines: ReturnType<RunConfigView["machines"]>;
    try {
      machines = this.runConfig.machines();
    } catch (err) {
      return toast(`Cannot run the summary: ${(err as Error).message}`, "error");
    }
    const profiles = machines.cpus.map((c) => this.catalog.profileFile(c.id)!);
    this.runner.hold();
    let plugins;
    try {
      plugins = await thirdPartySources(machines.stacks, this.catalog, this.host);
    } catch (err) {
      this.runner.release();
      return toast((err as Error).message, "error");
    }
    const state: SummaryState = { rows: summaryRows(machines.cpus, machines.stacks), results: {}, profiles, quick: opts.quick };
    const n = LMBENCH_BENCHMARKS.length;
    const started = performance.now();
    const view = this.view();
    this.toolbar.setRunning(true);
    view.setRunning(true, "Starting…");
    view.setResults(state);
    let failed = 0;
    try {
      for (const [bi, b] of LMBENCH_BENCHMARKS.entries()) {
        const ex = examples[bi]!;
        let params: ExperimentConfig["params"] = {};
        if (opts.quick) {
          const it = await this.quickIterations(ex);
          if (it !== undefined) params = { iterations: it };
        }
        const config: ExperimentConfig = { workload: { id: ex.id, file: ex.file, source: ex.source }, cpus: machines.cpus, stacks: machines.stacks, params, seed: machines.seed, ...(machines.budget ? { budget: machines.budget } : {}) };
        const row: (RunResult | undefined)[] = [];
        state.results[b.example] = row;
        await this.sim.run(config, profiles, plugins, {
          // the pool runs several of a benchmark's runs at once: the whole benchmark's share done
          // (`overall`) and how many runs are done and running, not the last-reported run's number
          onProgress: ({ total, done, running, overall }) => {
            this.toolbar.setProgress((bi + overall) / n);
            this.status(summaryProgress(b.example, bi, n, done, running, total, performance.now() - started, (bi + overall) / n));
          },
          onResult: ({ index, result }) => {
            row[index] = result;
            if (result.error) failed++;
            view.setResults(state);
          },
        });
      }
      this.status(`Done: ${n} benchmarks × ${state.rows.length} row${state.rows.length === 1 ? "" : "s"} in ${((performance.now() - started) / 1000).toFixed(1)} s${failed ? ` · ${failed} run${failed === 1 ? "" : "s"} failed (hover “failed” for why)` : ""}`);
    } catch (err) {
      this.status(err instanceof RunCancelled ? "Summary cancelled (the figures so far are kept)" : `Summary failed: ${appWording((err as Error).message)}`);
    } finally {
      this.runner.release();
      this.toolbar.setRunning(false);
      view.setRunning(false);
      document.body.dataset.summaryRuns = String(Number(document.body.dataset.summaryRuns ?? 0) + 1);
    }
  }

  /**
   * "Your machine" and its what-ifs (summary/machine-panel.ts): runs `runs` in order, one
   * experiment each, with the given seed (a what-if reuses its baseline's) or the run
   * configuration's, and its budget.
   */
  async simulateMachine(runs: MachineRun[], opts: { quick: boolean; seed?: number; label: string }, onResult: (index: number, result: RunResult) => void): Promise<{ seed: number }> {
    if (!this.runner.hold()) throw new Error("a run is in progress: wait for it to end, or cancel it");
    const seed = opts.seed ?? this.runConfig.state.seed;
    const maxSeconds = this.runConfig.state.maxSeconds;
    const budget = maxSeconds !== undefined && Number.isFinite(maxSeconds) && maxSeconds > 0 ? { maxHostMs: Math.round(maxSeconds * 1000) } : undefined;
    const view = this.view();
    this.toolbar.setRunning(true);
    view.setRunning(true, `${opts.label}…`);
    try {
      for (const [i, run] of runs.entries()) {
        const ex = this.catalog.examples.find((e) => e.id === run.example);
        const profile = this.catalog.profileFile(run.cpu.id);
        if (!ex) throw new Error(`the example ${run.example} is not shipped with this build`);
        if (!profile) throw new Error(`no CPU profile ${run.cpu.id}`);
        const params: ExperimentConfig["params"] = { ...run.params };
        if (opts.quick) {
          const it = await this.quickIterations(ex);
          if (it !== undefined) params["iterations"] = it;
        }
        const plugins = await thirdPartySources([run.stack], this.catalog, this.host);
        const config: ExperimentConfig = { workload: { id: ex.id, file: ex.file, source: ex.source }, cpus: [run.cpu], stacks: [run.stack], params, seed, ...(budget ? { budget } : {}) };
        this.status(`${opts.label}: ${run.example} (${i + 1}/${runs.length})`);
        await this.sim.run(config, [profile], plugins, {
          onProgress: ({ progress }) => this.toolbar.setProgress((i + (progress.fraction ?? 0)) / runs.length),
          onResult: ({ result }) => onResult(i, result),
        });
      }
      this.status(`${opts.label}: done`);
    } catch (err) {
      this.status(err instanceof RunCancelled ? `${opts.label}: cancelled` : `${opts.label}: ${appWording((err as Error).message)}`);
      throw err;
    } finally {
      this.runner.release();
      this.toolbar.setRunning(false);
      view.setRunning(false);
      document.body.dataset.machineRuns = String(Number(document.body.dataset.machineRuns ?? 0) + 1);
    }
    return { seed };
  }
}

