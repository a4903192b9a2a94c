/**
 * `siglab suite examples [--cpu id@MHz] [--json] [--jobs N] [--shard i/n]`: every shipped example on
 * the default profile, with a summary. Other suites (uml, calibration, predictions) register here.
 */
import type { CAC } from "cac";
import { EXAMPLES, type RunSpec, type VariantSpec } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { parseCpuRef } from "@siglab/cpu-profiles";
import { runnableProfiles, unknownProfile, UsageError } from "../catalog.js";
import { didYouMean } from "../suggest.js";
import { configureHost, runInSandbox, stopSandbox } from "../run/host.js";
import { hostLimitsFrom, LIMIT_OPTIONS } from "../run/limits.js";
import { parseJobs, parseShard, selectShard, shardDescription } from "../run/parallel.js";
import { NO_CACHE_OPTION, resultCacheWanted, runThroughCache } from "../cache/results.js";
import { DEFAULT_CPU, reportCliError } from "./run.js";
import { shown } from "../terminal.js";
import { fmt, unitText } from "../format.js";
import type { CachedRunResult } from "@siglab/core/cache";

export type SuiteRunner = (name: string, o: Record<string, unknown>) => Promise<number>;
const suites: Record<string, SuiteRunner> = {
  examples: runExamplesSuite,
};
/** what each suite does, for --help (a command line each) */
const about: Record<string, string> = { examples: "every shipped example on the default CPU (--cpu for another)" };
/** suites that run their runs --jobs at a time and take --shard */
const parallel = new Set(["examples"]);

/**
 * Other suites (uml, calibration, predictions) register here. `parallel`: the suite reads --jobs
 * and --shard itself; for the others either option is refused rather than silently ignored.
 */
export function registerSuite(name: string, run: SuiteRunner, opts: { parallel?: boolean; about?: string } = {}): void {
  suites[name] = run;
  if (opts.about) about[name] = opts.about;
  if (opts.parallel) parallel.add(name);
  else parallel.delete(name);
}

/** An example's own CPU (its profile's default clock unless it names one). */
function exampleCpu(c: { id: string; mhz?: number } | undefined): { id: string; mhz: number } | undefined {
  if (!c) return undefined;
  const p = runnableProfiles().find((x) => x.id === c.id);
  return p ? { id: p.id, mhz: c.mhz || p.clock.defaultMhz } : undefined;
}

