/**
 * runInWorker: one run in a worker thread, stopped when it overruns its host-time budget. The
 * worker marks which plugin code it is in (blame.ts), so the budget error names the plugin and
 * the hook — or says the workload (or the simulator) was running. The test process never hangs.
 */
import { Worker } from "node:worker_threads";
import type { RunResult } from "@siglab/plugin-api";
import { failedRun, workloadIdOf } from "./options.js";
import type { WorkerHarnessOptions } from "./types.js";
import type { WorkerMessage, WorkerRequest } from "./worker.js";

/** The host-time budget of a run in a worker when the options give none. */
export const DEFAULT_HOST_MS = 30_000;
/** Host time the worker may take to load the harness and the simulator before the run's budget starts. */
const STARTUP_MS = 60_000;

/** The worker's code: dist/worker.js in the package, a bundle of worker.ts from the source (dev-worker.ts). */
async function workerFile(): Promise<URL> {
  if (!import.meta.url.endsWith(".ts")) return new URL("./worker.js", import.meta.url);
  const { devWorker } = await import("./dev-worker.js");
  return devWorker();
}

function fmtMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Runs one workload in a worker thread, with your plugins by reference (plugin folders or
 * modules); resolves to the run's result. Past `budget.hostMs` of host time (default 30 s) the
 * worker is stopped and the result's error (kind "budget") names the plugin and hook that was
 * running, or the workload; refusals (a bad manifest, another plugin-API version) are the
 * result's error too, as in runWorkload.
 */
export async function runInWorker(o: WorkerHarnessOptions): Promise<RunResult> {
  const { plugins = [], budget = {}, ...rest } = o;
  const hostMs = budget.hostMs ?? DEFAULT_HOST_MS;
  const options = { ...rest, budget: { ...(budget.maxSteps !== undefined ? { maxSteps: budget.maxSteps } : {}), ...(budget.maxCycles !== undefined ? { maxCycles: budget.maxCycles } : {}) } };
  if (!(hostMs > 0)) return failedRun(options, { kind: "config", message: `budget.hostMs: expected a number of milliseconds > 0, got ${String(hostMs)}` });
  const mark = new Int32Array(new SharedArrayBuffer(4));
  // a URL cannot be posted to a thread: its href can
  const href = (p: string | URL) => (p instanceof URL ? p.href : p);
  const refs = plugins.map((r) => ("dir" in r ? { dir: href(r.dir) } : { ...r, module: href(r.module), ...(r.manifest instanceof URL ? { manifest: r.manifest.href } : {}) }));
  const request: WorkerRequest = { options, plugins: refs, mark };
  const labels: string[] = [];
  return workerFile().then((file) => new Promise<RunResult>((resolve) => {
    const worker = new Worker(file, { workerData: request });
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (r: RunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(r);
    };
    const overrun = () => {
      const running = Atomics.load(mark, 0);
      const where = running > 0 ? `in ${labels[running - 1] ?? "a plugin's code"}, which had not returned` : `while the workload (${typeof o.workload === "string" ? `example ${o.workload}` : o.workload.file ?? "workload.ts"}) or the simulator was running: no plugin code was`;
      settle(failedRun(options, { kind: "budget", message: `${workloadIdOf(o.workload)}: stopped after ${fmtMs(hostMs)} of host time (the run's budget.hostMs) ${where}` }));
    };
    timer = setTimeout(() => settle(failedRun(options, { kind: "internal", message: `the harness's worker did not load within ${fmtMs(STARTUP_MS)}` })), STARTUP_MS);
    worker.on("message", (m: WorkerMessage) => {
      if (m.type === "started") {
        clearTimeout(timer);
        timer = setTimeout(overrun, hostMs);
      } else if (m.type === "label") labels.push(m.text);
      else settle(m.result);
    });
    worker.on("error", (e) => settle(failedRun(options, { kind: "internal", message: `the harness's worker failed: ${e.message}` })));
    worker.on("exit", (code) => settle(failedRun(options, { kind: "internal", message: `the harness's worker exited (code ${code}) without a result` })));
  }));
}
