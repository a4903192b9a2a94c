/**
 * `siglab run <example-id | path.ts> [--cpu id[@MHz]]... [--variant id[:k=v,...]]... [--preset name]
 *   [--param k=v]... [--sweep k=v1,v2,...] [--seed N] [--timeline] [--json] [--plugin-dir DIR]...
 *   [--jobs N] [--shard i/n]`
 */
import type { CAC, Command } from "cac";
import { checkExperimentSize, DEFAULT_MAX_RUNS, expandExperiment, repeatSeeds, summarizeRepeats, type ExperimentConfig, type RepeatedRun, type RunResult, type VariantSpec, type ParamValue, type WorkloadRef } from "@siglab/core";
import { parseCpuRef, type CpuProfileFile } from "@siglab/cpu-profiles";
import { allProfiles, resolveWorkload, runnableProfiles, unknownProfile, UsageError, workloadTitle } from "../catalog.js";
import { differingParams, fmt, formatPaths, formatRun, formatSweepSummary, formatTimeline, timelineCutLines, unitText } from "../format.js";
import { typecheckWorkload, CompileError } from "../run/compile.js";
import { configureHost, runInSandbox } from "../run/host.js";
import { paramValue } from "@siglab/core/common";
import { hostLimitsFrom, LIMIT_OPTIONS, parseNumberOption, parseSeed } from "../run/limits.js";
import { pluginExamples } from "../plugins/catalog.js";
import { checkStacks, presetStack } from "../run/check-stacks.js";
import { didYouMean } from "../suggest.js";
import { parseJobs, parseShard, selectShard, shardDescription, type Shard } from "../run/parallel.js";
import { oneLine, shown } from "../terminal.js";
import { plainGrouped } from "../numbers.js";
import { cachedWhenAll, inspectWorkload, markCachedText, NO_CACHE_OPTION, resultCacheWanted, runThroughCache } from "../cache/results.js";
import type { CachedRunResult } from "@siglab/core/cache";
import { manifestLookup, variantNoticeLines } from "../run/variant-notices.js";

export const DEFAULT_CPU = "p4-northwood";

