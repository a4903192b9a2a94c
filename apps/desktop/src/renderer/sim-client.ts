/**
 * The renderer's side of the simulation. Workloads and plugins run only in core's execution host:
 * Supervisors (host/supervisor.ts) over sandbox Web Workers (sim.worker.ts, started through
 * host/browser/factory.ts). A supervisor enforces the module and run budgets from outside by
 * terminating a worker and starting a fresh one.
 *
 * An experiment's runs go to a pool of up to K supervisors (the CLI's --jobs: K is the machine's
 * cores, navigator.hardwareConcurrency, at most MAX_POOL; the "siglab.sweep-workers" setting in
 * local storage forces a number, 1 for one run at a time). Each supervisor runs one run at a time,
 * so at most K sandbox workers simulate at once, each under its own budgets; a run that fails
 * (over budget, a crash) fails alone and its supervisor starts a fresh worker for the next run.
 * Results reach `onResult` in run order whatever order runs finish in (results/repeat.ts
 * runRepeated), so the table, charts and exports are those of one run at a time. Cancel closes
 * every supervisor (terminating every worker); new ones are made on demand.
 * Workloads are transpiled by a long-lived compile worker (which runs no foreign code), so a
 * sandbox worker never loads the TypeScript compiler; that worker also instruments workloads and
 * plugins for the allocation meter, reads a workload's parameters from its text (nothing runs
 * before Run) and reads and writes bundles.
 *
 * Memory: a browser gives a Web Worker no heap limit of its own, and one that reaches V8's limit
 * takes the page's renderer process down. Each sandbox worker counts what foreign code allocates
 * (src/worker/meter-runtime.ts) against a budget carried in its name: the host's memory limit,
 * shared by the pool within what one renderer process's JavaScript heap holds. Over it the worker
 * says so and is terminated here, and the run fails with a budget error.
 * Nothing here runs workload or plugin code on the UI thread.
 */
import { expandExperiment } from "@siglab/core/common";
import { webWorkerFactory } from "@siglab/core/host/browser";
import { DEFAULT_HOST_LIMITS, errorResult, Supervisor, type HostLimits, type PluginSource, type SandboxWorkerFactory } from "@siglab/core/host";
import type { CpuProfileFile, ExperimentConfig, RunProgress, RunResult, RunSpec } from "../common/contracts.js";
import type { PluginCode } from "../common/host-api.js";
import { METER_MESSAGE, workerNameWithBudget, type MeterOverMessage } from "../worker/meter-protocol.js";
import type { FromCompile, ToCompile } from "../worker/protocol.js";
import type { WorkloadOutline } from "../worker/workload-outline.js";
import { runRepeated } from "./results/repeat.js";
import CompileWorker from "../worker/compile.worker.ts?worker";
import SimWorker from "../worker/sim.worker.ts?worker";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface RunHandlers {
  /**
   * A run's progress. `index` is that run's (0-based, of `total` runs: configurations ×
   * repetitions); with several runs at a time the others' are folded in: `done` runs finished,
   * `running` in flight, `overall` the fraction of the whole experiment done (0..1).
   */
  onProgress(p: { index: number; total: number; progress: RunProgress; done: number; running: number; overall: number }): void;
  onResult(r: { index: number; total: number; result: RunResult }): void;
}

/**
 * The result cache as a run sees it (the app's node side keys and stores, node/run-cache.ts):
 * `lookup` before a run (a stored result of the identical run, marked `cached: true`, or null),
 * `store` after a run that ended without an error. Either may fail: a failure is a miss.
 */
export interface RunCacheAccess {
  lookup(spec: RunSpec): Promise<RunResult | null>;
  store(spec: RunSpec, result: RunResult): Promise<void>;
}

/** The most sandbox workers an experiment runs at once (each loads the simulator: memory, not cores, is the bound beyond this). */
export const MAX_POOL = 8;

