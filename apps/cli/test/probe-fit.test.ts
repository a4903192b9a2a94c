/** `siglab calibrate --from-probe`: a user profile fitted to part of a probe's figures, with leave-one-out errors. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import cac from "cac";
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeCalibrationHost, runExample } from "@siglab/calibration";
import { BUILTIN_PROFILE_FILES, checkResolvedProfile, resolveProfile } from "@siglab/cpu-profiles";
import { registerCalibrateCommand } from "../src/commands/calibrate.js";
import { fitProfileToProbe } from "../src/probe-fit.js";
import type { ProbeFigure } from "../src/probe/figures.js";

afterAll(closeCalibrationHost);

const fig = (id: string, median: number): ProbeFigure => ({ id, name: id, unit: "us", min: median, median, max: median, repeat: 1, iterations: 100, source: "test", method: "test" });
const base = BUILTIN_PROFILE_FILES.find((p) => p.id === "skylake")!;
const params = { iterations: 200 };
const sim = async (workload: string, metric: string) => (await runExample({ workload, cpu: "skylake", mhz: 3600, params }, [base])).metrics.find((m) => m.name === metric)!.value;

describe("fitting a user profile to a probe", () => {
  it("scales the groups to reach their figures, predicts the rest, and gives each fitted figure a leave-one-out error", async () => {
    // a machine 1.5x slower than the model on system calls and signals, 1.3x on switches
    const figures = [
      fig("lat_syscall_null", 1.5 * (await sim("lat_syscall", "Simple syscall"))),
      fig("lat_sig_catch", 1.5 * (await sim("lat_sig_catch", "Signal handler overhead"))),
      fig("lat_ctx_2p_0k", 1.3 * (await sim("lat_ctx", "2p/0K ctxsw"))),
      fig("lat_pipe", 1.4 * (await sim("lat_pipe", "Pipe latency"))),
      fig("lat_proc_fork", 500),
    ];
    const r = await fitProfileToProbe({ base, mhz: 3600, id: "my-skylake", name: "test machine", figures, stack: [], params, hostName: "a test machine" });
    expect(r.groups.map((g) => [g.id, g.status])).toEqual([["entry", "fitted"], ["signal", "fitted"], ["switch", "fitted"]]);
    expect(r.groups[0]!.scale).toBeGreaterThan(1.2);
    for (const id of ["lat_syscall_null", "lat_sig_catch", "lat_ctx_2p_0k"]) {
      const row = r.rows.find((x) => x.id === id)!;
      expect(row.fitted).toBe(true);
      expect(Math.abs(row.errorPercent!)).toBeLessThan(2);
      expect(row.looErrorPercent).not.toBeNull(); // predicted by a fit that left it out
      expect(Math.abs(row.looErrorPercent!)).toBeGreaterThan(Math.abs(row.errorPercent!));
    }
    const pipe = r.rows.find((x) => x.id === "lat_pipe")!;
    expect(pipe.fitted).toBe(false);
    expect(pipe.looErrorPercent).toBeUndefined();
    // simulated (lat_proc), fixes no group: predicted only
    const fork = r.rows.find((x) => x.id === "lat_proc_fork")!;
    expect(fork.fitted).toBe(false);
    expect(fork.simulated).toBeGreaterThan(0);
    // the profile is a valid user profile: fitted entries name their probe figure and the start
    const file = checkResolvedProfile(r.profile, "my-skylake.json");
    expect(resolveProfile(file, 3600).id).toBe("my-skylake");
    const gate = file.costs[r.groups[0]!.ops[0]!];
    expect(gate.kind).toBe("fitted");
    expect(gate.fittedTo).toEqual(["lat_syscall_null"]);
    expect(gate.source).toMatch(/scaled x[0-9.]+ from skylake's/);
  }, 120_000);
});

async function calibrate(args: string[]): Promise<{ code: number; err: string }> {
  const cli = cac("siglab");
  registerCalibrateCommand(cli);
  let err = "";
  const e = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void (err += a.join(" ") + "\n"));
  const l = vi.spyOn(console, "log").mockImplementation(() => {});
  process.exitCode = undefined;
  try {
    cli.parse(["node", "siglab", "calibrate", ...args], { run: false });
    await cli.runMatchedCommand();
  } finally {
    e.mockRestore();
    l.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, err };
}

describe("siglab calibrate --from-probe (refusals)", () => {
  const dir = mkdtempSync(join(tmpdir(), "siglab-fromprobe-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("needs -o, never replaces a file without --force, refuses a built-in id and a file that is not a probe", async () => {
    const probe = join(dir, "probe.json");
    writeFileSync(probe, JSON.stringify({ host: { vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, cpuModel: "i7" }, figures: [fig("lat_syscall_null", 0.1)] }));
    expect((await calibrate(["--from-probe", probe])).err).toMatch(/-o <file>/);
    const existing = join(dir, "mine.json");
    writeFileSync(existing, "keep me");
    const r = await calibrate(["--from-probe", probe, "-o", existing]);
    expect(r.code).not.toBe(0);
    expect(readFileSync(existing, "utf8")).toBe("keep me");
    expect((await calibrate(["--from-probe", probe, "-o", join(dir, "x.json"), "--id", "skylake"])).err).toMatch(/id of a built-in profile/);
    const notProbe = join(dir, "not.json");
    writeFileSync(notProbe, JSON.stringify({ hello: 1 }));
    expect((await calibrate(["--from-probe", notProbe, "-o", join(dir, "y.json")])).err).toMatch(/not the JSON of `siglab probe --json`/);
    // the starting profile is an input too: never the output, even with --force
    const own = join(dir, "own.json");
    writeFileSync(own, JSON.stringify({ ...BUILTIN_PROFILE_FILES.find((p) => p.id === "skylake"), id: "own-sky", name: "own" }));
    const before = readFileSync(own, "utf8");
    const self = await calibrate(["--from-probe", probe, "--profile-file", own, "--cpu", "own-sky", "-o", own, "--force"]);
    expect(self.code).not.toBe(0);
    expect(readFileSync(own, "utf8")).toBe(before);
    // -o and its friends without --from-probe are refused, not ignored
    const alone = await calibrate(["-o", join(dir, "z.json")]);
    expect(alone.code).toBe(2);
    expect(alone.err).toMatch(/--output only go with --from-probe/);
  });
});

describe("siglab calibrate --from-probe --id of an existing user profile", () => {
  const dir = mkdtempSync(join(tmpdir(), "siglab-fromprobe-id-"));
  const before = process.env["SIGLAB_HOME"];
  afterAll(() => {
    if (before === undefined) delete process.env["SIGLAB_HOME"];
    else process.env["SIGLAB_HOME"] = before;
    rmSync(dir, { recursive: true, force: true });
  });

  it("is refused as existing (not as built-in), naming its file; -o that file with --force replaces it; a built-in id is refused as built-in", async () => {
    process.env["SIGLAB_HOME"] = dir;
    mkdirSync(join(dir, "profiles"));
    const mine = join(dir, "profiles", "my-sky.json");
    writeFileSync(mine, JSON.stringify({ ...base, id: "my-sky", name: "mine" }));
    const kept = readFileSync(mine, "utf8");
    const probe = join(dir, "probe.json");
    writeFileSync(probe, JSON.stringify({ host: { vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, cpuModel: "i7" }, figures: [fig("lat_syscall_null", 0.1)] }));
    const other = join(dir, "other.json");
    const r = await calibrate(["--from-probe", probe, "--cpu", "skylake", "--id", "my-sky", "-o", other]);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/built-in/);
    expect(r.err).toContain(`--id: a user profile 'my-sky' exists already (${mine}); name yours otherwise with --id, or replace it with -o ${mine} --force`);
    // --force is for the output file: it does not make a second profile with the id elsewhere
    expect((await calibrate(["--from-probe", probe, "--cpu", "skylake", "--id", "my-sky", "-o", other, "--force"])).err).toMatch(/exists already/);
    expect(existsSync(other)).toBe(false);
    // its own file is refused without --force, as any existing output
    expect((await calibrate(["--from-probe", probe, "--cpu", "skylake", "--id", "my-sky", "-o", mine])).err).toMatch(/already exists; use --force/);
    expect(readFileSync(mine, "utf8")).toBe(kept);
    // the id of a --profile-file says so
    const own = join(dir, "own.json");
    writeFileSync(own, JSON.stringify({ ...base, id: "own-sky", name: "own" }));
    expect((await calibrate(["--from-probe", probe, "--profile-file", own, "--cpu", "skylake", "--id", "own-sky", "-o", other])).err).toContain(`--id: 'own-sky' is the id of the profile of --profile-file ${own}`);
    expect((await calibrate(["--from-probe", probe, "--id", "skylake", "-o", other])).err).toContain("--id: 'skylake' is the id of a built-in profile");
    // re-fitting it in place; its fitted overlay is the user's: kept, and named (it would override the new fit)
    const overlay = join(dir, "profiles", "fitted", "my-sky.json");
    mkdirSync(dirname(overlay));
    writeFileSync(overlay, "{}");
    const done = await calibrate(["--from-probe", probe, "--cpu", "skylake", "--id", "my-sky", "-o", mine, "--force", "--quick-runs"]);
    expect(done.err).toContain(`replaced the user profile 'my-sky' of ${mine}`);
    expect(done.err).toContain(`note: ${overlay} still overlays fitted costs on 'my-sky'`);
    expect(readFileSync(overlay, "utf8")).toBe("{}");
    expect(done.code).toBe(0);
    const refit = JSON.parse(readFileSync(mine, "utf8")) as { id: string; name: string };
    expect(refit).toMatchObject({ id: "my-sky", name: "i7 (fitted to its probe)" });
  }, 120_000);
});

describe("fit groups keep only ops with values of their own", () => {
  it("leaves out an op defined relative to another (zen4's mov_cr3): the loader would undo its scale", async () => {
    const zen4 = BUILTIN_PROFILE_FILES.find((p) => p.id === "zen4")!;
    expect(zen4.costs.mov_cr3.relativeTo).toBeDefined();
    const ctx = (await runExample({ workload: "lat_ctx", cpu: "zen4", mhz: 4500, params }, [zen4])).metrics.find((m) => m.name === "2p/0K ctxsw")!.value;
    const r = await fitProfileToProbe({ base: zen4, mhz: 4500, id: "my-zen4", name: "t", figures: [fig("lat_ctx_2p_0k", 1.3 * ctx)], stack: [], params, hostName: "t" });
    const sw = r.groups.find((g) => g.id === "switch")!;
    expect(sw.ops).not.toContain("mov_cr3");
    expect(sw.ops).toContain("tlb_miss");
  }, 60_000);
});

describe("siglab calibrate --from-probe on a virtual machine's probe", () => {
  const dir = mkdtempSync(join(tmpdir(), "siglab-fromprobe-vm-"));
  const before = process.env["SIGLAB_HOME"];
  afterAll(() => {
    if (before === undefined) delete process.env["SIGLAB_HOME"];
    else process.env["SIGLAB_HOME"] = before;
    rmSync(dir, { recursive: true, force: true });
  });

  it("is allowed, warns, and records the VM in the profile's notes and the fitted costs' sources", async () => {
    process.env["SIGLAB_HOME"] = dir;
    const virtualization = { virtualized: true, evidence: ["/proc/cpuinfo flags: hypervisor", "/proc/cmdline: pvm_no_zero_page=1"], hypervisor: "PVM (paravirtualized, deprivileged guest kernel)" };
    const probe = join(dir, "vm.json");
    writeFileSync(probe, JSON.stringify({ host: { vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, cpuModel: "i7", virtualization }, figures: [fig("lat_syscall_null", 1.5 * (await sim("lat_syscall", "Simple syscall")))] }));
    const out = join(dir, "my-vm.json");
    const r = await calibrate(["--from-probe", probe, "--cpu", "skylake", "--id", "my-vm", "-o", out, "--quick-runs"]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning: this machine is a virtual machine \(PVM \(paravirtualized, deprivileged guest kernel\)\); evidence: \/proc\/cpuinfo flags: hypervisor; \/proc\/cmdline: pvm_no_zero_page=1\. .*bakes the hypervisor's costs into the CPU's/);
    const p = JSON.parse(readFileSync(out, "utf8")) as { notes: string[]; costs: Record<string, { kind: string; source: string }> };
    expect(p.notes.at(-1)).toMatch(/^The probe was measured in a virtual machine \(PVM .*\); evidence: \/proc\/cpuinfo flags: hypervisor; .*the fitted costs are this VM's/);
    const fitted = Object.values(p.costs).filter((c) => c.kind === "fitted");
    expect(fitted.length).toBeGreaterThan(0);
    for (const c of fitted) expect(c.source).toMatch(/siglab probe on i7, a virtual machine \(PVM .*\): the hypervisor's exits are in it\)/);
    // a probe of bare metal: no warning, no such note
    const bare = join(dir, "bare.json");
    writeFileSync(bare, JSON.stringify({ host: { vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, cpuModel: "i7", virtualization: { virtualized: false, evidence: [], hypervisor: null } }, figures: [fig("lat_syscall_null", 0.1)] }));
    const out2 = join(dir, "my-bare.json");
    const r2 = await calibrate(["--from-probe", bare, "--cpu", "skylake", "--id", "my-bare", "-o", out2, "--quick-runs"]);
    expect(r2.code).toBe(0);
    expect(r2.err).not.toMatch(/virtual machine/);
    expect(readFileSync(out2, "utf8")).not.toMatch(/virtual machine/);
  }, 120_000);
});
