/** Human-readable output of run results. */
import { netPerIteration, type RunResult } from "@siglab/core";
import { cpuLabel } from "@siglab/core/bundle";
import { duration, fmt, group, unitText } from "./numbers.js";
import { didYouMean } from "./suggest.js";

export { duration, fmt, group, unitText };

/**
 * One line per run whose timeline stopped at its bound (counters["timeline.dropped"]), for stderr:
 * the run's number (`numbers[i]`, else i + 1), label and how much is missing.
 */
export function timelineCutLines(results: readonly RunResult[], numbers?: readonly number[]): string[] {
  const out: string[] = [];
  results.forEach((r, i) => {
    const dropped = r.counters?.["timeline.dropped"];
    if (!dropped) return;
    out.push(`run ${numbers?.[i] ?? i + 1} (${cpuLabel(r.cpu)} ${variantLabel(r)}): the timeline stopped after ${group(r.timeline?.length ?? 0)} events; ${group(dropped)} more were not recorded (raise the bound with --timeline-limit N, up to 10,000,000)`);
  });
  return out;
}

export function variantLabel(r: RunResult): string {
  if (!r.variants.length) return "baseline";
  return r.variants.map((v) => (v.options && Object.keys(v.options).length ? `${v.id}:${Object.entries(v.options).map(([k, x]) => `${k}=${x}`).join(",")}` : v.id)).join("+");
}

/** Linux i386 signal names (kernel numbering: SIGRTMIN is 32). */
const SIGNAL_NAMES = ["", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS"];

/** 10 -> "SIGUSR1", 33 -> "SIGRTMIN+1"; anything else stays a number. */
export function signalName(sig: number): string {
  if (Number.isInteger(sig) && sig >= 1 && sig < SIGNAL_NAMES.length) return SIGNAL_NAMES[sig]!;
  if (Number.isInteger(sig) && sig >= 32 && sig <= 64) return sig === 32 ? "SIGRTMIN" : `SIGRTMIN+${sig - 32}`;
  return `signal ${sig}`;
}

/** "across signal 10" -> "across SIGUSR1" in a message printed as text (results keep the numbers). */
export function withSignalNames(text: string): string {
  return text.replace(/\bsignal (\d{1,2})\b(?![.\d])/g, (m, n: string) => {
    const name = signalName(Number(n));
    return name.startsWith("SIG") ? name : m;
  });
}

/** Columns padded to their widest cell; the `right` columns (numbers) are right-aligned. */
function table(rows: string[][], right: readonly number[] = []): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) => r.map((c, i) => (right.includes(i) ? c.padStart(widths[i]!) : i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd())
    .join("\n");
}

/** The parameters whose values differ between the runs (a sweep's parameter), in name order. */
export function differingParams(results: readonly { params?: RunResult["params"] }[]): string[] {
  const keys = new Set(results.flatMap((r) => Object.keys(r.params ?? {})));
  return [...keys].sort().filter((k) => new Set(results.map((r) => JSON.stringify(r.params?.[k]))).size > 1);
}

function paramLabel(r: RunResult, keys: readonly string[]): string {
  return keys.map((k) => `${k}=${String(r.params?.[k])}`).join(", ");
}

/** "+50.0%", "−67.1%", "±0%": a value against the first run's. */
function change(v: number, first: number): string {
  const pct = ((v - first) / Math.abs(first)) * 100;
  if (Math.abs(pct) < 0.05) return "±0%";
  return `${pct > 0 ? "+" : "−"}${Math.abs(pct).toFixed(1)}%`;
}

/**
 * The end of a sweep's text output: one row per run (CPU, stack, the swept values) and a column
 * per metric of the first run (at most 5), so the sweep reads as one table.
 */
export function formatSweepSummary(results: readonly RunResult[]): string {
  const keys = differingParams(results);
  const metrics = (results[0]?.metrics ?? []).slice(0, 5);
  const head = ["   run", ...metrics.map((m) => `${unitText(m.name)} (${unitText(m.unit)})`)];
  const rows = results.map((r, i) => [
    `   ${i + 1}. ${cpuLabel(r.cpu)} ${variantLabel(r)}${keys.length ? ` ${paramLabel(r, keys)}` : ""}`,
    ...metrics.map((m) => {
      if (r.error) return "error";
      const v = r.metrics.find((x) => x.name === m.name)?.value;
      if (v === undefined) return "-";
      // the change against run 1, the first run of the table (the baseline when there is one)
      const first = i > 0 && !results[0]!.error ? results[0]!.metrics.find((x) => x.name === m.name)?.value : undefined;
      return first ? `${fmt(v)} (${change(v, first)})` : fmt(v);
    }),
  ]);
  return [`summary of ${results.length} runs${keys.length ? ` (swept: ${keys.join(", ")})` : ""}; changes against run 1:`, table([head, ...rows], metrics.map((_, k) => k + 1))].join("\n");
}

