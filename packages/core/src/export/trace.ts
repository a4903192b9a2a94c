/**
 * Timelines as Chrome trace-event JSON (opens in ui.perfetto.dev and chrome://tracing): one
 * process per run, one thread (track) per simulated task, each timeline event a complete ("X")
 * slice named after its kernel path with the phase as category. Cycles become microseconds at the
 * run's clock (cycles / MHz = µs).
 *
 * Derived from the same timeline (docs/bundles.md, "Trace"):
 *  - flow events ("s"/"t"/"f") that follow each delivered signal from the send that queued it
 *    (sys_kill … send_sig_info) through do_signal and setup_frame to the handler and sigreturn;
 *  - counter tracks ("C"): signals queued and not yet dequeued, the run queue's length at each
 *    schedule(), and (core FPU handling only) the task whose FPU state is live on each CPU;
 *  - on an SMP machine, one track per CPU showing which task it ran, and `cpu` on every slice;
 *  - an instant event ("i") per finding, at the cycle its evidence names.
 * The timeline records kernel paths by name only (no signal numbers, no target tasks): what is
 * inferred from the names, and where the inference can be wrong, is said in docs/bundles.md and,
 * per flow, in its args.
 */
import type { Finding, RunResult, TimelineEvent } from "../common/index.js";
import { runLabel } from "../bundle/labels.js";

export interface TraceEvent {
  name: string;
  /** X slice, M metadata, C counter, i instant, s/t/f flow start/step/end */
  ph: "X" | "M" | "C" | "i" | "s" | "t" | "f";
  pid: number;
  tid: number;
  /** microseconds */
  ts: number;
  /** microseconds, "X" events only */
  dur?: number;
  cat?: string;
  /** flow events: the flow's id (unique in the trace) */
  id?: number;
  /** flow end: "e" binds it to the enclosing slice */
  bp?: "e";
  /** instant events: "t" thread, "p" process, "g" global */
  s?: "t" | "p" | "g";
  args?: Record<string, unknown>;
}

export interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: "ns" | "ms";
  otherData: Record<string, string>;
}

/** Track ids of the per-CPU tracks of an SMP run (far above any simulated pid). */
export const CPU_TRACK_TID_BASE = 1_000_000;

/** pid 0 is the idle task (each CPU's, on SMP): its track holds schedule() and the idle loop. */
function taskName(task: number): string {
  return task === 0 ? "idle (pid 0)" : `task ${task}`;
}

/** A delivered signal's way through the timeline (indices into it). */
export interface SignalFlow {
  /** the send that queued it: the sys_* call that led to send_sig_info, else send_sig_info itself */
  send?: number;
  doSignal?: number;
  /** setup_frame or setup_rt_frame */
  frame: number;
  handler?: number;
  /** sys_sigreturn or sys_rt_sigreturn */
  sigreturn?: number;
  /** queued sends not yet dequeued when this signal was dequeued (1: the link is unambiguous) */
  outstanding: number;
}

const SEND_SYSCALLS = /^sys_(kill|tkill|tgkill|rt_sigqueueinfo|sigqueue)/;

/** Per task, the indices of its events in timeline order. */
/**
 * The memory hierarchy's charges (a line refilled, a TLB walk): paths of their own between the
 * kernel paths that caused them, not steps of a flow.
 */
export function isMemoryEvent(e: TimelineEvent): boolean {
  return e.phase.startsWith("cache.") || e.phase === "tlb.refill";
}

/** Each task's events (memory-hierarchy charges left out), in timeline order. */
function byTask(timeline: readonly TimelineEvent[]): Map<number, number[]> {
  const m = new Map<number, number[]>();
  timeline.forEach((e, i) => {
    if (isMemoryEvent(e)) return;
    const l = m.get(e.task);
    if (l) l.push(i);
    else m.set(e.task, [i]);
  });
  return m;
}

