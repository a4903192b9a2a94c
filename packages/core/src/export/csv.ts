/**
 * Results as CSV (RFC 4180: CRLF line ends, fields with comma/quote/CR/LF quoted, quotes doubled):
 * one row per run × value. `kind` says what the value is: a reported metric, the run's total,
 * a phase's cycles or a counter, so one file feeds any spreadsheet chart. A run summarised over
 * several seeds (--repeat, the app's Repetitions) has the median as its metric value, and its
 * spread as rows of kind metric-min and metric-max.
 */
import type { RunResult } from "../common/index.js";
import { formatParams, formatVariants } from "../bundle/labels.js";

export type CsvRowKind = "metric" | "metric-min" | "metric-max" | "total" | "phase" | "counter";

export interface CsvOptions {
  /** Which values to include (default: all four kinds). */
  kinds?: CsvRowKind[];
}

export const CSV_COLUMNS = ["run", "workload", "cpu", "mhz", "variants", "params", "seed", "kind", "metric", "value", "unit"] as const;

/** Quote a field when RFC 4180 requires it. */
export function csvField(value: string | number | boolean): string {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Text that a spreadsheet would take for a formula (=, +, -, @ first) gets a leading apostrophe:
 * bundles come from elsewhere, and a workload name should not run as a formula when opened.
 */
function text(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export function toCsv(results: RunResult[], opts: CsvOptions = {}): string {
  const kinds = new Set<CsvRowKind>(opts.kinds ?? ["metric", "metric-min", "metric-max", "total", "phase", "counter"]);
  const lines: string[] = [CSV_COLUMNS.join(",")];
  results.forEach((r, i) => {
    const head = [i + 1, text(r.workload), text(r.cpu.id), r.cpu.mhz, text(formatVariants(r.variants)), text(formatParams(r.params, ";")), r.seed];
    const row = (kind: CsvRowKind, metric: string, value: number, unit: string) =>
      lines.push([...head, kind, text(metric), value, text(unit)].map(csvField).join(","));
    if (kinds.has("metric")) for (const m of r.metrics) row("metric", m.name, m.value, m.unit);
    // a repeated run's spread (summarizeRepeats): each metric's min and max over the seeds
    for (const m of r.metrics as (typeof r.metrics[number] & { min?: number; max?: number })[]) {
      if (kinds.has("metric-min") && m.min !== undefined) row("metric-min", m.name, m.min, m.unit);
      if (kinds.has("metric-max") && m.max !== undefined) row("metric-max", m.name, m.max, m.unit);
    }
    if (kinds.has("total")) {
      row("total", "totalCycles", r.totalCycles, "cycles");
      row("total", "simSeconds", r.simSeconds, "s");
    }
    if (kinds.has("phase")) for (const p of Object.keys(r.phases).sort()) row("phase", p, r.phases[p]!, "cycles");
    if (kinds.has("counter")) for (const c of Object.keys(r.counters).sort()) row("counter", c, r.counters[c]!, "count");
  });
  return lines.join("\r\n") + "\r\n";
}
