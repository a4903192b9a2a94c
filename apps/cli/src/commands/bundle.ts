/**
 * `siglab bundle export|info|verify|run|merge` and `siglab export csv|trace`:
 *   bundle export <workload> [options of siglab run, --jobs N, --shard i/n] -o x.siglab [--chart c.svg]... [--force]
 *   bundle info x.siglab
 *   bundle verify x.siglab [--trust-embedded] [--plugin-dir DIR] [--jobs N]
 *   bundle run x.siglab [--trust-embedded] [--plugin-dir DIR] [--jobs N] [-o results.json|results.csv] [--force]
 *   bundle merge part-1.siglab part-2.siglab ... -o all.siglab [--force]
 *   export csv|trace x.siglab [-o file] [--force]
 * The simulator and the run-argument parser come in as deps (the CLI's main wires them), so these
 * commands work the same in tests with a fake runner. Exit codes: 0 ok, 1 results differ or a run
 * failed, 2 bad input (refused bundle, bad arguments, refused -o file), 3 embedded plugin code not
 * consented to. Every -o file goes through output.ts (never replaces an input, --force to replace).
 */
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { CAC, Command } from "cac";
import {
  BundleError,
  BUNDLE_MAX_TOTAL_SECONDS,
  BUNDLE_SECONDS_PER_RUN,
  bundleTotalSeconds,
  checkBuiltinPlugins,
  compareResults,
  DEFAULT_LIMITS,
  formatParams,
  formatRunNumbers,
  formatVariants,
  hashFileSet,
  mergeBundles,
  readBundle,
  runLabel,
  writeBundle,
  embeddedPluginSources,
  type AvailablePlugin,
  type Bundle,
  type BundlePluginInput,
} from "@siglab/core/bundle";
import { escapeControls, expandExperiment, type ExperimentConfig, type RunResult, type RunSpec } from "@siglab/core/common";
import { hasNoTimeline, toCsv, toPerfettoTrace, truncatedTimelines } from "@siglab/core/export";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { DEFAULT_HOST_LIMITS, type PluginSource } from "@siglab/core/host";
import {
  availableBuiltins,
  builtinPluginsDir,
  listPluginFolders,
  pluginCodeFiles,
} from "../bundle-fs.js";
import { checkOutputTarget, OutputRefusal, writeOutputFile } from "../output.js";
import { fmt, group, timelineCutLines, unitText, withSignalNames } from "../format.js";
import { askAtTerminal, configDir, consentToEmbedded } from "../consent.js";
import { embeddableFiles } from "../plugins/folders.js";
import { pluginSources, scanThirdParty } from "../plugins/load.js";
import { parseJobs, parseShard, runSpecs, selectShard } from "../run/parallel.js";
import { progressLabel } from "../run/progress.js";
import { didYouMean } from "../suggest.js";

/** What `siglab export` writes (its --help lists them). */
export const EXPORT_FORMATS = [
  { id: "csv", aliases: ["spreadsheet"], what: "one row per run × value (metrics, phases, counters), for a spreadsheet" },
  { id: "trace", aliases: ["perfetto", "chrome", "timeline"], what: "Chrome/Perfetto trace JSON of the runs' timelines (open in ui.perfetto.dev); needs a bundle exported with --timeline" },
];
import { oneLine, shown } from "../terminal.js";
import { parseMaxTotalSeconds } from "../run/limits.js";

export interface SandboxRunOptions {
  /** Third-party plugin folders (each holds one sub-folder per plugin). */
  pluginDirs?: string[];
  /** Third-party plugin code given directly (a bundle's embedded plugins), instead of folders. */
  plugins?: PluginSource[];
  /** The exact profiles to use (a bundle's embedded ones), when the runner supports it. */
  profiles?: CpuProfileFile[];
}

/** What `siglab run`'s arguments resolve to. */
export interface ResolvedRunArgs {
  experiment: ExperimentConfig;
  /** The profiles of the experiment's CPUs, as the runs will use them. */
  profiles: CpuProfileFile[];
  /** Third-party plugin folders the run uses (--plugin-dir). */
  pluginDirs?: string[];
}

