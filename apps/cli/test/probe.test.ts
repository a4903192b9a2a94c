/**
 * `siglab probe`: lmbench's subtractions on made-up loops, the compiler's resolution, and the real
 * probe compiled and run (--quick --repeat 3: about 2 s on two cores) through the command.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import cac from "cac";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { registerProbeCommand, type ProbeDocument } from "../src/commands/probe.js";
import { buildProbe, ProbeError, resolveCompiler } from "../src/probe/build.js";
import { FIGURES, minusBaseline, probeFigures, skippedFigures, spread, type RawProbe } from "../src/probe/figures.js";

const loop = (id: string, perIterationUs: number[]) => ({ id, what: id, perIterationUs, iterations: perIterationUs.map(() => 100) });
const raw = (loops: ReturnType<typeof loop>[], skipped: RawProbe["skipped"] = []): RawProbe => ({
  probe: 1,
  repeat: 3,
  enoughUs: 1000,
  host: { machine: "x86_64", release: "6.1.0", cpusOnline: 1, cpuPinned: 0, cpuAcross: -1, minSigStkSz: 0 },
  loops,
  skipped,
});

describe("probe figures (lmbench's arithmetic)", () => {
  it("min, median (the mean of the two middle ones when even, as save_median) and max", () => {
    expect(spread([3, 1, 2])).toEqual({ min: 1, median: 2, max: 3 });
    expect(spread([4, 1, 3, 2])).toEqual({ min: 1, median: 2.5, max: 4 });
  });

  it("subtracts a baseline and never goes below zero (settime(0))", () => {
    expect(minusBaseline([3, 4, 0.5], 1)).toEqual([2, 3, 0]);
  });

  it("catch = the catch loop minus the send loop's median; prot = prot minus the catch figure; ctx = ring / 2 minus the overhead", () => {
    const figs = probeFigures(
      raw([
        loop("sig_send", [1.2, 1, 0.8]),
        loop("sig_catch", [3, 3.5, 4]),
        loop("sig_prot", [10, 11, 12]),
        loop("ctx_overhead", [2, 2.5, 1.5]),
        loop("ctx_2p", [10, 12, 14]),
        loop("getppid", [0.1, 0.3, 0.2]),
      ]),
    );
    const by = Object.fromEntries(figs.map((f) => [f.id, f]));
    expect(by["lat_sig_catch"]).toMatchObject({ name: "Signal handler overhead", min: 2, median: 2.5, max: 3, unit: "us", repeat: 3, iterations: 100 });
    expect(by["lat_sig_prot"]).toMatchObject({ name: "Protection fault", min: 7.5, median: 8.5, max: 9.5 });
    expect(by["lat_ctx_2p_0k"]).toMatchObject({ name: "Context switch 2p/0K", min: 3, median: 4, max: 5 });
    expect(by["lat_syscall_null"]).toMatchObject({ name: "Simple syscall", min: 0.1, median: 0.2, max: 0.3 });
    // a loop the probe did not run gives no figure; a skipped one is named with the probe's reason
    expect(by["lat_pipe_across"]).toBeUndefined();
    expect(skippedFigures(raw([], [{ id: "pipe_across", reason: "only one CPU" }]))).toEqual([{ id: "lat_pipe_across", name: "Pipe latency, across CPUs", reason: "only one CPU" }]);
  });

  it("a derived figure without its baseline loop is an error, not a figure without the subtraction", () => {
    expect(() => probeFigures(raw([loop("sig_catch", [3])]))).toThrow(/no 'sig_send' loop/);
  });
});

describe("the C compiler", () => {
  it("a missing compiler is a one-line error naming it and how to install one", () => {
    let err: unknown;
    try {
      resolveCompiler("/nonexistent/bin/cc", {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProbeError);
    expect((err as Error).message).toMatch(/^no C compiler: '\/nonexistent\/bin\/cc' \(from --cc\) does not exist.*apt-get install gcc/);
    expect((err as Error).message).not.toContain("\n");
    expect(() => resolveCompiler(undefined, { PATH: "/nonexistent" })).toThrow(/no C compiler: 'cc' \(the default\) is not on PATH.*apt-get install gcc/);
    expect(() => resolveCompiler(undefined, { PATH: "/nonexistent", CC: "clang-99" })).toThrow(/'clang-99' \(from \$CC\) is not on PATH/);
  });
});

/** Runs `siglab probe ...args` in this process: exit code, stdout, stderr. */
async function probeCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const cli = cac("siglab");
  registerProbeCommand(cli);
  let out = "";
  let err = "";
  const w = vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const l = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void (out += a.join(" ") + "\n"));
  const e = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void (err += a.join(" ") + "\n"));
  process.exitCode = undefined;
  try {
    cli.parse(["node", "siglab", "probe", ...args], { run: false });
    await cli.runMatchedCommand();
  } finally {
    w.mockRestore();
    l.mockRestore();
    e.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, out, err };
}

