/** Test harness: run a workload source (or an example) on a built-in profile, in-process. */
import ts from "typescript";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { ContainerModule } from "inversify";
import type { PluginModule } from "@siglab/plugin-api";
import { fromPluginModule, runWorkload, EXAMPLES, TOKENS, type Kernel, type RunEnvironment, type RunResult, type VariantSpec, type LoadedPlugin, type ParamValue } from "../src/index.js";

export function transpile(source: string, file: string): string {
  const out = ts.transpileModule(source, { fileName: file, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  return out.outputText;
}

export function evaluate(js: string, _file: string, siglab: Record<string, unknown>): unknown {
  const module = { exports: {} as unknown };
  // tests trust their own workloads; the hosts use real sandboxes
  new Function("require", "module", "exports", js)((id: string) => (id === "siglab" ? siglab : undefined), module, module.exports);
  return module.exports;
}

/** A plugin as a test has it: loaded, or a plugin's module exports (built-in plugins' default export). */
export type TestPlugin = LoadedPlugin | PluginModule;

export function asLoaded(p: TestPlugin): LoadedPlugin {
  return "createModule" in p ? fromPluginModule(p, { origin: "test", builtin: true }) : p;
}

/** A third-party plugin `id` whose only part is a KernelSetupContribution calling `setup(k)` (run it with variants: [{ id }]). */
export function setupPlugin(id: string, setup: (k: Kernel) => void, apiVersion = "2.0"): LoadedPlugin {
  return {
    manifest: { id, version: "1.0.0", apiVersion, displayName: "t", description: "t", options: {}, contributes: ["KernelSetupContribution"] },
    builtin: false,
    origin: `plugins/${id}`,
    module: () =>
      new ContainerModule(({ bind }) => {
        bind(TOKENS.KernelSetupContribution).toConstantValue({ setup });
      }),
  };
}

export function env(plugins: TestPlugin[] = []): RunEnvironment {
  return { profiles: [...BUILTIN_PROFILE_FILES], plugins: plugins.map(asLoaded), transpile, evaluate };
}

export interface RunOpts {
  cpu?: string;
  mhz?: number;
  variants?: VariantSpec[];
  params?: Record<string, ParamValue>;
  seed?: number;
  plugins?: TestPlugin[];
  timeline?: boolean;
  maxSteps?: number;
  maxCycles?: number;
  /** CPUs of the machine (SMP) */
  smp?: number;
  timelineLimit?: number;
  /** the equivalence oracle's reference mode: every kernel path op by op (RunEnvironment.exactPaths) */
  exactPaths?: boolean;
}

export function runSource(source: string, o: RunOpts = {}, file = "test.ts"): RunResult {
  const spec = {
    workload: { id: file.replace(/\.ts$/, ""), file, source },
    cpu: { id: o.cpu ?? "p4-northwood", mhz: o.mhz ?? 2200, ...(o.smp !== undefined ? { smp: o.smp } : {}) },
    variants: o.variants ?? [],
    params: o.params ?? {},
    seed: o.seed ?? 1,
    timeline: o.timeline ?? false,
    ...(o.timelineLimit !== undefined ? { timelineLimit: o.timelineLimit } : {}),
    budget: { maxSteps: o.maxSteps ?? 50_000_000, maxCycles: o.maxCycles ?? 1e12 },
  };
  return runWorkload(spec, { ...env(o.plugins ?? []), ...(o.exactPaths ? { exactPaths: true } : {}) });
}

export function runExample(id: string, o: RunOpts = {}): RunResult {
  const e = EXAMPLES.find((x) => x.id === id);
  if (!e) throw new Error(`no example ${id}`);
  return runSource(e.source, o, e.file);
}

export function metric(r: RunResult, name: string): number {
  const m = r.metrics.find((x) => x.name === name);
  if (!m) throw new Error(`no metric '${name}' in ${r.workload}: ${r.metrics.map((x) => x.name).join(", ")}${r.error ? ` (error: ${r.error.message})` : ""}`);
  return m.value;
}

export function pathCount(r: RunResult, name: string): number {
  return r.paths.find((p) => p.name === name)?.count ?? 0;
}

/** The run's kernel and user path names in timeline order, without the memory hierarchy's charges (cache refills, TLB walks). */
export function pathOrder(r: RunResult): string[] {
  return (r.timeline ?? []).filter((e) => !e.phase.startsWith("cache.") && e.phase !== "tlb.refill").map((e) => e.name);
}
