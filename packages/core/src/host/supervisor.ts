/**
 * The execution host's supervisor: the trusted side of the sandbox. It owns the sandbox workers,
 * sends them one request at a time and enforces host time from outside — a module's top level and
 * a whole run each have a budget, and a worker over budget (a synchronous loop nothing inside can
 * interrupt) is terminated and replaced; the caller gets a one-line error, never a hang. Memory
 * overruns and crashes end the same way. Platform code (Node worker threads, Web Workers) comes in
 * through `SandboxWorkerFactory`.
 *
 * A run that loads third-party plugin code gets a worker of its own, discarded afterwards, so a
 * plugin cannot change anything another run sees; runs of workloads alone share a worker whose
 * intrinsics are frozen and whose reachable host objects are hardened (fresh compartment per run).
 */
import type { RunSpec } from "../common/experiment.js";
import { emptyResult } from "../common/empty-result.js";
import type { RunError, RunProgress, RunResult } from "../common/results.js";
import { DEFAULT_HOST_LIMITS, effectiveBudget, type HostLimits } from "./limits.js";
import { withPluginSourceLine } from "./plugin-source-line.js";
import type { FromSandbox, ToSandbox, WorkloadInfo } from "./protocol.js";

/** Why an inspection failed: "budget" (module evaluation over time, memory), "workload" (the module is not a workload or threw), "cancelled", "internal". */
export class InspectError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SandboxWorker {
  post(m: ToSandbox): void;
  terminate(): void;
  /** Which plugin code the worker is stuck in ("plugin 'id' (Hook)"), or null; absent: this host cannot tell. */
  blame?(): Promise<string | null>;
}

export interface SandboxWorkerEvents {
  message(m: FromSandbox): void;
  /** the worker is gone (crashed, out of memory, failed to start): one line, for the user */
  died(reason: string, kind: "budget" | "internal"): void;
}

/** `hint.fresh`: the worker serves one request with third-party plugin code, then is discarded. */
export type SandboxWorkerFactory = (events: SandboxWorkerEvents, hint?: { fresh: boolean }) => SandboxWorker;

export type RunRequest = Omit<Extract<ToSandbox, { type: "run" }>, "type" | "id">;

interface Pending {
  msg: ToSandbox;
  /** this request's worker is discarded afterwards */
  fresh: boolean;
  /** host-time budget of the whole request */
  totalMs: number;
  describe: string;
  /** what the user reads when totalMs runs out */
  overBudget: string;
  onProgress?: (p: RunProgress) => void;
  settle(outcome: { ok: true; value: FromSandbox } | { ok: false; error: RunError }): void;
}

class WorkerSlot {
  worker: SandboxWorker | null = null;
  /** bumped for each worker: events of a replaced or terminated worker are ignored */
  generation = 0;
  ready = false;
  current: Pending | null = null;
  queue: Pending[] = [];
  runTimer: unknown;
  moduleTimer: unknown;
  /** told when the worker is ready or gone (warm) */
  onReady: (() => void)[] = [];
}

export class Supervisor {
  private readonly shared = new WorkerSlot();
  private readonly fresh = new Set<WorkerSlot>();
  private nextId = 1;
  private closed = false;
  readonly limits: HostLimits;

  constructor(
    private readonly factory: SandboxWorkerFactory,
    limits: Partial<HostLimits> = {},
  ) {
    this.limits = { ...DEFAULT_HOST_LIMITS, ...limits };
  }

  /** Runs one spec; resolves with its result (an error result on any failure, never a rejection). */
  run(req: RunRequest, onProgress?: (p: RunProgress) => void): Promise<RunResult> {
    const budget = effectiveBudget(req.spec.budget, this.limits);
    const spec: RunSpec = { ...req.spec, budget };
    const id = this.nextId++;
    return new Promise<RunResult>((resolve) => {
      const p: Pending = {
        msg: { type: "run", id, ...req, spec },
        fresh: req.plugins.some((x) => x.refused === undefined),
        totalMs: budget.maxHostMs,
        describe: spec.workload.file,
        overBudget: `stopped after ${fmtMs(budget.maxHostMs)} of host time (the run's budget; --max-seconds)`,
        settle: (o) => resolve(o.ok ? withPluginSourceLine((o.value as Extract<FromSandbox, { type: "result" }>).result, req.plugins) : errorResult(spec, o.error)),
      };
      if (onProgress) p.onProgress = onProgress;
      this.enqueue(p);
    });
  }

  /** Evaluates a workload only to read its name, description and default parameters. */
  inspect(file: string, source: string, js?: string): Promise<WorkloadInfo> {
    const id = this.nextId++;
    return new Promise<WorkloadInfo>((resolve, reject) => {
      const msg: ToSandbox = js === undefined ? { type: "inspect", id, file, source } : { type: "inspect", id, file, source, js };
      this.enqueue({
        msg,
        fresh: false,
        totalMs: this.limits.moduleMs * 2,
        describe: file,
        overBudget: `inspecting the workload stopped after ${fmtMs(this.limits.moduleMs * 2)} of host time (its module, or promise jobs it left running, never finished)`,
        settle: (o) => {
          if (!o.ok) return reject(new InspectError(o.error.kind, o.error.message));
          const v = o.value as Extract<FromSandbox, { type: "inspected" }>;
          if (v.ok) resolve(v.info);
          else reject(new InspectError("workload", v.error));
        },
      });
    });
  }

  /**
   * Starts the shared worker now, so that a run about to come finds it ready (its realm locked down,
   * the simulator loaded); resolves when it is ready, or gone.
   */
  warm(): Promise<void> {
    const slot = this.shared;
    if (this.closed || slot.ready) return Promise.resolve();
    if (!slot.worker) this.start(slot);
    return new Promise<void>((resolve) => slot.onReady.push(resolve));
  }

