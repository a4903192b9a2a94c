/** `siglab suite host`: the probe's figures beside the simulation on the matching profile. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import cac from "cac";
import { afterAll, describe, expect, it, vi } from "vitest";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { registerSuiteCommand } from "../src/commands/suite.js";
import { readProbe, registerHostSuite } from "../src/commands/suite-host.js";
import { formatHostRows, hostRow, matchProfile } from "../src/host-compare.js";

import { stopSandbox } from "../src/run/host.js";
import type { ProbeFigure } from "../src/probe/figures.js";

afterAll(stopSandbox);

const fig = (id: string, name: string, median: number): ProbeFigure => ({ id, name, unit: "us", min: median, median, max: median, repeat: 1, iterations: 100, source: "test", method: "test" });

describe("matching this machine's CPU to a profile", () => {
  const profiles = BUILTIN_PROFILE_FILES;
  it("the same vendor, family and model first; then the nearest model of the family; then the vendor's newest", () => {
    expect(matchProfile({ vendor: "GenuineIntel", cpuid: { family: 6, model: 85, stepping: 4 }, cpuModel: "Xeon" }, profiles)!.profile.id).toBe("skylake-x");
    expect(matchProfile({ vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, cpuModel: "i7-6700K" }, profiles)!.profile.id).toBe("skylake");
    const near = matchProfile({ vendor: "AuthenticAMD", cpuid: { family: 25, model: 33, stepping: 0 }, cpuModel: "Ryzen 5000" }, profiles)!;
    expect(near.profile.id).toBe("zen4");
    expect(near.how).toMatch(/nearest of the family/);
    const newest = matchProfile({ vendor: "AuthenticAMD", cpuid: { family: 23, model: 1, stepping: 0 }, cpuModel: "EPYC 7001" }, profiles)!;
    expect(newest.profile.id).toBe("zen5");
    expect(newest.how).toMatch(/newest x86-64 profile/);
    expect(matchProfile({ vendor: "CentaurHauls", cpuid: null, cpuModel: null }, profiles)).toBeNull();
    // an Intel CPU of no known family, or a probe without CPUID: a 64-bit profile, not the P4 (family 15)
    expect(matchProfile({ vendor: "GenuineIntel", cpuid: null, cpuModel: null }, profiles)!.profile.id).toBe("skylake");
    // a Core 2 (family 6 model 15) is nearer the Pentium III (model 8) than Skylake by model, but
    // linux-6 runs on x86-64 profiles only; for the 2.4 kernel (no preset) any profile is a candidate
    expect(matchProfile({ vendor: "GenuineIntel", cpuid: { family: 6, model: 15, stepping: 0 }, cpuModel: "Core 2" }, profiles)!.profile.id).toMatch(/^skylake/);
    expect(matchProfile({ vendor: "GenuineIntel", cpuid: { family: 6, model: 15, stepping: 0 }, cpuModel: "Core 2" }, profiles, { longModeOnly: false })!.profile.id).toMatch(/^p6-/);
  });
});

describe("rows", () => {
  it("give the signed error in percent, and null where nothing is simulated", () => {
    expect(hostRow(fig("lat_pipe", "Pipe latency", 10), 12, []).errorPercent).toBe(20);
    expect(hostRow(fig("lat_pipe", "Pipe latency", 10), 7.5, ["lat_pipe"])).toMatchObject({ errorPercent: -25, fitted: true });
    const none = hostRow(fig("lat_proc_fork", "Process fork+exit", 800), null, [], "not modelled");
    expect(none).toMatchObject({ simulated: null, errorPercent: null, fitted: false, note: "not modelled" });
    expect(formatHostRows([none])).toMatch(/Process fork\+exit\s+800\s+—\s+—\s+no\s+\(not modelled\)/);
  });
});

describe("siglab suite host --probe file (text)", () => {
  const dir = mkdtempSync(join(tmpdir(), "siglab-host-text-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a probe document that lacks the host's details and the figures' names, without crashing", async () => {
    const file = join(dir, "partial.json");
    writeFileSync(file, JSON.stringify({ host: { vendor: "GenuineIntel" }, figures: [{ id: "lat_syscall_null", median: 0.1 }] }));
    const cli = cac("siglab");
    registerHostSuite();
    registerSuiteCommand(cli);
    let out = "";
    const l = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void (out += a.join(" ") + "\n"));
    process.exitCode = undefined;
    try {
      cli.parse(["node", "siglab", "suite", "host", "--probe", file], { run: false });
      await cli.runMatchedCommand();
    } finally {
      l.mockRestore();
    }
    expect(Number(process.exitCode ?? 0)).toBe(0);
    process.exitCode = undefined;
    expect(out).toMatch(/siglab probe: GenuineIntel/);
    expect(out).toMatch(/simulated on skylake@/);
    expect(out).toMatch(/lat_syscall_null\s+0\.1000\s+\d/);
  }, 60_000);
});

describe("siglab suite host --probe file --json", () => {
  const dir = mkdtempSync(join(tmpdir(), "siglab-host-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("matches the profile to the probe's CPU, simulates each figure it can and says which it cannot", async () => {
    const file = join(dir, "probe.json");
    const host = { cpuModel: "Intel Core i7-6700K", microcode: null, vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, kernel: "Linux 6.1", kernelVersion: null, machine: "x86_64", cpus: 1, cpuPinned: 0, cpuAcross: null, mitigations: {}, xsaveFeatures: [], xcr0: null, xsaveAreaBytes: null, xsaveInstructions: [], minSigStkSz: 0, flags: [] };
    writeFileSync(file, JSON.stringify({ host, figures: [fig("lat_syscall_null", "Simple syscall", 0.1), fig("lat_proc_fork", "Process fork+exit", 500)], skipped: [], probe: {} }));
    const cli = cac("siglab");
    registerHostSuite();
    registerSuiteCommand(cli);
    let out = "";
    const w = vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
    process.exitCode = undefined;
    try {
      cli.parse(["node", "siglab", "suite", "host", "--probe", file, "--json"], { run: false });
      await cli.runMatchedCommand();
    } finally {
      w.mockRestore();
    }
    expect(Number(process.exitCode ?? 0)).toBe(0);
    process.exitCode = undefined;
    const doc = JSON.parse(out) as { host: unknown; compared: { profile: string; matched: string }; rows: { id: string; measured: number; simulated: number | null; unit: string; errorPercent: number | null; fitted: boolean; note?: string }[] };
    expect(doc.compared.profile).toBe("skylake");
    expect(doc.compared.matched).toMatch(/CPUID family 6 model 94/);
    expect(doc.rows.map((r) => r.id)).toEqual(["lat_syscall_null", "lat_proc_fork"]);
    const sys = doc.rows[0]!;
    expect(sys.simulated).toBeGreaterThan(0);
    expect(sys.errorPercent).toBeCloseTo(((sys.simulated! - 0.1) / 0.1) * 100, 1);
    expect(doc.rows[1]!.simulated).toBeGreaterThan(0); // lat_proc's Process fork+exit
    expect(doc.rows[1]!.note).toMatch(/hot caches/); // what its simulation leaves out
    expect(sys.note).toBeUndefined();
  }, 60_000);
});

describe("reading a probe file", () => {
  it("refuses a host.cpuid of the wrong shape, naming the file, and drops non-string names", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-readprobe-"));
    try {
      const file = join(dir, "p.json");
      const figures = [{ id: "lat_syscall_null", name: "Simple syscall", unit: "us", min: 1, median: 1, max: 1 }];
      writeFileSync(file, JSON.stringify({ host: { vendor: "GenuineIntel", cpuid: "6/94" }, figures }));
      expect(() => readProbe(file)).toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: host.cpuid must be`));
      writeFileSync(file, JSON.stringify({ host: { vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, cpuModel: { x: 1 } }, figures }));
      const p = readProbe(file);
      expect(p.host.cpuModel).toBeNull();
      expect(p.host.cpuid).toEqual({ family: 6, model: 94, stepping: 3 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
