import { describe, expect, it } from "vitest";
import { CPU_TRACK_TID_BASE, signalFlows, toPerfettoTrace, type TraceEvent } from "../../src/export/index.js";
import type { RunResult, TimelineEvent } from "../../src/common/index.js";
import { experiment, fakeResults } from "../bundle/fixtures.js";
import { runExample } from "../harness.js";

/** The trace-event format's required fields (Trace Event Format doc): ph, name, pid, tid, ts; dur for X. */
function validateTraceEvent(e: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof e.name !== "string") problems.push("name");
  if (typeof e.ph !== "string" || e.ph.length !== 1) problems.push("ph");
  for (const k of ["pid", "tid", "ts"]) if (typeof e[k] !== "number" || !Number.isFinite(e[k])) problems.push(k);
  if (e.ph === "X" && (typeof e.dur !== "number" || !((e.dur as number) >= 0))) problems.push("dur");
  if (e.ph === "M" && !["process_name", "thread_name", "process_sort_index", "thread_sort_index"].includes(e.name as string)) problems.push("M name");
  if (e.ph === "M" && typeof e.args !== "object") problems.push("args");
  if (e.ph === "C" && (typeof e.args !== "object" || !Object.values(e.args as object).every((v) => typeof v === "number"))) problems.push("C args");
  if (["s", "t", "f"].includes(e.ph as string) && (typeof e.id !== "number" || typeof e.cat !== "string")) problems.push("flow id/cat");
  if (e.ph === "i" && !["t", "p", "g"].includes(e.s as string)) problems.push("instant scope");
  if (!["X", "M", "C", "i", "s", "t", "f"].includes(e.ph as string)) problems.push("ph kind");
  return problems;
}

describe("toPerfettoTrace", () => {
  const results = fakeResults(experiment());
  const trace = JSON.parse(JSON.stringify(toPerfettoTrace(results))) as { traceEvents: TraceEvent[] };

  it("is trace-event JSON whose every event has the required fields", () => {
    expect(Array.isArray(trace.traceEvents)).toBe(true);
    expect(trace.traceEvents.length).toBeGreaterThan(0);
    for (const e of trace.traceEvents) expect(validateTraceEvent(e as unknown as Record<string, unknown>), JSON.stringify(e)).toEqual([]);
  });

  it("has one process per run and one named track per task", () => {
    const procs = trace.traceEvents.filter((e) => e.name === "process_name");
    expect(procs.map((e) => e.pid)).toEqual([1, 2, 3, 4]);
    expect(procs[1]!.args!.name).toBe("run 2: lat_sig_catch on p4-northwood@2200 [sa-nofp:force=true;thirdparty-mask]");
    const threads = trace.traceEvents.filter((e) => e.name === "thread_name" && e.pid === 1);
    expect(threads.map((e) => [e.tid, e.args!.name])).toEqual([[0, "idle (pid 0)"], [1, "task 1"], [2, "task 2"]]);
  });

  it("turns kernel paths into slices named by path, categorised by phase, timed in µs at the run's clock", () => {
    const slice = trace.traceEvents.find((e) => e.ph === "X" && e.pid === 1 && e.name === "system_call")!;
    expect(slice).toMatchObject({ cat: "syscall.entry", tid: 1 });
    expect(slice.ts).toBeCloseTo(1000 / 2200, 12);
    expect(slice.dur).toBeCloseTo(300 / 2200, 12);
    const p3 = trace.traceEvents.find((e) => e.ph === "X" && e.pid === 3 && e.name === "system_call")!;
    expect(p3.ts).toBeCloseTo(1000 / 800, 12); // the same cycles take longer on an 800 MHz CPU
    expect(trace.traceEvents.filter((e) => e.ph === "X")).toHaveLength(4 * 4);
  });

  it("emits only process metadata and the findings' instants for runs without a timeline", () => {
    const noTimeline = fakeResults(experiment({ timeline: false }));
    const t = toPerfettoTrace(noTimeline);
    const findings = noTimeline.reduce((n, r) => n + r.findings.length, 0);
    expect(t.traceEvents.filter((e) => e.ph !== "M" || e.tid !== 0).every((e) => e.ph === "i" || (e.ph === "M" && e.name.startsWith("thread_")))).toBe(true);
    expect(t.traceEvents.filter((e) => e.ph === "i")).toHaveLength(findings);
    expect(t.traceEvents.filter((e) => e.ph === "M" && e.tid === 0)).toHaveLength(noTimeline.length * 2);
  });
});

