import { describe, expect, it } from "vitest";
import { compareResults, summarizeMarkdown } from "../../src/bundle/index.js";
import { experiment, fakeResults } from "./fixtures.js";

describe("compareResults", () => {
  const a = fakeResults(experiment());

  it("finds identical results identical", () => {
    expect(compareResults(a, structuredClone(a))).toEqual({ identical: true, differences: [], truncated: false });
  });

  it("names the run and the value's path, keying metrics and paths by name", () => {
    const b = structuredClone(a);
    b[2]!.metrics[0]!.value += 1;
    b[3]!.phases["signal.fpu_save"] = 7;
    b[3]!.counters["tlb.flushes"] = 3;
    b[1]!.paths[1]!.ops.push({ fn: "save_i387", op: "fxsave", cycles: 100, repeat: 1 });
    const r = compareResults(a, b);
    expect(r.identical).toBe(false);
    expect(r.differences).toEqual([
      { run: 1, path: "paths[setup_frame].ops.length", expected: 0, actual: 1 },
      { run: 2, path: "metrics[signal round trip].value", expected: a[2]!.metrics[0]!.value, actual: a[2]!.metrics[0]!.value + 1 },
      { run: 3, path: 'phases["signal.fpu_save"]', expected: a[3]!.phases["signal.fpu_save"], actual: 7 },
      { run: 3, path: 'counters["tlb.flushes"]', expected: undefined, actual: 3 },
    ]);
  });

  it("reports a missing metric, a changed finding and different run counts", () => {
    const b = structuredClone(a);
    b[0]!.metrics.pop();
    b[3]!.findings = [];
    const r = compareResults(a, b.concat(structuredClone(a[0]!)));
    expect(r.differences[0]).toEqual({ run: -1, path: "length", expected: 4, actual: 5 });
    expect(r.differences.map((d) => `${d.run}:${d.path}`)).toEqual(['-1:length', '0:metrics[syscalls, per "iteration"]', "3:findings.length"]);
  });

  it("stops listing after maxDifferences", () => {
    const b = structuredClone(a).map((r) => ({ ...r, totalCycles: r.totalCycles + 1, seed: 0 }));
    const r = compareResults(a, b, { maxDifferences: 3 });
    expect(r.differences).toHaveLength(3);
    expect(r.truncated).toBe(true);
  });
});

describe("summarizeMarkdown", () => {
  it("lists runs, metrics, phases and findings with cells escaped", () => {
    const results = fakeResults(experiment());
    results[0]!.metrics[0]!.name = "a|b\nc";
    const md = summarizeMarkdown(results, experiment());
    expect(md).toContain("# SigLab experiment: lat_sig_catch");
    expect(md).toContain("- CPUs: p4-northwood@2200 MHz, p3-coppermine@800 MHz");
    expect(md).toContain("- Variant stacks: baseline · sa-nofp:force=true;thirdparty-mask");
    expect(md).toContain("| 2 | p4-northwood | 2200 | sa-nofp:force=true;thirdparty-mask | iterations=1000 |");
    expect(md).toContain("| 1 | a\\|b c |");
    expect(md).toContain("| Run | signal.fpu_save | syscall.entry | user |");
    expect(md).toMatch(/- Run 2: \*\*error\*\* `fpu-corruption`: xmm0 changed, across sigreturn/);
    expect(summarizeMarkdown([])).toContain("0 runs.");
  });
});
