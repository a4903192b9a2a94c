import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { cac } from "cac";
import fc from "fast-check";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { rehashManifest, strToU8, unzipSync, zipSync } from "../../../packages/core/test/bundle/zip-craft.js";
import { readBundle, BundleError, hashFileSet, unsafeEntryReason, compareResults, embeddedPluginSources, writeBundle } from "@siglab/core/bundle";
import type { RunSpec } from "@siglab/core/common";
import { experiment, fakeResult, profile } from "../../../packages/core/test/bundle/fixtures.js";
import {
  bundleExport,
  bundleInfo,
  bundleRun,
  bundleVerify,
  exportFromBundle,
  registerBundleCommands,
  type BundleCommandDeps,
  type SandboxRunOptions,
} from "../src/commands/bundle.js";
import { atomicWriteFile } from "../src/bundle-fs.js";
import { runInSandbox, stopSandbox } from "../src/run/host.js";
import { addRunOptions, resolveRunArgs } from "../src/commands/run.js";
import { EXAMPLES, expandExperiment, type ExperimentConfig, type RunResult } from "@siglab/core";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";

let root: string;
let out: string[];
let err: string[];
let calls: { spec: RunSpec; opts?: SandboxRunOptions; pluginFiles: string[] }[];

/** All files under a folder, relative. */
function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() || d.isSymbolicLink())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join("/"))
    .sort();
}

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

const THIRD_PARTY = {
  "thirdparty-mask/plugin.json": JSON.stringify({ id: "thirdparty-mask", version: "0.3.1", apiVersion: "2.0", displayName: "Mask", description: "test", options: {}, contributes: ["SignalMaskStore"], main: "dist/index.js" }),
  "thirdparty-mask/dist/index.js": "export default () => null;\n",
  "thirdparty-mask/node_modules/dep/index.js": "not embedded\n",
  "thirdparty-mask/src/index.ts": "// not embedded: only the built code\n",
  "thirdparty-mask/test/x.test.ts": "// not embedded\n",
  "thirdparty-mask/examples/mask_demo.ts": "// embedded: an example workload\n",
};

function deps(over: Partial<BundleCommandDeps> = {}, salt = 0): BundleCommandDeps {
  return {
    appVersion: "0.1.0-test",
    builtinPluginsDir: join(root, "builtin"),
    configDir: join(root, "config"),
    ask: async () => undefined,
    log: (l) => out.push(l),
    error: (l) => err.push(l),
    resolveRunArgs(workload, options) {
      const cpus = [options.cpu ?? []].flat().map((c) => {
        const [id, mhz] = String(c).split("@");
        return { id: id!, mhz: Number(mhz) };
      });
      const stacks = [[], ...[options.variant ?? []].flat().map((v) => String(v).split(",").map((id) => ({ id })))];
      const exp = experiment({ cpus, stacks, workload: { id: workload, file: `examples/${workload}.ts`, source: "// src\n" } });
      return { experiment: exp, profiles: cpus.map((c) => profile(c.id, c.mhz)), pluginDirs: [join(root, "third-party")] };
    },
    async runInSandbox(spec, opts) {
      calls.push({ spec, opts, pluginFiles: (opts?.pluginDirs ?? []).flatMap((d) => walk(d)) });
      return fakeResult(spec, salt);
    },
    ...over,
  };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "siglab-bundle-cli-"));
  out = [];
  err = [];
  calls = [];
  writeTree(join(root, "builtin"), {
    "sa-nofp/plugin.json": JSON.stringify({ id: "sa-nofp", version: "1.0.0", apiVersion: "1.0", displayName: "SA_NOFP" }),
    "sa-nofp/src/index.ts": "export {};\n",
    "sa-nofp/test/x.test.ts": "// not hashed\n",
  });
  writeTree(join(root, "third-party"), THIRD_PARTY);
  mkdirSync(join(root, "work"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  process.exitCode = undefined; // the cac actions set it; never leak it into the test run's exit status
});

const exportArgs = { cpu: ["p4-northwood@2200", "p3-coppermine@800"], variant: ["sa-nofp,thirdparty-mask"] };

async function exportBundle(name = "x.siglab"): Promise<string> {
  const file = join(root, "work", name);
  expect(await bundleExport("lat_sig_catch", { ...exportArgs, o: file }, deps())).toBe(0);
  return file;
}

describe("bundle options", () => {
  it("an option an action does not read is an error, not silently ignored", async () => {
    const cli = cac("siglab");
    registerBundleCommands(cli, { ...deps(), addRunOptions });
    cli.parse(["node", "siglab", "bundle", "info", join(root, "work", "none.siglab"), "--timeline"], { run: false });
    await cli.runMatchedCommand();
    expect(process.exitCode).toBe(2);
    process.exitCode = 0;
    expect(err.join("\n")).toMatch(/siglab bundle info: --timeline has no effect on bundle info/);
  });
});