/** Timeline indices in start order (stable: the timeline's order among equal starts). */
function timeOrder(timeline: readonly TimelineEvent[]): number[] {
  return timeline.map((_, i) => i).sort((a, b) => timeline[a]!.start - timeline[b]!.start || a - b);
}

/**
 * The signals a timeline shows delivered to a handler, each linked to its send, do_signal, frame,
 * handler and sigreturn. Sends are the send_sig_info calls that queued a signal (sigqueue_alloc
 * next on the sender's track); each dequeue (dequeue_signal.collect) takes the oldest queued send
 * not yet taken. The timeline names no signal or target, so with several sends outstanding the
 * link is the first-in-first-out guess (`outstanding` > 1 says so).
 */
export function signalFlows(timeline: readonly TimelineEvent[]): SignalFlow[] {
  const tasks = byTask(timeline);
  const next = new Map<number, number>(); // event index -> the same task's next event index
  const prev = new Map<number, number>();
  for (const list of tasks.values()) {
    for (let k = 0; k + 1 < list.length; k++) {
      next.set(list[k]!, list[k + 1]!);
      prev.set(list[k + 1]!, list[k]!);
    }
  }
  // the sends that queued a signal, by the time they queued it
  const sends: { at: number; anchor: number }[] = [];
  timeline.forEach((e, i) => {
    if (e.name !== "send_sig_info") return;
    const n = next.get(i);
    if (n === undefined || timeline[n]!.name !== "sigqueue_alloc") return;
    const p = prev.get(i);
    const anchor = p !== undefined && SEND_SYSCALLS.test(timeline[p]!.name) ? p : i;
    sends.push({ at: timeline[n]!.end, anchor });
  });
  sends.sort((a, b) => a.at - b.at);
  // each dequeue takes the oldest queued send (in time order across tasks and CPUs)
  const takenBy = new Map<number, { send?: number; outstanding: number }>();
  let head = 0;
  for (const i of timeOrder(timeline)) {
    if (timeline[i]!.name !== "dequeue_signal.collect") continue;
    const at = timeline[i]!.start;
    let end = head;
    while (end < sends.length && sends[end]!.at <= at) end++;
    const outstanding = end - head;
    if (outstanding > 0) takenBy.set(i, { send: sends[head++]!.anchor, outstanding });
    else takenBy.set(i, { outstanding: 0 });
  }
  const flows: SignalFlow[] = [];
  for (const list of tasks.values()) {
    let lastDoSignal: number | undefined;
    let pending: { send?: number; outstanding: number; doSignal?: number } | undefined;
    let delivering = false;
    const open: SignalFlow[] = []; // frames on the task's stack, innermost last
    for (const i of list) {
      const e = timeline[i]!;
      if (e.name === "do_signal") lastDoSignal = i;
      else if (e.name === "dequeue_signal.collect") {
        pending = { ...takenBy.get(i)!, ...(lastDoSignal !== undefined ? { doSignal: lastDoSignal } : {}) };
        delivering = false;
      } else if (e.name === "do_signal.deliver" && pending) delivering = true;
      else if ((e.name === "setup_frame" || e.name === "setup_rt_frame") && pending && delivering) {
        const f: SignalFlow = { frame: i, outstanding: pending.outstanding };
        if (pending.send !== undefined) f.send = pending.send;
        if (pending.doSignal !== undefined) f.doSignal = pending.doSignal;
        flows.push(f);
        open.push(f);
        pending = undefined;
        delivering = false;
      } else if (e.kind === "handler") {
        const top = open.at(-1);
        if (top && top.handler === undefined) top.handler = i;
      } else if (e.name === "sys_sigreturn" || e.name === "sys_rt_sigreturn") {
        const top = open.pop();
        if (top) top.sigreturn = i;
      } else if (e.kind === "user") {
        // back in user mode without a frame: the dequeued signal was ignored or acted on otherwise
        pending = undefined;
        delivering = false;
      }
    }
  }
  return flows.sort((a, b) => a.frame - b.frame);
}

