/**
 * The sandbox runtime: what runs inside the execution host's worker (a Node worker thread or a Web
 * Worker), in a realm locked down by host/lockdown.ts. It evaluates every piece of foreign code —
 * a workload, a third-party plugin — in a fresh Compartment per run, hands workloads only the
 * façades of runtime/facade.ts, and posts results the runner built from simulator state.
 *
 * The supervisor on the other side of the message channel enforces host time and memory; this
 * side reports when module code starts and stops running (phases) and checks memory between steps.
 */
import { BUILTIN_PROFILE_FILES, type CpuProfileFile } from "@siglab/cpu-profiles";
import { asWorkload, createSiglabModule, WAIT_MACROS, workload } from "../api/runtime-module.js";
import { SimError } from "../kernel/sim-error.js";
import { PluginError, type LoadedPlugin } from "../plugin-api/loaded-plugin.js";
import { createPluginApi } from "../plugin-api/host-api.js";
import { loadThirdPartyPlugin, refusedPluginStandIn } from "../plugin-api/third-party.js";
import { runWorkload, type RunEnvironment } from "../runner/run-workload.js";
import { FACADE_CLASSES } from "../runtime/facade.js";
import { TaskExit } from "../kernel/exit.js";
import { LongJmp } from "../runtime/libc.js";
import { thrownMessage } from "../runtime/sanitize.js";
import { OutputBudgetError } from "../runtime/collector.js";
import { evaluateCommonJs, SandboxEvalError } from "./compartment.js";
import type { FromSandbox, PluginSource, ToSandbox, WorkloadInfo } from "./protocol.js";
import { markedPlugin, type Mark } from "./mark.js";
import type { CreateModule, PluginApi, PluginManifest } from "@siglab/plugin-api";

export interface SandboxDeps {
  builtinPlugins: readonly LoadedPlugin[];
  post(m: FromSandbox): void;
  /** TypeScript -> CommonJS, for requests that carry no transpiled `js` */
  transpile?(source: string, file: string): string;
  /** a reason to stop when the sandbox uses more memory than allowed (checked between steps) */
  memoryOver?(): string | null;
  /** where to mark which plugin code runs (mark.ts), for a host that can read it while a run is stuck */
  mark?: Mark;
}

const PROGRESS_EVERY_MS = 100;

declare function harden<T>(x: T): T;

interface CompartmentCtor {
  new (options: Record<string, unknown>): { globalThis: { Error: object } };
}

/**
 * Hardens what foreign code can reach of the host: the façade classes, the errors thrown through
 * its frames, the `siglab` module and the plugin API. (Intrinsics are frozen by lockdown.) A host
 * class that extends Error has the start compartment's Error constructor as its [[Prototype]],
 * whose prepareStackTrace/stackTraceLimit act on the whole realm: such classes are re-parented to
 * the Error constructor compartments share before they are hardened.
 */
function hardenReachable(pluginApi: object): void {
  const hostError = Error as unknown as object;
  const sharedError = new (globalThis as unknown as { Compartment: CompartmentCtor }).Compartment({ __options__: true }).globalThis.Error;
  for (const c of [...FACADE_CLASSES, SimError, PluginError, LongJmp, TaskExit, SandboxEvalError, OutputBudgetError, workload, ...Object.values(WAIT_MACROS)]) {
    if (Object.getPrototypeOf(c) === hostError) Object.setPrototypeOf(c, sharedError);
    harden(c);
  }
  harden(pluginApi);
  // the API's exports are getters (an ES module namespace, as bundled): harden freezes the getters,
  // not what they return, so every exported value is hardened itself (the same values the built-in
  // plugins and the simulator use: none of them is changed after loading)
  for (const key of Reflect.ownKeys(pluginApi)) harden((pluginApi as Record<PropertyKey, unknown>)[key]);
  // the start compartment's extensible copy of Reflect (see lockdown.ts), now that
  // reflect-metadata has added its methods
  harden(globalThis.Reflect);
}

/** After a run, let whatever promise jobs foreign code left behind run now, under this run's budget. */
const afterPromiseJobs = (f: () => void): void => {
  setTimeout(f, 0);
};

export interface Sandbox {
  handle(msg: ToSandbox): void;
}

