/**
 * Owns the simulation worker from the UI side. Runs stream progress/results back; Cancel
 * terminates the worker (a synchronous runaway cannot be interrupted any other way) and spawns a
 * fresh one, so the UI never waits on simulated code.
 */
import type { CpuProfileFile, ExperimentConfig, RunProgress, RunResult } from "../common/contracts.js";
import type { PluginCode } from "../common/host-api.js";
import type { FromWorker, ToWorker } from "../worker/protocol.js";

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

interface Pending {
  runId: number;
  handlers: RunHandlers;
  results: RunResult[];
  resolve(r: RunResult[]): void;
  reject(e: Error): void;
}

export class SimClient {
  private worker!: Worker;
  private nextId = 1;
  private pending: Pending | null = null;
  private requests = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor() {
    this.spawn();
  }

  private spawn(): void {
    this.worker = new Worker(new URL("../worker/sim.worker.ts", import.meta.url), { type: "module", name: "siglab-sim" });
    this.worker.addEventListener("message", (e: MessageEvent<FromWorker>) => this.onMessage(e.data));
    this.worker.addEventListener("error", (e) => {
      const err = new Error(`simulation worker crashed: ${e.message || "unknown error"}`);
      this.failAll(err);
      this.respawn();
    });
  }

  private respawn(): void {
    this.worker.terminate();
    this.spawn();
  }

  private failAll(err: Error): void {
    this.pending?.reject(err);
    this.pending = null;
    for (const r of this.requests.values()) r.reject(err);
    this.requests.clear();
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  run(config: ExperimentConfig, profiles: CpuProfileFile[], plugins: PluginCode[], handlers: RunHandlers): Promise<RunResult[]> {
    if (this.pending) return Promise.reject(new Error("a run is already in progress"));
    const runId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { runId, handlers, results: [], resolve, reject };
      this.post({ type: "run", runId, config, profiles, plugins });
    });
  }

  /** Stops the current run at once. */
  cancel(): void {
    if (!this.pending && this.requests.size === 0) return;
    this.failAll(new RunCancelled());
    this.respawn();
  }

  request(msg: DistributiveOmit<Extract<ToWorker, { reqId: number }>, "reqId">): Promise<unknown> {
    const reqId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.requests.set(reqId, { resolve, reject });
      this.post({ ...msg, reqId } as ToWorker);
    });
  }

  private post(msg: ToWorker): void {
    this.worker.postMessage(msg);
  }

  private onMessage(msg: FromWorker): void {
    if (msg.type === "bundle") {
      const r = this.requests.get(msg.reqId);
      this.requests.delete(msg.reqId);
      if (msg.ok) r?.resolve(msg.value);
      else r?.reject(new Error(msg.error));
      return;
    }
    const p = this.pending;
    if (!p || !("runId" in msg) || msg.runId !== p.runId) return;
    if (msg.type === "progress") p.handlers.onProgress(msg);
    else if (msg.type === "result") {
      p.results[msg.index] = msg.result;
      p.handlers.onResult(msg);
    } else if (msg.type === "done") {
      this.pending = null;
      p.resolve(p.results);
    } else if (msg.type === "failed") {
      this.pending = null;
      p.reject(new Error(msg.message));
    }
  }
}
