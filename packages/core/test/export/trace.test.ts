import { describe, expect, it } from "vitest";
import { toPerfettoTrace, type TraceEvent } from "../../src/export/index.js";
import { experiment, fakeResults } from "../bundle/fixtures.js";

/** The trace-event format's required fields (Trace Event Format doc): ph, name, pid, tid, ts; dur for X. */
function validateTraceEvent(e: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof e.name !== "string") problems.push("name");
  if (typeof e.ph !== "string" || e.ph.length !== 1) problems.push("ph");
  for (const k of ["pid", "tid", "ts"]) if (typeof e[k] !== "number" || !Number.isFinite(e[k])) problems.push(k);
  if (e.ph === "X" && (typeof e.dur !== "number" || !((e.dur as number) >= 0))) problems.push("dur");
  if (e.ph === "M" && !["process_name", "thread_name", "process_sort_index", "thread_sort_index"].includes(e.name as string)) problems.push("M name");
  if (e.ph === "M" && typeof e.args !== "object") problems.push("args");
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

  it("emits only process metadata for runs without a timeline", () => {
    const noTimeline = fakeResults(experiment({ timeline: false }));
    const t = toPerfettoTrace(noTimeline);
    expect(t.traceEvents.every((e) => e.ph === "M" && e.tid === 0)).toBe(true);
    expect(t.traceEvents).toHaveLength(noTimeline.length * 2);
  });
});
