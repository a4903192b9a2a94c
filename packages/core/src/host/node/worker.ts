/**
 * The sandbox worker on Node: the one worker thread of a sandbox process (host/node/child.ts),
 * started with the run's heap limit, in a realm the entry point locked down before importing the
 * simulator. It runs the supervisor's requests (relayed by the process) through the sandbox runtime.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { LoadedPlugin } from "../../plugin-api/loaded-plugin.js";
import { createSandbox } from "../sandbox.js";
import type { FromSandbox, ToSandbox } from "../protocol.js";
import type { Mark } from "../mark.js";

export interface NodeSandboxWorkerData {
  /** the memory budget in MiB (the heap limit is set by the supervisor; this also counts ArrayBuffers) */
  memoryMb: number;
  /** [0]: the label of the plugin code running now, + 1 (0: none); the process reads it when the host asks */
  mark?: SharedArrayBuffer;
}

/** The mark in memory the sandbox process shares (its labels' texts go to the process as they are made). */
function sharedMark(buffer: SharedArrayBuffer, post: (m: FromSandbox) => void): Mark {
  const cell = new Int32Array(buffer);
  const labels = new Map<string, number>();
  return {
    enter(label) {
      const previous = Atomics.load(cell, 0);
      Atomics.store(cell, 0, label + 1);
      return previous;
    },
    leave(previous) {
      Atomics.store(cell, 0, previous);
    },
    label(text) {
      let n = labels.get(text);
      if (n === undefined) {
        labels.set(text, (n = labels.size));
        post({ type: "label", text });
      }
      return n;
    },
  };
}

export function startNodeSandboxWorker(builtinPlugins: readonly LoadedPlugin[]): void {
  const port = parentPort;
  if (!port) throw new Error("startNodeSandboxWorker: not in a worker thread");
  const data = workerData as NodeSandboxWorkerData;
  const cap = data.memoryMb * 1024 * 1024;
  const post = (m: FromSandbox): void => port.postMessage(m);
  const sandbox = createSandbox({
    builtinPlugins,
    post,
    ...(data.mark ? { mark: sharedMark(data.mark, post) } : {}),
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
