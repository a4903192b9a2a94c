/**
 * The workload/plugin sandbox inside the simulation worker. Before any untrusted code runs, the
 * worker's ways out are removed (network, storage, nested workers, importScripts); the worker's CSP
 * (connect-src 'none') blocks the network again at the browser level. Code is evaluated as a
 * CommonJS module whose `require` only knows the modules we hand it.
 */

const BLOCKED_GLOBALS = [
  "fetch",
  "XMLHttpRequest",
  "WebSocket",
  "WebSocketStream",
  "EventSource",
  "importScripts",
  "indexedDB",
  "caches",
  "BroadcastChannel",
  "Worker",
  "SharedWorker",
  "WebTransport",
  "RTCPeerConnection",
  "navigator",
  "FileReaderSync",
  "Request",
  "Response",
] as const;

/** Shadows dangerous globals with undefined, on the global object and its prototype chain. */
export function lockDownGlobals(scope: object = globalThis): string[] {
  const removed: string[] = [];
  for (const name of BLOCKED_GLOBALS) {
    let obj: object | null = scope;
    let found = false;
    while (obj) {
      if (Object.prototype.hasOwnProperty.call(obj, name)) {
        found = true;
        try {
          Object.defineProperty(obj, name, { value: undefined, writable: false, configurable: false });
        } catch {
          // Non-configurable on this object: shadow it on the scope itself below.
        }
      }
      obj = Object.getPrototypeOf(obj);
    }
    try {
      Object.defineProperty(scope, name, { value: undefined, writable: false, configurable: false });
    } catch {
      /* already locked */
    }
    if (found) removed.push(name);
  }
  return removed;
}

export type ModuleTable = Record<string, unknown>;

export class SandboxError extends Error {}

/** Evaluates one CommonJS module's code; returns module.exports. */
export function evaluateCommonJs(js: string, file: string, requireFn: (id: string) => unknown): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  // A Function (not eval) keeps the worker's locals out of reach; "use strict" makes `this` undefined.
  const fn = new Function("exports", "require", "module", "__filename", `"use strict";${js}\n//# sourceURL=${encodeURI(file)}`) as (
    e: unknown,
    r: unknown,
    m: unknown,
    f: string,
  ) => void;
  fn(module.exports, requireFn, module, file);
  return module.exports;
}

/** require() for a workload: only the modules in `table`. */
export function tableRequire(table: ModuleTable, file: string): (id: string) => unknown {
  return (id: string) => {
    if (Object.prototype.hasOwnProperty.call(table, id)) return table[id];
    throw new SandboxError(`${file}: cannot import "${id}" (a workload may import only ${Object.keys(table).map((k) => `"${k}"`).join(", ")})`);
  };
}

/**
 * require() for a multi-file plugin: relative paths resolve inside its file map (each module
 * evaluated once), bare names come from `table`.
 */
export function pluginRequire(
  files: Record<string, string>,
  table: ModuleTable,
  transpile: (code: string, file: string) => string,
  pluginId: string,
): (entry: string) => unknown {
  const cache = new Map<string, unknown>();
  const load = (rel: string): unknown => {
    if (cache.has(rel)) return cache.get(rel);
    const code = files[rel];
    if (code === undefined) throw new SandboxError(`plugin ${pluginId}: missing file ${rel}`);
    if (rel.endsWith(".json")) {
      const v = JSON.parse(code) as unknown;
      cache.set(rel, v);
      return v;
    }
    const module = { exports: {} as Record<string, unknown> };
    cache.set(rel, module.exports);
    const req = (id: string): unknown => {
      if (id.startsWith("./") || id.startsWith("../")) return load(resolveRel(rel, id, files, pluginId));
      if (Object.prototype.hasOwnProperty.call(table, id)) return table[id];
      throw new SandboxError(`plugin ${pluginId} (${rel}): cannot import "${id}"; available: ${Object.keys(table).join(", ")}`);
    };
    const exports = evaluateCommonJs(transpile(code, `plugins/${pluginId}/${rel}`), `plugins/${pluginId}/${rel}`, req);
    cache.set(rel, exports);
    return exports;
  };
  return load;
}

function resolveRel(from: string, id: string, files: Record<string, string>, pluginId: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const seg of id.split("/")) {
    if (seg === "..") {
      if (parts.length === 0) throw new SandboxError(`plugin ${pluginId}: "${id}" leaves the plugin folder`);
      parts.pop();
    } else if (seg !== ".") parts.push(seg);
  }
  const base = parts.join("/");
  for (const cand of [base, `${base}.js`, `${base}.mjs`, `${base}.cjs`, `${base}.json`, `${base}/index.js`]) {
    if (files[cand] !== undefined) return cand;
  }
  throw new SandboxError(`plugin ${pluginId}: cannot resolve "${id}" from ${from}`);
}