  /** Terminates every worker; pending requests end with an error. */
  close(): void {
    this.closed = true;
    for (const slot of [this.shared, ...this.fresh]) {
      const all = [...(slot.current ? [slot.current] : []), ...slot.queue];
      slot.queue = [];
      this.kill(slot);
      for (const p of all) p.settle({ ok: false, error: { kind: "cancelled", message: `${p.describe}: cancelled` } });
    }
    this.fresh.clear();
  }

  private enqueue(p: Pending): void {
    if (this.closed) {
      p.settle({ ok: false, error: { kind: "cancelled", message: `${p.describe}: the execution host is closed` } });
      return;
    }
    if (p.fresh) {
      const slot = new WorkerSlot();
      this.fresh.add(slot);
      slot.queue.push(p);
      this.pump(slot);
    } else {
      this.shared.queue.push(p);
      this.pump(this.shared);
    }
  }

  private pump(slot: WorkerSlot): void {
    if (slot.current || !slot.queue.length) return;
    if (!slot.worker) {
      this.start(slot);
      return;
    }
    if (!slot.ready) return;
    const p = slot.queue.shift()!;
    slot.current = p;
    slot.runTimer = setTimeout(() => this.overBudget(slot, p.overBudget), timerMs(p.totalMs));
    slot.worker.post(p.msg);
  }

  private start(slot: WorkerSlot): void {
    slot.ready = false;
    const gen = ++slot.generation;
    slot.worker = this.factory(
      {
        message: (m) => {
          if (slot.generation === gen) this.onMessage(slot, m);
        },
        died: (reason, kind) => {
          if (slot.generation === gen) this.onDeath(slot, reason, kind);
        },
      },
      { fresh: slot !== this.shared },
    );
  }

  private onMessage(slot: WorkerSlot, m: FromSandbox): void {
    if (m.type === "ready") {
      slot.ready = true;
      for (const f of slot.onReady.splice(0)) f();
      this.pump(slot);
      return;
    }
    if (m.type === "label") return; // the sandbox process's (a browser worker does not mark)
    const p = slot.current;
    if (!p || m.id !== p.msg.id) return;
    if (m.type === "phase") {
      clearTimeout(slot.moduleTimer);
      if (m.phase === "evaluate") slot.moduleTimer = setTimeout(() => this.overBudget(slot, `module evaluation stopped after ${fmtMs(this.limits.moduleMs)} of host time (a loop at the top level of a workload or plugin?)`), timerMs(this.limits.moduleMs));
      return;
    }
    if (m.type === "progress") {
      p.onProgress?.(m.progress);
      return;
    }
    this.finish(slot, { ok: true, value: m });
  }

  private finish(slot: WorkerSlot, outcome: Parameters<Pending["settle"]>[0]): void {
    const p = slot.current!;
    clearTimeout(slot.runTimer);
    clearTimeout(slot.moduleTimer);
    slot.current = null;
    if (p.fresh) {
      this.kill(slot);
      this.fresh.delete(slot);
    } else if (outcome.ok && outcome.value.type === "result" && outcome.value.result.error?.kind === "budget") {
      // what a run over budget left behind (memory not yet collected, promise jobs) must not
      // count against the next one: it gets a fresh worker
      this.kill(slot);
    }
    p.settle(outcome);
    this.pump(slot);
  }

  /** The request over its budget: asks the worker whose code is stuck (a plugin's hook is blamed on the plugin), then stops it. */
  private overBudget(slot: WorkerSlot, what: string): void {
    const p = slot.current;
    if (!p) return;
    const stop = (where: string | null) => {
      if (slot.current !== p) return; // it finished (or died) while we asked
      this.kill(slot);
      this.finish(slot, { ok: false, error: { kind: "budget", message: `${p.describe}: ${what}${where ? ` in ${where}, which had not returned` : ""}` } });
    };
    // only a run with third-party plugin code (a fresh worker) has plugin code to blame
    const blame = p.fresh ? slot.worker?.blame : undefined;
    if (!blame) return stop(null);
    clearTimeout(slot.runTimer);
    clearTimeout(slot.moduleTimer);
    blame.call(slot.worker).then(stop, () => stop(null));
  }

  private onDeath(slot: WorkerSlot, reason: string, kind: "budget" | "internal"): void {
    slot.generation++;
    slot.worker = null;
    slot.ready = false;
    for (const f of slot.onReady.splice(0)) f();
    const p = slot.current;
    if (p) this.finish(slot, { ok: false, error: { kind, message: `${p.describe}: ${reason}` } });
    else if (slot.queue.length) {
      // the worker could not start: fail what waits rather than retrying forever
      for (const q of slot.queue.splice(0)) q.settle({ ok: false, error: { kind, message: `${q.describe}: ${reason}` } });
    }
  }

  private kill(slot: WorkerSlot): void {
    const w = slot.worker;
    slot.generation++;
    slot.worker = null;
    slot.ready = false;
    for (const f of slot.onReady.splice(0)) f();
    clearTimeout(slot.runTimer);
    clearTimeout(slot.moduleTimer);
    if (w) {
      try {
        w.terminate();
      } catch {
        /* already gone */
      }
    }
  }
}

/** setTimeout's longest delay (2^31 - 1 ms, 24.8 days): a longer one would fire at once */
export const MAX_TIMER_MS = 2 ** 31 - 1;
const timerMs = (ms: number): number => Math.min(ms, MAX_TIMER_MS);

function fmtMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

/** The result of a run that ended without a result from the sandbox. */
export function errorResult(spec: RunSpec, error: RunError): RunResult {
  return { ...emptyResult(spec), error: { ...error, file: error.file ?? spec.workload.file } };
}