export interface BundleCommandDeps {
  runInSandbox(spec: RunSpec, opts?: SandboxRunOptions): Promise<RunResult>;
  /** Same parsing as `siglab run <workload> [options]`. */
  resolveRunArgs(workload: string, options: Record<string, unknown>): Promise<ResolvedRunArgs> | ResolvedRunArgs;
  /** Declares `siglab run`'s options on a command (for --help); unknown options pass through anyway. */
  addRunOptions?(cmd: Command): Command;
  appVersion?: string;
  /** The user's config folder (consent to embedded plugin code is remembered there). */
  configDir?: string;
  /** Yes/no at the terminal (tests answer themselves). */
  ask?(question: string): Promise<boolean | undefined>;
  /** Applies the command's limit options (--max-seconds, --max-memory, ...) to the execution host. */
  configure?(options: Record<string, unknown>): void;
  /** --max-runs of the command, if given */
  maxRuns?(options: Record<string, unknown>): number | undefined;
  /** the host time one run may take under the command's options (--max-seconds), in ms */
  runLimitMs?(options: Record<string, unknown>): number;
  /** Built-in plugins folder (default: packages/plugins of this checkout). */
  builtinPluginsDir?: string;
  log?(line: string): void;
  error?(line: string): void;
}

export interface BundleCommandOptions {
  out?: string;
  o?: string;
  chart?: string | string[];
  trustEmbedded?: boolean;
  /** Replace an existing -o file (never an input of the command). */
  force?: boolean;
  [k: string]: unknown;
}

class UsageError extends Error {}

/** The CLI package's version: what a bundle records as the SigLab that wrote it. */
function cliVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string }).version ?? "0.0.0-dev";
  } catch {
    return "0.0.0-dev";
  }
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** What `bundle export` reads: a workload given as a path, --chart files and --plugin-dir folders. */
function exportInputs(workload: string, options: BundleCommandOptions, pluginDirs: string[]): string[] {
  const looksLikePath = workload.endsWith(".ts") || workload.includes("/");
  return [...(looksLikePath ? [workload] : []), ...list(options.chart), ...pluginDirs];
}

const outputOptions = (options: BundleCommandOptions, inputs: string[]) => ({ force: options.force === true, inputs });

function io(deps: BundleCommandDeps) {
  return { log: deps.log ?? ((l: string) => console.log(l)), error: deps.error ?? ((l: string) => console.error(l)) };
}

/** A bundle file's bytes; the size limit is checked before reading it into memory. */
function bundleFileBytes(path: string): Uint8Array {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    throw new UsageError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (size > DEFAULT_LIMITS.maxBundleBytes) {
    throw new BundleError("too-large", path, `file is ${size} bytes, over the ${DEFAULT_LIMITS.maxBundleBytes}-byte limit`);
  }
  return new Uint8Array(readFileSync(path));
}

/** Reads and checks a bundle file; the size limit is checked before reading it into memory. */
export function openBundleFile(path: string, available?: AvailablePlugin[]): Bundle {
  return readBundle(bundleFileBytes(path), { fileName: path, ...(available ? { available } : {}) });
}

function pluginInputs(exp: ExperimentConfig, builtinDir: string, pluginDirs: string[]): BundlePluginInput[] {
  const builtins = new Map(listPluginFolders(builtinDir).map((p) => [p.id, p]));
  // third-party folders by the same reader and rules as the runs (plugins/folders.ts)
  const scan = scanThirdParty(pluginDirs);
  const thirdParty = new Map(scan.ok.map((f) => [f.manifest.id, f]));
  const ids = [...new Set(exp.stacks.flatMap((s) => s.map((v) => v.id)))];
  return ids.map((id): BundlePluginInput => {
    const b = builtins.get(id);
    const extra = { ...(b?.apiVersion ? { apiVersion: b.apiVersion } : {}), ...(b?.displayName ? { displayName: b.displayName } : {}) };
    if (b) {
      return { source: "builtin", id, version: b.version, hash: hashFileSet(pluginCodeFiles(b.dir)), ...extra };
    }
    const t = thirdParty.get(id);
    const refused = scan.refusals.find((r) => r.id === id);
    if (!t && refused) throw new UsageError(`variant ${id}: the plugin is refused: ${refused.reason}`);
    if (!t) throw new UsageError(`variant ${id}: no built-in plugin or plugin in ${[builtinDir, ...pluginDirs].join(", ")} has this id`);
    const m = t.manifest;
    return {
      source: "embedded",
      id,
      version: m.version,
      files: t.bytes,
      ...(m.apiVersion ? { apiVersion: m.apiVersion } : {}),
      ...(m.displayName ? { displayName: m.displayName } : {}),
    };
  });
}

