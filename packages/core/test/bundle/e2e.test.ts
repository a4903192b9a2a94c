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
const SMALL: Record<string, Record<string, number>> = {};

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
    for (const e of trace.traceEvents) {
      expect(typeof e.name).toBe("string");
      for (const k of ["pid", "tid", "ts"] as const) expect(Number.isFinite(e[k])).toBe(true);
      if (e.ph === "X") expect(e.dur! >= 0).toBe(true);
    }
  });
});
