/**
 * TEMPORARY stand-in for @siglab/core while the simulator is being written: the same export names
 * and shapes (runWorkload, EXAMPLES, BUILTIN_PLUGINS, BUILTIN_PROFILE_FILES), a toy cost model.
 * Only sim-adapter.ts imports it; delete it once the real core exports these names.
 */
import type { CpuProfileFile, PluginManifest, RunProgress, RunResult, RunSpec } from "../common/contracts.js";
import { BUILTIN_PROFILE_FILES as REAL_PROFILES } from "@siglab/cpu-profiles";

export interface LoadedPlugin {
  manifest: PluginManifest;
  module(options: Record<string, unknown>): unknown;
  builtin: boolean;
  origin?: string;
}

export interface RunEnvironment {
  profiles: CpuProfileFile[];
  plugins: LoadedPlugin[];
  evaluate(js: string, file: string, siglabModule: Record<string, unknown>): unknown;
  transpile(ts: string, file: string): string;
  onProgress?(p: RunProgress): void;
  shouldCancel?(): boolean;
}

export const BUILTIN_PROFILE_FILES: CpuProfileFile[] = [...REAL_PROFILES];

const LAT_SIG_CATCH = `import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "lat_sig catch",
  params: { iterations: 2000 },
  *main(t, { iterations }) {
    yield* t.fpu.set("xmm0", [1, 2, 3, 4]);
    yield* t.sigaction(SIGUSR1, function* () {}, { flags: 0 });
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.kill(t.pid, SIGUSR1);
      t.progress(i / iterations);
    }
    t.report("signal round trip", (t.rdtsc() - start) / iterations, "cycles");
  },
});
`;
const SA_NOFP = `import { workload, SIGUSR1, SA_NOFP } from "siglab";

export default workload({
  name: "SA_NOFP hazard",
  params: { iterations: 100, copyBytes: 4096 },
  *main(t, { iterations, copyBytes }) {
    yield* t.fpu.set("xmm0", [1, 2, 3, 4]);
    yield* t.sigaction(SIGUSR1, function* (h) { yield* h.libc.memcpy(copyBytes); }, { flags: SA_NOFP });
    for (let i = 0; i < iterations; i++) yield* t.kill(t.pid, SIGUSR1);
    t.report("xmm0 lane 0", (yield* t.fpu.get("xmm0"))[0], "value");
  },
});
`;
const NULL_SYSCALL = `import { workload } from "siglab";

export default workload({
  name: "lat_syscall null",
  params: { iterations: 100000 },
  *main(t, { iterations }) {
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) { yield* t.getpid(); if (i % 1000 === 0) t.progress(i / iterations); }
    t.report("null syscall", (t.rdtsc() - start) / iterations, "cycles");
  },
});
`;

export const EXAMPLES = [
  { id: "lat_sig_catch", title: "lat_sig catch", file: "examples/lat_sig_catch.ts", source: LAT_SIG_CATCH },
  { id: "lat_syscall_null", title: "lat_syscall null", file: "examples/lat_syscall_null.ts", source: NULL_SYSCALL },
  { id: "sa_nofp_hazard", title: "SA_NOFP hazard", file: "examples/sa_nofp_hazard.ts", source: SA_NOFP },
];

export const BUILTIN_PLUGINS: LoadedPlugin[] = [
  {
    manifest: {
      id: "sa-nofp", version: "0.1.0", apiVersion: "1.0", displayName: "SA_NOFP (Andi Kleen)",
      description: "Skip the FPU save in setup_frame for handlers flagged SA_NOFP.",
      options: { forceAll: { type: "boolean", default: false, description: "Treat every handler as SA_NOFP" } },
      contributes: ["SignalFrameFpuPolicy"],
    },
    module: () => ({}),
    builtin: true,
  },
  {
    manifest: {
      id: "sysenter", version: "0.1.0", apiVersion: "1.0", displayName: "SYSENTER entry",
      description: "vsyscall page and SYSENTER/SYSEXIT.", options: {}, contributes: ["EntryMechanism"], replaces: ["EntryMechanism"],
    },
    module: () => ({}),
    builtin: true,
  },
];

/** The "siglab" module a workload imports. */
export function createSiglabModule(): Record<string, unknown> {
  return { workload: (def: unknown) => ({ ...(def as object), __siglabWorkload: true }), SIGUSR1: 10, SIGUSR2: 12, SIGSEGV: 11, SA_NOFP: 0x02000000, SA_SIGINFO: 4 };
}

type Gen = Generator<unknown, unknown, unknown>;