/**
 * Runs the specs --jobs at a time; logs one line per run in run order (the same lines as one at a
 * time). `numbers`: the runs' numbers in the whole experiment (a part's), `total` its run count.
 */
async function runAll(specs: RunSpec[], deps: BundleCommandDeps, opts: SandboxRunOptions, log: (l: string) => void, o: { jobs: number; numbers?: number[]; total?: number; budget?: TotalBudget }): Promise<RunResult[]> {
  const total = o.total ?? specs.length;
  const budget = o.budget;
  const run = budget ? (spec: RunSpec) => runWithin(budget, spec, deps, opts) : (spec: RunSpec) => deps.runInSandbox(spec, opts);
  return runSpecs(specs, run, {
    jobs: o.jobs,
    label: (i) => progressLabel(specs[i]!),
    ...(budget ? { stopStarting: () => Date.now() >= budget.deadline } : {}),
    onResult: (i, result) => {
      // a bundle's labels and a run's error message are foreign text: one-line fields
      const spec = shown(specs[i]!);
      const r = shown(result);
      log(`run ${o.numbers?.[i] ?? i + 1}/${total} ${runLabel(spec)}${formatParams(spec.params) ? ` ${formatParams(spec.params)}` : ""}: ${r.error ? `FAILED (${r.error.kind}: ${withSignalNames(r.error.message)})` : `${group(r.totalCycles)} cycles`}`);
    },
  });
}

/** A re-run's total host time: it ends at `deadline` (a Date.now() time). */
interface TotalBudget {
  seconds: number;
  deadline: number;
  /** results of the runs it stopped */
  cut: WeakSet<RunResult>;
}

/**
 * A run that may take no more than what is left of the total budget (its own budget is a request
 * the host caps by its limits); stopped by the total, its error says so.
 */
async function runWithin(budget: TotalBudget, spec: RunSpec, deps: BundleCommandDeps, opts: SandboxRunOptions): Promise<RunResult> {
  const left = Math.max(1, budget.deadline - Date.now());
  const asked = spec.budget?.maxHostMs;
  const limited = asked !== undefined && asked > 0 && asked < left ? spec : { ...spec, budget: { ...spec.budget, maxHostMs: left } };
  const r = await deps.runInSandbox(limited, opts);
  if (r.error?.kind === "budget" && /of host time/.test(r.error.message) && Date.now() >= budget.deadline) {
    const stopped = { ...r, error: { ...r.error, message: `${spec.workload.file}: stopped when the bundle's total budget of ${fmtSeconds(budget.seconds)} ran out (--max-total-seconds)` } };
    budget.cut.add(stopped);
    return stopped;
  }
  return r;
}

const fmtSeconds = (s: number): string => `${s.toLocaleString("en")} s`;

export async function bundleExport(workload: string | undefined, options: BundleCommandOptions, deps: BundleCommandDeps): Promise<number> {
  const { log } = io(deps);
  const out = options.out ?? options.o;
  if (!workload) throw new UsageError("bundle export: name a workload (the same arguments as siglab run)");
  if (typeof out !== "string" || !out) throw new UsageError("bundle export: -o <file> is required");
  const jobs = parseJobs(options["jobs"]);
  const shard = parseShard(options["shard"]);
  // refuse a bad -o before the (long) runs; the write checks again
  checkOutputTarget(out, outputOptions(options, exportInputs(workload, options, list(options["pluginDir"] as string | string[] | undefined))));
  const resolved = await deps.resolveRunArgs(workload, options);
  const pluginDirs = resolved.pluginDirs ?? [];
  const plugins = pluginInputs(resolved.experiment, deps.builtinPluginsDir ?? builtinPluginsDir(), pluginDirs);
  const charts: Record<string, Uint8Array> = {};
  for (const c of list(options.chart)) charts[basename(c)] = readFileSync(c);
  const all = expandExperiment(resolved.experiment); // its size was checked against --max-runs when it was resolved
  const picked = selectShard(all.length, shard);
  const results = await runAll(
    picked.map((k) => all[k]!),
    deps,
    { pluginDirs, profiles: resolved.profiles },
    log,
    { jobs, numbers: picked.map((k) => k + 1), total: all.length },
  );
  const bytes = writeBundle({
    experiment: resolved.experiment,
    profiles: resolved.profiles,
    plugins,
    results,
    charts,
    appVersion: deps.appVersion ?? cliVersion(),
    ...(shard ? { shard } : {}),
  });
  writeOutputFile(out, bytes, outputOptions(options, exportInputs(workload, options, [...list(options["pluginDir"] as string | string[] | undefined), ...pluginDirs])));
  for (const line of timelineCutLines(results, picked.map((k) => k + 1))) io(deps).error(`siglab bundle export: ${line}`);
  const embedded = plugins.filter((p) => p.source === "embedded").map((p) => `${p.id}@${p.version}`);
  const what = shard ? `part ${shard.index} of ${shard.count}, ${results.length} of ${all.length} runs` : `${results.length} run${results.length === 1 ? "" : "s"}`;
  log(`wrote ${out}: ${what}, ${group(bytes.length)} bytes${embedded.length ? `, embeds third-party plugins ${embedded.join(", ")}` : ""}`);
  return results.some((r) => r.error) ? 1 : 0;
}

