// suite host / calibrate --from-probe simulate the kernel as the probe's machine runs it: the
// linux6 options read off /sys/devices/system/cpu/vulnerabilities/* and the CPU flags.
import { describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { runExample } from "../../../packages/core/test/harness.js";
import { hostKernelOptions, withHostKernel } from "@siglab/core/common";

// this development VM (a guest kernel on an AMD EPYC: PTI forced on, no PCID, retpolines)
const GUEST = {
  kernel: "Linux 6.18.44-fc-v1045",
  kernelVersion: null,
  flags: ["fpu", "syscall", "lm", "hypervisor", "pti"],
  mitigations: {
    meltdown: "Mitigation: PTI",
    mds: "Not affected",
    tsa: "Not affected",
    retbleed: "Not affected",
    spec_rstack_overflow: "Vulnerable: No microcode",
    spectre_v2: "Mitigation: Retpolines; STIBP: disabled; RSB filling; PBRSB-eIBRS: Not affected; BHI: Not affected",
  },
};
const SKYLAKE = {
  kernel: "Linux 6.1.0-13-amd64",
  kernelVersion: null,
  flags: ["fpu", "pcid", "invpcid", "lm"],
  mitigations: {
    meltdown: "Mitigation: PTI",
    mds: "Mitigation: Clear CPU buffers; SMT vulnerable",
    retbleed: "Mitigation: IBRS",
    spectre_v2: "Mitigation: IBRS; IBPB: conditional; RSB filling; PBRSB-eIBRS: Not affected; BHI: Not affected",
  },
};
const ZEN4 = {
  kernel: "Linux 6.8.0-45-generic",
  kernelVersion: null,
  flags: ["fpu", "pcid", "lm"],
  mitigations: {
    meltdown: "Not affected",
    mds: "Not affected",
    spec_rstack_overflow: "Mitigation: Safe RET",
    spectre_v2: "Mitigation: Enhanced / Automatic IBRS; IBPB: conditional; STIBP: always-on; RSB filling; PBRSB-eIBRS: Not affected; BHI: Not affected",
  },
};

describe("hostKernelOptions: the probe's kernel as linux6 options", () => {
  it("a guest with forced PTI and no PCID: PTI on, nopcid, retpolines (the first clause, not PBRSB-eIBRS), no untraining", () => {
    const k = hostKernelOptions(GUEST);
    expect(k.options).toEqual({ pti: "on", pcid: "off", spectreV2: "retpoline", rsbFill: "on", dispatch: "switch", verw: "off", retbleedUntrain: "off" });
    expect(k.reasons.find((r) => r.startsWith("pti=on"))).toContain("Mitigation: PTI");
  });

  it("bare-metal Skylake: IBRS, VERW, conditional IBPB off, the table dispatch before 6.9, PCID kept", () => {
    const k = hostKernelOptions(SKYLAKE);
    expect(k.options).toMatchObject({ pti: "on", spectreV2: "ibrs", rsbFill: "on", ibpb: "off", verw: "on", dispatch: "table", retbleedUntrain: "off" });
    expect(k.options["pcid"]).toBeUndefined();
  });

  it("Zen 4: no PTI, AutoIBRS, safe-RET untraining", () => {
    expect(hostKernelOptions(ZEN4).options).toMatchObject({ pti: "off", spectreV2: "eibrs", retbleedUntrain: "on", verw: "off" });
  });

  it("a probe without the lines leaves every option auto and says why", () => {
    const k = hostKernelOptions({ kernel: "", kernelVersion: null, flags: [], mitigations: {} });
    expect(k.options).toEqual({});
    expect(k.reasons.some((r) => r.startsWith("pti=auto"))).toBe(true);
    expect(hostKernelOptions({ kernel: "x", kernelVersion: null, flags: [], mitigations: { meltdown: "Unknown: something new" } }).reasons[0]).toMatch(/not recognised/);
  });

  it("goes on the linux6 entry only; options given in the stack win", () => {
    const stack = withHostKernel([{ id: "linux6", options: { pti: "off" } }, { id: "io-uring" }], hostKernelOptions(GUEST));
    expect(stack[0]!.options).toMatchObject({ pti: "off", pcid: "off", spectreV2: "retpoline" });
    expect(stack[1]).toEqual({ id: "io-uring" });
  });

  it("changes the simulation: the guest's PTI without PCID makes zen5's null syscall dearer than the defaults", () => {
    const run = (options: Record<string, string>) =>
      runExample("lat_syscall", { cpu: "zen5", mhz: 4300, variants: [{ id: "linux6", options }], plugins: BUILTIN_PLUGINS, params: { iterations: 300 } });
    const defaults = run({}), guest = run(hostKernelOptions(GUEST).options);
    expect(defaults.error).toBeUndefined();
    expect(guest.error).toBeUndefined();
    const us = (r: typeof guest) => r.metrics.find((m) => m.name === "Simple syscall")!.value;
    expect(us(guest)).toBeGreaterThan(us(defaults) * 1.5);
    expect(guest.counters["tlb.flushes"] ?? 0).toBeGreaterThan(defaults.counters["tlb.flushes"] ?? 0);
  });
});