/** A timeline event from a compact row: [task, name, phase, start, end, cpu?]. */
function ev(task: number, name: string, phase: string, start: number, end: number, cpu?: number): TimelineEvent {
  const kind = phase === "signal.handler" ? "handler" : phase === "user" ? "user" : phase === "idle" ? "idle" : "kernel";
  return { task, kind, name, phase, start, end, ...(cpu !== undefined ? { cpu } : {}) };
}

/** task 1 kills task 2, which catches the signal: the paths the kernel records, in order. */
function pingTimeline(t0 = 0, from = 1, to = 2, cpu?: number): TimelineEvent[] {
  const c = (n: number) => t0 + n;
  return [
    ev(from, "system_call", "syscall.entry", c(0), c(10), cpu),
    ev(from, "sys_kill", "signal.send", c(10), c(14), cpu),
    ev(from, "send_sig_info", "signal.send", c(14), c(20), cpu),
    ev(from, "sigqueue_alloc", "signal.send", c(20), c(30), cpu),
    ev(from, "signal_wake_up", "signal.send", c(30), c(35), cpu),
    ev(to, "do_signal", "signal.frame", c(40), c(42), cpu),
    ev(to, "dequeue_signal", "signal.frame", c(42), c(44), cpu),
    ev(to, "dequeue_signal.collect", "signal.frame", c(44), c(46), cpu),
    ev(to, "do_signal.action", "signal.frame", c(46), c(47), cpu),
    ev(to, "do_signal.deliver", "signal.frame", c(47), c(50), cpu),
    ev(to, "setup_frame", "signal.frame", c(50), c(60), cpu),
    ev(to, "restore_all", "syscall.exit", c(60), c(70), cpu),
    ev(to, "handler_call", "signal.handler", c(70), c(72), cpu),
    ev(to, "system_call", "syscall.entry", c(72), c(80), cpu),
    ev(to, "sys_sigreturn", "signal.sigreturn", c(80), c(90), cpu),
    ev(to, "user_work", "user", c(90), c(100), cpu),
  ];
}

function result(timeline: TimelineEvent[], over: Partial<RunResult> = {}): RunResult {
  return {
    workload: "w", cpu: { id: "p4-northwood", mhz: 1000 }, variants: [], params: {}, seed: 1, metrics: [], phases: {}, counters: {}, findings: [],
    totalCycles: 1000, simSeconds: 1e-6, paths: [], timeline, ...over,
  };
}