/** The figures derived by a subtraction (catch, prot, ctx). */
const SUBTRACTED = new Set(FIGURES.filter((f) => f.derive).map((f) => f.id));

describe("siglab probe (compiled and run)", () => {
  let home: string;
  let oldHome: string | undefined;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), "siglab-probe-test-"));
    oldHome = process.env["SIGLAB_HOME"];
    process.env["SIGLAB_HOME"] = home; // the compile cache goes to $SIGLAB_HOME/cache/probe
  });
  afterAll(() => {
    if (oldHome === undefined) delete process.env["SIGLAB_HOME"];
    else process.env["SIGLAB_HOME"] = oldHome;
    rmSync(home, { recursive: true, force: true });
  });

  it("--quick --repeat 3 --json: every figure with lmbench's name, positive, min <= median <= max, and the host facts", async () => {
    const r = await probeCli(["--quick", "--repeat", "3", "--json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as ProbeDocument;
    const ids = doc.figures.map((f) => f.id);
    for (const id of ["lat_syscall_null", "lat_sig_install", "lat_sig_catch", "lat_sig_prot", "lat_pipe", "lat_ctx_2p_0k", "sigwaitinfo_wake", "sigsuspend_wake", "gc_barrier", "lat_proc_fork"]) expect(ids).toContain(id);
    // across-CPU figures exist exactly when the probe had a second CPU; otherwise they are skipped with a reason
    for (const id of ["lat_pipe_across", "lat_ctx_2p_0k_across"]) expect(ids.includes(id) !== doc.skipped.some((s) => s.id === id)).toBe(true);
    expect(doc.host.cpuAcross === null).toBe(doc.skipped.length > 0);
    for (const f of doc.figures) {
      expect(Object.keys(f).sort()).toEqual(["id", "iterations", "max", "median", "method", "min", "name", "repeat", "source", "unit"]);
      expect(f.unit).toBe("us");
      expect(f.repeat).toBe(3);
      expect(f.iterations).toBeGreaterThanOrEqual(1);
      // a figure lmbench derives by subtraction is clamped at 0 (settime(0)) when a noisy
      // repetition of its loop comes in under the baseline; a measured loop is never 0
      if (SUBTRACTED.has(f.id)) expect(f.min, f.id).toBeGreaterThanOrEqual(0);
      else expect(f.min, f.id).toBeGreaterThan(0);
      expect(f.min).toBeLessThanOrEqual(f.median);
      expect(f.median).toBeLessThanOrEqual(f.max);
    }
    expect(doc.figures.find((f) => f.id === "lat_sig_catch")!.name).toBe("Signal handler overhead");
    const h = doc.host;
    expect(typeof h.kernel).toBe("string");
    expect(h.cpus).toBeGreaterThanOrEqual(1);
    expect(typeof h.mitigations).toBe("object");
    for (const t of Object.values(h.mitigations)) expect(typeof t).toBe("string");
    expect(Array.isArray(h.xsaveFeatures)).toBe(true);
    expect(Array.isArray(h.flags)).toBe(true);
    if (process.arch === "x64") expect(h.xsaveFeatures).toContain("sse");
    expect(doc.probe).toMatchObject({ source: "probe/siglab-probe.c", repeat: 3, intervalUs: 1000 });
    expect(doc.probe.sourceSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reuses the compiled binary (keyed by the source's hash) and prints a table", async () => {
    expect(buildProbe().compiled).toBe(false); // the test above compiled it into this $SIGLAB_HOME
    const r = await probeCli(["--quick", "--repeat", "1"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Signal handler overhead\s+lat_sig_catch\s+[\d.]+/);
    expect(r.out).toMatch(/Process fork\+exit\s+lat_proc_fork/);
  });

  it("-o writes the JSON and never replaces a file without --force (refused before measuring)", async () => {
    const f = join(home, "probe.json");
    writeFileSync(f, "keep");
    const r = await probeCli(["--quick", "--repeat", "1", "-o", f]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/already exists; use --force/);
    expect(readFileSync(f, "utf8")).toBe("keep");
    const g = await probeCli(["--quick", "--repeat", "1", "-o", f, "--force"]);
    expect(g.code).toBe(0);
    expect((JSON.parse(readFileSync(f, "utf8")) as ProbeDocument).figures.length).toBeGreaterThan(5);
  });

  it("without a C compiler: exit 1 and one line that says what is missing and how to install it", async () => {
    const r = await probeCli(["--quick", "--cc", "/nonexistent/bin/cc"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/^siglab probe: no C compiler: '\/nonexistent\/bin\/cc'.*apt-get install gcc/);
  });

  it("bad --repeat is a usage error (exit 2)", async () => {
    const r = await probeCli(["--repeat", "0"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--repeat: expected an integer from 1 to 101/);
  });
});
