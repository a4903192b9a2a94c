/**
 * End to end with the real simulator: run shipped examples on two CPUs, write a bundle, read it
 * back, re-run the bundle's own experiment with the bundle's own profiles, and compare. Also
 * checks the exports on real results (the trace against the trace-event required fields).
 */
import vm from "node:vm";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { EXAMPLES, expandExperiment, runWorkload, type ExperimentConfig, type RunEnvironment, type RunResult } from "../../src/index.js";
import { compareResults, readBundle, writeBundle } from "../../src/bundle/index.js";
import { toCsv, toPerfettoTrace } from "../../src/export/index.js";

/** A test host: TypeScript → CommonJS, evaluated in a fresh V8 context that can only require "siglab". */
function env(profiles = BUILTIN_PROFILE_FILES): RunEnvironment {
  return {
    profiles: [...profiles],
    plugins: [],
    transpile: (src, file) => ts.transpileModule(src, { fileName: file, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText,
    evaluate(js, file, siglab) {
      const ctx = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
      const fn = new vm.Script(`(function (require, module, exports) {${js}\n})`, { filename: file }).runInContext(ctx);
      const module = { exports: {} as unknown };
      fn((id: string) => (id === "siglab" ? siglab : undefined), module, module.exports);
      return module.exports;
    },
  };
}

const CPUS = [
  { id: "p4-northwood", mhz: 2200 },
  { id: "p6-coppermine", mhz: 800 },
];
/**
 * Fewer iterations than the examples' defaults: a bundle's promise (the same bytes again) does not
 * depend on the run's length, and each of these runs still overflows its 20,000-event timeline
 * (the timeline.dropped counter round-trips too).
 */
const SMALL: Record<string, Record<string, number>> = { lat_syscall: { iterations: 10_000 }, lat_sig_catch: { iterations: 2_000 }, lat_ctx: { iterations: 1_000 } };

function experimentFor(id: string): ExperimentConfig {
  const ex = EXAMPLES.find((e) => e.id === id)!;
  return { workload: { id: ex.id, file: ex.file, source: ex.source }, cpus: CPUS, stacks: [[]], params: SMALL[id] ?? {}, seed: 7, timeline: true };
}

function runAll(exp: ExperimentConfig, e: RunEnvironment): RunResult[] {
  return expandExperiment(exp).map((s) => runWorkload(s, e));
}

describe("bundles of real runs", () => {
  // a sample with syscalls, signals, context switches and the SA_NOFP hazard; every example, with a
  // plugin in the stack, is covered by apps/cli/test/bundle-cli.test.ts
  const ids = ["lat_syscall", "lat_sig_catch", "lat_ctx", "sa_nofp_hazard"];

  // Determinism is what a bundle promises: even a run that ends in an error must reproduce it.
  it.each(ids)("%s: export → open → re-run is identical", (id) => {
    expect(EXAMPLES.some((e) => e.id === id)).toBe(true);
    const exp = experimentFor(id);
    const results = runAll(exp, env());
    const profiles = BUILTIN_PROFILE_FILES.filter((p) => CPUS.some((c) => c.id === p.id));
    const bytes = writeBundle({ experiment: exp, profiles, plugins: [], results, appVersion: "test", createdAt: "2026-11-30T00:00:00Z" });
    const b = readBundle(bytes, { fileName: `${id}.siglab` });
    expect(b.warnings).toEqual([]);
    const again = runAll(b.experiment, env(b.profiles));
    const cmp = compareResults(b.results, again);
    expect(cmp.differences).toEqual([]);
    expect(cmp.identical).toBe(true);
  });

  it("a changed profile shows up as differences", () => {
    const exp = experimentFor("lat_syscall");
    const results = runAll(exp, env());
    const profiles = structuredClone(BUILTIN_PROFILE_FILES.filter((p) => CPUS.some((c) => c.id === p.id)));
    const b = readBundle(writeBundle({ experiment: exp, profiles, plugins: [], results, appVersion: "test" }));
    const edited = structuredClone(b.profiles);
    for (const p of edited) for (const c of Object.values(p.costs)) c.cycles = c.cycles * 2 + 1;
    const cmp = compareResults(b.results, runAll(b.experiment, env(edited)));
    expect(cmp.identical).toBe(false);
    expect(cmp.differences.some((d) => d.path === "totalCycles")).toBe(true);
  });

  it("exports real results as CSV rows and a valid trace", () => {
    const results = runAll(experimentFor("lat_sig_catch"), env());
    const csv = toCsv(results);
    expect(csv.split("\r\n").length).toBeGreaterThan(results.length);
    const trace = toPerfettoTrace(results);
    const slices = trace.traceEvents.filter((e) => e.ph === "X");
    expect(slices.length).toBeGreaterThan(0);
    // the timeline overflowed (so the trace has the most events a run records)
    expect(results.every((r) => (r.counters["timeline.dropped"] ?? 0) > 0)).toBe(true);
    // every event has a name, numeric pid/tid/ts and a slice a duration >= 0 (one expect for 40,000 events)
    const bad = trace.traceEvents.filter((e) => typeof e.name !== "string" || !(["pid", "tid", "ts"] as const).every((k) => Number.isFinite(e[k])) || (e.ph === "X" && !(e.dur! >= 0)));
    expect(bad.slice(0, 5)).toEqual([]);
  });
});
