/** The human-readable summary.md of a bundle: what ran, the numbers, the findings. */
import type { ExperimentConfig, RunResult } from "../common/index.js";
import { formatParams, formatVariants } from "./labels.js";
import { formatRunNumbers, type ShardInfo } from "./shard.js";

/** Markdown table cell: no line breaks, pipes escaped. */
function cell(v: unknown): string {
  return String(v).replace(/\r?\n|\r/g, " ").replace(/\|/g, "\\|");
}

function table(head: string[], rows: unknown[][]): string[] {
  return [
    `| ${head.map(cell).join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)));
}

/** With `shard` (a part written with --shard i/n), runs carry their numbers in the whole experiment. */
export function summarizeMarkdown(results: RunResult[], experiment?: ExperimentConfig, shard?: ShardInfo): string {
  const no = (i: number): number => shard?.runs[i] ?? i + 1;
  const title = experiment?.workload.id ?? results[0]?.workload ?? "experiment";
  const out: string[] = [`# SigLab experiment: ${cell(title)}`, ""];
  if (experiment) {
    out.push(
      `- Workload: \`${cell(experiment.workload.file || experiment.workload.id)}\``,
      `- CPUs: ${experiment.cpus.map((c) => `${c.id}@${c.mhz} MHz`).join(", ")}`,
      `- Variant stacks: ${experiment.stacks.map((s) => formatVariants(s) || "baseline").join(" · ")}`,
      `- Parameters: ${formatParams(experiment.params, ", ") || "(none)"}`,
    );
    if (experiment.sweep) out.push(`- Sweep: ${experiment.sweep.param} ∈ {${experiment.sweep.values.join(", ")}}`);
    out.push(`- Seed: ${experiment.seed}`, "");
  }
  if (shard) {
    out.push(
      `Part ${shard.index} of ${shard.count} (\`--shard ${shard.index}/${shard.count}\`) of an experiment of ${shard.totalRuns} runs: runs ${formatRunNumbers(shard.runs)}. \`siglab bundle merge\` joins the parts.`,
      "",
    );
  }
  out.push(`${results.length} run${results.length === 1 ? "" : "s"}.`, "", "## Runs", "");
  out.push(
    ...table(
      ["#", "CPU", "MHz", "Variants", "Params", "Total cycles", "Simulated time (s)", "Findings", "Status"],
      results.map((r, i) => [
        no(i),
        r.cpu.id,
        r.cpu.mhz,
        formatVariants(r.variants) || "baseline",
        formatParams(r.params),
        num(r.totalCycles),
        num(r.simSeconds),
        r.findings.length,
        r.error ? `failed (${r.error.kind})` : "ok",
      ]),
    ),
  );
  const metricRows = results.flatMap((r, i) => r.metrics.map((m) => [no(i), m.name, num(m.value), m.unit]));
  if (metricRows.length) out.push("", "## Metrics", "", ...table(["Run", "Metric", "Value", "Unit"], metricRows));

  const phases = [...new Set(results.flatMap((r) => Object.keys(r.phases)))].sort();
  if (phases.length) {
    out.push("", "## Cycles by phase", "");
    out.push(...table(["Run", ...phases], results.map((r, i) => [no(i), ...phases.map((p) => num(r.phases[p] ?? 0))])));
  }
  const findings = results.flatMap((r, i) => r.findings.map((f) => ({ f, i })));
  out.push("", "## Findings", "");
  if (!findings.length) out.push("None.");
  for (const { f, i } of findings) out.push(`- Run ${no(i)}: **${cell(f.severity)}** \`${cell(f.kind)}\`: ${cell(f.message)}`);
  const failed = results.flatMap((r, i) => (r.error ? [{ e: r.error, i }] : []));
  if (failed.length) {
    out.push("", "## Errors", "");
    for (const { e, i } of failed) out.push(`- Run ${no(i)}: ${cell(e.kind)}: ${cell(e.message)}`);
  }
  return out.join("\n") + "\n";
}