/**
 * JavaScript heap one renderer process holds for all its sandbox workers, in MiB: V8 keeps every
 * isolate of a process in one 4 GiB pointer-compression cage; a worker allocating alone crashed
 * the page at about 3.6 GiB in Chromium 156 here.
 */
export const PROCESS_HEAP_MB = 3_072;

/**
 * One sandbox worker's allocation budget: the host's memory limit, within three quarters of one
 * isolate's heap limit (`heapLimitMb`, Chromium's `performance.memory.jsHeapSizeLimit` of the page:
 * a worker's isolate gets the same), the pool sharing what a process holds.
 */
export function workerBudgetMb(memoryMb: number, poolSize: number, heapLimitMb = Infinity): number {
  return Math.max(16, Math.floor(Math.min(memoryMb, 0.75 * heapLimitMb, PROCESS_HEAP_MB / Math.max(1, poolSize))));
}

/** The page's V8 heap limit in MiB (Chromium's performance.memory), or Infinity where the browser does not say. */
function pageHeapLimitMb(): number {
  const limit = (globalThis.performance as { memory?: { jsHeapSizeLimit?: unknown } } | undefined)?.memory?.jsHeapSizeLimit;
  return typeof limit === "number" && limit > 0 ? limit / 1048576 : Infinity;
}
/** Local-storage key of the setting that forces the pool's size (a whole number 1..MAX_POOL; absent = the machine's cores). */
export const POOL_SETTING_KEY = "siglab.sweep-workers";

/** The pool's size by default: the machine's logical cores, 1..MAX_POOL. */
export function defaultPoolSize(cores: unknown = typeof navigator === "undefined" ? undefined : navigator.hardwareConcurrency): number {
  return typeof cores === "number" && Number.isFinite(cores) ? Math.max(1, Math.min(MAX_POOL, Math.trunc(cores))) : 1;
}

/**
 * The "siglab.sweep-workers" setting: a whole number 1..MAX_POOL, or null when absent. Anything
 * else is refused with a message naming the setting (the caller warns and uses the default).
 */
export function parsePoolSetting(raw: string | null): number | null {
  if (raw === null || raw.trim() === "") return null;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_POOL)) throw new RangeError(`local storage "${POOL_SETTING_KEY}": expected the number of runs to run at a time, a whole number from 1 to ${MAX_POOL}, got '${raw.slice(0, 40)}'`);
  return n;
}

export interface SimClientOptions {
  /** sandbox workers (default: sim.worker.ts Web Workers); tests pass a fake */
  factory?: SandboxWorkerFactory;
  /** TypeScript -> CommonJS, instrumented for the allocation meter (default: the compile worker) */
  transpile?: (source: string, file: string) => Promise<string>;
  /** a plugin's JavaScript file instrumented for the allocation meter (default: the compile worker) */
  instrument?: (js: string, file: string) => Promise<string>;
  /** the pool's size, fixed (default: the setting, else the machine's cores) */
  poolSize?: number;
  /** the execution host's limits (default: core's) */
  limits?: Partial<HostLimits>;
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
  /** the pool: lane i's supervisor, made on first use (a supervisor starts its worker on its first request) */
  private supervisors: Supervisor[] = [];
  private readonly hostLimits: Partial<HostLimits>;
  private readonly compiler = new CompileClient();
  /** plugin file text -> its instrumented text */
  private readonly instrumented = new Map<string, string>();
  private readonly transpileWith: ((source: string, file: string) => Promise<string>) | undefined;
  private readonly instrumentWith: ((js: string, file: string) => Promise<string>) | undefined;
  private readonly fixedPool: number | undefined;
  private current: { cancelled: boolean } | null = null;
  /** milliseconds from creating each sandbox worker to its "ready" (for tests and the benchmark) */
  readonly workerStarts: number[] = [];
  /** how many runs the last experiment ran at a time (tests, the status line) */
  lastPoolSize = 0;
  /** requests sent to sandbox workers so far (tests: opening a document or a link sends none) */
  sandboxRequests = 0;