describe("toPerfettoTrace: flows, counters, findings, CPUs", () => {
  it("links each delivered signal: the kill, do_signal, setup_frame, the handler, sigreturn", () => {
    const tl = [...pingTimeline(0, 1, 2), ...pingTimeline(200, 2, 1)];
    const flows = signalFlows(tl);
    expect(flows.map((f) => [f.send, f.doSignal, f.frame, f.handler, f.sigreturn].map((k) => `${tl[k!]!.task}:${tl[k!]!.name}`))).toEqual([
      ["1:sys_kill", "2:do_signal", "2:setup_frame", "2:handler_call", "2:sys_sigreturn"],
      ["2:sys_kill", "1:do_signal", "1:setup_frame", "1:handler_call", "1:sys_sigreturn"],
    ]);
    expect(flows.every((f) => f.outstanding === 1)).toBe(true);
    const t = toPerfettoTrace([result(tl)]);
    for (const e of t.traceEvents) expect(validateTraceEvent(e as unknown as Record<string, unknown>), JSON.stringify(e)).toEqual([]);
    const flowEvents = t.traceEvents.filter((e) => ["s", "t", "f"].includes(e.ph));
    expect(flowEvents.map((e) => `${e.ph}${e.id}@${e.tid}`)).toEqual(["s1@1", "t1@2", "t1@2", "t1@2", "f1@2", "s2@2", "t2@1", "t2@1", "t2@1", "f2@1"]);
    // each flow point sits inside the slice it binds to (the middle of it), in µs at 1000 MHz
    expect(flowEvents[0]!.ts).toBeCloseTo(0.012, 9);
    expect(flowEvents[4]).toMatchObject({ bp: "e" });
    expect(t.otherData["signalFlows"]).toMatch(/^2 delivered signals linked/);
  });

  it("says when the link is a guess (several queued sends outstanding) and ends a flow without sigreturn at the handler", () => {
    // two sends before either dequeue: first in, first out; the second handler longjmps out (no sigreturn)
    const sends = (t0: number) => pingTimeline(t0, 1, 2).slice(0, 5);
    const catches = (t0: number) => pingTimeline(t0, 1, 2).slice(5, 13);
    const tl = [...sends(0), ...sends(100), ...catches(200), ...catches(300)];
    const flows = signalFlows(tl);
    expect(flows).toHaveLength(2);
    expect(flows[0]!.outstanding).toBe(2);
    expect(flows[1]!.sigreturn).toBeUndefined();
    const t = toPerfettoTrace([result(tl)]);
    const starts = t.traceEvents.filter((e) => e.ph === "s");
    expect(starts[0]!.args!["inferred"]).toMatch(/2 queued sends were outstanding/);
    expect(starts[1]!.args!["sigreturn"]).toMatch(/none recorded/);
    expect(t.traceEvents.filter((e) => e.ph === "f").at(-1)!.tid).toBe(2);
  });

  it("a signal that is dequeued but not caught (ignored, default action) makes no flow and takes its send", () => {
    const caught = pingTimeline(0, 1, 2);
    const ignored = [...caught.slice(0, 10).map((e) => ({ ...e })), ev(2, "user_work", "user", 50, 60)].map((e, k) => (k === 9 ? ev(2, "do_signal.action", "signal.frame", 47, 50) : e));
    const tl = [...ignored, ...pingTimeline(100, 1, 2)];
    const flows = signalFlows(tl);
    expect(flows).toHaveLength(1);
    expect(tl[flows[0]!.send!]!.start).toBe(110); // the second kill, not the first
  });

  it("counts queued signals, samples the run queue at schedule() and follows the FPU owner", () => {
    const tl = [
      ev(0, "schedule", "sched.schedule", 0, 10),
      ev(0, "goodness", "sched.schedule", 10, 28), // 2 tasks × 9 cycles
      ev(0, "schedule.finish", "sched.schedule", 28, 30),
      ev(1, "device_not_available", "fpu.nm_trap", 30, 40),
      ev(1, "user_fp_op", "user", 40, 50),
      ...pingTimeline(50, 1, 1),
      ev(1, "unlazy_fpu.switch", "sched.switch_to", 150, 160),
      ev(2, "schedule", "sched.schedule", 160, 170),
      ev(2, "schedule.finish", "sched.schedule", 170, 175), // empty run queue: no goodness() at all
    ];
    const paths = [{ name: "goodness", phase: "sched.schedule", origin: "core", count: 2, cycles: 18, ops: [] }];
    const t = toPerfettoTrace([result(tl, { paths })]);
    const counter = (name: string) => t.traceEvents.filter((e) => e.ph === "C" && e.name === name).map((e) => [Math.round(e.ts * 1000), e.args!["value"]]);
    expect(counter("signals queued (all tasks)")).toEqual([[0, 0], [80, 1], [94, 0]]);
    expect(counter("run queue (tasks, at schedule())")).toEqual([[10, 2], [170, 0]]);
    expect(counter("FPU owner (pid, 0 none)")).toEqual([[0, 0], [40, 1], [160, 0]]);
    // a plugin with FPU paths of its own: the track is left out, and the trace says why
    const foreign = toPerfettoTrace([result(tl, { paths: [...paths, { name: "lazy_fp.nm_save", phase: "fpu.nm_trap", origin: "lazy-fpu-frame", count: 1, cycles: 5, ops: [] }] })]);
    expect(foreign.traceEvents.some((e) => e.ph === "C" && e.name.startsWith("FPU owner"))).toBe(false);
    expect(foreign.otherData["absentTracks"]).toMatch(/run 1: no FPU-owner track \(the variant stack handles the FPU itself \(lazy_fp\.nm_save of lazy-fpu-frame\)/);
  });

  it("puts each finding on its task's track at the cycle its evidence names", () => {
    const findings = [
      { severity: "error" as const, kind: "fpu-corruption", message: "st0 of task 2 was corrupted", evidence: { task: 2, cycle: 500, occurrences: 3, lastCycle: 900 } },
      { severity: "warning" as const, kind: "delayed-signal", message: "late", evidence: { task: 1, since: 100, delayCycles: 50 } },
      { severity: "error" as const, kind: "lost-signal", message: "1 lost", evidence: { queued: 2 } },
    ];
    const t = toPerfettoTrace([result(pingTimeline(0, 1, 2), { findings, totalCycles: 2000 })]);
    const inst = t.traceEvents.filter((e) => e.ph === "i");
    expect(inst.map((e) => [e.name, e.s, e.tid, e.ts])).toEqual([
      ["error: fpu-corruption", "t", 2, 0.5],
      ["warning: delayed-signal", "t", 1, 0.15],
      ["error: lost-signal", "p", 0, 2],
    ]);
    expect(inst[2]!.args!["when"]).toMatch(/end of the run/);
    // findings show even in a run without a timeline
    expect(toPerfettoTrace([result([], { findings })]).traceEvents.filter((e) => e.ph === "i")).toHaveLength(3);
  });

  it("an SMP run gets a track per CPU (which task ran) and the CPU on every slice", () => {
    const tl = [...pingTimeline(0, 1, 2, 0).slice(0, 5), ev(0, "idle", "idle", 0, 40, 1), ...pingTimeline(0, 1, 2, 1).slice(5)];
    const t = toPerfettoTrace([result(tl, { cpu: { id: "p4-northwood", mhz: 1000, smp: 2 } })]);
    for (const e of t.traceEvents) expect(validateTraceEvent(e as unknown as Record<string, unknown>), JSON.stringify(e)).toEqual([]);
    const names = t.traceEvents.filter((e) => e.name === "thread_name").map((e) => [e.tid, e.args!["name"]]);
    expect(names).toEqual(expect.arrayContaining([[CPU_TRACK_TID_BASE, "CPU 0"], [CPU_TRACK_TID_BASE + 1, "CPU 1"]]));
    const cpu1 = t.traceEvents.filter((e) => e.ph === "X" && e.tid === CPU_TRACK_TID_BASE + 1).map((e) => [e.name, e.ts * 1000, (e.ts + e.dur!) * 1000]);
    expect(cpu1).toEqual([["idle (pid 0)", 0, 40], ["task 2", 40, 100]]);
    expect(t.traceEvents.find((e) => e.ph === "X" && e.name === "setup_frame")!.args!["cpu"]).toBe(1);
  });

  it("a real lat_sig catch run: every caught signal is one flow from kill to sigreturn", () => {
    const r = runExample("lat_sig_catch", { params: { iterations: 5 }, timeline: true });
    expect(r.error).toBeUndefined();
    const flows = signalFlows(r.timeline!);
    expect(flows.length).toBe(r.counters["signals.delivered"]);
    for (const f of flows) {
      expect([f.send, f.doSignal, f.frame, f.handler, f.sigreturn].map((k) => r.timeline![k!]!.name)).toEqual(["sys_kill", "do_signal", "setup_frame", "handler_call", "sys_sigreturn"]);
      expect(f.outstanding).toBe(1);
    }
    const t = toPerfettoTrace([r]);
    for (const e of t.traceEvents) expect(validateTraceEvent(e as unknown as Record<string, unknown>), JSON.stringify(e)).toEqual([]);
    expect(t.traceEvents.some((e) => e.ph === "C" && e.name === "FPU owner (pid, 0 none)")).toBe(true);
  });
});
