/**
 * The renderer's side of the simulation. Workloads and plugins run only in core's execution host:
 * a Supervisor (host/supervisor.ts) over sandbox Web Workers (sim.worker.ts, started through
 * host/browser/factory.ts). The supervisor enforces the module and run budgets from outside by
 * terminating a worker and starting a fresh one; Cancel closes the supervisor and makes a new one.
 * Workloads are transpiled by a long-lived compile worker (which runs no foreign code), so a
 * sandbox worker never loads the TypeScript compiler; that worker also reads and writes bundles.
 * Nothing here runs workload or plugin code on the UI thread.
 */
import { expandExperiment } from "@siglab/core/common/experiment.js";
import { webWorkerFactory } from "@siglab/core/host/browser/factory.js";
import type { PluginSource, WorkloadInfo } from "@siglab/core/host/protocol.js";
import { errorResult, Supervisor, type SandboxWorkerFactory } from "@siglab/core/host/supervisor.js";
import type { CpuProfileFile, ExperimentConfig, RunProgress, RunResult, RunSpec } from "../common/contracts.js";
import type { PluginCode } from "../common/host-api.js";
import type { FromCompile, ToCompile } from "../worker/protocol.js";
import { runRepeated } from "./results/repeat.js";
import CompileWorker from "../worker/compile.worker.ts?worker";
import SimWorker from "../worker/sim.worker.ts?worker";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface RunHandlers {
  onProgress(p: { index: number; total: number; progress: RunProgress }): void;
  onResult(r: { index: number; total: number; result: RunResult }): void;
}

export class RunCancelled extends Error {
  constructor() {
    super("run cancelled");
  }
}

/** A third-party plugin's code (read by the host) as the execution host takes it. */
export function toPluginSource(code: PluginCode, origin?: string): PluginSource {
  return { id: code.id, manifest: code.manifest, origin: origin ?? `plugins/${code.id}`, main: code.main, files: { ...code.files } };
}

/** A compile error as the compile worker reports it. */
export class CompileFailure extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

/** The long-lived compile worker: transpiling and bundles. Restarted if it ever dies. */
class CompileClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new CompileWorker({ name: "siglab-compile" });
    w.addEventListener("message", (e: MessageEvent<FromCompile>) => {
      const m = e.data;
      if (m.type !== "reply") return;
      const r = this.waiting.get(m.reqId);
      this.waiting.delete(m.reqId);
      if (m.ok) r?.resolve(m.value);
      else r?.reject(new CompileFailure(m.error, m.line, m.column));
    });
    const fail = (e: Event): void => {
      e.preventDefault();
      w.terminate();
      if (this.worker === w) this.worker = null;
      const err = new Error(`the compile worker stopped: ${(e as ErrorEvent).message || "it failed to load or crashed"}`);
      for (const r of this.waiting.values()) r.reject(err);
      this.waiting.clear();
    };
    w.addEventListener("error", fail);
    w.addEventListener("messageerror", fail);
    this.worker = w;
    return w;
  }

  request(msg: DistributiveOmit<ToCompile, "reqId">): Promise<unknown> {
    const w = this.ensure();
    const reqId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(reqId, { resolve, reject });
      w.postMessage({ ...msg, reqId } as ToCompile);
    });
  }
}

export class SimClient {
  private readonly factory: SandboxWorkerFactory;
  private supervisor: Supervisor;
  private readonly compiler = new CompileClient();
  private current: { cancelled: boolean } | null = null;
  /** milliseconds from creating each sandbox worker to its "ready" (for tests and the benchmark) */
  readonly workerStarts: number[] = [];

  constructor() {
    const base = webWorkerFactory(() => new SimWorker({ name: "siglab-sim" }));
    this.factory = (events) => {
      const t0 = performance.now();
      let seen = false;
      return base({
        message: (m) => {
          if (!seen && m.type === "ready") {
            seen = true;
            this.workerStarts.push(Math.round(performance.now() - t0));
          }
          events.message(m);
        },
        died: events.died,
      });
    };
    this.supervisor = new Supervisor(this.factory);
  }

  get busy(): boolean {
    return this.current !== null;
  }

  /** The execution host's limits (budgets, maximum runs per experiment). */
  get limits(): Supervisor["limits"] {
    return this.supervisor.limits;
  }

