/** Human-readable output of run results. */
import type { RunResult } from "@siglab/core";
import { cpuLabel } from "@siglab/core/bundle/index.js";

export function variantLabel(r: RunResult): string {
  if (!r.variants.length) return "baseline";
  return r.variants.map((v) => (v.options && Object.keys(v.options).length ? `${v.id}:${Object.entries(v.options).map(([k, x]) => `${k}=${x}`).join(",")}` : v.id)).join("+");
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(1) : Math.abs(n) >= 1 ? n.toFixed(3) : n.toPrecision(4);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}

/** The parameters whose values differ between the runs (a sweep's parameter), in name order. */
export function differingParams(results: readonly RunResult[]): string[] {
  const keys = new Set(results.flatMap((r) => Object.keys(r.params ?? {})));
  return [...keys].sort().filter((k) => new Set(results.map((r) => JSON.stringify(r.params?.[k]))).size > 1);
}

function paramLabel(r: RunResult, keys: readonly string[]): string {
  return keys.map((k) => `${k}=${String(r.params?.[k])}`).join(", ");
}

/**
 * The end of a sweep's text output: one row per run (CPU, stack, the swept values) and a column
 * per metric of the first run (at most 5), so the sweep reads as one table.
 */
export function formatSweepSummary(results: readonly RunResult[]): string {
  const keys = differingParams(results);
  const metrics = (results[0]?.metrics ?? []).slice(0, 5);
  const head = ["   run", ...metrics.map((m) => `${m.name} (${m.unit})`)];
  const rows = results.map((r, i) => [
    `   ${i + 1}. ${cpuLabel(r.cpu)} ${variantLabel(r)}${keys.length ? ` ${paramLabel(r, keys)}` : ""}`,
    ...metrics.map((m) => {
      if (r.error) return "error";
      const v = r.metrics.find((x) => x.name === m.name)?.value;
      return v === undefined ? "-" : fmt(v);
    }),
  ]);
  return [`summary of ${results.length} runs${keys.length ? ` (swept: ${keys.join(", ")})` : ""}:`, table([head, ...rows])].join("\n");
}

export function formatRun(r: RunResult, opts: { phases?: boolean; sweep?: readonly string[] } = {}): string {
  const out: string[] = [];
  const swept = opts.sweep?.length ? `, ${paramLabel(r, opts.sweep)}` : "";
  const smp = r.cpu.smp && r.cpu.smp > 1 ? ` × ${r.cpu.smp} CPUs (SMP kernel)` : "";
  out.push(`== ${r.workload} on ${r.cpu.id}@${r.cpu.mhz} MHz${smp}, ${variantLabel(r)}${swept} (seed ${r.seed})`);
  if (r.error) {
    const loc = r.error.line && !r.error.message.includes(`${r.error.file}:${r.error.line}`) ? `${r.error.file}:${r.error.line}:${r.error.column}: ` : "";
    out.push(`   ERROR (${r.error.kind}): ${loc}${r.error.message}${r.error.task !== undefined ? ` [task ${r.error.task}, cycle ${r.error.cycle}]` : ""}`);
  }
  if (r.metrics.length) out.push(table([["   metric", "value", "unit"], ...r.metrics.map((m) => [`   ${m.name}`, fmt(m.value), m.unit])]));
  if (opts.phases !== false && r.totalCycles > 0) {
    const phases = Object.entries(r.phases).sort((a, b) => b[1] - a[1]);
    // on SMP the phases add up the cycles of every CPU: shares are of all of them
    const n = r.cpu.smp ?? 1;
    out.push(`   where the cycles go (${fmt(r.totalCycles)} cycles, ${fmt(r.simSeconds * 1e3)} ms simulated${n > 1 ? `, on each of ${n} CPUs; shares of all ${n}` : ""}):`);
    out.push(table(phases.map(([p, c]) => [`     ${p}`, fmt(c), `${((100 * c) / (r.totalCycles * n)).toFixed(1)}%`])));
  }
  if (r.findings.length) {
    out.push(`   findings (${r.findings.length}):`);
    for (const f of r.findings.slice(0, 10)) {
      const n = Number(f.evidence["occurrences"] ?? 1);
      out.push(`     [${f.severity}] ${f.kind}: ${f.message}${n > 1 ? ` (x${n})` : ""}`);
    }
    if (r.findings.length > 10) out.push(`     ... ${r.findings.length - 10} more (see --json)`);
  } else if (!r.error) out.push("   findings: none");
  return out.join("\n");
}

/** The path inspector in text: a path's ops, the Linux function each belongs to, cycles per op. */
export function formatPaths(r: RunResult, which: string): string {
  const paths = which === "top" ? [...r.paths].sort((a, b) => b.cycles - a.cycles).slice(0, 5) : r.paths.filter((p) => p.name === which);
  if (!paths.length) return `   no path '${which}' ran (paths: ${r.paths.map((p) => p.name).join(", ")})`;
  const out: string[] = [];
  for (const p of paths) {
    out.push(`   path ${p.name} [${p.phase}, ${p.origin}]: ran ${p.count}x, ${fmt(p.cycles)} cycles in total`);
    out.push(table([["     function", "op", "x", "cycles", "note"], ...p.ops.map((o) => [`     ${o.fn}`, o.op, String(o.repeat), fmt(o.cycles), o.note ?? ""])]));
  }
  return out.join("\n");
}