export function runWorkload(spec: RunSpec, env: RunEnvironment): RunResult {
  const prof = env.profiles.find((p) => p.id === spec.cpu.id);
  const scale = prof ? (prof.costs as Record<string, { cycles: number }>).int_gate.cycles / 4 : 1;
  const nofp = spec.variants.some((v) => v.id === "sa-nofp");
  const phases: Record<string, number> = {};
  const counters: Record<string, number> = {};
  const metrics: RunResult["metrics"] = [];
  const findings: RunResult["findings"] = [];
  let cycles = 0;
  let steps = 0;
  let xmm0 = [0, 0, 0, 0];
  let handler: ((h: unknown) => Gen) | null = null;
  const charge = (phase: string, c: number) => {
    const v = Math.round(c * scale);
    phases[phase] = (phases[phase] ?? 0) + v;
    cycles += v;
    steps++;
    if (steps % 5000 === 0) {
      if (env.shouldCancel?.()) throw new Error("cancelled");
      env.onProgress?.({ cycles, steps });
    }
  };
  const paths = new Map<string, { phase: string; count: number; cycles: number }>();
  const path = (name: string, phase: string, c: number) => {
    charge(phase, c);
    const p = paths.get(name) ?? { phase, count: 0, cycles: 0 };
    p.count++;
    p.cycles += Math.round(c * scale);
    paths.set(name, p);
  };
  const t: Record<string, unknown> = {
    pid: 1, tid: 1, mhz: spec.cpu.mhz, params: spec.params,
    rdtsc: () => cycles,
    report: (name: string, value: number, unit: string) => metrics.push({ name, value, unit }),
    sample: () => undefined, mark: () => undefined, log: () => undefined,
    progress: (f: number) => { if (steps % 500 === 0) env.onProgress?.({ fraction: f, cycles, steps }); },
    *getpid() { path("system_call", "syscall.entry", 30); path("ret_from_sys_call", "syscall.exit", 20); return 1; },
    *compute(c: number) { charge("user", c); },
    *sigaction(_s: number, h: (h: unknown) => Gen) { path("system_call", "syscall.entry", 30); handler = h; path("ret_from_sys_call", "syscall.exit", 20); return 0; },
    *kill() {
      path("system_call", "syscall.entry", 30);
      counters["signals.delivered"] = (counters["signals.delivered"] ?? 0) + 1;
      path("setup_frame", "signal.frame", 200);
      const saved = [...xmm0];
      if (!nofp) path("save_i387", "signal.fpu_save", 150);
      if (handler) yield* handler(t);
      path("sys_sigreturn", "signal.sigreturn", 120);
      if (!nofp) { path("restore_i387", "signal.fpu_restore", 140); xmm0 = saved; }
      else if (xmm0.join() !== saved.join() && !findings.some((f) => f.kind === "fpu-corruption")) {
        findings.push({ severity: "error", kind: "fpu-corruption", message: "xmm0 of task 1 changed across a signal handler", evidence: { task: 1, register: "xmm0", expected: saved, actual: xmm0, plugin: "sa-nofp", op: "setup_frame" } });
      }
      return 0;
    },
    fpu: {
      *set(_r: string, v: number[]) { charge("user", 2); xmm0 = v; },
      *get() { charge("user", 2); return xmm0; },
      *ops() { charge("user", 4); },
    },
    libc: { sseMemcpy: true, sseThreshold: 128, *memcpy(bytes: number) { charge("signal.handler", bytes / 16); if (bytes >= 128) xmm0 = [9, 9, 9, 9]; } },
  };
  const base = { workload: spec.workload.id, cpu: spec.cpu, variants: spec.variants, params: spec.params, seed: spec.seed };
  const finish = (error?: RunResult["error"]): RunResult => ({
    ...base, metrics, phases, counters, findings, totalCycles: cycles, simSeconds: cycles / (spec.cpu.mhz * 1e6),
    paths: [...paths].map(([name, p]) => ({ name, phase: p.phase, origin: name.includes("i387") && nofp ? "sa-nofp" : "core", count: p.count, cycles: p.cycles, ops: [
      { fn: name, op: "alu", cycles: Math.round((p.cycles / Math.max(1, p.count)) * 0.4), repeat: 1 },
      { fn: name, op: name.includes("i387") ? "fxsave" : "push", cycles: Math.round((p.cycles / Math.max(1, p.count)) * 0.6), repeat: 1 },
    ] })),
    ...(error ? { error } : {}),
  });
  let mod: { default?: { main: (t: unknown, p: unknown) => Gen; params: Record<string, unknown> } };
  try {
    const js = env.transpile(spec.workload.source, spec.workload.file);
    mod = env.evaluate(js, spec.workload.file, createSiglabModule()) as never;
  } catch (err) {
    return finish({ kind: "compile", message: (err as Error).message, file: spec.workload.file });
  }
  try {
    const def = mod.default!;
    const gen = def.main(t, { ...def.params, ...spec.params });
    for (let r = gen.next(); !r.done; r = gen.next()) { /* drive */ }
  } catch (err) {
    return finish({ kind: (err as Error).message === "cancelled" ? "cancelled" : "workload", message: (err as Error).message, file: spec.workload.file });
  }
  return finish();
}