export interface FormatRunOptions {
  phases?: boolean;
  sweep?: readonly string[];
  /** the workload's own name (e.g. "lat_sig catch"), shown before its id when they differ */
  title?: string;
}

/** "lat_sig catch (lat_sig_catch)", or the id alone when the name is the id. */
export function workloadLabel(id: string, title?: string): string {
  return title && title !== id ? `${title} (${id})` : id;
}

export function formatRun(r: RunResult, opts: FormatRunOptions = {}): string {
  const out: string[] = [];
  const swept = opts.sweep?.length ? `, ${paramLabel(r, opts.sweep)}` : "";
  const smp = r.cpu.smp && r.cpu.smp > 1 ? ` × ${r.cpu.smp} CPUs (SMP kernel)` : "";
  out.push(`== ${workloadLabel(r.workload, opts.title)} on ${r.cpu.id}@${r.cpu.mhz} MHz${smp}, ${variantLabel(r)}${swept} (seed ${r.seed})`);
  if (r.error) {
    const loc = r.error.line && !r.error.message.includes(`${r.error.file}:${r.error.line}`) ? `${r.error.file}:${r.error.line}:${r.error.column}: ` : "";
    out.push(`   ERROR (${r.error.kind}): ${loc}${withSignalNames(r.error.message)}${r.error.task !== undefined ? ` [task ${r.error.task}, cycle ${r.error.cycle === undefined ? "?" : group(r.error.cycle)}]` : ""}`);
  }
  if (r.metrics.length) out.push(table([["   metric", "value", "unit"], ...r.metrics.map((m) => [`   ${unitText(m.name)}`, fmt(m.value), unitText(m.unit)])], [1]));
  if (opts.phases !== false && r.totalCycles > 0) {
    const phases = Object.entries(r.phases).sort((a, b) => b[1] - a[1]);
    // on SMP the phases add up the cycles of every CPU: shares are of all of them
    const n = r.cpu.smp ?? 1;
    out.push(`   where the cycles go (${group(r.totalCycles)} cycles, ${duration(r.simSeconds)} simulated${n > 1 ? `, on each of ${n} CPUs; shares of all ${n}` : ""}):`);
    out.push(table(phases.map(([p, c]) => [`     ${p}`, group(c), `${((100 * c) / (r.totalCycles * n)).toFixed(1)}%`]), [1, 2]));
  }
  if (r.loops?.length) out.push(...loopLines(r.loops));
  if (r.findings.length) {
    out.push(`   findings (${r.findings.length}):`);
    const lines = findingLines(r.findings);
    for (const l of lines.slice(0, 10)) out.push(`     ${l}`);
    if (lines.length > 10) out.push(`     ... ${lines.length - 10} more (see --json)`);
  } else if (!r.error) out.push("   findings: none");
  return out.join("\n");
}

/** The workload's named loops: each by its own count, and a loop with an overhead loop less that loop's figure. */
function loopLines(loops: NonNullable<RunResult["loops"]>): string[] {
  const rows = loops.map((l) => {
    const net = l.overhead === undefined ? undefined : netPerIteration(loops, l.name);
    return [`     ${l.name}`, group(l.count), fmt(l.cycles / l.count), net ? `${fmt(net.cycles)} less ${l.overhead}` : ""];
  });
  return ["   named loops (cycles per iteration, each loop ÷ its own count):", table([["     loop", "count", "per iteration", "net"], ...rows], [1, 2])];
}

/**
 * Findings as text lines; findings that differ only in the register they name (xmm0..xmm3 of the
 * same task across the same signal) are one line naming every register, not the same sentence
 * four times.
 */
export function findingLines(findings: readonly RunResult["findings"][number][]): string[] {
  const groups = new Map<string, { f: (typeof findings)[number]; regs: string[]; counts: number[] }>();
  for (const f of findings) {
    const reg = typeof f.evidence["register"] === "string" ? (f.evidence["register"] as string) : undefined;
    const key = `${f.severity}|${f.kind}|${reg && f.message.includes(reg) ? f.message.replace(reg, "\u0000") : f.message}`;
    const g = groups.get(key) ?? { f, regs: [], counts: [] };
    groups.set(key, g);
    if (reg) g.regs.push(reg);
    g.counts.push(Number(f.evidence["occurrences"] ?? 1));
  }
  return [...groups.values()].map(({ f, regs, counts }) => {
    let msg = withSignalNames(f.message);
    if (regs.length > 1) {
      const list = `${regs.slice(0, -1).join(", ")} and ${regs.at(-1)}`;
      msg = msg.replace(regs[0]!, list).replace(/^(\S.*?) was /, "$1 were ");
    }
    const same = counts.every((c) => c === counts[0]);
    const times = counts.some((c) => c > 1) ? (same ? ` (${group(counts[0]!)} times${counts.length > 1 ? " each" : ""})` : ` (${counts.map(group).join(", ")} times)`) : "";
    return `[${f.severity}] ${f.kind}: ${msg}${times}`;
  });
}