function list(v: unknown): string[] {
  if (v === undefined || v === null || v === false) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** "sa-nofp:forceAll=true,x=1" -> { id, options } */
export function parseVariant(s: string): VariantSpec {
  const [id, opts] = s.split(/:(.*)/s) as [string, string | undefined];
  if (!id) throw new UsageError(`--variant: empty plugin id in '${s}'`);
  const options: Record<string, ParamValue> = {};
  if (opts) {
    for (const kv of opts.split(",")) {
      const [k, v] = kv.split("=");
      if (!k || v === undefined) throw new UsageError(`--variant ${s}: expected key=value, got '${kv}'`);
      options[k] = v;
    }
  }
  return Object.keys(options).length ? { id, options } : { id };
}

function parseParam(s: string): [string, ParamValue] {
  const i = s.indexOf("=");
  if (i <= 0) throw new UsageError(`--param: expected key=value, got '${s}'`);
  const k = s.slice(0, i), v = s.slice(i + 1);
  if (v.trim() === "") throw new UsageError(`--param ${s}: no value after '='`);
  return [k, v === "true" ? true : v === "false" ? false : v !== "" && Number.isFinite(Number(v)) ? Number(v) : v];
}

export interface ResolvedRunArgs {
  experiment: ExperimentConfig;
  profiles: CpuProfileFile[];
  pluginDirs?: string[];
  /** --max-runs, when given */
  maxRuns?: number;
}

export function addRunOptions(cmd: Command): Command {
  cmd
    .option("--cpu <id@MHz>", `CPU profile and clock (repeatable; default ${DEFAULT_CPU})`)
    .option("--variant <id[:k=v,...]>", "plugin in the variant stack (repeatable, in order)")
    .option("--preset <name>", "a named variant stack (repeatable: each is one stack)")
    .option("--baseline", "also run the baseline stack next to the variants")
    .option("--param <k=v>", "workload parameter (repeatable)")
    .option("--sweep <k=v1,v2,...>", "sweep one parameter over values")
    .option("--seed <n>", "seed of the run (default 1)")
    .option("--profile-file <file>", "a CPU profile of your own (repeatable; the user profiles folder $SIGLAB_HOME/profiles is always read)")
    .option("--smp <n>", "CPUs of the machine: 1 (default) runs the UP kernel, 2-8 the 2.4 SMP kernel (docs/smp.md)")
    .option("--timeline", "record a bounded per-task timeline (text: a compact timeline per task; --json: every event)")
    .option("--timeline-limit <n>", `the most timeline events a run records, 1 to 10,000,000 (default ${plainGrouped(TIMELINE_LIMIT_DEFAULT)}; implies --timeline)`)
    .option("--plugin-dir <dir>", "third-party plugin folder (repeatable)");
  for (const [flag, help] of LIMIT_OPTIONS) cmd.option(flag, help);
  return cmd
    .option("--jobs <n>", "the most runs at a time, each in an execution host of its own (default: the number of cores); siglab run starts another host only while the runs left would take more than twice its start and warm-up per host running (docs/scale-out.md)")
    .option("--shard <i/n>", "run only the i-th of n round-robin slices of the runs (1 <= i <= n; docs/scale-out.md)")
    .option("--typecheck", "type-check the workload against the API before running (default for files)")
    .option("--inspect <path>", "print a kernel path op by op (a path name, or 'top' for the five costliest)")
    .option("--json", "print one JSON document");
}

export async function resolveRunArgs(workloadArg: string, o: Record<string, unknown>): Promise<ResolvedRunArgs> {
  const pluginDirs = list(o["pluginDir"]);
  // a plugin folder refused is named, whether or not a run uses it (one that does fails with the reason)
  const workload = resolveWorkload(workloadArg, await pluginExamples(pluginDirs, (reason) => console.error(`siglab: plugin folder refused: ${oneLine(reason)}`)));
  const profiles = await allProfiles(list(o["profileFile"]));
  const cpuArgs = list(o["cpu"]);
  // the stacks first: an unknown CPU id may be one a plugin of theirs contributes
  const stacks: VariantSpec[][] = list(o["preset"]).map((name) => presetStack(name, pluginDirs));
  const variants = list(o["variant"]).map(parseVariant);
  if (variants.length) stacks.push(variants);
  if (!stacks.length || o["baseline"]) stacks.unshift([]);
  const manifests = checkStacks(stacks, pluginDirs);
  const cpuFromPlugin = [...manifests.values()].some((m) => m.contributes.includes("CpuProfileContribution"));
  const smp = parseSmp(o["smp"]);
  const cpus = (cpuArgs.length ? cpuArgs : [DEFAULT_CPU]).map((c) => withSmp(cpuOf(c), smp));
  function cpuOf(c: string): { id: string; mhz: number } {
    const ref = parseCpuRef(c);
    const p = profiles.find((x) => x.id === ref.id);
    // a plugin of the stack may contribute it: the run resolves it once the plugins are loaded
    if (!p && cpuFromPlugin) return { id: ref.id, mhz: ref.mhz ?? 0 };
    if (!p) throw new UsageError(`${unknownProfile(ref.id, profiles)}; a plugin may contribute others: name it with --variant)`);
    const mhz = ref.mhz ?? p.clock.defaultMhz;
    if (mhz < p.clock.minMhz || mhz > p.clock.maxMhz) throw new UsageError(`${p.id}: ${mhz} MHz is outside the profile's range ${p.clock.minMhz}-${p.clock.maxMhz} MHz`);
    return { id: p.id, mhz };
  }
  const params: Record<string, ParamValue> = {};
  for (const p of list(o["param"])) {
    const [k, v] = parseParam(p);
    params[k] = v;
  }
  let sweep: ExperimentConfig["sweep"];
  if (o["sweep"]) {
    const s = String(o["sweep"]);
    const i = s.indexOf("=");
    if (i <= 0) throw new UsageError(`--sweep: expected key=v1,v2,..., got '${s}'`);
    const items = s.slice(i + 1).split(",");
    const empty = items.findIndex((v) => v.trim() === "");
    if (empty >= 0) throw new UsageError(`--sweep ${s}: value ${empty + 1} of ${items.length} is empty (expected key=v1,v2,...)`);
    sweep = { param: s.slice(0, i), values: items.map((v) => parseParam(`x=${v}`)[1]) };
  }
  const seed = parseSeed(o["seed"]);
  const limits = hostLimitsFrom(o);
  if ((o["typecheck"] || workload.file !== `examples/${workload.id}.ts`) && !workload.file.startsWith("examples/")) {
    typecheckWorkload(workload.source, workload.file);
  }
  const experiment: ExperimentConfig = { workload, cpus, stacks, params, seed };
  // steps and cycles shape the results, so the experiment records them (a bundle re-runs with them)
  const budget: NonNullable<ExperimentConfig["budget"]> = {};
  if (limits.maxSteps !== undefined) budget.maxSteps = limits.maxSteps;
  if (limits.maxCycles !== undefined) budget.maxCycles = limits.maxCycles;
  if (Object.keys(budget).length) experiment.budget = budget;
  if (sweep) experiment.sweep = sweep;
  const timelineLimit = parseTimelineLimit(o["timelineLimit"]);
  if (o["timeline"] || timelineLimit !== undefined) experiment.timeline = true;
  if (timelineLimit !== undefined) experiment.timelineLimit = timelineLimit;
  checkExperimentSize(experiment, limits.maxRuns);
  configureHost({ limits, verbose: o["verbose"] === true });
  if (Object.keys(params).length || sweep) await checkParams(workload, params, sweep);
  return { experiment, profiles: profiles.filter((p) => cpus.some((c) => c.id === p.id)), pluginDirs, maxRuns: limits.maxRuns };
}

/**
 * --param and --sweep against the workload's parameters (their defaults give type and range),
 * before any run starts: one usage error instead of a failed run per value. A workload whose
 * parameters cannot be read (it fails at its top level) is left to its runs to report.
 */
async function checkParams(workload: WorkloadRef, params: Record<string, ParamValue>, sweep: ExperimentConfig["sweep"]): Promise<void> {
  let declared: Record<string, ParamValue>;
  try {
    declared = (await inspectWorkload(workload.file, workload.source)).params;
  } catch {
    return;
  }
  const names = Object.keys(declared).join(", ") || "none";
  const given: [flag: string, key: string, value: ParamValue][] = [...Object.entries(params).map(([k, v]) => ["--param", k, v] as [string, string, ParamValue]), ...(sweep ? sweep.values.map((v) => ["--sweep", sweep.param, v] as [string, string, ParamValue]) : [])];
  for (const [flag, key, value] of given) {
    if (!Object.prototype.hasOwnProperty.call(declared, key)) throw new UsageError(`${flag} ${key}: ${workload.file} has no parameter '${key}' (${didYouMean(key, Object.keys(declared))}parameters: ${names})`);
    const checked = paramValue(workload.file, key, declared[key]!, value);
    if ("problem" in checked) throw new UsageError(`${flag} ${key}=${String(value)}: ${checked.problem}`);
  }
}

/** The core's default bound of a timeline (RunSpec.timelineLimit). */
export const TIMELINE_LIMIT_DEFAULT = 20_000;
const TIMELINE_LIMIT_MAX = 10_000_000;

/** --timeline-limit N: an integer from 1 to 10,000,000 (digit groups with , or _ are accepted). */
export function parseTimelineLimit(v: unknown): number | undefined {
  if (v === undefined || v === false) return undefined;
  const s = String(v).trim();
  const n = /^\d{1,3}([,_]\d{3})+$/.test(s) ? Number(s.replace(/[,_]/g, "")) : /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > TIMELINE_LIMIT_MAX) {
    throw new UsageError(`--timeline-limit: expected a whole number of timeline events from 1 to 10,000,000 (a timeline is held in memory: about 100 bytes an event), got '${v === true ? "" : s}'`);
  }
  return n;
}