export function bundleInfo(file: string | undefined, deps: BundleCommandDeps): number {
  const { log } = io(deps);
  if (!file) throw new UsageError("bundle info: name a bundle file");
  const opened = openBundleFile(file);
  const check = shown(checkBuiltinPlugins(opened, availableBuiltins(deps.builtinPluginsDir ?? builtinPluginsDir())));
  // everything a bundle says is foreign text: shown as one-line fields
  const b = { ...opened, manifest: shown(opened.manifest), experiment: shown(opened.experiment), plugins: shown(opened.plugins), results: shown(opened.results), warnings: shown(opened.warnings), charts: shown(Object.fromEntries(Object.keys(opened.charts).map((k) => [k, 0]))) };
  const e = b.experiment;
  const missing = new Set(check.missing.map((m) => m.split(" ")[0]));
  log(`${file}: SigLab bundle, format v${b.manifest.formatVersion}${b.migratedFrom !== undefined ? ` (migrated from v${b.migratedFrom})` : ""}, written by SigLab ${b.manifest.appVersion} at ${b.manifest.createdAt}`);
  log(`workload: ${e.workload.id} (${e.workload.file}, ${e.workload.source.length} characters)`);
  log(`CPUs: ${e.cpus.map((c) => `${c.id}@${c.mhz}`).join(", ")}`);
  log(`variant stacks: ${e.stacks.map((s) => formatVariants(s) || "baseline").join(" | ")}`);
  log(`params: ${formatParams(e.params, ", ") || "(none)"}; seed ${e.seed}${e.sweep ? `; sweep ${e.sweep.param} over ${e.sweep.values.join(", ")}` : ""}`);
  if (b.shard) log(`part ${b.shard.index} of ${b.shard.count} (--shard ${b.shard.index}/${b.shard.count}): runs ${formatRunNumbers(b.shard.runs)} of ${b.shard.totalRuns}; bundle merge joins the parts`);
  log("plugins:");
  for (const p of b.plugins) {
    const state = p.source === "embedded" ? "embedded third-party code (needs --trust-embedded to run)" : missing.has(`${p.id}@${p.version}`) ? "built-in, MISSING here" : "built-in";
    log(`  ${p.id}@${p.version}  ${state}${p.hash ? `  sha256 ${p.hash}` : ""}`);
  }
  const findings = b.results.reduce((n, r) => n + r.findings.length, 0);
  const failed = b.results.filter((r) => r.error).length;
  log(`results: ${b.results.length} runs, ${findings} findings, ${failed} failed`);
  if (Object.keys(b.charts).length) log(`charts: ${Object.keys(b.charts).join(", ")}`);
  for (const w of [...b.warnings, ...check.changed]) log(`warning: ${w}`);
  if (check.missing.length) log(`missing built-in plugin versions: ${check.missing.join(", ")}`);
  return 0;
}

/** Opens, asks for consent to embedded code (or takes local builds, --plugin-dir) and re-runs every run. */
interface Rerun {
  bundle: Bundle;
  /** results of the runs made, in order (fewer than `numbers` when the total budget ran out) */
  results: RunResult[];
  /** the runs' numbers in the whole experiment */
  numbers: number[];
  budget: TotalBudget;
}

