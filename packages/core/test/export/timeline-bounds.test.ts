import { describe, expect, it } from "vitest";
import { hasNoTimeline, toPerfettoTrace, truncatedTimelines } from "../../src/export/index.js";
import { TIMELINE_LIMIT } from "../../src/exec/executor.js";
import { runExample } from "../harness.js";

describe("a bounded timeline says it was cut", () => {
  it("counts the events past the limit, and the trace's metadata names the run", () => {
    const r = runExample("lat_syscall", { params: { iterations: 10_000, call: "getpid" }, timeline: true });
    expect(r.error).toBeUndefined();
    expect(r.timeline).toHaveLength(TIMELINE_LIMIT);
    const dropped = r.counters["timeline.dropped"]!;
    expect(dropped).toBeGreaterThan(0);
    expect(truncatedTimelines([r])).toEqual([`run 1: ${dropped.toLocaleString("en")} events after the first 20,000 not recorded`]);
    expect(toPerfettoTrace([r]).otherData["truncated"]).toMatch(/^run 1: .* not recorded$/);
  });

  it("a short run has no drop counter, and a run without a timeline is recognised", () => {
    const r = runExample("lat_syscall", { params: { iterations: 100 }, timeline: true });
    expect(r.counters["timeline.dropped"]).toBeUndefined();
    expect(toPerfettoTrace([r]).otherData["truncated"]).toBeUndefined();
    expect(hasNoTimeline([r])).toBe(false);
    expect(hasNoTimeline([runExample("lat_syscall", { params: { iterations: 100 } })])).toBe(true);
  });

  it("timelineLimit raises or lowers the bound; a bad one is refused", () => {
    const r = runExample("lat_syscall", { params: { iterations: 10_000, call: "getpid" }, timeline: true, timelineLimit: 50_000 });
    expect(r.error).toBeUndefined();
    expect(r.timeline!.length).toBeGreaterThan(TIMELINE_LIMIT);
    expect(r.timeline!.length).toBeLessThanOrEqual(50_000);
    const small = runExample("lat_syscall", { params: { iterations: 100 }, timeline: true, timelineLimit: 10 });
    expect(small.timeline).toHaveLength(10);
    expect(truncatedTimelines([small])[0]).toMatch(/after the first 10 not recorded$/);
    const bad = runExample("lat_syscall", { params: { iterations: 100 }, timeline: true, timelineLimit: 0 });
    expect(bad.error?.message).toMatch(/timelineLimit must be an integer from 1 to 10000000/);
  });
});