/** --smp N: the machine's CPUs, 1 to 8 (1 runs the UP kernel). */
export function parseSmp(v: unknown): number {
  return v === undefined ? 1 : parseNumberOption("--smp", v, { min: 1, max: 8, integer: true, what: "an integer", note: "CPUs of the machine" });
}

/** A CPU reference with the machine's CPU count (left out for one CPU, as before SMP existed). */
function withSmp(c: { id: string; mhz: number }, smp: number): { id: string; mhz: number; smp?: number } {
  return smp > 1 ? { ...c, smp } : c;
}

/** --repeat N: an integer from 1 to 1000 (each repetition is a run of its own). */
export function parseRepeat(v: unknown): number {
  return v === undefined ? 1 : parseNumberOption("--repeat", v, { min: 1, max: 1000, integer: true, what: "an integer" });
}

/** What a command knows of its runs before the first starts (to print as they finish). */
export interface RunPlan {
  /** the workload's own name, when it has one */
  title?: string;
  /** the parameters whose values differ between the runs (a sweep's) */
  swept: string[];
  total: number;
  shard?: Shard;
}

export interface SliceOptions {
  repeat?: number;
  /** once everything is resolved and validated, before any run starts */
  onPlan?(plan: RunPlan): void;
  /** each result (a repeated run's summary) in run order, as soon as it and those before it are done */
  onResult?(position: number, r: CachedRunResult): void;
}