async function rerun(file: string | undefined, options: BundleCommandOptions, deps: BundleCommandDeps, verb: string): Promise<Rerun | number> {
  const { log, error } = io(deps);
  if (!file) throw new UsageError(`bundle ${verb}: name a bundle file`);
  const jobs = parseJobs(options["jobs"]);
  const explicitTotal = parseMaxTotalSeconds(options["maxTotalSeconds"]);
  const bundle = openBundleFile(file, availableBuiltins(deps.builtinPluginsDir ?? builtinPluginsDir()));
  const local = localBuilds(bundle, options, log);
  // consent concerns the bundle's own code; a local build is the user's own
  const embedded = bundle.plugins.filter((p) => p.source === "embedded" && !local.has(p.id));
  const consentIo = { log, error, ask: deps.ask ?? askAtTerminal };
  // what is shown of the embedded plugins is escaped; what is remembered is the bundle's own
  const embeddedIds = embedded.map((p) => ({ id: p.id, version: p.version, ...(p.hash ? { hash: p.hash } : {}) }));
  if (!(await consentToEmbedded(file, embeddedIds, { trustEmbedded: options.trustEmbedded === true, dir: deps.configDir ?? configDir() }, consentIo))) return 3;
  for (const w of bundle.warnings) log(`warning: ${oneLine(w)}`);
  // the embedded code goes to the execution host from memory: nothing is extracted to disk
  const plugins = embeddedPluginSources(bundle).map((p) => local.get(p.id) ?? p);
  const all = expandExperiment(bundle.experiment, deps.maxRuns?.(options));
  // a part (--shard) re-runs its own runs
  const numbers = bundle.shard ? bundle.shard.runs : all.map((_, k) => k + 1);
  if (bundle.shard) log(`${file}: part ${bundle.shard.index} of ${bundle.shard.count}: re-running runs ${formatRunNumbers(numbers)} of ${all.length}`);
  const seconds = bundleTotalSeconds(numbers.length, (deps.runLimitMs?.(options) ?? DEFAULT_HOST_LIMITS.runMs) / 1000, explicitTotal);
  const budget: TotalBudget = { seconds, deadline: Date.now() + seconds * 1000, cut: new WeakSet() };
  const results = await runAll(
    numbers.map((n) => all[n - 1]!),
    deps,
    { plugins, profiles: bundle.profiles },
    log,
    { jobs, numbers, total: all.length, budget },
  );
  const r: Rerun = { bundle, results, numbers, budget };
  const made = finished(r).length;
  if (made < numbers.length) log(`stopped: the bundle's total budget of ${fmtSeconds(seconds)} ran out (--max-total-seconds sets it): ${made} of ${numbers.length} runs were made, ${numbers.length - made} were not`);
  return r;
}

/** Positions of the runs of a re-run that finished (not stopped, nor left out, by the total budget). */
function finished(r: Rerun): number[] {
  return r.results.flatMap((x, i) => (r.budget.cut.has(x) ? [] : [i]));
}

/**
 * --plugin-dir on verify/run: a local build of an embedded plugin replaces the bundle's copy (to
 * re-verify a bundle against a new build); says which versions and code differ.
 */
function localBuilds(bundle: Bundle, options: BundleCommandOptions, log: (l: string) => void): Map<string, PluginSource> {
  const dirs = list(options.pluginDir as string | string[] | undefined);
  const out = new Map<string, PluginSource>();
  if (!dirs.length) return out;
  const sources = pluginSources(dirs);
  const byId = new Map(sources.map((s) => [s.id, s]));
  for (const p of bundle.plugins.filter((x) => x.source === "embedded")) {
    const s = byId.get(p.id);
    if (!s) {
      log(oneLine(`plugin ${p.id}: no local build in ${dirs.join(", ")}; using the bundle's ${p.version}`));
      continue;
    }
    if (s.refused !== undefined) throw new UsageError(`--plugin-dir: the local build of ${p.id} is refused: ${s.refused}`);
    const version = String((s.manifest as { version?: unknown }).version ?? "?");
    const hash = hashFileSet(embeddableFiles(s.origin));
    const same = hash === p.hash;
    log(oneLine(`plugin ${p.id}: the bundle embeds ${p.version} (sha256 ${p.hash}); running the local build ${version} from ${s.origin} (${same ? "the same code" : `different code, sha256 ${hash}`}${version !== p.version ? `, version ${p.version} -> ${version}` : ""})`));
    out.set(p.id, s);
  }
  for (const id of byId.keys()) if (!bundle.plugins.some((x) => x.id === id && x.source === "embedded")) log(oneLine(`warning: --plugin-dir: ${id} is not a plugin this bundle embeds (ignored)`));
  return out;
}

