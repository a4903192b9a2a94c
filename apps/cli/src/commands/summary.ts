/**
 * `siglab summary [--cpu id[@MHz]]... [--variant id[:k=v,...]]... [--preset name]... [--baseline]
 *   [--smp n] [--seed n] [--jobs n] [--json] [--plot out.svg] [--plot-data out.csv|out.json] [--force]`
 *
 * The LMbench summary, as the app's LMbench tab: the five shipped lmbench ports on every CPU ×
 * variant stack, in µs, with the measured calibration figures beside the simulated ones, as a table
 * (or JSON), and the grouped bar chart of it at slide resolution (@siglab/core/figure, the same
 * renderer as the app's figure view) with the data behind it. Outputs follow output.ts's rules.
 */
import type { CAC } from "cac";
import type { RunResult } from "@siglab/core";
import { figureDataCsv, figureDataJson, formatUs, LMBENCH_BENCHMARKS, lmbenchFigure, measuredFor, renderBarFigure, shortCpuLabel, simulatedUs, stackLabel, type SummaryRow } from "@siglab/core/figure";
import { allProfiles, UsageError } from "../catalog.js";
import { checkOutputTarget, OutputRefusal, writeOutputFile } from "../output.js";
import { LIMIT_OPTIONS } from "../run/limits.js";
import { NO_CACHE_OPTION } from "../cache/results.js";
import { oneLine, shown } from "../terminal.js";
import { reportCliError, runExperimentSlice } from "./run.js";

/** The summary's runs: per benchmark (example id), one result per row, rows in run order. */
export interface SummaryRuns {
  rows: SummaryRow[];
  results: Record<string, RunResult[]>;
}

async function runSummary(o: Record<string, unknown>): Promise<SummaryRuns> {
  const results: Record<string, RunResult[]> = {};
  let rows: SummaryRow[] = [];
  for (const b of LMBENCH_BENCHMARKS) {
    const run = await runExperimentSlice(b.example, o);
    results[b.example] = run.results;
    if (!rows.length) rows = run.results.map((r) => ({ cpu: r.cpu, variants: r.variants }));
  }
  return { rows, results };
}

/** The table: a row per CPU · stack, per benchmark the simulated µs (and the measured, with the error, where known). */
export function formatSummaryTable(s: SummaryRuns, profiles: readonly { id: string; name?: string }[] = []): string {
  const head = ["CPU · variant stack", ...LMBENCH_BENCHMARKS.map((b) => `${b.name} (µs)`)];
  const body = s.rows.map((row, i) => [`${shortCpuLabel(row.cpu, profiles)} · ${stackLabel(row.variants)}`, ...LMBENCH_BENCHMARKS.map((b) => {
    const r = s.results[b.example]?.[i];
    if (r?.error) return "failed";
    const sim = simulatedUs(r, b);
    const m = measuredFor(row, b.example);
    if (sim === null) return "—";
    return m ? `${formatUs(sim)} (measured ${formatUs(m.us)})` : formatUs(sim);
  })]);
  const widths = head.map((_h, c) => Math.max(...[head, ...body].map((r) => r[c]!.length)));
  const line = (r: string[]): string => "   " + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  const failed = s.rows.flatMap((row, i) => LMBENCH_BENCHMARKS.flatMap((b) => {
    const e = s.results[b.example]?.[i]?.error;
    return e ? [`   ${b.example} on ${shortCpuLabel(row.cpu, profiles)} · ${stackLabel(row.variants)} failed: ${e.message}`] : [];
  }));
  const measured = s.rows.some((row) => LMBENCH_BENCHMARKS.some((b) => measuredFor(row, b.example)));
  return [
    "LMbench summary (µs; simulated, with the measured calibration figure beside it where one is known)",
    line(head),
    ...body.map(line),
    ...(measured ? ["   measured: the calibration figures of @siglab/cpu-profiles (the profiles' costs were fitted to them); only on their machine's baseline row"] : []),
    ...failed,
  ].join("\n");
}

