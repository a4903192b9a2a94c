/**
 * The simulation worker: the only place workload and plugin code runs. It transpiles the workload,
 * evaluates it in the sandbox, calls runWorkload per run of the expanded experiment and streams
 * progress and results as plain data. Cancel = the renderer terminates this worker.
 */
import { expandExperiment } from "@siglab/core/common/experiment.js";
import { readBundle, writeBundle, type BundleInput } from "@siglab/core/bundle/index.js";
import type { PluginCode } from "../common/host-api.js";
import type { FromWorker, ToWorker, WorkloadInfo } from "./protocol.js";
import { evaluateCommonJs, lockDownGlobals, pluginRequire, tableRequire } from "./sandbox.js";
import { BUILTIN_PLUGINS, createSiglabModule, runWorkload, type LoadedPlugin, type RunEnvironment } from "./sim-adapter.js";
import { pluginModuleTable } from "./plugin-modules.js";
import { transpileToCommonJs } from "./transpile.js";

interface WorkerScope {
  postMessage(m: unknown): void;
  addEventListener(t: "message", l: (e: MessageEvent<ToWorker>) => void): void;
}
const scope = globalThis as unknown as WorkerScope;
const post: (m: FromWorker) => void = scope.postMessage.bind(scope);
scope.addEventListener("message", (e) => onMessage(e.data));

// From here on nothing in this worker can reach the network, storage or the renderer except `post`.
lockDownGlobals(globalThis);
for (const name of ["postMessage", "addEventListener", "removeEventListener", "onmessage", "close"]) {
  try {
    Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false });
  } catch {
    /* keep going: the CSP still blocks the network */
  }
}

const PROGRESS_EVERY_MS = 100;

function loadThirdParty(code: PluginCode): LoadedPlugin {
  const load = pluginRequire(code.files, pluginModuleTable(), transpileToCommonJs, code.id);
  const exports = load(code.main) as Record<string, unknown>;
  const factory = (exports.default ?? exports.createModule ?? exports.module) as unknown;
  if (typeof factory !== "function") {
    throw new Error(`plugin ${code.id}: ${code.main} must export a function (options) => ContainerModule as its default export`);
  }
  return { manifest: code.manifest, module: factory as LoadedPlugin["module"], builtin: false, origin: `plugins/${code.id}` };
}

function runExperiment(msg: Extract<ToWorker, { type: "run" }>): void {
  const started = Date.now();
  const runs = expandExperiment(msg.config);
  const plugins: LoadedPlugin[] = [...BUILTIN_PLUGINS];
  try {
    for (const p of msg.plugins) plugins.push(loadThirdParty(p));
  } catch (err) {
    post({ type: "failed", runId: msg.runId, message: `loading plugins: ${(err as Error).message}` });
    return;
  }
  runs.forEach((spec, index) => {
    let last = 0;
    const deadline = spec.budget?.maxHostMs ? Date.now() + spec.budget.maxHostMs : undefined;
    const env: RunEnvironment = {
      profiles: msg.profiles,
      plugins,
      transpile: transpileToCommonJs,
      evaluate: (js, file, siglabModule) => evaluateCommonJs(js, file, tableRequire({ siglab: siglabModule }, file)),
      onProgress: (progress) => {
        const now = Date.now();
        if (now - last < PROGRESS_EVERY_MS) return;
        last = now;
        post({ type: "progress", runId: msg.runId, index, total: runs.length, progress });
      },
      shouldCancel: () => deadline !== undefined && Date.now() > deadline,
    };
    const result = runWorkload(spec, env);
    post({ type: "result", runId: msg.runId, index, total: runs.length, result });
  });
  post({ type: "done", runId: msg.runId, ms: Date.now() - started });
}

function inspectWorkload(source: string, file: string): WorkloadInfo {
  const exports = evaluateCommonJs(transpileToCommonJs(source, file), file, tableRequire({ siglab: createSiglabModule() }, file));
  const def = (exports.default ?? exports) as Partial<WorkloadInfo> | undefined;
  if (!def || typeof def !== "object" || typeof def.name !== "string") throw new Error(`${file}: the default export must be workload({ name, params, main })`);
  const params: WorkloadInfo["params"] = {};
  for (const [k, v] of Object.entries(def.params ?? {})) if (["number", "string", "boolean"].includes(typeof v)) params[k] = v;
  return { name: def.name, ...(typeof def.description === "string" ? { description: def.description } : {}), params };
}

function onMessage(msg: ToWorker): void {
  try {
    if (msg.type === "run") runExperiment(msg);
    else if (msg.type === "bundle-write") post({ type: "bundle", reqId: msg.reqId, ok: true, value: writeBundle(msg.input as BundleInput) });
    else if (msg.type === "inspect") post({ type: "bundle", reqId: msg.reqId, ok: true, value: inspectWorkload(msg.source, msg.file) });
    else if (msg.type === "bundle-read") post({ type: "bundle", reqId: msg.reqId, ok: true, value: readBundle(msg.bytes, { fileName: msg.fileName }) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (msg.type === "run") post({ type: "failed", runId: msg.runId, message });
    else post({ type: "bundle", reqId: msg.reqId, ok: false, error: message });
  }
}

post({ type: "ready" });