async function runExamplesSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const ref = parseCpuRef(String(o["cpu"] ?? DEFAULT_CPU));
  const p = runnableProfiles().find((x) => x.id === ref.id);
  if (!p) throw new UsageError(`${unknownProfile(ref.id, runnableProfiles())})`);
  const cpu = { id: p.id, mhz: ref.mhz ?? p.clock.defaultMhz };
  const jobs = parseJobs(o["jobs"]);
  const shard = parseShard(o["shard"]);
  // the core's examples on the baseline; the built-in plugins' examples with the stack they need
  // (an example made for another CPU, e.g. linux6's long-mode ones, runs on that CPU)
  const shipped = [...EXAMPLES.map((e) => ({ ...e, variants: [] as VariantSpec[], cpu })), ...BUILTIN_PLUGINS.flatMap((p) => (p.examples ?? []).map((e) => ({ ...e, variants: e.suggestedVariants ?? [], cpu: exampleCpu(e.suggestedCpu) ?? cpu })))];
  const picked = selectShard(shipped.length, shard).map((k) => shipped[k]!);
  const specs: RunSpec[] = picked.map((e) => ({ workload: { id: e.id, file: e.file, source: e.source }, cpu: e.cpu, variants: e.variants, params: {}, seed: 1 }));
  const part = shard ? shardDescription(shipped.length, shard) : undefined;
  const json = o["json"] === true;
  if (!json) console.log(`SigLab examples on ${cpu.id}@${cpu.mhz} MHz, Linux 2.4.18 (i386) baseline unless a [plugin] is named${part ? `; ${part.text}` : ""}\n`);
  // text: each example's line as soon as it and those before it are done
  const line = (_: number, res: CachedRunResult): void => {
    // escaped: only what the line shows (a whole result, its paths and counters, is ~100 times more)
    const m = res.metrics[0];
    const r = shown({ workload: res.workload, variants: res.variants.map((x) => x.id), cpu: res.cpu.id, head: m && { name: m.name, value: m.value, unit: m.unit }, error: res.error && { kind: res.error.kind, message: res.error.message }, findings: res.findings.length, cached: res.cached === true });
    const head = r.head;
    const status = r.error ? `ERROR ${r.error.kind}: ${r.error.message}` : `${r.findings} finding(s)${r.cached ? ", cached" : ""}`;
    const v = (r.variants.length ? ` [${r.variants.join("+")}]` : "") + (r.cpu !== cpu.id ? ` on ${r.cpu}` : "");
    console.log(`  ${(r.workload + v).padEnd(24)} ${head ? `${head.name} = ${fmt(head.value)} ${unitText(head.unit)}` : "(no metric)"}`.padEnd(70) + `  ${status}`);
  };
  const results = await runThroughCache(specs, (spec) => runInSandbox(spec), { jobs, cache: resultCacheWanted(o), sandbox: {}, ...(json ? {} : { onResult: line }) });
  if (json) process.stdout.write(JSON.stringify(part ? { shard: part.json, runs: results } : { runs: results }, null, 2) + "\n");
  return results.some((r) => r.error) ? 1 : 0;
}

export function registerSuiteCommand(cli: CAC): void {
  const cmd = cli
    .command("suite <name>", `Run a suite: ${Object.keys(suites).join(", ")} (more with plugins/calibration)`)
    .option("--cpu <id@MHz>", "CPU for the examples suite")
    .option("--json", "print JSON")
    .option("--jobs <n>", "examples suite: the most runs at a time, each in an execution host of its own (default: the number of cores); another host starts only when it pays (docs/scale-out.md)")
    .option("--shard <i/n>", "examples suite: run only the i-th of n round-robin slices of its runs")
    .option(NO_CACHE_OPTION[0], `examples suite: ${NO_CACHE_OPTION[1]}`)
    .option("--loo", "calibration suite: also predict each target by a fit that left it out (leave-one-out)")
    .option("--profile-file <file>", "host suite: a CPU profile of your own to compare (with --cpu)")
    .option("--probe <file>", "host suite: this machine's figures from `siglab probe --json` (default: run the probe)")
    .option("--kernel-defaults", "host suite: simulate the mitigations linux-6 picks for the profile, not the ones the probe's kernel reports");
  // the suites, one command line each, with what it does
  const width = Math.max(...Object.keys(suites).map((n) => n.length));
  for (const name of Object.keys(suites)) cmd.example(`siglab suite ${name.padEnd(width)}   # ${about[name] ?? ""}`.trimEnd());
  for (const [flag, help] of LIMIT_OPTIONS) cmd.option(flag, help);
  cmd.action(async (name: string, o: Record<string, unknown>) => {
      try {
        configureHost({ limits: hostLimitsFrom(o), verbose: o["verbose"] === true });
        const s = suites[name];
        if (!s) throw new UsageError(`unknown suite '${name}' (${didYouMean(name, Object.keys(suites))}suites: ${Object.keys(suites).join(", ")})`);
        for (const flag of ["jobs", "shard"]) {
          if (o[flag] !== undefined && !parallel.has(name)) throw new UsageError(`--${flag} has no effect on suite ${name} (it runs its runs one after another; --jobs and --shard apply to suite ${[...parallel].join(", ")})`);
        }
        process.exitCode = await s(name, o);
      } catch (e) {
        reportCliError(e);
      } finally {
        stopSandbox();
      }
    });
}