export function registerSummaryCommand(cli: CAC): void {
  const cmd = cli
    .command("summary", "The LMbench summary (lat_syscall, lat_sig_catch, lat_sig_prot, lat_ctx, lat_pipe) on CPUs x variant stacks, in µs; --plot draws it")
    .option("--cpu <id@MHz>", "CPU profile and clock (repeatable; default p4-northwood)")
    .option("--variant <id[:k=v,...]>", "plugin in the variant stack (repeatable, in order)")
    .option("--preset <name>", "a named variant stack (repeatable: each is one stack)")
    .option("--baseline", "also run the baseline stack next to the variants")
    .option("--smp <n>", "CPUs of the machine: 1 (default) to 8")
    .option("--seed <n>", "seed of the runs (default 1)")
    .option("--profile-file <file>", "a CPU profile of your own (repeatable)")
    .option("--plugin-dir <dir>", "third-party plugin folder (repeatable)")
    .option("--jobs <n>", "runs at a time (default: the number of cores)")
    .option(...NO_CACHE_OPTION)
    .option("--json", "print one JSON document (rows, results per benchmark, the figure's data)")
    .option("--plot <file.svg>", "write the grouped bar chart (SVG, 1920×1080, Okabe–Ito colours)")
    .option("--plot-data <file.csv|file.json>", "write the data behind the chart (CSV, or JSON for a .json name)")
    .option("--force", "replace existing --plot/--plot-data files");
  for (const [flag, help] of LIMIT_OPTIONS) cmd.option(flag, help);
  cmd
    .example("siglab summary")
    .example("siglab summary --cpu p4-northwood@2200 --baseline --variant sa-nofp:forceAll=true --plot headline.svg --plot-data headline.csv")
    .action(async (o: Record<string, unknown>) => {
      try {
        const plot = outputArg(o, "plot", ".svg");
        const data = outputArg(o, "plotData");
        if (plot && data && plot === data) throw new UsageError("--plot and --plot-data name the same file");
        const outOpts = { force: o["force"] === true };
        // refused before the runs, and again at the write
        if (plot) checkOutputTarget(plot, outOpts);
        if (data) checkOutputTarget(data, outOpts);
        const s = await runSummary(o);
        const profiles = await allProfiles([]);
        const madeBy = `siglab ${figureArgs(process.argv.slice(2)).map(quoteArg).join(" ")}`;
        const { figure, data: rows } = lmbenchFigure(s, { profiles, madeBy: oneLine(madeBy) });
        if (plot) writeOutputFile(plot, renderBarFigure(figure).svg, outOpts);
        if (data) writeOutputFile(data, data.toLowerCase().endsWith(".json") ? figureDataJson(rows) : figureDataCsv(rows), outOpts);
        if (o["json"]) process.stdout.write(JSON.stringify({ unit: "µs", rows: s.rows, results: s.results, figure: rows }, null, 2) + "\n");
        else {
          console.log(formatSummaryTable(shown(s), profiles));
          for (const f of [plot, data]) if (f) console.log(`wrote ${f}`);
        }
        process.exitCode = Object.values(s.results).some((rs) => rs.some((r) => r.error)) ? 1 : 0;
      } catch (e) {
        if (e instanceof OutputRefusal) {
          console.error(`siglab summary: ${oneLine(e.message)}`);
          process.exitCode = 2;
        } else reportCliError(e);
      }
    });
}

function outputArg(o: Record<string, unknown>, key: string, ext?: string): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (typeof v !== "string" || !v) throw new UsageError(`${flag}: name a file`);
  if (ext && !v.toLowerCase().endsWith(ext)) throw new UsageError(`${flag} ${v}: the chart is SVG; name a ${ext} file`);
  return v;
}

/** Outputs (--plot, --plot-data, --force) and the run's mechanics (--jobs, --no-cache) do not change the figure: it names the rest. */
const NOT_IN_FIGURE = new Set(["--plot", "--plot-data", "--jobs"]);
const FLAGS_NOT_IN_FIGURE = new Set(["--force", "--no-cache"]);
export function figureArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.split("=")[0]!;
    if (FLAGS_NOT_IN_FIGURE.has(a)) continue;
    if (NOT_IN_FIGURE.has(name)) {
      if (!a.includes("=")) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`;
}
