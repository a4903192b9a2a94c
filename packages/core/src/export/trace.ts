/**
 * Timelines as Chrome trace-event JSON (opens in ui.perfetto.dev and chrome://tracing): one
 * process per run, one thread (track) per simulated task, each timeline event a complete ("X")
 * slice named after its kernel path with the phase as category. Cycles become microseconds at the
 * run's clock (cycles / MHz = µs).
 */
import type { RunResult, TimelineEvent } from "../common/index.js";
import { runLabel } from "../bundle/labels.js";

export interface TraceEvent {
  name: string;
  ph: "X" | "M";
  pid: number;
  tid: number;
  /** microseconds */
  ts: number;
  /** microseconds, "X" events only */
  dur?: number;
  cat?: string;
  args?: Record<string, unknown>;
}

export interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: "ns" | "ms";
  otherData: Record<string, string>;
}

function taskName(task: number, events: TimelineEvent[]): string {
  if (task === 0 && events.every((e) => e.kind === "idle")) return "idle (pid 0)";
  return `task ${task}`;
}

/** pid = run number (1-based: run index + 1, since pid 0 means "no process" to some viewers). */
export function toPerfettoTrace(results: RunResult[]): TraceFile {
  const traceEvents: TraceEvent[] = [];
  results.forEach((r, i) => {
    const pid = i + 1;
    const meta = (name: string, tid: number, args: Record<string, unknown>) => traceEvents.push({ name, ph: "M", pid, tid, ts: 0, args });
    meta("process_name", 0, { name: `run ${pid}: ${r.workload} on ${runLabel(r)}` });
    meta("process_sort_index", 0, { sort_index: pid });
    const timeline = r.timeline ?? [];
    const byTask = new Map<number, TimelineEvent[]>();
    for (const e of timeline) {
      const list = byTask.get(e.task);
      if (list) list.push(e);
      else byTask.set(e.task, [e]);
    }
    const usPerCycle = 1 / r.cpu.mhz;
    for (const [task, events] of [...byTask].sort((a, b) => a[0] - b[0])) {
      meta("thread_name", task, { name: taskName(task, events) });
      meta("thread_sort_index", task, { sort_index: task });
      for (const e of [...events].sort((a, b) => a.start - b.start || b.end - a.end)) {
        traceEvents.push({
          name: e.name,
          cat: e.phase,
          ph: "X",
          pid,
          tid: task,
          ts: e.start * usPerCycle,
          dur: Math.max(0, e.end - e.start) * usPerCycle,
          args: { kind: e.kind, startCycle: e.start, endCycle: e.end, cycles: e.end - e.start },
        });
      }
    }
  });
  const otherData: Record<string, string> = { generator: "SigLab", runs: String(results.length), timeUnit: "µs at each run's simulated clock" };
  const cut = truncatedTimelines(results);
  if (cut.length) otherData["truncated"] = cut.join("; ");
  return { traceEvents, displayTimeUnit: "ns", otherData };
}

/** Runs whose timeline stopped at the recording limit: "run N: K events after the first L not recorded". */
export function truncatedTimelines(results: readonly RunResult[]): string[] {
  const out: string[] = [];
  results.forEach((r, i) => {
    const dropped = r.counters?.["timeline.dropped"];
    if (dropped) out.push(`run ${i + 1}: ${dropped.toLocaleString("en")} events after the first ${(r.timeline?.length ?? 0).toLocaleString("en")} not recorded`);
  });
  return out;
}

/** True when no run of the bundle recorded a timeline (a trace of it would be empty). */
export function hasNoTimeline(results: readonly RunResult[]): boolean {
  return results.every((r) => !r.timeline || r.timeline.length === 0);
}