/** A value of a difference, short and on one line (it may be foreign text). */
function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? "(absent)" : oneLine(s.length > 80 ? `${s.slice(0, 77)}...` : s);
}

export async function bundleVerify(file: string | undefined, options: BundleCommandOptions, deps: BundleCommandDeps): Promise<number> {
  const { log } = io(deps);
  const r = await rerun(file, options, deps, "verify");
  if (typeof r === "number") return r;
  const done = finished(r);
  if (done.length < r.numbers.length) return verifyPart(r, done, log);
  const cmp = compareResults(r.bundle.results, r.results);
  if (cmp.identical) {
    log(`identical: all ${r.results.length} runs reproduce the bundle's results`);
    return 0;
  }
  const runs = new Set(cmp.differences.map((d) => d.run));
  log(`DIFFERENT: ${runs.has(-1) ? "the number of runs differs; " : ""}${[...runs].filter((x) => x >= 0).length} of ${r.bundle.results.length} runs differ`);
  logDifferences(r, cmp, (k) => k, log);
  return 1;
}

/**
 * A re-run the total budget stopped: the runs made (positions `done`) are compared with the
 * bundle's results for them; the bundle is not verified (exit 1) whatever they show.
 */
function verifyPart(r: Rerun, done: number[], log: (l: string) => void): number {
  const stored = done.filter((i) => i < r.bundle.results.length);
  const cmp = compareResults(stored.map((i) => r.bundle.results[i]!), stored.map((i) => r.results[i]!));
  const missing = done.length - stored.length;
  const notMade = `${r.numbers.length - done.length} of ${r.numbers.length} runs were not made (the total budget ran out), so the bundle is not verified`;
  const differ = new Set(cmp.differences.map((d) => d.run)).size + missing;
  if (!differ) log(`not verified: the ${done.length} runs made reproduce the bundle's results; ${notMade}`);
  else log(`DIFFERENT: ${differ} of the ${done.length} runs made differ from the bundle's results${missing ? ` (${missing} have no result in the bundle)` : ""}; ${notMade}`);
  logDifferences(r, cmp, (k) => stored[k]!, log);
  return 1;
}

/** The differences found, one line each; `position(k)` maps a compared run to its place in the re-run. */
function logDifferences(r: Rerun, cmp: ReturnType<typeof compareResults>, position: (k: number) => number, log: (l: string) => void): void {
  for (const d of cmp.differences) {
    const i = d.run < 0 ? -1 : position(d.run);
    const where = i < 0 ? "runs" : `run ${r.numbers[i] ?? i + 1} (${runLabel(shown(r.bundle.results[i]!))})`;
    log(`  ${where} ${oneLine(d.path)}: bundle ${show(d.expected)}, now ${show(d.actual)}`);
  }
  if (cmp.truncated) log("  (more differences not shown)");
}

export async function bundleRun(file: string | undefined, options: BundleCommandOptions, deps: BundleCommandDeps): Promise<number> {
  const { log } = io(deps);
  const out = options.out ?? options.o;
  const outOpts = outputOptions(options, file ? [file] : []);
  if (typeof out === "string" && out) checkOutputTarget(out, outOpts); // before the re-runs
  const r = await rerun(file, options, deps, "run");
  if (typeof r === "number") return r;
  shown(r.results).forEach((res, i) => {
    const n = r.numbers[i] ?? i + 1;
    for (const m of res.metrics) log(`  run ${n} ${unitText(m.name)}: ${fmt(m.value)} ${unitText(m.unit)}`);
    for (const f of res.findings) log(`  run ${n} ${f.severity} ${f.kind}: ${withSignalNames(f.message)}`);
  });
  if (typeof out === "string" && out) {
    writeOutputFile(out, out.toLowerCase().endsWith(".csv") ? toCsv(shown(r.results)) : jsonText(r.results), outOpts);
    log(`wrote ${out}`);
  }
  return r.results.some((x) => x.error) ? 1 : 0;
}

/**
 * Joins the parts of a sharded experiment (bundle export --shard i/n) into the bundle the unsharded
 * export would have written; refuses parts of different experiments, overlapping parts and gaps.
 */
