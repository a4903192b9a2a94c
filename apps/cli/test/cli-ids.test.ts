/**
 * The ids the CLI takes: "did you mean" from one matcher (suggest.ts) for examples, CPU profiles,
 * plugins and their options, presets, suites, export formats and commands; the whole configuration
 * refused before any run starts (no run header printed); examples in --help; the one number
 * format of text output; and the CLI from another folder (the setup's shim).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { editDistance, profileAliases, suggestions } from "../src/suggest.js";
import { fmt } from "../src/numbers.js";
import { formatPaths } from "../src/format.js";
import type { RunResult } from "@siglab/core";

const BIN = inject("siglabBin");
const ROOT = join(import.meta.dirname, "../../..");
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "siglab-ids-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function siglab(args: string[], cwd = root, bin = [process.execPath, BIN]) {
  const r = spawnSync(bin[0]!, [...bin.slice(1), ...args], { cwd, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("suggestions", () => {
  it("match normalised names, prefixes, aliases and near misses (swaps cost one)", () => {
    expect(suggestions("lat_sig", ["lat_ctx", "lat_sig_catch", "lat_sig_install", "lat_sig_prot", "lat_syscall"])).toEqual(["lat_sig_catch", "lat_sig_install", "lat_sig_prot"]);
    expect(suggestions("sa_nofp", ["sa-nofp", "ngpt", "sysenter"])).toEqual(["sa-nofp"]);
    expect(suggestions("Examples", ["examples", "uml"])).toEqual(["examples"]);
    expect(suggestions("cvs", ["csv", "trace"])).toEqual(["csv"]);
    expect(editDistance("cvs", "csv")).toBe(1);
    expect(suggestions("pentium4", [{ id: "p6-coppermine", aliases: profileAliases("Intel Pentium III (Coppermine)") }, { id: "p4-northwood", aliases: profileAliases("Intel Pentium 4 (Northwood)") }])).toEqual(["p4-northwood"]);
    expect(suggestions("qwertyuiop", ["csv", "trace"])).toEqual([]);
  });

  it("--inspect names the path meant when the one asked for did not run", () => {
    const r = { paths: [{ name: "system_call" }, { name: "setup_frame" }] } as unknown as RunResult;
    expect(formatPaths(r, "setup_fram")).toBe("   no path 'setup_fram' ran (did you mean 'setup_frame'? paths: system_call, setup_frame)");
  });
});

describe("did you mean, before any run starts", () => {
  const cases: [args: string[], message: RegExp][] = [
    [["run", "lat_sig"], /unknown example 'lat_sig' \(did you mean 'lat_sig_catch', 'lat_sig_install' or 'lat_sig_prot'\? examples: /],
    [["run", "lat_sig_catch", "--cpu", "pentium4"], /unknown CPU profile 'pentium4' \(did you mean 'p4-northwood'\? profiles: /],
    [["run", "lat_sig_catch", "--variant", "sa_nofp"], /unknown plugin 'sa_nofp' \(did you mean 'sa-nofp'\? plugins: /],
    [["run", "lat_sig_catch", "--variant", "sa-nofp:forceall=true"], /--variant sa-nofp:forceall=true: plugin 'sa-nofp' has no option 'forceall' \(did you mean 'forceAll'\? options: forceAll\)/],
    [["run", "lat_sig_catch", "--variant", "sa-nofp:forceAll=maybe"], /--variant sa-nofp:forceAll=maybe: plugin 'sa-nofp' option 'forceAll': expected true or false/],
    [["run", "lat_sig_catch", "--preset", "linux6"], /unknown preset 'linux6' \(did you mean 'linux-6'\? presets: /],
    [["run", "lat_sig_catch", "--param", "iteration=10"], /has no parameter 'iteration' \(did you mean 'iterations'\? parameters: /],
    [["run", "lat_sig_catch", "--baseline", "--variant", "sa-nofp", "--variant", "lazy-fpu-frame"], /variant stack sa-nofp;lazy-fpu-frame: plugins 'sa-nofp' and 'lazy-fpu-frame' conflict/],
    [["suite", "example"], /unknown suite 'example' \(did you mean 'examples'\? suites: examples, /],
    [["export", "cvs", "x.siglab"], /format must be csv or trace \(got cvs; did you mean 'csv'\?\)/],
    [["export", "perfetto", "x.siglab"], /did you mean 'trace'\?/],
    [["sute", "examples"], /unknown command 'sute' \(did you mean 'suite'\? try --help\)/],
  ];
  for (const [args, message] of cases) {
    it(`siglab ${args.join(" ")}`, () => {
      const r = siglab(args);
      expect(r.err).toMatch(message);
      expect(r.code).toBe(2);
      // refused as configuration: no run was started, so no run header was printed
      expect(r.out).not.toMatch(/^== /m);
    });
  }
});

describe("--help", () => {
  it("run shows real command lines; suite lists every suite; export lists its formats", () => {
    const run = siglab(["run", "--help"]).out;
    const lines = run.slice(run.indexOf("Examples:")).split("\n").filter((l) => l.startsWith("siglab run "));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.includes("--variant sa-nofp"))).toBe(true);
    const suite = siglab(["suite", "--help"]).out;
    for (const name of ["examples", "calibration", "predictions", "uml", "host"]) expect(suite).toMatch(new RegExp(`^siglab suite ${name}\\s+# \\S`, "m"));
    const exp = siglab(["export", "--help"]).out;
    expect(exp).toMatch(/^siglab export csv .*# csv: one row per run/m);
    expect(exp).toMatch(/^siglab export trace .*# trace: Chrome\/Perfetto/m);
  });
});

describe("numbers in text", () => {
  it("one formatter: digit groups, no float noise or e-notation, whole numbers without decimals", () => {
    expect(fmt(472032.13000000035)).toBe("472,032.1");
    expect(fmt(200)).toBe("200");
    expect(fmt(199_600_000)).toBe("199,600,000");
    expect(fmt(1.5e-7)).toBe("0.0000001500");
  });

  it("suite uml prints µs, not us", () => {
    const r = siglab(["suite", "uml"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\d µs ×\d/);
    expect(r.out).not.toMatch(/\d us\b/);
  });
});

describe("siglab from any folder", () => {
  it("setup's shim runs this checkout's CLI from another folder, relative paths from there; a siglab that is not the shim is left alone", () => {
    const bin = join(root, "bin");
    const install = spawnSync("bash", [join(ROOT, "apps/cli/bin/install-shim.sh")], { cwd: root, encoding: "utf8", env: { ...process.env, SIGLAB_BIN_DIR: bin } });
    expect(install.status).toBe(0);
    const shim = join(bin, "siglab");
    expect(readFileSync(shim, "utf8")).toContain("siglab-shim");
    writeFileSync(join(root, "mine.ts"), `import { workload } from "siglab";\nexport default workload({ name: "mine", params: {}, *main(t) { yield* t.getpid(); t.report("calls", 1, "count"); } });\n`);
    const own = siglab(["run", "mine.ts"], root, [shim]);
    expect(own.code, own.err).toBe(0);
    expect(own.out).toMatch(/^== mine on p4-northwood@2200 MHz, baseline/m);
    const ex = siglab(["run", "lat_syscall", "--param", "iterations=100"], root, [shim]);
    expect(ex.code, ex.err).toBe(0);
    // someone else's siglab stays as it is
    writeFileSync(shim, "#!/bin/sh\necho theirs\n");
    const again = spawnSync("bash", [join(ROOT, "apps/cli/bin/install-shim.sh")], { cwd: root, encoding: "utf8", env: { ...process.env, SIGLAB_BIN_DIR: bin } });
    expect(again.stdout).toMatch(/exists and is not SigLab's shim: left alone/);
    expect(readFileSync(shim, "utf8")).toBe("#!/bin/sh\necho theirs\n");
    expect(existsSync(join(ROOT, "scripts/setup.sh")) && readFileSync(join(ROOT, "scripts/setup.sh"), "utf8")).toContain("apps/cli/bin/install-shim.sh");
  });
});