export function createSandbox(deps: SandboxDeps): Sandbox {
  const pluginApi = createPluginApi();
  // what a plugin may import: the plugin API, and inversify's ContainerModule (the same class)
  const inversify = { ContainerModule: pluginApi.ContainerModule };
  hardenReachable(pluginApi);
  harden(inversify);
  const post = deps.post;

  const transpiler = (js: string | undefined) => (source: string, file: string): string => {
    if (js !== undefined) return js;
    if (!deps.transpile) throw new SandboxEvalError(`${file}: this host cannot transpile TypeScript`);
    return deps.transpile(source, file);
  };

  function thirdParty(sources: PluginSource[], seed: number): LoadedPlugin[] {
    return sources.map((src) => {
      if (src.refused !== undefined) return refusedPluginStandIn(src);
      const evaluate = (entry: string) =>
        evaluateCommonJs(src.files[entry] ?? "", `${src.origin}/${entry}`, {
          modules: { "@siglab/plugin-api": pluginApi, inversify },
          seed,
          files: src.files,
          entry,
        });
      const mark = deps.mark;
      if (!mark) return loadThirdPartyPlugin(src, evaluate);
      return loadThirdPartyPlugin(src, (entry) => {
        const previous = mark.enter(mark.label(`plugin '${src.id}' (its module's top level)`));
        let exports: { createModule?: unknown; examples?: unknown };
        try {
          exports = evaluate(entry) as typeof exports;
        } finally {
          mark.leave(previous);
        }
        const createModule = exports?.createModule;
        if (typeof createModule !== "function") return exports;
        // its code marked while it runs: a run over budget names the plugin and the hook
        const marked = markedPlugin({ manifest: { id: src.id } as PluginManifest, createModule: createModule as CreateModule }, mark, pluginApi as unknown as PluginApi);
        return { createModule: marked.createModule, examples: exports.examples };
      });
    });
  }

  function run(msg: Extract<ToSandbox, { type: "run" }>): void {
    const id = msg.id;
    let last = 0;
    const env: RunEnvironment = {
      profiles: mergeProfiles(msg.profiles),
      plugins: [...deps.builtinPlugins],
      transpile: transpiler(msg.js),
      evaluate: (js, file, siglab, ctx) => evaluateCommonJs(js, file, { modules: { siglab }, seed: ctx.seed }),
      onPhase: (phase) => post({ type: "phase", id, phase }),
      onProgress: (progress) => {
        const now = Date.now();
        if (now - last < PROGRESS_EVERY_MS) return;
        last = now;
        post({ type: "progress", id, progress });
      },
      shouldCancel: () => deps.memoryOver?.() ?? false,
    };
    if (msg.plugins.length) {
      post({ type: "phase", id, phase: "evaluate" });
      try {
        env.plugins.push(...thirdParty(msg.plugins, msg.spec.seed >>> 0));
      } catch (e) {
        post({ type: "result", id, result: failedResult(msg, e instanceof PluginError ? e.message : `loading plugins: ${thrownMessage(e)}`) });
        return;
      }
    }
    const result = runWorkload(msg.spec, env);
    // a workload's promise jobs run before the result goes out: one that never ends is this run's
    // runaway (its budget is still armed), not the next run's
    afterPromiseJobs(() => post({ type: "result", id, result }));
  }

  function inspect(msg: Extract<ToSandbox, { type: "inspect" }>): void {
    const id = msg.id;
    try {
      const js = transpiler(msg.js)(msg.source, msg.file);
      post({ type: "phase", id, phase: "evaluate" });
      const def = asWorkload(evaluateCommonJs(js, msg.file, { modules: { siglab: createSiglabModule() }, seed: 0 }), msg.file);
      post({ type: "phase", id, phase: "simulate" });
      const info: WorkloadInfo = { name: def.name, params: { ...def.params } };
      if (def.description !== undefined) info.description = def.description;
      // as for a run: promise jobs the module left run first, under this request's budget
      afterPromiseJobs(() => post({ type: "inspected", id, ok: true, info }));
    } catch (e) {
      const error = thrownMessage(e);
      afterPromiseJobs(() => post({ type: "inspected", id, ok: false, error }));
    }
  }

  return {
    handle(msg: ToSandbox): void {
      if (msg.type === "run") run(msg);
      else if (msg.type === "inspect") inspect(msg);
    },
  };
}

function mergeProfiles(given: CpuProfileFile[]): CpuProfileFile[] {
  return [...given, ...BUILTIN_PROFILE_FILES.filter((b) => !given.some((p) => p.id === b.id))];
}

/** A result for a run that could not start (its plugins failed to load). */
export function failedResult(msg: { spec: import("../common/experiment.js").RunSpec }, message: string, kind = "plugin"): import("../common/results.js").RunResult {
  const s = msg.spec;
  return { workload: s.workload.id, cpu: { ...s.cpu }, variants: s.variants, params: { ...s.params }, seed: s.seed, metrics: [], phases: {}, counters: {}, findings: [], totalCycles: 0, simSeconds: 0, paths: [], error: { kind, message } };
}
