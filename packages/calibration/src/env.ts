/**
 * Running the shipped example workloads in-process, as the test harness does: they are SigLab's
 * own trusted code, so no sandbox. Profiles are passed in, so a fit can try candidate costs.
 */
import ts from "typescript";
import { asWorkload, createSiglabModule, EXAMPLES, runWorkload, type LoadedPlugin, type ParamValue, type RunEnvironment, type RunResult, type VariantSpec } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import type { CpuProfileFile } from "@siglab/cpu-profiles";

const jsCache = new Map<string, string>();

function transpile(source: string, file: string): string {
  let js = jsCache.get(source);
  if (js === undefined) {
    js = ts.transpileModule(source, { fileName: file, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    jsCache.set(source, js);
  }
  return js;
}

function evaluate(js: string, _file: string, siglab: Record<string, unknown>): unknown {
  const module = { exports: {} as unknown };
  new Function("require", "module", "exports", js)((id: string) => (id === "siglab" ? siglab : undefined), module, module.exports);
  return module.exports;
}

/** Ids of the built-in plugins (the list in packages/builtin-plugins). */
export function builtinPluginIds(plugins: readonly LoadedPlugin[] = BUILTIN_PLUGINS): string[] {
  return plugins.map((p) => p.manifest.id);
}

export interface RunRequest {
  workload: string;
  cpu: string;
  mhz: number;
  variants?: VariantSpec[];
  params?: Record<string, ParamValue>;
}

export function exampleSource(id: string): { id: string; file: string; source: string } {
  const e = EXAMPLES.find((x) => x.id === id);
  if (!e) throw new Error(`calibration: no shipped example workload '${id}' (examples: ${EXAMPLES.map((x) => x.id).join(", ")})`);
  return { id: e.id, file: e.file, source: e.source };
}

/** The parameter defaults an example declares (to see whether it offers e.g. a `call` param). */
export function exampleParams(id: string): Record<string, ParamValue> {
  const w = exampleSource(id);
  return { ...asWorkload(evaluate(transpile(w.source, w.file), w.file, createSiglabModule()), w.file).params };
}

/** Runs one shipped example on the given profiles; a run error is thrown with its context. */
export function runExample(req: RunRequest, profiles: CpuProfileFile[], plugins: readonly LoadedPlugin[] = BUILTIN_PLUGINS): RunResult {
  const env: RunEnvironment = { profiles, plugins: [...plugins], transpile, evaluate };
  const r = runWorkload(
    {
      workload: exampleSource(req.workload),
      cpu: { id: req.cpu, mhz: req.mhz },
      variants: req.variants ?? [],
      params: req.params ?? {},
      seed: 1,
    },
    env,
  );
  if (r.error) throw new Error(`${describeRun(req)}: ${r.error.kind} error: ${r.error.message}`);
  return r;
}

export function metricOf(r: RunResult, name: string, req: RunRequest): number {
  const m = r.metrics.find((x) => x.name === name);
  if (!m) throw new Error(`${describeRun(req)}: no metric '${name}' (metrics: ${r.metrics.map((x) => x.name).join(", ")})`);
  return m.value;
}

export function variantLabel(v: readonly VariantSpec[]): string {
  if (!v.length) return "baseline";
  return v.map((x) => (x.options && Object.keys(x.options).length ? `${x.id}:${Object.entries(x.options).map(([k, o]) => `${k}=${o}`).join(",")}` : x.id)).join("+");
}

export function describeRun(req: RunRequest): string {
  const params = Object.entries(req.params ?? {}).map(([k, v]) => `${k}=${v}`).join(",");
  return `${req.workload} on ${req.cpu}@${req.mhz} (${variantLabel(req.variants ?? [])}${params ? `; ${params}` : ""})`;
}