interface CounterSample {
  ts: number;
  value: number;
}

/** Signals queued (sigqueue_alloc) and not yet dequeued (dequeue_signal.collect), all tasks. */
function queuedSignals(timeline: readonly TimelineEvent[]): CounterSample[] {
  const steps: { at: number; d: number }[] = [];
  for (const e of timeline) {
    if (e.name === "sigqueue_alloc") steps.push({ at: e.end, d: 1 });
    else if (e.name === "dequeue_signal.collect") steps.push({ at: e.start, d: -1 });
  }
  if (!steps.length) return [];
  steps.sort((a, b) => a.at - b.at || a.d - b.d);
  const first = timeline.reduce((m, e) => Math.min(m, e.start), Infinity);
  const out: CounterSample[] = [{ ts: Math.min(first, steps[0]!.at), value: 0 }];
  let n = 0;
  for (const s of steps) {
    n = Math.max(0, n + s.d);
    out.push({ ts: s.at, value: n });
  }
  return out;
}

/**
 * The run queue's length at each schedule(): pick_next_task evaluates goodness() once per task on
 * the run queue (one `goodness` event of n × its unit cost; none for an empty queue). Samples whose
 * duration is not a whole number of goodness() calls (an interrupt inside) are left out.
 */
function runQueue(r: RunResult, timeline: readonly TimelineEvent[]): CounterSample[] | string {
  const g = r.paths.find((p) => p.name === "goodness");
  if (!g || g.count <= 0 || g.cycles <= 0) return "no goodness() ran (no schedule() with a task on the run queue)";
  const unit = g.cycles / g.count;
  const out: CounterSample[] = [];
  const awaiting = new Map<number, boolean>(); // per CPU: inside schedule(), no sample yet
  for (const i of timeOrder(timeline)) {
    const e = timeline[i]!;
    const cpu = e.cpu ?? 0;
    if (e.name === "schedule") awaiting.set(cpu, true);
    else if (e.name === "goodness" && awaiting.get(cpu)) {
      awaiting.set(cpu, false);
      const n = (e.end - e.start) / unit;
      if (Math.abs(n - Math.round(n)) < 1e-6) out.push({ ts: e.start, value: Math.round(n) });
    } else if (e.name === "schedule.finish" && awaiting.get(cpu)) {
      awaiting.set(cpu, false);
      out.push({ ts: e.start, value: 0 });
    }
  }
  return out.length ? out : "no schedule() in the recorded timeline";
}

/**
 * Whose FPU state is live in each CPU's registers (2.4 lazy FPU): the task that took the #NM trap
 * (device_not_available) owns it until unlazy_fpu.*, clear_fpu or its do_exit. Derived from the
 * core's path names, so it is left out when a plugin of the stack has paths of its own in an fpu.*
 * phase (it may take or give up the FPU in ways the names do not show).
 */
function fpuOwners(r: RunResult, timeline: readonly TimelineEvent[]): Map<number, CounterSample[]> | string {
  const foreign = r.paths.filter((p) => p.origin !== "core" && p.phase.startsWith("fpu."));
  if (foreign.length) return `the variant stack handles the FPU itself (${[...new Set(foreign.map((p) => `${p.name} of ${p.origin}`))].join(", ")}), which the core's path names do not show`;
  const out = new Map<number, CounterSample[]>();
  const first = timeline.reduce((m, e) => Math.min(m, e.start), Infinity);
  const owner = (cpu: number) => out.get(cpu)?.at(-1)?.value ?? 0;
  const set = (cpu: number, ts: number, pid: number) => {
    let l = out.get(cpu);
    if (!l) out.set(cpu, (l = [{ ts: first, value: 0 }]));
    if (l.at(-1)!.value !== pid) l.push({ ts, value: pid });
  };
  for (const i of timeOrder(timeline)) {
    const e = timeline[i]!;
    const cpu = e.cpu ?? 0;
    if (e.name === "device_not_available") set(cpu, e.end, e.task);
    else if (e.name.startsWith("unlazy_fpu") || e.name === "clear_fpu") set(cpu, e.end, 0);
    else if (e.name === "do_exit" && owner(cpu) === e.task) set(cpu, e.end, 0);
  }
  return out.size ? out : "no task used the FPU in the recorded timeline";
}

