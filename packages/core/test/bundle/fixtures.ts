/** Hand-built inputs for bundle tests: fake results shaped like the simulator's, a tiny profile. */
import { OP_CLASS_IDS } from "../../../cpu-profiles/src/op-classes.js";
import type { CpuProfileFile } from "../../../cpu-profiles/src/types.js";
import { expandExperiment, type ExperimentConfig, type RunResult, type RunSpec } from "../../src/common/index.js";
import type { BundleInput } from "../../src/bundle/index.js";

export function profile(id: string, mhz: number, scale = 1): CpuProfileFile {
  const costs = Object.fromEntries(
    OP_CLASS_IDS.map((op, i) => [op, { cycles: (i + 1) * scale, kind: "estimated", source: "test fixture" }]),
  ) as CpuProfileFile["costs"];
  const n = (value: number) => ({ value, kind: "sourced" as const, source: "test" });
  return {
    id,
    name: `Test ${id}`,
    vendor: "Test",
    description: "fixture",
    clock: { defaultMhz: mhz, minMhz: mhz / 2, maxMhz: mhz * 2, presets: [mhz] },
    features: { fxsr: true, sep: true, sse: true, sse2: true, avx: false, avx512: false, xsave: false, xsaveopt: false, xsaves: false, pcid: false, pge: true },
    geometry: { cacheLineBytes: n(64), dtlbEntries: n(64), l1dKB: n(8), l2KB: n(512), xmmRegs: n(8), xsaveBytes: n(512) },
    costs,
  };
}

export const WORKLOAD_SOURCE = `import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "lat_sig catch",
  params: { iterations: 1000 },
  *main(t, { iterations }) {
    yield* t.sigaction(SIGUSR1, function* () {}, { flags: 0 });
    for (let i = 0; i < iterations; i++) yield* t.kill(t.pid, SIGUSR1);
  },
});
`;

export function experiment(over: Partial<ExperimentConfig> = {}): ExperimentConfig {
  return {
    workload: { id: "lat_sig_catch", file: "examples/lat_sig_catch.ts", source: WORKLOAD_SOURCE },
    cpus: [{ id: "p4-northwood", mhz: 2200 }, { id: "p3-coppermine", mhz: 800 }],
    stacks: [[], [{ id: "sa-nofp", options: { force: true } }, { id: "thirdparty-mask" }]],
    params: { iterations: 1000 },
    seed: 42,
    timeline: true,
    ...over,
  };
}

/** A deterministic fake of what runWorkload would return for a spec (numbers derived from it). */
export function fakeResult(spec: RunSpec, salt = 0): RunResult {
  const base = spec.cpu.mhz + spec.variants.length * 1000 + Number(spec.params.iterations ?? 0) + salt;
  const total = base * 10;
  return {
    workload: spec.workload.id,
    cpu: spec.cpu,
    variants: spec.variants,
    params: spec.params,
    seed: spec.seed,
    metrics: [
      { name: "signal round trip", value: base / 7, unit: "cycles", samples: [1, 2, 3] },
      { name: "syscalls, per \"iteration\"", value: 2, unit: "count" },
    ],
    phases: { "syscall.entry": base, "signal.fpu_save": base * 2, user: total - base * 3 },
    counters: { "syscalls.kill": 1000, "signals.delivered": 1000, "fpu.saves": spec.variants.length ? 0 : 1000 },
    findings: spec.variants.length
      ? [{ severity: "error", kind: "fpu-corruption", message: "xmm0 changed, across sigreturn", evidence: { task: 1, register: "xmm0", expected: [1, 2, 3, 4], actual: [0, 0, 0, 0] } }]
      : [],
    totalCycles: total,
    simSeconds: total / (spec.cpu.mhz * 1e6),
    paths: [
      { name: "system_call", phase: "syscall.entry", origin: "core", count: 1000, cycles: base, ops: [{ fn: "SAVE_ALL", op: "push", cycles: 12, repeat: 11 }] },
      { name: "setup_frame", phase: "signal.frame", origin: spec.variants[0]?.id ?? "core", count: 1000, cycles: base * 2, ops: [] },
    ],
    timeline: spec.timeline
      ? [
          { task: 1, kind: "user", name: "main", phase: "user", start: 0, end: 1000 },
          { task: 1, kind: "kernel", name: "system_call", phase: "syscall.entry", start: 1000, end: 1300 },
          { task: 2, kind: "handler", name: "handler", phase: "signal.handler", start: 1300, end: 2200 },
          { task: 0, kind: "idle", name: "idle", phase: "idle", start: 2200, end: 2300 },
        ]
      : undefined,
  };
}

export function fakeResults(cfg: ExperimentConfig, salt = 0): RunResult[] {
  return expandExperiment(cfg).map((s) => {
    const r = fakeResult(s, salt);
    if (r.timeline === undefined) delete r.timeline;
    return r;
  });
}

export const PLUGIN_MANIFEST = {
  id: "thirdparty-mask",
  version: "0.3.1",
  apiVersion: "1.0",
  displayName: "Third-party mask",
  description: "A third-party test plugin",
  options: {},
  contributes: ["SignalMaskStore"],
  main: "dist/index.js",
};

export function bundleInput(over: Partial<BundleInput> = {}): BundleInput {
  const exp = over.experiment ?? experiment();
  return {
    experiment: exp,
    profiles: [profile("p4-northwood", 2200), profile("p3-coppermine", 800, 2), profile("unused", 100)],
    plugins: [
      { source: "builtin", id: "sa-nofp", version: "1.0.0", hash: "a".repeat(64), apiVersion: "1.0" },
      {
        source: "embedded",
        id: "thirdparty-mask",
        version: "0.3.1",
        files: {
          "plugin.json": JSON.stringify(PLUGIN_MANIFEST, null, 2),
          "dist/index.js": "export default function activate() { return null; }\n",
          "dist/util/helpers.js": "export const x = 1;\n",
        },
      },
    ],
    results: fakeResults(exp),
    appVersion: "0.1.0-test",
    createdAt: "2026-11-30T12:00:00.000Z",
    charts: { "phases.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>", "bars.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
    ...over,
  };
}
