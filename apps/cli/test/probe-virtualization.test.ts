/**
 * host.virtualization: `siglab probe` says whether it measured a virtual machine (the cpuinfo
 * flag, /sys/hypervisor, DMI, a guest's kernel options), read from fixture files here; `suite
 * host` warns before its table when it did, and reads a probe from before the field as unknown.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import cac from "cac";
import { afterAll, describe, expect, it, vi } from "vitest";
import { readVirtualization, virtualizationWarning } from "@siglab/core/common";
import { registerSuiteCommand } from "../src/commands/suite.js";
import { readProbe, registerHostSuite } from "../src/commands/suite-host.js";
import { stopSandbox } from "../src/run/host.js";
import { detectVirtualization, hostFacts, type HostFactFiles, type ProbeFigure, type RawProbe } from "../src/probe/figures.js";

afterAll(stopSandbox);

const dir = mkdtempSync(join(tmpdir(), "siglab-virt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const raw: RawProbe = { probe: 1, repeat: 1, enoughUs: 1000, host: { machine: "x86_64", release: "6.1.0", cpusOnline: 1, cpuPinned: 0, cpuAcross: -1, minSigStkSz: 0 }, loops: [], skipped: [] };
const cpuinfo = (flags: string) => `processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\nflags\t\t: ${flags}\n\nprocessor\t: 1\n`;
const missing = join(dir, "does-not-exist");
let n = 0;
/** hostFacts on fixture files: each given text is written to a file; every other file is missing */
function facts(t: { cpuinfo?: string; hypervisorType?: string; sysVendor?: string; productName?: string; cmdline?: string }): ReturnType<typeof hostFacts> {
  const files: HostFactFiles = { cpuinfo: missing, version: missing, vulnerabilities: missing, hypervisorType: missing, sysVendor: missing, productName: missing, cmdline: missing };
  for (const [k, v] of Object.entries(t)) {
    const f = join(dir, `${k}-${n++}`);
    writeFileSync(f, v);
    (files as Record<string, string>)[k] = f;
  }
  return hostFacts(raw, files);
}

describe("hostFacts: virtualization", () => {
  it("the cpuinfo hypervisor flag alone: virtualized, no hypervisor named", () => {
    expect(facts({ cpuinfo: cpuinfo("fpu sse hypervisor lm") }).virtualization).toEqual({ virtualized: true, evidence: ["/proc/cpuinfo flags: hypervisor"], hypervisor: null });
  });

  it("DMI alone names the hypervisor; a vendor that also sells hardware needs its VM product; EC2 metal is bare metal", () => {
    expect(facts({ sysVendor: "QEMU\n", productName: "Standard PC (Q35 + ICH9, 2009)\n" }).virtualization).toEqual({ virtualized: true, evidence: ['/sys/class/dmi/id: sys_vendor "QEMU", product_name "Standard PC (Q35 + ICH9, 2009)"'], hypervisor: "QEMU" });
    expect(facts({ sysVendor: "Microsoft Corporation\n", productName: "Virtual Machine\n" }).virtualization!.hypervisor).toBe("Microsoft Hyper-V");
    expect(facts({ sysVendor: "Microsoft Corporation\n", productName: "Surface Laptop 5\n" }).virtualization).toEqual({ virtualized: false, evidence: [], hypervisor: null });
    expect(facts({ sysVendor: "Amazon EC2\n", productName: "m5.large\n" }).virtualization!.hypervisor).toBe("Amazon EC2");
    expect(facts({ sysVendor: "Amazon EC2\n", productName: "m5.metal\n" }).virtualization!.virtualized).toBe(false);
    expect(facts({ productName: "KVM\n" }).virtualization!.hypervisor).toBe("KVM");
  });

  it("/sys/hypervisor/type", () => {
    expect(facts({ hypervisorType: "xen\n" }).virtualization).toEqual({ virtualized: true, evidence: ["/sys/hypervisor/type: xen"], hypervisor: "Xen" });
  });

  it("a PVM guest's kernel options: PVM is named before KVM's clock and the flag; init's arguments after -- are not the kernel's", () => {
    const v = facts({ cpuinfo: cpuinfo("fpu hypervisor"), cmdline: "console=ttyS0 clocksource=kvm-clock pti=on pvm_no_zero_page=1 tsc=unstable -- --pvm_x clocksource=xen\n" }).virtualization!;
    expect(v.virtualized).toBe(true);
    expect(v.hypervisor).toBe("PVM (paravirtualized, deprivileged guest kernel)");
    expect(v.evidence).toEqual(["/proc/cpuinfo flags: hypervisor", "/proc/cmdline: pvm_no_zero_page=1", "/proc/cmdline: clocksource=kvm-clock"]);
    expect(facts({ cmdline: "root=/dev/sda1 ro quiet" }).virtualization!.virtualized).toBe(false);
  });

  it("nothing of a guest: virtualized false with empty evidence", () => {
    expect(facts({ cpuinfo: cpuinfo("fpu sse lm"), sysVendor: "Dell Inc.\n", productName: "PowerEdge R640\n", cmdline: "root=/dev/sda1 ro" }).virtualization).toEqual({ virtualized: false, evidence: [], hypervisor: null });
  });

  it("unreadable files are no evidence, not an error", () => {
    expect(facts({}).virtualization).toEqual({ virtualized: false, evidence: [], hypervisor: null });
    // a directory where a file is expected cannot be read as one
    expect(hostFacts(raw, { cpuinfo: dir, version: dir, vulnerabilities: missing, hypervisorType: dir, sysVendor: dir, productName: dir, cmdline: dir }).virtualization).toEqual({ virtualized: false, evidence: [], hypervisor: null });
  });

  it("detectVirtualization takes the texts (empty ones are no evidence)", () => {
    expect(detectVirtualization({ flags: [], hypervisorType: "  \n", sysVendor: "", productName: null, cmdline: "" })).toEqual({ virtualized: false, evidence: [], hypervisor: null });
  });
});