/**
 * The runs of `siglab run`'s arguments (the --shard slice of them), --jobs at a time, in run order.
 * With `repeat` > 1 each run is made `repeat` times with seeds seed, seed+1, ... (each puts the
 * timer ticks at another phase) and summarised: every metric's min, median and max, the median
 * as its value (lmbench reports the median of its 11 repetitions).
 */
export async function runExperimentSlice(workloadArg: string, o: Record<string, unknown>, opts: SliceOptions | number = {}): Promise<{ results: CachedRunResult[]; total: number; shard?: Shard; title?: string }> {
  const { repeat = 1, onPlan, onResult } = typeof opts === "number" ? { repeat: opts } : opts;
  // bad --jobs/--shard fail before anything is resolved or started
  const jobs = parseJobs(o["jobs"]);
  const shard = parseShard(o["shard"]);
  const { experiment, pluginDirs, maxRuns, profiles } = await resolveRunArgs(workloadArg, o);
  // the user's own profiles go to the host with the runs (built-in ones it has)
  const builtin = new Set(runnableProfiles().map((p) => p.id));
  const own = profiles.filter((p) => !builtin.has(p.id));
  const specs = expandExperiment(experiment, maxRuns);
  const cap = maxRuns ?? DEFAULT_MAX_RUNS;
  if (specs.length * repeat > cap) throw new UsageError(`--repeat ${repeat} makes ${specs.length * repeat} runs, more than --max-runs (${cap})`);
  const picked = selectShard(specs.length, shard).map((k) => specs[k]!);
  const all = picked.flatMap((spec) => repeatSeeds(spec.seed, repeat).map((seed) => ({ ...spec, seed })));
  const sandbox = { pluginDirs: pluginDirs ?? [], ...(own.length ? { profiles: own } : {}) };
  const title = workloadTitle(experiment.workload);
  onPlan?.({ swept: differingParams(picked), total: specs.length, ...(shard ? { shard } : {}), ...(title ? { title } : {}) });
  // every result comes through onResult, in run order; a repeated run is summarised once its
  // last repetition is in
  const summaries: CachedRunResult[] = [];
  const reps: CachedRunResult[] = [];
  const runs = await runThroughCache(all, (spec) => runInSandbox(spec, sandbox), {
    jobs,
    cache: resultCacheWanted(o),
    sandbox,
    onResult: (position, r) => {
      if (repeat === 1) return onResult?.(position, r);
      reps.push(r);
      if (reps.length < repeat) return;
      const group = reps.splice(0);
      summaries.push(cachedWhenAll(summarizeRepeats(group), group));
      onResult?.(summaries.length - 1, summaries.at(-1)!);
    },
  });
  const results = repeat === 1 ? runs : summaries;
  return { results, total: specs.length, ...(shard ? { shard } : {}), ...(title ? { title } : {}) };
}

/** min / median / max of each metric of a repeated run. */
function formatRepeat(r: RepeatedRun): string {
  const rows = r.metrics.map((m) => `   ${m.name.padEnd(28)} ${fmt(m.min).padStart(12)} ${fmt(m.median).padStart(12)} ${fmt(m.max).padStart(12)}  ${unitText(m.unit)}`);
  return [`   over ${r.repeat.n} repetitions (seeds ${r.repeat.seeds[0]}..${r.repeat.seeds.at(-1)}): ${"min".padStart(13)} ${"median".padStart(12)} ${"max".padStart(12)}`, ...rows].join("\n");
}

export async function runExperimentArgs(workloadArg: string, o: Record<string, unknown>): Promise<RunResult[]> {
  return (await runExperimentSlice(workloadArg, o)).results;
}

