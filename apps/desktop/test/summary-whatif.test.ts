/**
 * "Your machine" and its what-ifs (src/renderer/summary/whatif.ts), without a DOM: the runs match
 * `siglab suite host`'s, the profile matched to a probe's CPU, and the what-ifs derived from real
 * linux6 runs' counters and the built-in plugins' manifests (which can run, which the host refuses).
 */
import { hostFigure, hostKernelOptions } from "@siglab/core/common";
import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import linux6Manifest from "../../../packages/plugins/linux6/plugin.json";
import lazyManifest from "../../../packages/plugins/lazy-fpu-frame/plugin.json";
import nofpManifest from "../../../packages/plugins/sa-nofp/plugin.json";
import linux6 from "../../../packages/plugins/linux6/src/index.js";
import { metric, runExample } from "../../../packages/core/test/harness.js";
import type { PluginManifest, RunResult } from "../src/common/contracts.js";
import type { PluginEntry } from "../src/common/host-api.js";
import { LMBENCH_BENCHMARKS, parseProbe, probeVmWarning } from "../src/renderer/summary/lmbench.js";
import { baselineCounters, deltaPercent, formatDeltaUs, machineRuns, matchProbeProfile, profileRefusal, stackRefusal, whatIfs } from "../src/renderer/summary/whatif.js";

const entry = (m: unknown, over: Partial<PluginEntry> = {}): PluginEntry => ({ id: (m as PluginManifest).id, origin: "builtin", manifest: m as PluginManifest, enabled: true, status: "ok", ...over });
const PLUGINS: PluginEntry[] = [entry(linux6Manifest), entry(lazyManifest), entry(nofpManifest)];
const BASELINE = [{ id: "linux6" }];
const profile = (id: string) => BUILTIN_PROFILE_FILES.find((p) => p.id === id)!;