  constructor(opts: SimClientOptions = {}) {
    this.hostLimits = opts.limits ?? {};
    this.transpileWith = opts.transpile;
    this.instrumentWith = opts.instrument;
    this.fixedPool = opts.poolSize === undefined ? undefined : Math.max(1, Math.min(MAX_POOL, Math.trunc(opts.poolSize) || 1));
    const base = opts.factory ?? webWorkerFactory(() => new SimWorker({ name: workerNameWithBudget(workerBudgetMb(this.hostLimits.memoryMb ?? DEFAULT_HOST_LIMITS.memoryMb, this.poolSize(), pageHeapLimitMb())) }));
    this.factory = (events) => {
      const t0 = performance.now();
      let seen = false;
      let stopped = false;
      const stop = (reason: string, kind: "budget" | "internal"): void => {
        if (stopped) return;
        stopped = true;
        worker.terminate();
        events.died(reason, kind);
      };
      const worker = base({
        message: (m) => {
          if ((m as { type: string }).type === METER_MESSAGE) {
            // the worker may still be in foreign code that catches the meter's error: stop it now
            const over = m as unknown as MeterOverMessage;
            stop(`memory budget exceeded: the code allocated about ${over.allocatedMb.toLocaleString("en-US")} MiB, over the limit of ${over.limitMb.toLocaleString("en-US")} MiB (counted by the app's allocation meter: a browser cannot measure a worker's heap)`, "budget");
            return;
          }
          if (!seen && m.type === "ready") {
            seen = true;
            this.workerStarts.push(Math.round(performance.now() - t0));
          }
          events.message(m);
        },
        died: (reason, kind) => {
          if (!stopped) events.died(reason, kind);
          stopped = true;
        },
      });
      return {
        post: (m) => {
          this.sandboxRequests++;
          worker.post(m);
        },
        terminate: () => worker.terminate(),
      };
    };
  }

  /** Lane i's supervisor (lane 0 also inspects workloads). */
  private lane(i: number): Supervisor {
    return (this.supervisors[i] ??= new Supervisor(this.factory, this.hostLimits));
  }

  /** How many runs an experiment runs at a time: the fixed size, else the setting, else the machine's cores. */
  poolSize(): number {
    if (this.fixedPool !== undefined) return this.fixedPool;
    let raw: string | null = null;
    try {
      raw = typeof localStorage === "undefined" ? null : localStorage.getItem(POOL_SETTING_KEY);
    } catch {
      /* storage not readable: the default */
    }
    try {
      return parsePoolSetting(raw) ?? defaultPoolSize();
    } catch (e) {
      console.warn(`${(e as Error).message}; running ${defaultPoolSize()} at a time`);
      return defaultPoolSize();
    }
  }

  get busy(): boolean {
    return this.current !== null;
  }

  /** The execution host's limits (budgets, maximum runs per experiment). */
  get limits(): Supervisor["limits"] {
    return this.lane(0).limits;
  }

  /** TypeScript -> CommonJS in the compile worker; a syntax error rejects with CompileFailure. */
  transpile(source: string, file: string): Promise<string> {
    if (this.transpileWith) return this.transpileWith(source, file);
    return this.compiler.request({ type: "transpile", source, file }) as Promise<string>;
  }

