/** Plain-text tables for the calibrate command and the calibration / predictions suites. */
import { fmt, type FitResult } from "./fit.js";
import { isLargeCorrection, SCALE_BOUNDS } from "./plan.js";
import { variantLabel } from "./env.js";
import type { Prediction } from "./predictions.js";
import type { SuiteRow } from "./suite.js";

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}

const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(2)}%`;
const signed = (x: number) => `${x >= 0 ? "+" : ""}${fmt(x)}`;

export function formatSuite(rows: readonly SuiteRow[]): string {
  const loo = rows.some((r) => r.looErrorPercent !== undefined);
  const head = ["  target", "unit", "measured", "simulated", "error", ...(loo ? ["LOO error"] : []), "tolerance", "status"];
  const body = rows.map((r) => [
    `  ${r.id}`,
    r.unit,
    fmt(r.measured),
    r.simulated === null ? "-" : fmt(r.simulated),
    r.error === null ? "-" : r.unit === "cycles" ? `${signed(r.error)} (${pct(r.relError!)})` : pct(r.relError!),
    ...(loo ? [looText(r)] : []),
    r.tolerance,
    r.status === "pending" ? r.note! : r.status.toUpperCase(),
  ]);
  const lines = [table([head, ...body])];
  if (loo) {
    lines.push(
      "",
      "  LOO error: the target simulated by a fit that left it out (the groups fitted to it at their starting",
      "  values, the other groups as fitted). '(in-sample)': the target constrains no fitted group, nothing was",
      "  fitted to it, so the leave-one-out error is the in-sample error.",
    );
  }
  return lines.join("\n");
}

function looText(r: SuiteRow): string {
  if (r.looErrorPercent === undefined || r.looErrorPercent === null) return "-";
  const p = pct(r.looErrorPercent / 100);
  return r.looGroups?.length ? p : `${p} (in-sample)`;
}

export function formatFit(r: FitResult): string {
  const head = ["  group", "profile", "target", "costs (start -> fitted)", "scale", "simulated / measured", "status"];
  const body = r.groups.map((g) => {
    const costs = Object.entries(g.group.start).map(([op, v]) => `${op} ${v}->${g.values[op as keyof typeof g.values]}`).join(", ");
    const status = g.status === "fitted" && isLargeCorrection(g.scale) ? `fitted (large correction: check the model)` : g.status === "fitted" ? "fitted" : g.reason ?? g.status;
    return [
      `  ${g.group.id}`,
      g.group.profile,
      g.target.id,
      costs,
      g.scale === undefined ? "-" : `x${g.scale.toFixed(3)}`,
      g.simulated === undefined ? "-" : `${fmt(g.simulated)} / ${fmt(g.target.measured)} ${g.target.unit}`,
      status,
    ];
  });
  const lines = [table([head, ...body])];
  for (const g of r.groups) {
    if (g.floor !== undefined) lines.push(`  ${g.group.id}: with its ops at 0 cycles the model still gives ${fmt(g.floor)} ${g.target.unit} (figure ${fmt(g.target.measured)})`);
  }
  lines.push(`  ${r.sweeps} sweep(s), ${r.converged ? "converged" : "NOT converged"}; scale bounds x${SCALE_BOUNDS[0]}..x${SCALE_BOUNDS[1]}`);
  return lines.join("\n");
}

export function formatPredictions(rows: readonly Prediction[]): string {
  const head = ["  workload", "cpu", "variants", "metric", "value", "unit", "fitted groups it runs"];
  const body = rows.map((p) => [
    `  ${p.workload}`,
    p.cpus > 1 ? `${p.cpu} ×${p.cpus}` : p.cpu,
    variantLabel(p.variants),
    p.metric,
    p.pending ? p.note ?? "pending" : fmt(p.value!),
    p.pending ? "" : p.unit,
    p.pending ? "" : [...new Set(p.fittedParams.map((f) => f.group))].join(", ") || "none",
  ]);
  const notes = [...new Set(rows.filter((p) => !p.pending && p.note).map((p) => p.note!))];
  return [table([head, ...body]), ...notes.map((n) => `  note: ${n}`)].join("\n");
}
