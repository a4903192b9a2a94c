import { describe, expect, it } from "vitest";
import { median, repeatSeeds, summarizeRepeats } from "../src/index.js";
import { metric, runExample, runSource } from "./harness.js";

describe("seeds drive the phase of the timer tick", () => {
  it("the same seed gives byte-identical results; other seeds move the ticks (and what they hit)", () => {
    const a = runExample("lat_ctx", { params: { iterations: 400 }, seed: 7 });
    const b = runExample("lat_ctx", { params: { iterations: 400 }, seed: 7 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const ticks = new Set<number>();
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = runSource(`import { workload } from "siglab";
export default workload({ name: "t", params: {}, hz: 100, *main(t) { yield* t.compute(35 * t.mhz * 1000); t.report("ticks", 0, "n"); } });`, { seed });
      ticks.add(r.totalCycles);
    }
    // 35 ms of user work: 3 or 4 ticks land in it depending on the phase, so the totals differ
    expect(ticks.size).toBeGreaterThan(1);
  });
});

describe("--repeat: min, median, max per metric", () => {
  it("seeds are consecutive and wrap at 2^32; the median is lmbench's (middle, or mean of the middle two)", () => {
    expect(repeatSeeds(4294967295, 3)).toEqual([4294967295, 0, 1]);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("summarises repetitions of lat_ctx: value is the median, min <= median <= max", () => {
    const runs = repeatSeeds(1, 5).map((seed) => runExample("lat_ctx", { params: { iterations: 300 }, seed }));
    const s = summarizeRepeats(runs);
    expect(s.repeat).toEqual({ n: 5, seeds: [1, 2, 3, 4, 5] });
    const m = s.metrics.find((x) => x.name === "2p/0K ctxsw")!;
    const values = runs.map((r) => metric(r, "2p/0K ctxsw"));
    expect(m.value).toBe(median(values));
    expect(m.min).toBe(Math.min(...values));
    expect(m.max).toBe(Math.max(...values));
    expect(m.min).toBeLessThanOrEqual(m.median);
    expect(m.median).toBeLessThanOrEqual(m.max);
  });
});
