/**
 * The memory half of `pnpm bench`: heap growth of the simulator over a run, measured in this
 * process (the shipped lat_sig_catch example is SigLab's own code; no foreign code runs here).
 */
import { EXAMPLES, runWorkload, type RunEnvironment } from "@siglab/core";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { transpileWorkload } from "./run/compile.js";

const env: RunEnvironment = {
  profiles: [...BUILTIN_PROFILE_FILES],
  plugins: [],
  transpile: transpileWorkload,
  evaluate(js, _file, siglab) {
    const module = { exports: {} as unknown };
    new Function("require", "module", "exports", js)((id: string) => (id === "siglab" ? siglab : undefined), module, module.exports);
    return module.exports;
  },
};

/** MiB of heap still in use after a lat_sig_catch run of `n` iterations (after a forced GC). */
export function heapGrowth(n: number): number {
  const e = EXAMPLES.find((x) => x.id === "lat_sig_catch")!;
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const r = runWorkload({ workload: { id: e.id, file: e.file, source: e.source }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: { iterations: n }, seed: 1, budget: { maxSteps: 1e9, maxCycles: 1e15 } }, env);
  if (r.error) throw new Error(`lat_sig_catch: ${r.error.message}`);
  globalThis.gc?.();
  return (process.memoryUsage().heapUsed - before) / 1048576;
}
