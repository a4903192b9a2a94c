/** Bundles and the workloads' named loops (RunResult.loops): kept, checked, and optional. */
import { describe, expect, it } from "vitest";
import { BundleError, compareResults, readBundle, writeBundle } from "../../src/bundle/index.js";
import type { LoopStat, RunResult } from "../../src/common/index.js";
import { bundleInput } from "./fixtures.js";
import { editJson, rezip } from "./zip-craft.js";

const LOOPS: LoopStat[] = [
  { name: "send: kill(me, 0)", count: 100, cycles: 150_000, phases: { "syscall.entry": 80_000, "syscall.exit": 70_000 } },
  { name: "catch: kill(me, SIGUSR1)", count: 100, cycles: 800_000, phases: { "syscall.entry": 80_000, "signal.frame": 720_000 }, overhead: "send: kill(me, 0)" },
];

function withLoops(): ReturnType<typeof bundleInput> {
  const input = bundleInput();
  input.results = input.results.map((r, i): RunResult => (i === 0 ? { ...r, loops: LOOPS } : r));
  return input;
}

describe("bundles and named loops", () => {
  it("keep a run's loops as written; runs without loops (older bundles) still read", () => {
    const input = withLoops();
    const b = readBundle(writeBundle(input), { fileName: "x.siglab" });
    expect(b.results[0]!.loops).toEqual(LOOPS);
    expect(b.results[1]!.loops).toBeUndefined();
    expect(compareResults(input.results, b.results).identical).toBe(true);
  });

  it("refuse malformed loops, naming the field", () => {
    const good = writeBundle(withLoops());
    const bad = rezip(good, (f) => editJson(f, "results.json", (r) => (r[0].loops[1].count = 0)), { rehash: true });
    expect(() => readBundle(bad, { fileName: "x.siglab" })).toThrow(BundleError);
    expect(() => readBundle(bad, { fileName: "x.siglab" })).toThrow(/results\.json: schema violation: field \[0\]\.loops\[1\]\.count/);
    const phases = rezip(good, (f) => editJson(f, "results.json", (r) => (r[0].loops[0].phases["syscall.entry"] = "many")), { rehash: true });
    expect(() => readBundle(phases, { fileName: "x.siglab" })).toThrow(/field \[0\]\.loops\[0\]\.phases/);
  });

  it("report a re-run whose loops differ", () => {
    const input = withLoops();
    const other = input.results.map((r) => ({ ...r, loops: r.loops?.map((l) => ({ ...l, cycles: l.cycles + 1 })) }));
    const c = compareResults(input.results, other);
    expect(c.identical).toBe(false);
    expect(c.differences[0]!.path).toBe("loops[send: kill(me, 0)].cycles");
  });
});