export function bundleMerge(files: string[], options: BundleCommandOptions, deps: BundleCommandDeps): number {
  const { log } = io(deps);
  const out = options.out ?? options.o;
  if (!files.length) throw new UsageError("bundle merge: name the parts to join (e.g. bundle merge part-*.siglab -o all.siglab)");
  if (typeof out !== "string" || !out) throw new UsageError("bundle merge: -o <file> is required");
  const outOpts = outputOptions(options, files);
  checkOutputTarget(out, outOpts); // before reading the parts; the write checks again
  const { bytes, bundle } = mergeBundles(
    files.map((f) => ({ fileName: f, bytes: bundleFileBytes(f) })),
    { fileName: out },
  );
  writeOutputFile(out, bytes, outOpts);
  const failed = bundle.results.filter((r) => r.error).length;
  log(`wrote ${out}: ${files.length} part${files.length === 1 ? "" : "s"} joined, ${bundle.results.length} runs${failed ? ` (${failed} failed)` : ""}, ${bytes.length} bytes`);
  return 0;
}

export function exportFromBundle(format: string | undefined, file: string | undefined, options: BundleCommandOptions, deps: BundleCommandDeps): number {
  const { log } = io(deps);
  if (format !== "csv" && format !== "trace") {
    const hint = format ? didYouMean(format, EXPORT_FORMATS.map((f) => ({ id: f.id, aliases: f.aliases }))).trim() : "";
    throw new UsageError(`export: format must be csv or trace (got ${format ?? "nothing"}${hint ? `; ${hint}` : ""})`);
  }
  if (!file) throw new UsageError(`export ${format}: name a bundle file`);
  const out = options.out ?? options.o;
  const outOpts = outputOptions(options, [file]);
  if (typeof out === "string" && out) checkOutputTarget(out, outOpts);
  const b = openBundleFile(file);
  if (format === "trace" && hasNoTimeline(b.results)) {
    // an empty trace would open as a blank screen: say what to do instead of writing one
    io(deps).error(`siglab export trace: ${file}: no run recorded a timeline; export the bundle with --timeline`);
    return 1;
  }
  if (format === "trace") for (const line of truncatedTimelines(shown(b.results))) io(deps).error(`siglab export trace: ${file}: ${line} (the timeline is bounded; the trace says so too)`);
  // CSV cells are one-line fields; JSON escapes controls itself (and the rest below)
  const text = format === "csv" ? toCsv(shown(b.results)) : jsonText(toPerfettoTrace(b.results), 0);
  if (typeof out === "string" && out) {
    writeOutputFile(out, text, outOpts);
    log(`wrote ${out}`);
  } else {
    log(text.replace(/\r?\n$/, ""));
  }
  return 0;
}

/**
 * JSON for a file or the terminal: JSON.stringify escapes C0 controls; the C1 controls, bidirectional
 * and separator characters it leaves raw are escaped too (the same JSON value).
 */
function jsonText(v: unknown, indent = 2): string {
  return escapeControls(JSON.stringify(v, null, indent), { block: true }) + "\n";
}

/** Maps errors to messages and exit codes: refusals name the file and the problem. */
export async function guarded(deps: BundleCommandDeps, what: string, f: () => Promise<number> | number): Promise<number> {
  try {
    return await f();
  } catch (e) {
    const { error } = io(deps);
    if (e instanceof OutputRefusal) {
      error(`siglab ${what}: ${oneLine(e.message)}`); // "<file>: <reason>"
      return 2;
    }
    if (e instanceof BundleError) {
      error(`siglab ${what}: refused: ${oneLine(e.message)}`);
      return 2;
    }
    // bad arguments, also as reported by the run-argument parser and the workload compiler
    if (e instanceof UsageError || ["UsageError", "CompileError", "CpuRefError", "ExperimentSizeError", "PluginFolderError"].includes((e as { constructor?: { name?: string } } | null)?.constructor?.name ?? "")) {
      error(`siglab ${what}: ${oneLine((e as Error).message)}`);
      return 2;
    }
    error(`siglab ${what}: ${oneLine(String((e as Error)?.message ?? e))}`);
    return 1;
  }
}

