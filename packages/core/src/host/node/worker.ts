/**
 * The sandbox worker on Node: the one worker thread of a sandbox process (host/node/child.ts),
 * started with the run's heap limit, in a realm the entry point locked down before importing the
 * simulator. It runs the supervisor's requests (relayed by the process) through the sandbox runtime.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { LoadedPlugin } from "../../plugin-api/loaded-plugin.js";
import { createSandbox } from "../sandbox.js";
import type { FromSandbox, ToSandbox } from "../protocol.js";

export interface NodeSandboxWorkerData {
  /** the memory budget in MiB (the heap limit is set by the supervisor; this also counts ArrayBuffers) */
  memoryMb: number;
}

export function startNodeSandboxWorker(builtinPlugins: readonly LoadedPlugin[]): void {
  const port = parentPort;
  if (!port) throw new Error("startNodeSandboxWorker: not in a worker thread");
  const cap = (workerData as NodeSandboxWorkerData).memoryMb * 1024 * 1024;
  const post = (m: FromSandbox): void => port.postMessage(m);
  const sandbox = createSandbox({
    builtinPlugins,
    post,
    // ArrayBuffers live outside the V8 heap that the worker's resourceLimits cap
    memoryOver: () => {
      const m = process.memoryUsage();
      const used = m.arrayBuffers + m.heapUsed;
      return used > cap ? `memory budget exceeded: ${Math.round(used / 1048576)} MiB in use (heap and ArrayBuffers), over the limit of ${Math.round(cap / 1048576)} MiB (--max-memory)` : null;
    },
  });
  // a workload's rejected promise is its own business: it must not end the host's worker
  process.on("unhandledRejection", () => {});
  port.on("message", (m: ToSandbox) => sandbox.handle(m));
  post({ type: "ready" });
}
