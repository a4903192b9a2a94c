/**
 * Running the shipped example workloads for calibration: through the same execution host as every
 * other run (createNodeHost: a permission-restricted host process, SES lockdown, a fresh
 * Compartment per run), never in this process. Profiles are passed with each run and used in place
 * of the built-in files with the same id, so a fit can try candidate costs.
 *
 * One host per process, started on the first run and reused (its runs execute one after another);
 * whoever runs calibration calls `closeCalibrationHost()` when done (a live host process keeps
 * Node from exiting).
 */
import { createRequire } from "node:module";
import type ts from "typescript";
import { EXAMPLES, type LoadedPlugin, type ParamValue, type RunResult, type VariantSpec } from "@siglab/core";
import type { HostLimits } from "@siglab/core/host";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { createNodeHost, type NodeExecutionHost } from "@siglab/builtin-plugins/host/node";
import type { CpuProfileFile } from "@siglab/cpu-profiles";

/** A syntax error in a workload, with its position (the host reports it as a compile error). */
export class ExampleCompileError extends Error {
  constructor(readonly file: string, readonly line: number, readonly column: number, readonly detail: string) {
    super(`${file}:${line}:${column}: ${detail}`);
  }
}

/** TypeScript, loaded on first use: every CLI command bundles this module, few transpile an example here. */
let tsModule: typeof ts | undefined;
const typescript = (): typeof ts => (tsModule ??= createRequire(import.meta.url)("typescript") as typeof ts);

const jsCache = new Map<string, { js: string; map: string }>();

/**
 * TypeScript -> CommonJS (what the host sends into the sandbox) and its source map (a workload
 * error then names the TypeScript line); throws on a syntax error. Comments are dropped: the
 * sandbox refuses source text that merely looks like `import(` or an HTML comment.
 */
export function transpileExample(source: string, file: string): { js: string; map: string } {
  const key = `${file}\0${source}`;
  let out = jsCache.get(key);
  if (out === undefined) {
    const ts = typescript();
    const t = ts.transpileModule(source, {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: true, inlineSourceMap: false, removeComments: true },
    });
    const d = t.diagnostics?.find((x) => x.category === ts.DiagnosticCategory.Error);
    if (d) {
      const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: 0, character: 0 };
      throw new ExampleCompileError(file, pos.line + 1, pos.character + 1, ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    }
    out = { js: t.outputText.replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n"), map: t.sourceMapText ?? "" };
    jsCache.set(key, out);
  }
  return out;
}

let host: NodeExecutionHost | null = null;
let hostOptions: { limits?: Partial<HostLimits>; verbose?: boolean } = {};

/** Limits and verbosity of the calibration host (e.g. a command's --max-* options); restarts it if running. */
export function configureCalibrationHost(o: { limits?: Partial<HostLimits>; verbose?: boolean }): void {
  hostOptions = { ...o };
  closeCalibrationHost();
}

function calibrationHost(): NodeExecutionHost {
  host ??= createNodeHost({ transpile: transpileExample, ...(hostOptions.limits ? { limits: hostOptions.limits } : {}), ...(hostOptions.verbose ? { verbose: true } : {}) });
  return host;
}

/** Stops the calibration host process, if one was started (the next run starts a new one). */
export function closeCalibrationHost(): void {
  host?.close();
  host = null;
}

/**
 * Ids of the built-in plugins: the list the sandbox is built with (packages/builtin-plugins), so
 * exactly the variants a calibration run can name. Figures needing anything else are pending.
 */
export function builtinPluginIds(plugins: readonly LoadedPlugin[] = BUILTIN_PLUGINS): string[] {
  return plugins.map((p) => p.manifest.id);
}

export interface RunRequest {
  workload: string;
  cpu: string;
  mhz: number;
  /** CPUs of the machine (absent: one, the UP kernel) */
  smp?: number;
  variants?: VariantSpec[];
  params?: Record<string, ParamValue>;
}

export function exampleSource(id: string): { id: string; file: string; source: string } {
  const e = EXAMPLES.find((x) => x.id === id);
  if (!e) throw new Error(`calibration: no shipped example workload '${id}' (examples: ${EXAMPLES.map((x) => x.id).join(", ")})`);
  return { id: e.id, file: e.file, source: e.source };
}

const paramsCache = new Map<string, Promise<Record<string, ParamValue>>>();

/** The parameter defaults an example declares (to see whether it offers e.g. a `call` param), read in the sandbox. */
export function exampleParams(id: string): Promise<Record<string, ParamValue>> {
  const w = exampleSource(id);
  const key = `${w.file}\0${w.source}`;
  let p = paramsCache.get(key);
  if (!p) {
    p = calibrationHost()
      .inspect(w.file, w.source)
      .then((info) => ({ ...info.params }));
    paramsCache.set(key, p);
    p.catch(() => paramsCache.delete(key));
  }
  return p.then((params) => ({ ...params }));
}

/**
 * Runs one shipped example in the execution host on the given profiles (only the run's CPU is
 * sent: the other ids are never read by a run); a run error is thrown with its context. The
 * sandbox always has every built-in plugin; `available` (plugin ids) narrows what a request may
 * name, for callers that treat some plugins as not built.
 */
export async function runExample(req: RunRequest, profiles: readonly CpuProfileFile[], available?: readonly string[], seed = 1): Promise<RunResult> {
  const missing = available && (req.variants ?? []).find((v) => !available.includes(v.id));
  if (missing) throw new Error(`${describeRun(req)}: plugin error: unknown plugin '${missing.id}' (available: ${available!.join(", ") || "none"})`);
  const r = await calibrationHost().run({
    spec: {
      workload: exampleSource(req.workload),
      cpu: req.smp && req.smp > 1 ? { id: req.cpu, mhz: req.mhz, smp: req.smp } : { id: req.cpu, mhz: req.mhz },
      variants: req.variants ?? [],
      params: req.params ?? {},
      seed,
    },
    plugins: [],
    profiles: profiles.filter((p) => p.id === req.cpu),
  });
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
  return `${req.workload} on ${req.cpu}@${req.mhz}${req.smp && req.smp > 1 ? ` ×${req.smp}` : ""} (${variantLabel(req.variants ?? [])}${params ? `; ${params}` : ""})`;
}
