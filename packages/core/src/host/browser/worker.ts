/**
 * The sandbox worker in a browser (or Electron's renderer): a dedicated Web Worker whose entry
 * module imports `@siglab/core/host/lockdown` FIRST, then the simulator and the built-in
 * plugins, then calls startBrowserSandboxWorker. It serves the supervisor (host/supervisor.ts,
 * through factory.ts) with the sandbox runtime (host/sandbox.ts): every workload and third-party
 * plugin is evaluated in a fresh Compartment per run. The supervisor terminates this worker when a
 * budget runs out, so nothing here has to interrupt foreign code.
 *
 * The Compartments need 'unsafe-eval' in this worker's Content-Security-Policy; give the worker
 * `connect-src 'none'` and `worker-src 'none'` so that even the worker's own realm cannot reach
 * the network. This module also removes the worker's ways out from its global object once it has
 * what it needs (a second wall: compartments never see the worker's globals anyway).
 *
 * It transpiles nothing: requests carry the workload as CommonJS (`js`), made by a long-lived
 * worker that runs no foreign code, so a fresh sandbox worker never loads a compiler. After each
 * request it posts IDLE_MESSAGE from a macrotask (see factory.ts for why).
 */
import type { LoadedPlugin } from "../../plugin-api/loaded-plugin.js";
import { DEFAULT_HOST_LIMITS } from "../limits.js";
import type { FromSandbox, ToSandbox } from "../protocol.js";
import { createSandbox } from "../sandbox.js";
import { IDLE_MESSAGE, type IdleMessage } from "./messages.js";

/** What this module uses of a DedicatedWorkerGlobalScope (declared here: core has no DOM lib). */
interface WorkerScopeLike {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (e: { data: unknown }) => void): void;
  addEventListener(type: "unhandledrejection", listener: (e: { preventDefault(): void }) => void): void;
}

/** Chromium's non-standard `performance.memory` (absent in other engines, maybe in workers). */
interface ChromiumMemoryInfo {
  usedJSHeapSize: number;
  jsHeapSizeLimit: number;
}

/** Globals a worker could use to reach out; shadowed with undefined once the sandbox is set up. */
const WAYS_OUT = [
  "fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "WebTransport", "EventSource", "importScripts",
  "indexedDB", "caches", "BroadcastChannel", "Worker", "SharedWorker", "RTCPeerConnection", "FileReaderSync",
  "Request", "Response", "navigator", "postMessage", "close", "onmessage", "addEventListener", "removeEventListener",
] as const;

export interface BrowserSandboxOptions {
  /**
   * Memory budget in MiB for the coarse check below (default: the host's default). A Web Worker
   * has no heap limit of its own; see memoryCheck.
   */
  memoryMb?: number;
}

/**
 * A coarse memory check, and only where the engine provides Chromium's non-standard
 * `performance.memory`. Be aware of what it is: Chromium 156 exposes it on windows only, so in a
 * dedicated worker there it is absent and this check is off (measured); where it exists, Chromium
 * reports bucketed values that it refreshes rarely unless started with
 * --enable-precise-memory-info, so it can only catch a worker that has been over the budget for a
 * while. It is no heap limit: a Web Worker has none of its own. An allocation loop ends when the
 * supervisor's host-time budget terminates the worker or when V8 runs out of heap, and in Chromium
 * the latter takes the whole renderer process (the page) with it.
 */
function memoryCheck(capMb: number): (() => string | null) | undefined {
  const perf = (globalThis as { performance?: { memory?: ChromiumMemoryInfo } }).performance;
  if (!perf || typeof perf.memory?.usedJSHeapSize !== "number") return undefined;
  return () => {
    const m = perf.memory;
    if (!m) return null;
    const cap = Math.min(capMb * 1024 * 1024, 0.9 * m.jsHeapSizeLimit);
    return m.usedJSHeapSize > cap ? `memory budget exceeded: about ${Math.round(m.usedJSHeapSize / 1048576)} MiB of JavaScript heap in use, the limit is ${Math.round(cap / 1048576)} MiB` : null;
  };
}

/** Shadows the worker's ways out with non-writable undefined, on its global object. */
function removeWaysOut(scope: object): void {
  for (const name of WAYS_OUT) {
    try {
      Object.defineProperty(scope, name, { value: undefined, writable: false, configurable: false });
    } catch {
      /* non-configurable here: the CSP (connect-src 'none', worker-src 'none') still holds */
    }
  }
}

/** Starts the sandbox in this dedicated worker; posts "ready" when it can take requests. */
export function startBrowserSandboxWorker(builtinPlugins: readonly LoadedPlugin[], opts: BrowserSandboxOptions = {}): void {
  const scope = globalThis as unknown as WorkerScopeLike;
  if (typeof scope.postMessage !== "function" || typeof scope.addEventListener !== "function") throw new Error("startBrowserSandboxWorker: not in a dedicated worker");
  const postMessage = scope.postMessage.bind(scope);
  const post = (m: FromSandbox): void => postMessage(m);
  const memoryOver = memoryCheck(opts.memoryMb ?? DEFAULT_HOST_LIMITS.memoryMb);
  const sandbox = createSandbox({ builtinPlugins, post, ...(memoryOver ? { memoryOver } : {}) });
  scope.addEventListener("message", (e) => {
    sandbox.handle(e.data as ToSandbox);
    // A promise job that foreign code queued runs after this handler; one that never ends (an
    // endless `await` loop) keeps this macrotask from running, which is how the host notices.
    setTimeout(() => postMessage({ type: IDLE_MESSAGE } satisfies IdleMessage), 0);
  });
  // a rejection foreign code left unhandled is its own business, not an error of the app
  scope.addEventListener("unhandledrejection", (e) => e.preventDefault());
  removeWaysOut(globalThis);
  post({ type: "ready" });
}