  /**
   * Runs every run of the experiment in the execution host, up to poolSize() at a time (each in a
   * supervisor of the pool, in run order). Each run's result (an error result when it failed) is
   * streamed through `handlers` in run order; rejects with RunCancelled on Cancel, and with an
   * Error when the experiment cannot start (too large, a compiler failure).
   *
   * With `repeat` > 1 each configuration runs that many times with seeds seed, seed+1, … (the CLI's
   * --repeat) and its one result is the summary (results/repeat.ts); `onResult` then comes once per
   * configuration, `onProgress` counts runs (configurations × repetitions).
   */
  async run(config: ExperimentConfig, profiles: CpuProfileFile[], plugins: PluginSource[], handlers: RunHandlers, opts: { repeat?: number; cache?: RunCacheAccess } = {}): Promise<RunResult[]> {
    if (this.current) throw new Error("a run is already in progress");
    const token = { cancelled: false };
    this.current = token;
    try {
      const maxRuns = this.limits.maxRuns;
      const specs = expandExperiment(config, maxRuns);
      const repeat = Math.max(1, Math.trunc(opts.repeat ?? 1));
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
      plugins = await this.meteredPlugins(plugins);
      if (token.cancelled) throw new RunCancelled();
      const jobs = Math.min(this.poolSize(), runs);
      this.lastPoolSize = jobs;
      // progress over the whole experiment: finished runs plus the fraction of each run in flight
      const inFlight = new Map<number, number>();
      let done = 0;
      const results = await runRepeated(specs, repeat, async (spec, runIndex, lane) => {
        // a lane never starts a run after Cancel (Cancel closed the pool; lane() would make a new supervisor)
        if (token.cancelled) throw new RunCancelled();
        if (js === null) return compileResult(spec, compileError!);
        const stored = opts.cache ? await opts.cache.lookup(spec).catch(() => null) : null;
        if (token.cancelled) throw new RunCancelled();
        if (stored) {
          done++;
          handlers.onProgress({ index: runIndex, total: runs, progress: { cycles: stored.totalCycles, steps: 0, fraction: 1 }, done, running: inFlight.size, overall: Math.min(1, (done + [...inFlight.values()].reduce((a, b) => a + b, 0)) / runs) });
          return stored;
        }
        inFlight.set(runIndex, 0);
        try {
          const result = await this.lane(lane).run({ spec, js, plugins, profiles }, (progress) => {
            if (token.cancelled) return;
            const f = progress.fraction;
            inFlight.set(runIndex, typeof f === "number" && f > 0 ? Math.min(1, f) : 0);
            let sum = done;
            for (const x of inFlight.values()) sum += x;
            handlers.onProgress({ index: runIndex, total: runs, progress, done, running: inFlight.size, overall: sum / runs });
          });
          if (token.cancelled) throw new RunCancelled();
          if (opts.cache && !result.error) await opts.cache.store(spec, result).catch(() => undefined);
          return result;
        } finally {
          if (inFlight.delete(runIndex)) done++;
        }
      }, (index, result) => handlers.onResult({ index, total, result }), { jobs });
      return results;
    } finally {
      if (this.current === token) this.current = null;
    }
  }

  /** Stops the current run at once: every sandbox worker of the pool is terminated, new supervisors take over. */
  cancel(): void {
    if (!this.current) return;
    this.current.cancelled = true;
    this.current = null;
    this.reset();
  }

  /** Terminates every sandbox worker (pending requests end as cancelled); the next request starts a fresh one. */
  reset(): void {
    const old = this.supervisors;
    this.supervisors = [];
    for (const s of old) s.close();
  }

  /**
   * A workload's name, description and default parameters, read from its text in the compile
   * worker: nothing of it runs (a shared link or an opened document runs nothing before Run).
   */
  outline(source: string, file: string): Promise<WorkloadOutline> {
    return this.compiler.request({ type: "outline", source, file }) as Promise<WorkloadOutline>;
  }

  /** A third-party plugin's JavaScript files instrumented for the allocation meter (each text once). */
  private async meteredPlugins(plugins: PluginSource[]): Promise<PluginSource[]> {
    return Promise.all(plugins.map(async (p) => {
      if (p.refused !== undefined) return p;
      const files: Record<string, string> = {};
      for (const [name, text] of Object.entries(p.files)) {
        if (!/\.[cm]?js$/.test(name)) files[name] = text;
        else {
          let js = this.instrumented.get(text);
          if (js === undefined) {
            const file = `${p.origin}/${name}`;
            js = this.instrumentWith ? await this.instrumentWith(text, file) : ((await this.compiler.request({ type: "instrument", js: text, file })) as string);
            if (this.instrumented.size > 200) this.instrumented.clear();
            this.instrumented.set(text, js);
          }
          files[name] = js;
        }
      }
      return { ...p, files };
    }));
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
