/**
 * The equivalence oracle (issue 12): every fast path the simulator takes (a kernel path folded into
 * one addition when no event can land inside it, and whatever shortcut comes later) must give the
 * results of running every kernel path op by op with an interrupt check at every op boundary.
 * Metrics, phases, counters, findings, per-op path statistics and the timeline must be identical.
 */
import { describe, expect, it } from "vitest";
import { oracleCases, runOracleCase } from "./oracle-cases.js";

const cases = oracleCases(1 / 3);

describe("equivalence oracle: fast paths against op by op", () => {
  it("covers every example on two CPUs, with and without its stack, and SMP", () => {
    expect(cases.length).toBeGreaterThan(60);
    expect(new Set(cases.map((c) => c.cpu)).size).toBeGreaterThanOrEqual(4);
    expect(cases.some((c) => c.smp === 2)).toBe(true);
    expect(cases.some((c) => c.variants.length > 0)).toBe(true);
  });

  it.each(cases.map((c) => [`${c.id} on ${c.cpu}${c.smp ? ` x${c.smp}` : ""} [${c.variants.map((v) => v.id).join("+") || "baseline"}]`, c] as const))("%s", (_name, c) => {
    const fast = runOracleCase(c);
    const exact = runOracleCase(c, { exactPaths: true });
    // every case runs (two failed runs would compare two empty results), and has a timeline to compare
    expect(fast.error?.message).toBeUndefined();
    expect(exact.error?.message).toBeUndefined();
    expect(fast.timeline?.length ?? 0).toBeGreaterThan(0);
    expect(exact.metrics).toEqual(fast.metrics);
    expect(exact.phases).toEqual(fast.phases);
    expect(exact.counters).toEqual(fast.counters);
    expect(exact.findings).toEqual(fast.findings);
    expect(exact.paths).toEqual(fast.paths);
    // the timeline last (the largest): compared whole
    expect(JSON.stringify(exact.timeline)).toBe(JSON.stringify(fast.timeline));
    expect(JSON.stringify(exact)).toBe(JSON.stringify(fast));
  });
});