describe("reading host.virtualization back", () => {
  it("validates the shape; absent or malformed is unknown (null), not bare metal", () => {
    expect(readVirtualization(undefined)).toBeNull();
    expect(readVirtualization({ virtualized: "yes" })).toBeNull();
    expect(readVirtualization({ virtualized: true, evidence: ["a", 3], hypervisor: 7 })).toEqual({ virtualized: true, evidence: ["a"], hypervisor: null });
    expect(virtualizationWarning(null)).toBeNull();
    expect(virtualizationWarning({ virtualized: false, evidence: [], hypervisor: null })).toBeNull();
    const w = virtualizationWarning({ virtualized: true, evidence: ["/proc/cpuinfo flags: hypervisor"], hypervisor: "KVM" })!;
    expect(w).toMatch(/^this machine is a virtual machine \(KVM\); evidence: \/proc\/cpuinfo flags: hypervisor\. Every measured figure includes the hypervisor's exits, so the errors are not the model's accuracy: the comparison is meant for bare metal \(docs\/modern\.md\)\.$/);
    expect(virtualizationWarning({ virtualized: true, evidence: [], hypervisor: null }, "fit")).toMatch(/bakes the hypervisor's costs into the CPU's/);
  });

  it("readProbe: a probe from before the field loads with virtualization null", () => {
    const file = join(dir, "old.json");
    writeFileSync(file, JSON.stringify({ host: { vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 } }, figures: [{ id: "lat_syscall_null", median: 0.1 }] }));
    expect(readProbe(file).host.virtualization).toBeNull();
  });
});

const fig = (id: string, name: string, median: number): ProbeFigure => ({ id, name, unit: "us", min: median, median, max: median, repeat: 1, iterations: 100, source: "test", method: "test" });
const host = { cpuModel: "Intel Core i7-6700K", vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, kernel: "Linux 6.1" };
const VM = { virtualized: true, evidence: ["/proc/cpuinfo flags: hypervisor", "/proc/cmdline: pvm_no_zero_page=1"], hypervisor: "PVM (paravirtualized, deprivileged guest kernel)" };

async function suiteHost(doc: unknown, json: boolean): Promise<string> {
  const file = join(dir, `probe-${n++}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const cli = cac("siglab");
  registerHostSuite();
  registerSuiteCommand(cli);
  let out = "";
  const l = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void (out += a.join(" ") + "\n"));
  const w = vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  process.exitCode = undefined;
  try {
    cli.parse(["node", "siglab", "suite", "host", "--probe", file, ...(json ? ["--json"] : [])], { run: false });
    await cli.runMatchedCommand();
  } finally {
    l.mockRestore();
    w.mockRestore();
  }
  expect(Number(process.exitCode ?? 0)).toBe(0);
  process.exitCode = undefined;
  return out;
}

describe("siglab suite host on a virtual machine's probe", () => {
  const figures = [fig("lat_syscall_null", "Simple syscall", 1.0)];

  it("text: the warning comes before the table; none for bare metal or an old probe", async () => {
    const vm = await suiteHost({ host: { ...host, virtualization: VM }, figures }, false);
    const warn = vm.indexOf("warning: this machine is a virtual machine (PVM (paravirtualized, deprivileged guest kernel)); evidence: /proc/cpuinfo flags: hypervisor; /proc/cmdline: pvm_no_zero_page=1.");
    expect(warn).toBeGreaterThan(0);
    expect(vm).toMatch(/the errors are not the model's accuracy: the comparison is meant for bare metal \(docs\/modern\.md\)/);
    expect(warn).toBeLessThan(vm.indexOf("lmbench figure"));
    expect(await suiteHost({ host: { ...host, virtualization: { virtualized: false, evidence: [], hypervisor: null } }, figures }, false)).not.toMatch(/warning|virtual machine/);
    expect(await suiteHost({ host, figures }, false)).not.toMatch(/warning|virtual machine/);
  }, 60_000);

  it("--json: host.virtualization, and warnings only when there is one", async () => {
    const doc = JSON.parse(await suiteHost({ host: { ...host, virtualization: VM }, figures }, true)) as Record<string, unknown> & { host: { virtualization: unknown }; warnings?: string[] };
    expect(Object.keys(doc)).toEqual(["host", "compared", "rows", "warnings"]);
    expect(doc.host.virtualization).toEqual(VM);
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings![0]).toMatch(/^this machine is a virtual machine .*meant for bare metal/);
    const old = JSON.parse(await suiteHost({ host, figures }, true)) as Record<string, unknown> & { host: { virtualization: unknown } };
    expect(Object.keys(old)).toEqual(["host", "compared", "rows"]);
    expect(old.host.virtualization).toBeNull();
  }, 60_000);
});
