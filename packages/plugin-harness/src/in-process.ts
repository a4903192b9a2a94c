/**
 * The in-process run of the test harness for plugin authors: a workload with your plugin (and
 * SigLab's built-in plugins) on a CPU profile, giving the result object `siglab run --json`
 * prints, in milliseconds, without a CLI or a host process.
 *
 *   import { runWorkload } from "@siglab/plugin-harness";
 *   import * as myPlugin from "../src/index.js";            // { manifest?, createModule, examples? }
 *   const r = runWorkload({ plugins: [{ manifest, ...myPlugin }], variant: "my-plugin", workload: "lat_syscall" });
 *
 * It runs your own code in your own test process (no sandbox): use it for your plugin's tests,
 * and `siglab run --plugin-dir` to run the plugin the way users will.
 */
import ts from "typescript";
import { EXAMPLES, fromPluginModule, runWorkload as runInProcess, type LoadedPlugin, type RunEnvironment } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { BUILTIN_PROFILE_FILES, resolveInheritance } from "@siglab/cpu-profiles";
// a consumer of the API like any plugin's tests: the published declarations, not the source files
import type { HarnessOptions, ParamValue, RunWorkload, VariantSpec } from "@siglab/plugin-api";

function variantOf(v: string | VariantSpec): VariantSpec {
  if (typeof v !== "string") return v;
  const [id, opts] = v.split(/:(.*)/s) as [string, string | undefined];
  const options: Record<string, ParamValue> = {};
  for (const kv of opts ? opts.split(",") : []) {
    const [k, val] = kv.split("=");
    if (!k || val === undefined) throw new Error(`variant ${v}: expected key=value, got '${kv}'`);
    options[k] = val;
  }
  return Object.keys(options).length ? { id, options } : { id };
}

function transpile(source: string, file: string): string {
  const out = ts.transpileModule(source, { fileName: file.endsWith(".ts") ? file : `${file}.ts`, reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  const err = out.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (err) {
    const pos = err.file && err.start !== undefined ? err.file.getLineAndCharacterOfPosition(err.start) : { line: 0, character: 0 };
    throw new SyntaxError(`${file}:${pos.line + 1}:${pos.character + 1}: ${ts.flattenDiagnosticMessageText(err.messageText, "\n")}`);
  }
  return out.outputText;
}

function evaluate(js: string, _file: string, siglab: Record<string, unknown>): unknown {
  const module = { exports: {} as unknown };
  new Function("require", "module", "exports", js)((id: string) => (id === "siglab" ? siglab : undefined), module, module.exports);
  return module.exports;
}

export type { HarnessOptions };

/** Runs one workload; returns the run's result (with `error` set when it failed). */
export const runWorkload: RunWorkload = (o: HarnessOptions) => {
  const mine: LoadedPlugin[] = (o.plugins ?? []).map((m, i) => fromPluginModule(m, { origin: `harness plugin ${i + 1}`, builtin: false }));
  const plugins = [...BUILTIN_PLUGINS, ...mine];
  let workload: { id: string; file: string; source: string };
  if (typeof o.workload === "string") {
    const all = [...EXAMPLES, ...plugins.flatMap((p) => p.examples ?? [])];
    const ex = all.find((e) => e.id === o.workload);
    if (!ex) throw new Error(`no example '${o.workload}' (examples: ${all.map((e) => e.id).join(", ")})`);
    workload = { id: ex.id, file: ex.file, source: ex.source };
  } else {
    const file = o.workload.file ?? "workload.ts";
    workload = { id: file.replace(/^.*\//, "").replace(/\.ts$/, ""), file, source: o.workload.source };
  }
  const profiles = [...(o.profiles ?? []), ...BUILTIN_PROFILE_FILES];
  const [cpuId, mhzText] = (o.cpu ?? "p4-northwood@2200").split("@") as [string, string | undefined];
  const file = resolveInheritance(profiles).find((p) => p.id === cpuId);
  const mhz = mhzText ? Number(mhzText) : file?.clock.defaultMhz ?? 0;
  const variants = (typeof o.variant === "string" ? [o.variant] : o.variant ?? []).map(variantOf);
  const env: RunEnvironment = { profiles, plugins, transpile, evaluate };
  return runInProcess({ workload, cpu: { id: cpuId, mhz }, variants, params: o.params ?? {}, seed: o.seed ?? 1, timeline: o.timeline === true, budget: o.budget ?? {} }, env);
};