  /** TypeScript -> CommonJS in the compile worker; a syntax error rejects with CompileFailure. */
  transpile(source: string, file: string): Promise<string> {
    return this.compiler.request({ type: "transpile", source, file }) as Promise<string>;
  }

  /**
   * Runs every run of the experiment, one after another, in the execution host. Each run's result
   * (an error result when it failed) is streamed through `handlers`; rejects with RunCancelled on
   * Cancel, and with an Error when the experiment cannot start (too large, a compiler failure).
   *
   * With `repeat` > 1 each configuration runs that many times with seeds seed, seed+1, … (the CLI's
   * --repeat) and its one result is the summary (results/repeat.ts); `onResult` then comes once per
   * configuration, `onProgress` counts runs (configurations × repetitions).
   */
  async run(config: ExperimentConfig, profiles: CpuProfileFile[], plugins: PluginSource[], handlers: RunHandlers, opts: { repeat?: number } = {}): Promise<RunResult[]> {
    if (this.current) throw new Error("a run is already in progress");
    const token = { cancelled: false };
    this.current = token;
    try {
      const specs = expandExperiment(config, this.supervisor.limits.maxRuns);
      const repeat = Math.max(1, Math.trunc(opts.repeat ?? 1));
      const maxRuns = this.supervisor.limits.maxRuns;
      if (specs.length * repeat > maxRuns) throw new Error(`${repeat} repetitions of ${specs.length} run${specs.length === 1 ? "" : "s"} make ${(specs.length * repeat).toLocaleString("en")} runs, over the limit of ${maxRuns.toLocaleString("en")} runs`);
      const total = specs.length;
      const runs = specs.length * repeat;
      let js: string | null = null;
      let compileError: CompileFailure | null = null;
      try {
        js = await this.transpile(config.workload.source, config.workload.file);
      } catch (e) {
        if (!(e instanceof CompileFailure)) throw e;
        compileError = e;
      }
      if (token.cancelled) throw new RunCancelled();
      const results = await runRepeated(specs, repeat, async (spec, runIndex) => {
        const result = js === null ? compileResult(spec, compileError!) : await this.supervisor.run({ spec, js, plugins, profiles }, (progress) => {
          if (!token.cancelled) handlers.onProgress({ index: runIndex, total: runs, progress });
        });
        if (token.cancelled) throw new RunCancelled();
        return result;
      }, (index, result) => handlers.onResult({ index, total, result }));
      return results;
    } finally {
      if (this.current === token) this.current = null;
    }
  }

  /** Stops the current run at once: every sandbox worker is terminated, a new supervisor takes over. */
  cancel(): void {
    if (!this.current) return;
    this.current.cancelled = true;
    this.current = null;
    this.reset();
  }

  /** Terminates every sandbox worker (pending requests end as cancelled); the next request starts a fresh one. */
  reset(): void {
    this.supervisor.close();
    this.supervisor = new Supervisor(this.factory);
  }

  /**
   * A workload's name, description and default parameters, read by evaluating it in the execution
   * host (under the module budget: a loop at its top level ends with a one-line error).
   */
  async inspect(file: string, source: string): Promise<WorkloadInfo> {
    const js = await this.transpile(source, file);
    return this.supervisor.inspect(file, source, js);
  }

  bundleWrite(input: unknown): Promise<Uint8Array> {
    return this.compiler.request({ type: "bundle-write", input }) as Promise<Uint8Array>;
  }

  bundleRead(fileName: string, bytes: Uint8Array): Promise<unknown> {
    return this.compiler.request({ type: "bundle-read", fileName, bytes });
  }
}

function compileResult(spec: RunSpec, e: CompileFailure): RunResult {
  return errorResult(spec, {
    kind: "compile",
    message: e.message,
    file: spec.workload.file,
    ...(e.line ? { line: e.line } : {}),
    ...(e.column ? { column: e.column } : {}),
  });
}

/** Host messages name the CLI's flags; in the app the same limits live in the run configuration. */
export function appWording(message: string): string {
  return message
    .replace("(the run's budget; --max-seconds)", "(the run's budget: \"max seconds per run\" in the run configuration)")
    .replace(/ \(--max-(runs|memory)\)/g, "");
}
