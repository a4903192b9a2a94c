/**
 * The in-process run of the test harness for plugin authors: a workload with your plugin (and
 * SigLab's built-in plugins) on a CPU profile, giving the result object `siglab run --json`
 * prints, in milliseconds, without a CLI or a host process.
 *
 *   import { runWorkload } from "@siglab/plugin-harness";
 *   import * as myPlugin from "../src/index.js";            // { manifest?, createModule, examples? }
 *   const r = runWorkload({ plugins: [{ manifest, ...myPlugin }], variant: "my-plugin", workload: "lat_syscall" });
 *
 * It runs your own code in your own test process (no sandbox, no host-time budget: a hook that
 * loops hangs the test; runInWorker runs it where it can be stopped). Refusals come back as the
 * result's error, as the CLI reports them: a plugin the host refuses (a bad manifest, another
 * API version) fails the runs that name it, with the refusal.
 */
import ts from "typescript";
import { EXAMPLES, fromPluginModule, PluginError, refusedPluginStandIn, runWorkload as runInProcess, type LoadedPlugin, type RunEnvironment } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { BUILTIN_PROFILE_FILES, resolveInheritance } from "@siglab/cpu-profiles";
// a consumer of the API like any plugin's tests: the published declarations, not the source files
import type { HarnessOptions, PluginModule, RunResult, RunWorkload } from "@siglab/plugin-api";
import { cpuOf, failedRun, OptionsError, variantsOf, workloadIdOf } from "./options.js";

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

/** The folders plugins were loaded from (runInWorker's folder plugins): a frame in one names the plugin in an error. */
const ORIGINS = new WeakMap<PluginModule, string>();

/** Records that `p`'s code was evaluated from folder `dir` (its frames carry paths under it). */
export function setPluginOrigin(p: PluginModule, dir: string): void {
  ORIGINS.set(p, dir);
}

/**
 * The plugins as the runner takes them. A plugin the host refuses becomes a stand-in that fails
 * the runs naming it with the refusal (as `siglab run --plugin-dir` does); one whose manifest
 * names no id at all cannot be named, so its refusal is every run's error.
 */
function loaded(plugins: readonly PluginModule[]): { plugins: LoadedPlugin[]; refusal?: string } {
  const out: LoadedPlugin[] = [];
  for (const [i, m] of plugins.entries()) {
    const origin = ORIGINS.get(m) ?? `harness plugin ${i + 1}`;
    try {
      out.push(fromPluginModule(m, { origin, builtin: false }));
    } catch (e) {
      if (!(e instanceof PluginError)) throw e;
      const id = (m.manifest as { id?: unknown } | null)?.id;
      if (typeof id !== "string" || !id) return { plugins: out, refusal: e.message };
      out.push(refusedPluginStandIn({ id, manifest: m.manifest, origin, main: "", files: {}, refused: e.message }));
    }
  }
  return { plugins: out };
}

/** Runs one workload; returns the run's result (with `error` set when it failed or was refused). */
export const runWorkload: RunWorkload = (o: HarnessOptions): RunResult => {
  const mine = loaded(o.plugins ?? []);
  if (mine.refusal) return failedRun(o, { kind: "plugin", message: mine.refusal });
  const plugins = [...BUILTIN_PLUGINS, ...mine.plugins];
  try {
    let workload: { id: string; file: string; source: string };
    if (typeof o.workload === "string") {
      const all = [...EXAMPLES, ...plugins.flatMap((p) => p.examples ?? [])];
      const ex = all.find((e) => e.id === o.workload);
      if (!ex) throw new OptionsError(`no example '${o.workload}' (examples: ${all.map((e) => e.id).join(", ")})`);
      workload = { id: ex.id, file: ex.file, source: ex.source };
    } else {
      workload = { id: workloadIdOf(o.workload), file: o.workload.file ?? "workload.ts", source: o.workload.source };
    }
    const profiles = [...(o.profiles ?? []), ...BUILTIN_PROFILE_FILES];
    const cpu = cpuOf(o);
    const mhz = cpu.mhz || (resolveInheritance(profiles).find((p) => p.id === cpu.id)?.clock.defaultMhz ?? 0);
    const env: RunEnvironment = { profiles, plugins, transpile, evaluate };
    return runInProcess({ workload, cpu: { id: cpu.id, mhz }, variants: variantsOf(o), params: o.params ?? {}, seed: o.seed ?? 1, timeline: o.timeline === true, budget: o.budget ?? {} }, env);
  } catch (e) {
    if (e instanceof OptionsError) return failedRun(o, { kind: "config", message: e.message });
    throw e;
  }
};