const LIMITS = ["maxSeconds", "maxMemory", "maxRuns", "maxSteps", "maxCycles", "verbose"];
/** verify and run re-run somebody else's experiment: their total host time is bounded */
const RERUN = ["trustEmbedded", "pluginDir", "jobs", "maxTotalSeconds", ...LIMITS];
/** What each action reads; any other option given is an error (never silently ignored). */
const ACTION_OPTIONS: Record<string, string[] | "run-options"> = {
  export: "run-options",
  info: [],
  verify: RERUN,
  run: [...RERUN, "out", "o", "force"],
  merge: ["out", "o", "force"],
};

function refuseIgnoredOptions(action: string, options: BundleCommandOptions, cmd: Command): void {
  const allowed = ACTION_OPTIONS[action];
  if (!allowed) return; // the action itself is refused with the list of actions
  const declared = new Set(cmd.options.flatMap((o) => o.names));
  for (const [key, v] of Object.entries(options)) {
    if (key === "--" || key === "quiet" || v === undefined) continue; // --quiet is every command's
    if (allowed === "run-options" ? declared.has(key) : allowed.includes(key)) continue;
    const flag = key.length === 1 ? `-${key}` : `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new UsageError(`${flag} has no effect on bundle ${action} (options of bundle ${action}: ${allowed === "run-options" ? "those of siglab run, -o, --chart, --force" : allowed.length ? allowed.map((k) => (k.length === 1 ? `-${k}` : `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)).join(", ") : "none"})`);
  }
}

export function registerBundleCommands(cli: CAC, deps: BundleCommandDeps): void {
  let bundle = cli
    .command("bundle <action> [...args]", "Experiment bundles: export <workload> [run options] -o file | info <file> | verify <file> | run <file> | merge <parts...> -o file")
    .option("-o, --out <file>", "export/merge: the bundle file to write; run: write the new results (.json, or .csv)")
    .option("--chart <file>", "export: add a chart (.svg/.png) to the bundle (repeatable)")
    .option("--trust-embedded", "verify/run: allow the bundle's third-party plugin code (runs only in the sandbox); remembered per content hash")
    .option("--force", "export/run/merge: replace an existing -o file (never an input of the command)")
    .option("--max-total-seconds <s>", `verify/run: stop re-running after s seconds of host time in all (default ${BUNDLE_SECONDS_PER_RUN} s per run of the bundle, at least one run's --max-seconds, at most ${BUNDLE_MAX_TOTAL_SECONDS.toLocaleString("en")} s)`)
    .example("siglab bundle export lat_sig_catch --param iterations=400 --baseline --variant sa-nofp:forceAll=true --timeline -o x.siglab")
    .example("siglab bundle verify x.siglab")
    .example("siglab bundle export aio_ring --variant aio --sweep batch=1,4,16,32 --shard 2/4 -o part-2.siglab")
    .example("siglab bundle merge part-*.siglab -o all.siglab");
  if (deps.addRunOptions) bundle = deps.addRunOptions(bundle);
  bundle.action(async (action: string, args: string[], options: BundleCommandOptions) => {
    const what = `bundle ${action}`;
    process.exitCode = await guarded(deps, what, () => {
      refuseIgnoredOptions(action, options, bundle);
      deps.configure?.(options);
      switch (action) {
        case "export":
          return bundleExport(args[0], options, deps);
        case "info":
          return bundleInfo(args[0], deps);
        case "verify":
          return bundleVerify(args[0], options, deps);
        case "run":
          return bundleRun(args[0], options, deps);
        case "merge":
          return bundleMerge(args, options, deps);
        default:
          throw new UsageError(`unknown action "${action}" (${didYouMean(action, Object.keys(ACTION_OPTIONS))}export, info, verify, run or merge)`);
      }
    });
  });

  cli
    .command("export <format> <bundle>", `Export a bundle's results: ${EXPORT_FORMATS.map((f) => f.id).join(" or ")} (see the examples)`)
    .option("-o, --out <file>", "output file (default: standard output)")
    .option("--force", "replace an existing -o file (never the bundle read)")
    // the formats, one command line each, with what it writes
    .example(`siglab export csv x.siglab -o x.csv           # csv: ${EXPORT_FORMATS[0]!.what}`)
    .example(`siglab export trace x.siglab -o trace.json    # trace: ${EXPORT_FORMATS[1]!.what}`)
    .action(async (format: string, file: string, options: BundleCommandOptions) => {
      process.exitCode = await guarded(deps, `export ${format}`, () => exportFromBundle(format, file, options, deps));
    });
}