/** Items shown of a task's timeline: the first ones and the last ones, the middle counted. */
const TIMELINE_HEAD = 12;
const TIMELINE_TAIL = 4;

/**
 * `--timeline` in text: per task, its kernel paths, user work and handlers in order, each with its
 * start in µs from the run's start; repeats in a row fold into "name ×n"; a long sequence shows
 * its first and last items and counts the rest. Says when the timeline was cut at its bound.
 */
export function formatTimeline(r: RunResult, width = 100): string {
  const tl = r.timeline;
  if (!tl) return "   timeline: none recorded";
  const dropped = r.counters?.["timeline.dropped"] ?? 0;
  const out: string[] = [];
  out.push(`   timeline (${group(tl.length)} events${dropped ? `, the first of ${group(tl.length + dropped)}: --timeline-limit N records more` : ""}; µs from the start of the run):`);
  if (!tl.length) return out[0] + "\n     (no events)";
  const tasks = new Map<number, typeof tl>();
  for (const e of tl) {
    const l = tasks.get(e.task);
    if (l) l.push(e);
    else tasks.set(e.task, [e]);
  }
  const us = (c: number) => c / r.cpu.mhz;
  const showUs = (c: number) => {
    const v = us(c);
    return v >= 1000 ? group(v) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  };
  for (const [task, events] of [...tasks].sort((a, b) => a[0] - b[0])) {
    const time: Record<string, number> = {};
    for (const e of events) time[e.kind] = (time[e.kind] ?? 0) + (e.end - e.start);
    const split = ["kernel", "user", "handler", "idle"].filter((k) => time[k]).map((k) => `${k} ${showUs(time[k]!)} µs`).join(", ");
    out.push(`     ${task === 0 ? "idle task (pid 0)" : `task ${task}`}: ${group(events.length)} event${events.length === 1 ? "" : "s"}${split ? ` (${split})` : ""}`);
    // fold repeats in a row; note a change of CPU on SMP
    const items: string[] = [];
    let cpu: number | undefined;
    for (let i = 0; i < events.length; ) {
      const e = events[i]!;
      let j = i + 1;
      while (j < events.length && events[j]!.name === e.name && events[j]!.cpu === e.cpu) j++;
      const moved = e.cpu !== undefined && e.cpu !== cpu;
      cpu = e.cpu;
      items.push(`${moved ? `[CPU ${e.cpu}] ` : ""}${showUs(e.start)} ${e.name}${j - i > 1 ? ` ×${j - i}` : ""}`);
      i = j;
    }
    const shown = items.length > TIMELINE_HEAD + TIMELINE_TAIL + 1 ? [...items.slice(0, TIMELINE_HEAD), `… ${group(items.length - TIMELINE_HEAD - TIMELINE_TAIL)} more …`, ...items.slice(-TIMELINE_TAIL)] : items;
    let line = "       ";
    for (const [k, item] of shown.entries()) {
      const piece = k < shown.length - 1 ? `${item} → ` : item;
      if (line.length + piece.length > width && line.trim()) {
        out.push(line.trimEnd());
        line = "       ";
      }
      line += piece;
    }
    if (line.trim()) out.push(line.trimEnd());
  }
  return out.join("\n");
}

/** The path inspector in text: a path's ops, the Linux function each belongs to, cycles per op. */
export function formatPaths(r: RunResult, which: string): string {
  const paths = which === "top" ? [...r.paths].sort((a, b) => b.cycles - a.cycles).slice(0, 5) : r.paths.filter((p) => p.name === which);
  if (!paths.length) return `   no path '${which}' ran (${didYouMean(which, [...new Set(r.paths.map((p) => p.name))])}paths: ${r.paths.map((p) => p.name).join(", ")})`;
  const out: string[] = [];
  for (const p of paths) {
    out.push(`   path ${p.name} [${p.phase}, ${p.origin}]: ran ${group(p.count)} times, ${group(p.cycles)} cycles in total`);
    out.push(table([["     function", "op", "x", "cycles", "note"], ...p.ops.map((o) => [`     ${o.fn}`, o.op, String(o.repeat), fmt(o.cycles), o.note ?? ""])], [2, 3]));
  }
  return out.join("\n");
}
