/** `siglab run --repeat N`: N seeds per run (the timer tick's phase), min/median/max per metric. */
import { afterAll, describe, expect, it } from "vitest";
import { median, type RepeatedRun } from "@siglab/core";
import { parseRepeat, runExperimentSlice } from "../src/commands/run.js";
import { stopSandbox } from "../src/run/host.js";

afterAll(() => stopSandbox());

describe("--repeat", () => {
  it("refuses what is not an integer from 1 to 1000", () => {
    expect(parseRepeat(undefined)).toBe(1);
    expect(parseRepeat("11")).toBe(11);
    for (const bad of ["0", "1001", "2.5", "abc"]) expect(() => parseRepeat(bad)).toThrow(/--repeat: expected an integer from 1 to 1,000/);
  });

  it("runs each run with seeds seed..seed+n-1 and reports each metric's min, median (as value) and max", async () => {
    const params = ["iterations=4000"];
    const rep = (await runExperimentSlice("lat_ctx", { param: params, seed: "3", jobs: "1" }, 4)).results as RepeatedRun[];
    expect(rep).toHaveLength(1);
    const r = rep[0]!;
    expect(r.repeat).toEqual({ n: 4, seeds: [3, 4, 5, 6] });
    const singles = [];
    for (const seed of [3, 4, 5, 6]) singles.push((await runExperimentSlice("lat_ctx", { param: params, seed: String(seed), jobs: "1" })).results[0]!);
    const values = singles.map((s) => s.metrics.find((m) => m.name === "2p/0K ctxsw")!.value);
    const m = r.metrics.find((x) => x.name === "2p/0K ctxsw")!;
    expect([m.min, m.median, m.max, m.value]).toEqual([Math.min(...values), median(values), Math.max(...values), median(values)]);
    // 4,000 passes span a timer tick: where it lands depends on the seed
    expect(new Set(singles.map((s) => s.totalCycles)).size).toBeGreaterThan(1);
  }, 120_000);
});