describe("your machine: the runs and the profile", () => {
  it("simulates each figure as `siglab suite host` does (core's HOST_FIGURES): the same example and metric; the pinned loops on two CPUs with sched=SINGLE", () => {
    const runs = machineRuns({ id: "skylake", mhz: 3600 }, BASELINE);
    expect(runs.map((r) => r.example)).toEqual(LMBENCH_BENCHMARKS.map((b) => b.example));
    // the summary's columns name their example and metric themselves: they must be the probe figure's
    for (const b of LMBENCH_BENCHMARKS) expect(hostFigure(b.probeId), b.probeId).toMatchObject({ example: b.example, metric: b.metric });
    const how = Object.fromEntries(runs.map((r) => [r.example, { smp: r.cpu.smp, params: r.params }]));
    expect(how).toEqual({
      lat_syscall: { smp: undefined, params: {} },
      lat_sig_catch: { smp: undefined, params: {} },
      lat_sig_prot: { smp: undefined, params: {} },
      lat_ctx: { smp: 2, params: { sched: "SINGLE" } },
      lat_pipe: { smp: 2, params: { sched: "SINGLE" } },
    });
    for (const r of runs) expect(r.stack).toEqual(BASELINE);
    expect(runs.every((r) => r.cpu.id === "skylake" && r.cpu.mhz === 3600)).toBe(true);
  });

  it("matches the probe's CPU to an x86-64 profile: exact CPUID, nearest model of the family, else the vendor's newest", () => {
    const p = BUILTIN_PROFILE_FILES;
    expect(matchProbeProfile({ vendor: "GenuineIntel", cpuid: { family: 6, model: 94 } }, p)?.profile.id).toBe("skylake");
    expect(matchProbeProfile({ vendor: "GenuineIntel", cpuid: { family: 6, model: 85 } }, p)?.profile.id).toBe("skylake-x");
    // a Core 2 (family 6 model 15) is nearer the Pentium III (model 8) than Skylake, but the PIII has no long mode
    const core2 = matchProbeProfile({ vendor: "GenuineIntel", cpuid: { family: 6, model: 15 }, cpuModel: "Core 2" }, p)!;
    expect(core2.profile.features.lm).toBe(true);
    expect(core2.how).toMatch(/nearest of the family/);
    expect(matchProbeProfile({ vendor: "AuthenticAMD", cpuid: { family: 26, model: 2 } }, p)?.profile.id).toBe("zen5");
    expect(matchProbeProfile({ vendor: "AuthenticAMD", cpuid: { family: 25, model: 97 } }, p)?.profile.id).toBe("zen4");
    expect(matchProbeProfile({ vendor: "AuthenticAMD" }, p)?.how).toMatch(/newest/);
    expect(matchProbeProfile({ vendor: "CentaurHauls" }, p)).toBeNull();
    expect(matchProbeProfile({}, p)).toBeNull();
    expect(profileRefusal(profile("p4-northwood"), BASELINE)).toMatch(/lacks long mode/);
    expect(profileRefusal(profile("skylake"), BASELINE)).toBeNull();
  });

  it("keeps the probe's CPU and its kernel's mitigation lines (not the unaffected ones)", () => {
    const p = parseProbe(JSON.stringify({ host: { cpuModel: "Intel Core i7-6700K", vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, kernel: "Linux 6.8",
      mitigations: { meltdown: "Mitigation: PTI", mds: "Mitigation: Clear CPU buffers; SMT vulnerable", srbds: "Not affected" } },
    figures: [{ id: "lat_syscall_null", name: "Simple syscall", unit: "us", min: 0.1, median: 0.12, max: 0.2 }] }));
    expect(p.cpu).toEqual({ vendor: "GenuineIntel", cpuid: { family: 6, model: 94 }, cpuModel: "Intel Core i7-6700K" });
    expect(p.mitigations).toEqual([["meltdown", "Mitigation: PTI"], ["mds", "Mitigation: Clear CPU buffers; SMT vulnerable"]]);
    // every line (the unaffected too) and the CPU flags go to the kernel options, as in `suite host`
    expect(p.kernel.mitigations).toMatchObject({ meltdown: "Mitigation: PTI", srbds: "Not affected" });
    expect(hostKernelOptions(p.kernel).options).toMatchObject({ pti: "on", verw: "on" });
    const guest = parseProbe(JSON.stringify({ host: { vendor: "AuthenticAMD", kernel: "Linux 6.18.44", flags: ["fpu", "lm", 7, "x".repeat(500)], mitigations: { meltdown: "Mitigation: PTI", spectre_v2: "Mitigation: Retpolines; RSB filling; PBRSB-eIBRS: Not affected" } },
      figures: [{ id: "lat_syscall_null", unit: "us", min: 1, median: 1, max: 1 }] }));
    expect(guest.kernel.flags).toEqual(["fpu", "lm"]); // malformed entries dropped
    expect(hostKernelOptions(guest.kernel).options).toMatchObject({ pti: "on", pcid: "off", spectreV2: "retpoline", rsbFill: "on", dispatch: "switch" });
    // a probe without them still loads
    const bare = parseProbe(JSON.stringify({ host: { cpuid: "x" }, figures: [{ id: "lat_pipe", unit: "us", min: 1, median: 1, max: 1 }] }));
    expect(bare.cpu).toEqual({});
    expect(bare.mitigations).toEqual([]);
    expect(hostKernelOptions(bare.kernel).options).toEqual({});
  });

  it("keeps host.virtualization: a virtual machine's probe gets the warning; bare metal and a probe from before the field get none", () => {
    const figures = [{ id: "lat_syscall_null", unit: "us", min: 1, median: 1, max: 1 }];
    const virtualization = { virtualized: true, evidence: ["/proc/cpuinfo flags: hypervisor", "/proc/cmdline: pvm_no_zero_page=1"], hypervisor: "PVM (paravirtualized, deprivileged guest kernel)" };
    const vm = parseProbe(JSON.stringify({ host: { vendor: "AuthenticAMD", virtualization }, figures }));
    expect(vm.virtualization).toEqual(virtualization);
    expect(probeVmWarning(vm)).toBe("Warning: this machine is a virtual machine (PVM (paravirtualized, deprivileged guest kernel)); evidence: /proc/cpuinfo flags: hypervisor; /proc/cmdline: pvm_no_zero_page=1. Every measured figure includes the hypervisor's exits, so the errors are not the model's accuracy: the comparison is meant for bare metal (docs/modern.md).");
    const metal = parseProbe(JSON.stringify({ host: { virtualization: { virtualized: false, evidence: [], hypervisor: null } }, figures }));
    expect(metal.virtualization).toEqual({ virtualized: false, evidence: [], hypervisor: null });
    expect(probeVmWarning(metal)).toBeNull();
    const old = parseProbe(JSON.stringify({ host: {}, figures }));
    expect(old.virtualization).toBeNull();
    expect(probeVmWarning(old)).toBeNull();
    expect(parseProbe(JSON.stringify({ host: { virtualization: "yes" }, figures })).virtualization).toBeNull();
  });
});