describe("siglab bundle export", () => {
  it("embeds a third-party plugin's manifest, built code and examples only", async () => {
    const file = await exportBundle();
    const b = readBundle(new Uint8Array(readFileSync(file)), { fileName: file });
    expect(Object.keys(b.embeddedPlugins["thirdparty-mask"]!).sort()).toEqual(["dist/index.js", "examples/mask_demo.ts", "plugin.json"]);
  });

  it("runs every run of the experiment and writes a bundle that reads back", async () => {
    const file = await exportBundle();
    expect(calls).toHaveLength(4);
    expect(walk(join(root, "work"))).toEqual(["x.siglab"]); // no temp file left behind
    const b = readBundle(new Uint8Array(readFileSync(file)), { fileName: file });
    expect(b.results).toEqual(calls.map((c) => fakeResult(c.spec)));
    expect(b.plugins.map((p) => `${p.id}@${p.version}:${p.source}`)).toEqual(["sa-nofp@1.0.0:builtin", "thirdparty-mask@0.3.1:embedded"]);
    // built-in hashed over manifest + sources (tests excluded); third-party code embedded without node_modules
    expect(b.plugins[0]!.hash).toBe(hashFileSet({ "plugin.json": readFileSync(join(root, "builtin/sa-nofp/plugin.json")), "src/index.ts": strToU8("export {};\n") }));
    expect(Object.keys(b.embeddedPlugins["thirdparty-mask"]!).sort()).toEqual(["dist/index.js", "examples/mask_demo.ts", "plugin.json"]);
    expect(out.at(-1)).toMatch(/wrote .*x\.siglab: 4 runs, [\d,]+ bytes, embeds third-party plugins thirdparty-mask@0\.3\.1/);
  });

  it("leaves nothing on disk when a run throws, and keeps an existing file intact", async () => {
    const file = join(root, "work", "x.siglab");
    writeFileSync(file, "previous bundle");
    const failing = deps({ runInSandbox: async () => Promise.reject(new Error("sandbox crashed")) });
    const cli = cac("siglab");
    registerBundleCommands(cli, { ...failing, addRunOptions });
    cli.parse(["node", "siglab", "bundle", "export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "-o", file, "--force"], { run: false });
    await cli.runMatchedCommand();
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
    expect(err.join("\n")).toMatch(/siglab bundle export: sandbox crashed/);
    expect(readFileSync(file, "utf8")).toBe("previous bundle");
    expect(walk(join(root, "work"))).toEqual(["x.siglab"]);
  });

  it("takes a --plugin-dir that is itself a plugin folder", async () => {
    const file = join(root, "work", "one.siglab");
    const d = deps();
    const viaFolder: BundleCommandDeps = { ...d, resolveRunArgs: async (w, o) => ({ ...(await d.resolveRunArgs(w, o)), pluginDirs: [join(root, "third-party", "thirdparty-mask")] }) };
    expect(await bundleExport("w", { ...exportArgs, o: file }, viaFolder)).toBe(0);
    expect(readBundle(new Uint8Array(readFileSync(file))).plugins.map((p) => p.source)).toEqual(["builtin", "embedded"]);
  });

  it("refuses an unknown variant and a missing -o", async () => {
    await expect(bundleExport("w", { cpu: "p4-northwood@2200", variant: "nope", o: join(root, "work/y.siglab") }, deps())).rejects.toThrow(/variant nope: no built-in plugin/);
    await expect(bundleExport("w", { cpu: "p4-northwood@2200" }, deps())).rejects.toThrow(/-o <file> is required/);
    expect(walk(join(root, "work"))).toEqual([]);
  });
});

describe("siglab bundle info / verify / run", () => {
  it("info describes the bundle and its plugins", async () => {
    const file = await exportBundle();
    out = [];
    expect(bundleInfo(file, deps())).toBe(0);
    const text = out.join("\n");
    expect(text).toContain("SigLab bundle, format v1, written by SigLab 0.1.0-test");
    expect(text).toContain("CPUs: p4-northwood@2200, p3-coppermine@800");
    expect(text).toContain("variant stacks: baseline | sa-nofp;thirdparty-mask");
    expect(text).toMatch(/sa-nofp@1\.0\.0 {2}built-in {2}sha256 [0-9a-f]{64}/);
    expect(text).toMatch(/thirdparty-mask@0\.3\.1 {2}embedded third-party code \(needs --trust-embedded to run\)/);
    expect(text).toContain("results: 4 runs, 2 findings, 0 failed");
  });

  it("at a terminal, consent is asked once: no runs nothing, yes runs and is remembered; a broken store trusts nothing", async () => {
    const file = await exportBundle();
    calls = [];
    const questions: string[] = [];
    const ask = (a: boolean) => async (q: string) => (questions.push(q), a);
    expect(await bundleVerify(file, {}, deps({ ask: ask(false) }))).toBe(3);
    expect(calls).toHaveLength(0);
    expect(questions[0]).toMatch(/runs only inside SigLab's sandbox/);
    expect(await bundleVerify(file, {}, deps({ ask: ask(true) }))).toBe(0);
    expect(await bundleVerify(file, {}, deps({ ask: ask(false) }))).toBe(0); // remembered: not asked again
    expect(questions).toHaveLength(2);
    writeFileSync(join(root, "config", "trusted-plugins.json"), "{ not json");
    err = [];
    expect(await bundleVerify(file, {}, deps())).toBe(3);
    expect(err.join("\n")).toMatch(/trusted-plugins\.json: not valid JSON/);
    expect(readFileSync(join(root, "config", "trusted-plugins.json"), "utf8")).toBe("{ not json"); // never overwritten
  });

  it("verify needs consent for embedded code, then re-runs it from a temp folder and finds it identical", async () => {
    const file = await exportBundle();
    calls = [];
    expect(await bundleVerify(file, {}, deps())).toBe(3);
    expect(calls).toHaveLength(0);
    expect(err.join("\n")).toMatch(/embeds third-party plugin code:\n {2}thirdparty-mask@0\.3\.1 {2}sha256 [0-9a-f]{64}/);
    out = [];
    expect(await bundleVerify(file, { trustEmbedded: true }, deps())).toBe(0);
    expect(out.at(-1)).toBe("identical: all 4 runs reproduce the bundle's results");
    // the runner got the bundle's own copy of the plugin's code (not the original folder), from memory
    expect(calls[0]!.opts!.pluginDirs ?? []).toEqual([]);
    expect(calls[0]!.opts!.plugins!.map((p) => [p.id, p.main, Object.keys(p.files)])).toEqual([["thirdparty-mask", "dist/index.js", ["dist/index.js"]]]);
    expect(calls[0]!.opts!.profiles!.map((p) => p.id)).toEqual(["p4-northwood", "p3-coppermine"]);
    // consent is remembered per content hash: the next verify needs no flag
    calls = [];
    out = [];
    expect(await bundleVerify(file, {}, deps())).toBe(0);
    expect(out.join("\n")).toMatch(/embedded plugin thirdparty-mask@0\.3\.1: trusted earlier \(sha256 [0-9a-f]{64}\)/);
    expect(JSON.parse(readFileSync(join(root, "config", "trusted-plugins.json"), "utf8")).trusted).toEqual([expect.objectContaining({ id: "thirdparty-mask", version: "0.3.1", hash: expect.stringMatching(/^[0-9a-f]{64}$/) })]);
  });

  it("verify --plugin-dir runs a local build in place of the embedded copy and says what differs", async () => {
    const file = await exportBundle();
    const local = join(root, "local");
    writeTree(local, { ...THIRD_PARTY, "thirdparty-mask/plugin.json": THIRD_PARTY["thirdparty-mask/plugin.json"].replace('"0.3.1"', '"0.4.0"'), "thirdparty-mask/dist/index.js": "export default () => 1;\n" });
    calls = [];
    out = [];
    // the user's own build needs no consent; it replaces the bundle's copy
    expect(await bundleVerify(file, { pluginDir: local }, deps())).toBe(0);
    expect(out.join("\n")).toMatch(/plugin thirdparty-mask: the bundle embeds 0\.3\.1 \(sha256 [0-9a-f]{64}\); running the local build 0\.4\.0 from .*local\/thirdparty-mask \(different code, sha256 [0-9a-f]{64}, version 0\.3\.1 -> 0\.4\.0\)/);
    expect(calls[0]!.opts!.plugins!.map((p) => [p.id, p.origin, p.files["dist/index.js"]])).toEqual([["thirdparty-mask", join(local, "thirdparty-mask"), "export default () => 1;\n"]]);
  });

  it("verify reports the values that differ and exits non-zero", async () => {
    const file = await exportBundle();
    out = [];
    expect(await bundleVerify(file, { trustEmbedded: true }, deps({}, 5))).toBe(1);
    const text = out.join("\n");
    expect(text).toMatch(/DIFFERENT: 4 of 4 runs differ/);
    expect(text).toMatch(/run 1 \(p4-northwood@2200 \[baseline\]\) metrics\[signal round trip\]\.value: bundle [\d.]+, now [\d.]+/);
    expect(text).toMatch(/totalCycles: bundle 32000, now 32050/);
  });

  it("verify refuses a tampered bundle naming the file and the entry, and runs nothing", async () => {
    const file = await exportBundle();
    const files = unzipSync(new Uint8Array(readFileSync(file)));
    files["results.json"] = strToU8("[]");
    writeFileSync(file, zipSync(files));
    calls = [];
    const cli = cac("siglab");
    registerBundleCommands(cli, { ...deps(), addRunOptions });
    cli.parse(["node", "siglab", "bundle", "verify", file, "--trust-embedded"], { run: false });
    await cli.runMatchedCommand();
    expect(process.exitCode).toBe(2);
    process.exitCode = 0;
    expect(err.join("\n")).toMatch(/siglab bundle verify: refused: .*x\.siglab: results\.json: size 2 does not match/);
    expect(calls).toHaveLength(0);
  });

  it("verify refuses a bundle that needs a built-in plugin version this SigLab lacks", async () => {
    const file = await exportBundle();
    writeFileSync(join(root, "builtin/sa-nofp/plugin.json"), JSON.stringify({ id: "sa-nofp", version: "2.0.0" }));
    await expect(bundleVerify(file, { trustEmbedded: true }, deps())).rejects.toThrow(/needs built-in plugin versions this SigLab does not have: sa-nofp@1\.0\.0 \(this SigLab has 2\.0\.0\)/);
  });

  it("run re-runs and writes the new results as JSON and CSV", async () => {
    const file = await exportBundle();
    out = [];
    const json = join(root, "work", "new.json");
    const csv = join(root, "work", "new.csv");
    expect(await bundleRun(file, { trustEmbedded: true, o: json }, deps())).toBe(0);
    expect(await bundleRun(file, { trustEmbedded: true, out: csv }, deps())).toBe(0);
    expect(JSON.parse(readFileSync(json, "utf8"))).toHaveLength(4);
    expect(readFileSync(csv, "utf8").split("\r\n")[0]).toBe("run,workload,cpu,mhz,variants,params,seed,kind,metric,value,unit");
    expect(out.join("\n")).toMatch(/run 2 error fpu-corruption: xmm0 changed/);
  });
});

describe("siglab export csv|trace", () => {
  it("writes CSV and trace JSON from a bundle's results", async () => {
    const file = await exportBundle();
    const csv = join(root, "work", "r.csv");
    const trace = join(root, "work", "t.json");
    expect(exportFromBundle("csv", file, { o: csv }, deps())).toBe(0);
    expect(exportFromBundle("trace", file, { o: trace }, deps())).toBe(0);
    expect(readFileSync(csv, "utf8")).toMatch(/^run,workload,cpu,mhz/);
    const t = JSON.parse(readFileSync(trace, "utf8"));
    expect(t.traceEvents.filter((e: { ph: string }) => e.ph === "X").length).toBeGreaterThan(0);
    expect(() => exportFromBundle("xml", file, {}, deps())).toThrow(/format must be csv or trace/);
  });

  it("refuses a trace of a bundle without a timeline (instead of writing an empty one)", async () => {
    const file = join(root, "work", "no-timeline.siglab");
    const untimed = deps({
      async runInSandbox(spec) {
        const r = fakeResult(spec, 0);
        delete r.timeline;
        return r;
      },
    });
    expect(await bundleExport("lat_sig_catch", { ...exportArgs, o: file }, untimed)).toBe(0);
    const trace = join(root, "work", "empty.json");
    err = [];
    expect(exportFromBundle("trace", file, { o: trace }, deps())).toBe(1);
    expect(err.join("\n")).toMatch(/no-timeline\.siglab: no run recorded a timeline; export the bundle with --timeline/);
    expect(existsSync(trace)).toBe(false);
  });

  it("is reachable through cac", async () => {
    const file = await exportBundle();
    const cli = cac("siglab");
    registerBundleCommands(cli, { ...deps(), addRunOptions });
    out = [];
    cli.parse(["node", "siglab", "export", "csv", file], { run: false });
    await cli.runMatchedCommand();
    expect(process.exitCode ?? 0).toBe(0);
    expect(out[0]).toMatch(/^run,workload,cpu,mhz,variants,params,seed,kind,metric,value,unit\r\n1,lat_sig_catch,p4-northwood,2200,,iterations=1000,42,metric,signal round trip,/);
  });
});

describe("-o outputs never destroy data (through cac, as the CLI runs them)", () => {
  async function cacRun(argv: string[]): Promise<number> {
    const cli = cac("siglab");
    registerBundleCommands(cli, { ...deps(), addRunOptions });
    cli.parse(["node", "siglab", ...argv], { run: false });
    await cli.runMatchedCommand();
    const code = Number(process.exitCode ?? 0);
    process.exitCode = 0;
    return code;
  }

  it("bundle run b.siglab -o b.siglab is refused, even with --force, and the bundle stays byte-identical", async () => {
    const file = await exportBundle("b.siglab");
    const before = readFileSync(file);
    calls = [];
    for (const extra of [[], ["--force"]]) {
      err = [];
      expect(await cacRun(["bundle", "run", file, "--trust-embedded", "-o", file, ...extra])).toBe(2);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(new RegExp(`^siglab bundle run: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: is .*, an input of this command`));
    }
    // also through a path with ".." and a hard link
    const dotted = join(root, "work", "..", "work", "b.siglab");
    expect(await cacRun(["bundle", "run", file, "--trust-embedded", "-o", dotted, "--force"])).toBe(2);
    linkSync(file, join(root, "work", "hard.siglab"));
    expect(await cacRun(["bundle", "run", file, "--trust-embedded", "-o", join(root, "work", "hard.siglab"), "--force"])).toBe(2);
    expect(err.at(-1)).toMatch(/hard\.siglab: is the same file as .*b\.siglab \(a hard link\)/);
    rmSync(join(root, "work", "hard.siglab"));
    expect(calls).toHaveLength(0); // refused before re-running anything
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(walk(join(root, "work"))).toEqual(["b.siglab"]);
  });

  it("export csv b.siglab -o existing.csv is refused, then accepted with --force", async () => {
    const file = await exportBundle("b.siglab");
    const csv = join(root, "work", "existing.csv");
    writeFileSync(csv, "keep me");
    err = [];
    expect(await cacRun(["export", "csv", file, "-o", csv])).toBe(2);
    expect(err).toEqual([`siglab export csv: ${csv}: already exists; use --force to replace it`]);
    expect(readFileSync(csv, "utf8")).toBe("keep me");
    expect(await cacRun(["export", "csv", file, "-o", csv, "--force"])).toBe(0);
    expect(readFileSync(csv, "utf8")).toMatch(/^run,workload,cpu,mhz/);
    // the bundle itself is never a target of its own export
    expect(await cacRun(["export", "trace", file, "-o", file, "--force"])).toBe(2);
    expect(walk(join(root, "work"))).toEqual(["b.siglab", "existing.csv"]);
  });

  it("bundle export refuses an existing -o or a --chart input before running anything", async () => {
    const target = join(root, "work", "x.siglab");
    writeFileSync(target, "previous");
    const chart = join(root, "work", "c.svg");
    writeFileSync(chart, "<svg/>");
    err = [];
    expect(await cacRun(["bundle", "export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "-o", target])).toBe(2);
    expect(err.at(-1)).toBe(`siglab bundle export: ${target}: already exists; use --force to replace it`);
    expect(await cacRun(["bundle", "export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "--chart", chart, "-o", chart, "--force"])).toBe(2);
    expect(err.at(-1)).toMatch(/c\.svg: is .*c\.svg, an input of this command/);
    expect(await cacRun(["bundle", "export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "-o", "/dev/null", "--force"])).toBe(2);
    expect(err.at(-1)).toBe("siglab bundle export: /dev/null: is a device; refusing to write to it");
    expect(calls).toHaveLength(0);
    expect(readFileSync(target, "utf8")).toBe("previous");
    expect(readFileSync(chart, "utf8")).toBe("<svg/>");
    // with --force the existing bundle is replaced
    expect(await cacRun(["bundle", "export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "-o", target, "--force"])).toBe(0);
    expect(readBundle(new Uint8Array(readFileSync(target))).results).toHaveLength(1);
  });

  it("bundle export never writes over a file in a --plugin-dir folder", async () => {
    const inPlugin = join(root, "third-party", "thirdparty-mask", "dist", "index.js");
    const before = readFileSync(inPlugin, "utf8");
    // named with --plugin-dir: refused before the runs
    await expect(bundleExport("w", { ...exportArgs, pluginDir: join(root, "third-party"), o: inPlugin, force: true }, deps())).rejects.toThrow(/index\.js: is inside .*third-party, an input folder/);
    expect(calls).toHaveLength(0);
    // a folder only the run-argument parser knows about: refused when writing
    await expect(bundleExport("w", { ...exportArgs, o: inPlugin, force: true }, deps())).rejects.toThrow(/index\.js: is inside .*third-party, an input folder/);
    expect(readFileSync(inPlugin, "utf8")).toBe(before);
  });
});

describe("atomic writes and embedded plugin code", () => {
  it("atomicWriteFile replaces a file in one step and leaves no temp file", () => {
    const f = join(root, "work", "a.txt");
    atomicWriteFile(f, "one");
    atomicWriteFile(f, "two");
    expect(readFileSync(f, "utf8")).toBe("two");
    expect(walk(join(root, "work"))).toEqual(["a.txt"]);
    expect(() => atomicWriteFile(join(root, "missing-dir", "a.txt"), "x")).toThrow();
  });

  it("embedded plugins reach the host from memory: code files and the manifest, nothing on disk", () => {
    const bundle = { fileName: "b.siglab", embeddedPlugins: { p: { "plugin.json": strToU8(JSON.stringify({ id: "p", main: "./dist/index.js" })), "dist/index.js": strToU8("exports.x = 1;"), "README.md": strToU8("docs") }, q: { "index.js": strToU8("1") } } };
    const sources = embeddedPluginSources(bundle);
    expect(sources[0]).toEqual({ id: "p", manifest: { id: "p", main: "./dist/index.js" }, origin: "b.siglab:plugins/p", main: "dist/index.js", files: { "dist/index.js": "exports.x = 1;" } });
    expect(sources[1]).toMatchObject({ id: "q", refused: "b.siglab:plugins/q/plugin.json: missing" });
  });
});

describe("end to end: the real CLI pieces (run-argument parser, sandbox process, built-in plugins)", () => {
  afterAll(() => stopSandbox());

  /** A third-party plugin as its author ships it: plugin.json + one CommonJS file. */
  const NOOP_PLUGIN = {
    "noop-metrics/plugin.json": JSON.stringify({ id: "noop-metrics", version: "0.1.0", apiVersion: "2.0", displayName: "No-op", description: "test plugin that contributes nothing", options: {}, contributes: [], main: "index.js" }),
    "noop-metrics/index.js": "exports.createModule = function (options, api) { return new api.ContainerModule(function () {}); };\n",
  };

  it("exports an example on two CPUs × {baseline, sa-nofp + a third-party plugin}, then verifies it from a clean plugin folder", async () => {
    writeTree(join(root, "tp"), NOOP_PLUGIN);
    const real: BundleCommandDeps = {
      runInSandbox,
      resolveRunArgs,
      addRunOptions,
      appVersion: "0.1.0-e2e",
      configDir: join(root, "config"),
      log: (l) => out.push(l),
      error: (l) => err.push(l),
    };
    const file = join(root, "work", "real.siglab");
    // 2,000 iterations (the example's default is 20,000): each run's timeline still overflows its 20,000 events
    const args = { cpu: ["p4-northwood@2200", "p6-coppermine@800"], variant: ["sa-nofp:forceAll=true", "noop-metrics"], baseline: true, pluginDir: [join(root, "tp")], timeline: true, param: ["iterations=2000"] };
    expect(await bundleExport("lat_sig_catch", { ...args, o: file }, real), err.join("\n")).toBe(0);
    const b = readBundle(new Uint8Array(readFileSync(file)), { fileName: file });
    expect(b.results).toHaveLength(4);
    for (const r of b.results) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    expect(b.plugins.map((p) => `${p.id}:${p.source}`)).toEqual(["sa-nofp:builtin", "noop-metrics:embedded"]);
    expect(b.results[0]!.totalCycles).not.toBe(b.results[2]!.totalCycles); // two CPUs
    expect(b.results[0]!.totalCycles).not.toBe(b.results[1]!.totalCycles); // SA_NOFP changes the cost

    rmSync(join(root, "tp"), { recursive: true }); // the bundle must re-run without the original plugin folder
    out = [];
    expect(await bundleVerify(file, { trustEmbedded: true }, real), err.join("\n")).toBe(0);
    expect(out.at(-1)).toBe("identical: all 4 runs reproduce the bundle's results");

    const trace = join(root, "work", "real.json");
    expect(exportFromBundle("trace", file, { o: trace }, real)).toBe(0);
    const events = JSON.parse(readFileSync(trace, "utf8")).traceEvents as { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number }[];
    expect(events.some((e) => e.ph === "X")).toBe(true);
    // one expect for all the events (tens of thousands): the first few bad ones, if any
    expect(events.filter((e) => !(typeof e.name === "string" && [e.pid, e.tid, e.ts].every(Number.isFinite) && (e.ph !== "X" || e.dur! >= 0))).slice(0, 5)).toEqual([]);
  });
});

describe("every shipped example: export → open → verify is identical (execution host, built-in plugins)", () => {
  afterAll(() => stopSandbox());
  const CPUS = [
    { id: "p4-northwood", mhz: 2200 },
    { id: "p6-coppermine", mhz: 800 },
  ];
  it.each(EXAMPLES.map((e) => e.id))("%s on two CPUs × {baseline, sa-nofp forceAll}", async (id) => {
    const ex = EXAMPLES.find((e) => e.id === id)!;
    const experiment: ExperimentConfig = {
      workload: { id: ex.id, file: ex.file, source: ex.source },
      cpus: CPUS,
      stacks: [[], [{ id: "sa-nofp", options: { forceAll: true } }]],
      params: {},
      seed: 3,
    };
    const results: RunResult[] = [];
    for (const s of expandExperiment(experiment)) results.push(await runInSandbox(s));
    const profiles = BUILTIN_PROFILE_FILES.filter((p) => CPUS.some((c) => c.id === p.id));
    const plugins = [{ source: "builtin" as const, id: "sa-nofp", version: "1.0.0" }];
    const b = readBundle(writeBundle({ experiment, profiles, plugins, results, appVersion: "test" }), { fileName: `${id}.siglab` });
    const again: RunResult[] = [];
    for (const s of expandExperiment(b.experiment)) again.push(await runInSandbox(s, { profiles: b.profiles }));
    const cmp = compareResults(b.results, again);
    expect(cmp.differences).toEqual([]);
  });
});

describe("--jobs, --shard and bundle merge (fake runner)", () => {
  /** A CLI with the bundle commands; returns the exit code. */
  async function cliRun(args: string[], d: BundleCommandDeps = deps()): Promise<number | undefined> {
    const cli = cac("siglab");
    registerBundleCommands(cli, { ...d, addRunOptions });
    cli.parse(["node", "siglab", "bundle", ...args], { run: false });
    await cli.runMatchedCommand();
    const code = process.exitCode === undefined ? undefined : Number(process.exitCode);
    process.exitCode = 0;
    return code;
  }
  const entries = (file: string) => unzipSync(new Uint8Array(readFileSync(file)));
  const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

  it("runs --jobs at a time and logs and stores the runs in run order, whatever order they finish in", async () => {
    let inFlight = 0;
    let most = 0;
    const slowFirst = deps({
      async runInSandbox(spec) {
        calls.push({ spec, pluginFiles: [] });
        inFlight++;
        most = Math.max(most, inFlight);
        // the first runs take longest: they finish last
        await new Promise((r) => setTimeout(r, 40 - 10 * calls.length));
        inFlight--;
        return fakeResult(spec);
      },
    });
    const a = join(root, "work", "a.siglab");
    const b = join(root, "work", "b.siglab");
    expect(await bundleExport("lat_sig_catch", { ...exportArgs, o: a, jobs: "1" }, slowFirst)).toBe(0);
    const linesA = out.filter((l) => l.startsWith("run "));
    expect(most).toBe(1);
    out = [];
    most = 0;
    calls = [];
    expect(await bundleExport("lat_sig_catch", { ...exportArgs, o: b, jobs: 3 }, slowFirst)).toBe(0);
    expect(most).toBe(3);
    expect(out.filter((l) => l.startsWith("run "))).toEqual(linesA);
    expect(linesA.map((l) => l.split(" ")[1])).toEqual(["1/4", "2/4", "3/4", "4/4"]);
    expect(text(entries(a)["results.json"])).toBe(text(entries(b)["results.json"]));
  });

  it("bad --jobs and --shard are usage errors before anything runs", async () => {
    for (const bad of [["--jobs", "0"], ["--jobs", "abc"], ["--jobs", "1.5"], ["--jobs", "257"], ["--shard", "0/4"], ["--shard", "5/4"], ["--shard", "x"], ["--shard", "2"]]) {
      err = [];
      expect(await cliRun(["export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "-o", join(root, "work", "x.siglab"), ...bad]), bad.join(" ")).toBe(2);
      expect(err.join("\n")).toMatch(new RegExp(`siglab bundle export: ${bad[0]}: expected`));
    }
    expect(calls).toHaveLength(0);
    expect(walk(join(root, "work"))).toEqual([]);
    err = [];
    expect(await cliRun(["merge", join(root, "work", "p.siglab"), "-o", join(root, "work", "all.siglab"), "--jobs", "2"])).toBe(2);
    expect(await cliRun(["verify", join(root, "work", "p.siglab"), "--shard", "1/2"])).toBe(2);
    expect(err.join("\n")).toMatch(/--jobs has no effect on bundle merge \(options of bundle merge: --out, -o, --force\)/);
    expect(err.join("\n")).toMatch(/--shard has no effect on bundle verify/);
  });

  it("export --shard i/n writes parts that bundle merge joins into the unsharded export's bundle", async () => {
    const whole = join(root, "work", "whole.siglab");
    expect(await cliRun(["export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "--cpu", "p3-coppermine@800", "--variant", "sa-nofp,thirdparty-mask", "-o", whole])).toBe(0);
    calls = [];
    out = [];
    const parts: string[] = [];
    for (const i of [1, 2, 3]) {
      const p = join(root, "work", `part-${i}.siglab`);
      parts.push(p);
      expect(await cliRun(["export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "--cpu", "p3-coppermine@800", "--variant", "sa-nofp,thirdparty-mask", "--shard", `${i}/3`, "-o", p])).toBe(0);
    }
    // 4 runs dealt round robin over 3 parts: runs 1 and 4, 2, 3; each run once
    expect(calls).toHaveLength(4);
    expect(out.filter((l) => l.startsWith("run ")).map((l) => l.split(" ")[1])).toEqual(["1/4", "4/4", "2/4", "3/4"]);
    expect(out.filter((l) => l.startsWith("wrote "))[0]).toMatch(/part-1\.siglab: part 1 of 3, 2 of 4 runs, [\d,]+ bytes/);
    const part1 = readBundle(new Uint8Array(readFileSync(parts[0]!)));
    expect(part1.shard).toEqual({ index: 1, count: 3, totalRuns: 4, runs: [1, 4] });
    out = [];
    expect(bundleInfo(parts[0], deps())).toBe(0);
    expect(out.join("\n")).toMatch(/part 1 of 3 \(--shard 1\/3\): runs 1, 4 of 4; bundle merge joins the parts/);

    const all = join(root, "work", "all.siglab");
    out = [];
    expect(await cliRun(["merge", parts[2]!, parts[0]!, parts[1]!, "-o", all])).toBe(0);
    expect(out.at(-1)).toMatch(/wrote .*all\.siglab: 3 parts joined, 4 runs, \d+ bytes/);
    const a = entries(all);
    const w = entries(whole);
    expect(text(a["results.json"])).toBe(text(w["results.json"]));
    expect(Object.keys(a).sort()).toEqual(Object.keys(w).sort());
    for (const name of Object.keys(w).filter((n) => n !== "manifest.json")) expect(text(a[name]), name).toBe(text(w[name]));
    const { createdAt: _a, ...ma } = JSON.parse(text(a["manifest.json"]));
    const { createdAt: _w, ...mw } = JSON.parse(text(w["manifest.json"]));
    expect(ma).toEqual(mw);
    expect(walk(join(root, "work"))).toEqual(["all.siglab", "part-1.siglab", "part-2.siglab", "part-3.siglab", "whole.siglab"]);

    // never over an existing file without --force, never over one of its inputs
    err = [];
    expect(await cliRun(["merge", ...parts, "-o", all])).toBe(2);
    expect(err.join("\n")).toMatch(/siglab bundle merge: .*all\.siglab: .*--force/);
    expect(await cliRun(["merge", ...parts, "-o", all, "--force"])).toBe(0);
    err = [];
    expect(await cliRun(["merge", ...parts, "-o", parts[0]!, "--force"])).toBe(2);
    expect(err.join("\n")).toMatch(/part-1\.siglab: .*input/);
    expect(readBundle(new Uint8Array(readFileSync(parts[0]!))).shard?.index).toBe(1);

    // a part re-runs (verify) its own runs only
    calls = [];
    out = [];
    expect(await bundleVerify(parts[0], { trustEmbedded: true }, deps())).toBe(0);
    expect(calls.map((c) => c.spec.cpu.id + ":" + c.spec.variants.length)).toEqual(["p4-northwood:0", "p3-coppermine:2"]);
    expect(out.join("\n")).toMatch(/part 1 of 3: re-running runs 1, 4 of 4/);
    expect(out.at(-1)).toBe("identical: all 2 runs reproduce the bundle's results");
  });

  it("merge refuses gaps, overlaps, parts of another experiment and whole bundles, writing nothing", async () => {
    const mk = async (name: string, shard: string, extra: string[] = []) => {
      const p = join(root, "work", name);
      expect(await cliRun(["export", "lat_sig_catch", "--cpu", "p4-northwood@2200", "--cpu", "p3-coppermine@800", ...extra, ...(shard ? ["--shard", shard] : []), "-o", p])).toBe(0);
      return p;
    };
    const p1 = await mk("p1.siglab", "1/2");
    const p2 = await mk("p2.siglab", "2/2");
    const other = await mk("other.siglab", "2/2", ["--variant", "sa-nofp"]);
    const whole = await mk("whole.siglab", "");
    const all = join(root, "work", "all.siglab");
    const cases: [string[], RegExp][] = [
      [[p1], /refused: .*all\.siglab: the parts leave runs out: part 2 of 2 \(runs 2\) is missing/],
      [[p1, p2, p2], /refused: .*p2\.siglab: is part 2 of 2, and so is .*p2\.siglab: the parts overlap/],
      [[p1, other], /refused: .*other\.siglab: comes from a different experiment than .*p1\.siglab \(experiment\.json, plugins\.json differ\)/],
      [[p1, whole], /refused: .*whole\.siglab: is not a part of a sharded experiment/],
      [[p1, join(root, "work", "nope.siglab")], /nope\.siglab: cannot read \(ENOENT\)/],
      [[], /name the parts to join/],
    ];
    for (const [parts, message] of cases) {
      err = [];
      expect(await cliRun(["merge", ...parts, "-o", all]), parts.join(" ")).toBe(2);
      expect(err.join("\n")).toMatch(message);
    }
    expect(existsSync(all)).toBe(false);
  });
});