/** The cycle a finding happened at: its evidence's cycle, the end of a delay, or its last repeat. */
export function findingCycle(f: Finding): number | undefined {
  const ev = f.evidence;
  const num = (k: string) => (typeof ev[k] === "number" && Number.isFinite(ev[k]) ? (ev[k] as number) : undefined);
  const cycle = num("cycle");
  if (cycle !== undefined) return cycle;
  const since = num("since"), delay = num("delayCycles");
  if (since !== undefined && delay !== undefined) return since + delay;
  return num("lastCycle");
}

/** pid = run number (1-based: run index + 1, since pid 0 means "no process" to some viewers). */
export function toPerfettoTrace(results: RunResult[]): TraceFile {
  const traceEvents: TraceEvent[] = [];
  const notes: string[] = [];
  let flowId = 0;
  let flows = 0, ambiguous = 0;
  results.forEach((r, i) => {
    const pid = i + 1;
    const meta = (name: string, tid: number, args: Record<string, unknown>) => traceEvents.push({ name, ph: "M", pid, tid, ts: 0, args });
    meta("process_name", 0, { name: `run ${pid}: ${r.workload} on ${runLabel(r)}` });
    meta("process_sort_index", 0, { sort_index: pid });
    const timeline = r.timeline ?? [];
    const usPerCycle = 1 / r.cpu.mhz;
    const us = (c: number) => c * usPerCycle;
    const tasks = byTask(timeline);
    const named = new Set<number>();
    for (const [task, idx] of [...tasks].sort((a, b) => a[0] - b[0])) {
      const events = idx.map((k) => timeline[k]!);
      meta("thread_name", task, { name: taskName(task) });
      meta("thread_sort_index", task, { sort_index: task });
      named.add(task);
      for (const e of [...events].sort((a, b) => a.start - b.start || b.end - a.end)) {
        const args: Record<string, unknown> = { kind: e.kind, startCycle: e.start, endCycle: e.end, cycles: e.end - e.start };
        if (e.cpu !== undefined) args["cpu"] = e.cpu;
        traceEvents.push({ name: e.name, cat: e.phase, ph: "X", pid, tid: task, ts: us(e.start), dur: us(Math.max(0, e.end - e.start)), args });
      }
    }

    // SMP: one track per CPU, a slice per stretch of one task on it
    if ((r.cpu.smp ?? 1) > 1 && timeline.length) {
      const perCpu = new Map<number, TimelineEvent[]>();
      for (const e of timeline) {
        const c = e.cpu ?? 0;
        const l = perCpu.get(c);
        if (l) l.push(e);
        else perCpu.set(c, [e]);
      }
      for (const [cpu, events] of [...perCpu].sort((a, b) => a[0] - b[0])) {
        const tid = CPU_TRACK_TID_BASE + cpu;
        meta("thread_name", tid, { name: `CPU ${cpu}` });
        meta("thread_sort_index", tid, { sort_index: -1000 + cpu });
        let run: { task: number; start: number; end: number; n: number } | undefined;
        const flush = () => {
          if (!run) return;
          traceEvents.push({ name: run.task === 0 ? "idle (pid 0)" : `task ${run.task}`, cat: "cpu", ph: "X", pid, tid, ts: us(run.start), dur: us(Math.max(0, run.end - run.start)), args: { cpu, task: run.task, events: run.n, startCycle: run.start, endCycle: run.end } });
        };
        for (const e of events) {
          if (run && run.task === e.task) {
            run.end = Math.max(run.end, e.end);
            run.n++;
          } else {
            flush();
            run = { task: e.task, start: e.start, end: e.end, n: 1 };
          }
        }
        flush();
      }
    }

    // flows: send -> do_signal -> setup_frame -> handler -> sigreturn
    for (const f of signalFlows(timeline)) {
      const chain = [f.send, f.doSignal, f.frame, f.handler, f.sigreturn].filter((x): x is number => x !== undefined);
      if (chain.length < 2) continue;
      const id = ++flowId;
      flows++;
      if (f.outstanding > 1) ambiguous++;
      chain.forEach((k, n) => {
        const e = timeline[k]!;
        const ph = n === 0 ? "s" : n === chain.length - 1 ? "f" : "t";
        const ev: TraceEvent = { name: "signal", cat: "signal.flow", ph, id, pid, tid: e.task, ts: us((e.start + e.end) / 2) };
        if (ph === "f") ev.bp = "e";
        if (ph === "s") {
          ev.args = {
            from: f.send !== undefined ? "the send that queued it" : "do_signal (no queued send recorded before it)",
            ...(f.outstanding > 1 ? { inferred: `${f.outstanding} queued sends were outstanding at the dequeue; linked to the oldest` } : {}),
            ...(f.handler === undefined ? { handler: "not in the recorded timeline" } : {}),
            ...(f.sigreturn === undefined ? { sigreturn: "none recorded (the handler did not return through sigreturn, or the timeline stops first)" } : {}),
          };
        }
        traceEvents.push(ev);
      });
    }

    // counter tracks
    const counter = (name: string, samples: CounterSample[]) => {
      for (const s of samples) traceEvents.push({ name, ph: "C", pid, tid: 0, ts: us(s.ts), args: { value: s.value } });
    };
    if (timeline.length) {
      const q = queuedSignals(timeline);
      if (q.length) counter("signals queued (all tasks)", q);
      const rq = runQueue(r, timeline);
      if (typeof rq === "string") notes.push(`run ${pid}: no run-queue track (${rq})`);
      else counter("run queue (tasks, at schedule())", rq);
      const fpu = fpuOwners(r, timeline);
      if (typeof fpu === "string") notes.push(`run ${pid}: no FPU-owner track (${fpu})`);
      else {
        const smp = (r.cpu.smp ?? 1) > 1;
        for (const [cpu, samples] of [...fpu].sort((a, b) => a[0] - b[0])) counter(smp ? `FPU owner on CPU ${cpu} (pid, 0 none)` : "FPU owner (pid, 0 none)", samples);
      }
    }

    // findings: an instant at the cycle the evidence names, on the task's track when it names one
    const end = r.totalCycles;
    for (const f of r.findings) {
      const at = findingCycle(f);
      const task = typeof f.evidence["task"] === "number" ? (f.evidence["task"] as number) : undefined;
      if (task !== undefined && !named.has(task)) {
        meta("thread_name", task, { name: taskName(task) });
        meta("thread_sort_index", task, { sort_index: task });
        named.add(task);
      }
      traceEvents.push({
        name: `${f.severity}: ${f.kind}`,
        cat: "finding",
        ph: "i",
        s: task !== undefined ? "t" : "p",
        pid,
        tid: task ?? 0,
        ts: us(at ?? end),
        args: { message: f.message, ...(at === undefined ? { when: "the end of the run (the finding names no cycle)" } : {}), evidence: f.evidence },
      });
    }
  });
  const otherData: Record<string, string> = { generator: "SigLab", runs: String(results.length), timeUnit: "µs at each run's simulated clock" };
  if (flows) otherData["signalFlows"] = `${flows} delivered signals linked send -> do_signal -> setup_frame -> handler -> sigreturn${ambiguous ? `; ${ambiguous} inferred with several sends outstanding (the oldest taken)` : ""}`;
  if (notes.length) otherData["absentTracks"] = notes.join("; ");
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