describe("what-ifs from the baseline runs' counters", () => {
  const run = (cpu: string, options: Record<string, string> = {}): RunResult =>
    runExample("lat_syscall", { cpu, mhz: profile(cpu).clock.defaultMhz, params: { iterations: 300 }, plugins: [linux6], variants: [{ id: "linux6", options }] }) as unknown as RunResult;

  it("on Skylake: PTI, spectre_v2, VERW and RSB filling can be switched off; without PTI the syscall is cheaper", () => {
    const base = run("skylake");
    expect(base.error).toBeUndefined();
    const list = whatIfs(BASELINE, baselineCounters([base]), PLUGINS, "Skylake");
    const byId = Object.fromEntries(list.map((w) => [w.id, w]));
    for (const id of ["pti", "spectreV2", "verw", "rsbFill"]) expect(byId[id]!.reason, id).toBeUndefined();
    expect(byId["spectreV2"]!.description).toMatch(/the baseline uses ibrs/);
    for (const id of ["ibpb", "retbleedUntrain"]) expect(byId[id]!.reason, id).toMatch(/already off in the baseline/);
    expect(byId["pti"]!.stack).toEqual([{ id: "linux6", options: { pti: "off" } }]);
    const noPti = run("skylake", { pti: "off" });
    const d = deltaPercent(metric(noPti as never, "Simple syscall"), metric(base as never, "Simple syscall"))!;
    expect(d).toBeLessThan(-10);
  });

  it("on Zen 4: no PTI to take away, the SRSO untraining is", () => {
    const list = whatIfs(BASELINE, baselineCounters([run("zen4")]), PLUGINS, "Zen 4");
    const byId = Object.fromEntries(list.map((w) => [w.id, w]));
    expect(byId["pti"]!.reason).toMatch(/already off in the baseline: the linux6 plugin's default for Zen 4/);
    expect(byId["retbleedUntrain"]!.reason).toBeUndefined();
  });

  it("a lazy FPU and SA_NOFP cannot be stacked on linux6: disabled with the host's conflict and why Linux 6 has neither", () => {
    const list = whatIfs(BASELINE, { "linux6.mitigation.pti": 1 }, PLUGINS, "Skylake");
    const lazy = list.find((w) => w.id === "lazy-fpu")!;
    const nofp = list.find((w) => w.id === "sa-nofp")!;
    expect(lazy.reason).toMatch(/no lazy switching code anymore.*plugins 'linux6' and 'lazy-fpu-frame' conflict: both replace the SignalFpuPolicy extension point/);
    expect(nofp.reason).toMatch(/no SA_NOFP.*plugins 'linux6' and 'sa-nofp' conflict/);
    expect(nofp.stack).toEqual([{ id: "linux6" }, { id: "sa-nofp", options: { forceAll: true } }]);
    // on a stack without linux6 (no conflict) the same what-if would run
    expect(stackRefusal([{ id: "sa-nofp", options: { forceAll: true } }], PLUGINS)).toBeNull();
  });

  it("waits for the baseline; a missing or disabled plugin or an unknown option is the reason", () => {
    expect(whatIfs(BASELINE, null, PLUGINS, "Skylake").find((w) => w.id === "pti")!.reason).toMatch(/waiting for the baseline/);
    expect(stackRefusal([{ id: "linux6" }], [entry(linux6Manifest, { enabled: false })])).toMatch(/not enabled/);
    expect(stackRefusal([{ id: "linux6" }], [])).toMatch(/not installed/);
    const noPtiOption = { ...linux6Manifest, options: { ...linux6Manifest.options, pti: undefined } };
    const w = whatIfs(BASELINE, { "linux6.mitigation.pti": 1 }, [entry(JSON.parse(JSON.stringify(noPtiOption)))], "Skylake").find((x) => x.id === "pti")!;
    expect(w.reason).toMatch(/has no option 'pti'/);
  });

  it("formats differences", () => {
    expect(deltaPercent(0.8, 1)).toBeCloseTo(-20, 9);
    expect(deltaPercent(1, 0)).toBeNull();
    expect(deltaPercent(null, 1)).toBeNull();
    expect(formatDeltaUs(-0.0842)).toBe("−0.084 µs");
    expect(formatDeltaUs(1.5)).toBe("+1.50 µs");
  });
});