export function registerRunCommand(cli: CAC): void {
  addRunOptions(cli.command("run <workload>", "Run a workload (example id or .ts file) on CPUs x variant stacks"))
    .option("--repeat <n>", "make each run n times with seeds seed..seed+n-1 (the timer tick's phase) and report min, median and max")
    .option(...NO_CACHE_OPTION)
    .example("siglab run lat_sig_catch --cpu p4-northwood@2200 --cpu p6-coppermine@1000   # one example on two CPUs")
    .example("siglab run sa_nofp_hazard --baseline --variant sa-nofp                     # a variant beside the baseline, with its findings")
    .example("siglab run lat_syscall --cpu p6-coppermine@1000 --preset linux-2.4.18 --preset linux-2.5.53   # int $0x80 vs SYSENTER")
    .example("siglab run aio_ring --variant aio --sweep batch=1,4,16,32 --json             # a sweep as one JSON document")
    .example("siglab run ./my_workload.ts --cpu k7-palomino@1400                          # your own workload (siglab list: examples, CPUs, plugins, presets)")
    .action(async (workload: string, o: Record<string, unknown>) => {
    try {
      const repeat = parseRepeat(o["repeat"]);
      const json = o["json"] === true;
      const manifestOf = manifestLookup(list(o["pluginDir"]));
      let plan: RunPlan | undefined;
      // text: each run's block as soon as it and the runs before it are done; --json: one document at the end
      const run = await runExperimentSlice(workload, o, {
        repeat,
        onPlan: (p) => {
          plan = p;
          if (!json && p.shard) console.log(shardDescription(p.total, p.shard).text + "\n");
        },
        ...(json ? {} : { onResult: (_: number, r: CachedRunResult) => console.log(runText(textOf(r, o["inspect"] !== undefined || r.variants.length > 0), plan!, repeat, o, manifestOf) + "\n") }),
      });
      const part = run.shard ? shardDescription(run.total, run.shard) : undefined;
      if (json) process.stdout.write(JSON.stringify(part ? { shard: part.json, runs: run.results } : { runs: run.results }, null, 2) + "\n");
      // text: every string of the results (names, messages, labels) escaped as a one-line field
      const results = json ? run.results : run.results.map((r) => textOf(r, false));
      if (!json && results.length > 1) console.log(formatSweepSummary(results));
      for (const line of timelineCutLines(results)) console.error(`siglab run: ${line}`);
      process.exitCode = results.some((r) => r.error) ? 1 : 0;
    } catch (e) {
      reportCliError(e);
    }
  });
}

/**
 * A result as text output reads it, every string escaped (terminal.ts). Its per-path statistics
 * (most of a result) only when the text shows them (--inspect) or a variant's notice reads them:
 * a stored result then never decodes them (cache/run-cache.ts), nor is their copy made.
 */
function textOf(r: CachedRunResult, withPaths: boolean): CachedRunResult {
  if (withPaths) return shown(r);
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(r)) if (k !== "paths") rest[k] = (r as unknown as Record<string, unknown>)[k];
  return { ...shown(rest), paths: [] } as unknown as CachedRunResult;
}

/** One run's text block: its results, then the repetitions, --inspect and --timeline asked for. */
function runText(r: CachedRunResult, plan: RunPlan, repeat: number, o: Record<string, unknown>, manifestOf: Parameters<typeof variantNoticeLines>[1]): string {
  const title = plan.title === undefined ? undefined : oneLine(plan.title);
  // a variant that changed nothing in this run says so, under its findings
  const parts = [markCachedText(formatRun(r, { sweep: plan.swept, ...(title ? { title } : {}) }), r), ...variantNoticeLines(r, manifestOf)];
  if (repeat > 1) parts.push(formatRepeat(r as RepeatedRun));
  if (o["inspect"]) parts.push(formatPaths(r, String(o["inspect"])));
  if (r.timeline) parts.push(formatTimeline(r, process.stdout.columns ? Math.max(60, process.stdout.columns) : 100));
  return parts.join("\n");
}

export function reportCliError(e: unknown): void {
  if (e instanceof UsageError || e instanceof CompileError) {
    console.error(`siglab: ${oneLine(e.message)}`);
    process.exitCode = 2;
  } else {
    console.error(`siglab: ${oneLine(String((e as Error)?.message ?? e))}`);
    process.exitCode = 2;
  }
}
