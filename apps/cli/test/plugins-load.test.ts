/**
 * Third-party plugin loading and refusal: what the listing says (main process, manifests only),
 * what the sandbox loader does, and what runs report when a plugin is bad, conflicts or throws.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "@siglab/core";
import { BUILTIN_PROFILE_FILES, resolveInheritance } from "@siglab/cpu-profiles";
import { listPlugins } from "../src/plugins/catalog.js";
import { pluginSources } from "../src/plugins/load.js";
import { runExperimentArgs } from "../src/commands/run.js";
import { stopSandbox } from "../src/run/host.js";

let root: string;
let dir: string;

function manifest(id: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({ id, version: "1.0.0", apiVersion: PLUGIN_API_VERSION, displayName: id, description: `test plugin ${id}`, options: {}, contributes: ["SyscallContribution"], main: "index.js", ...over }, null, 2);
}

function plugin(parent: string, folder: string, manifestText: string, code?: string): string {
  const d = join(parent, folder);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, "plugin.json"), manifestText);
  if (code !== undefined) writeFileSync(join(d, "index.js"), code);
  return d;
}

/** An entry mechanism that behaves like int $0x80 (only its conflicts matter here). */
const ENTRY = (id: string) => `
const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ rebind }) => {
  rebind(TOKENS.EntryMechanism).toConstantValue({
    id: "${id}",
    checkCpu: () => null,
    enter: (k) => k.run("system_call"),
    exitTest: (k, t) => { k.run("ret_from_sys_call"); return t.needResched || t.sigpending; },
    leave: (k) => k.run("restore_all"),
  });
});`;

/** A syscall (nr 250) whose handler throws: the failure happens in the middle of a run. */
const THROWS_IN_RUN = `
const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ bind }) => {
  bind(TOKENS.SyscallContribution).toConstantValue({ nr: 250, name: "kaboom", handler: () => { throw new Error("kaboom in the handler"); } });
});`;

const WORKLOAD = `import { workload } from "siglab";
export default workload({
  name: "call 250",
  params: {},
  *main(t) {
    yield* t.getpid();
    const r = yield* t.syscall(250);
    t.report("nr250", typeof r === "number" ? r : 1, "value");
  },
});
`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "siglab-plugins-load-"));
  dir = join(root, "plugins");
  plugin(dir, "entry-a", manifest("entry-a", { contributes: ["EntryMechanism"], replaces: ["EntryMechanism"] }), ENTRY("entry-a"));
  plugin(dir, "entry-b", manifest("entry-b", { contributes: ["EntryMechanism"], replaces: ["EntryMechanism"] }), ENTRY("entry-b"));
  plugin(dir, "future-api", manifest("future-api", { apiVersion: "3.0" }), "exports.createModule = () => null;");
  plugin(dir, "bad-manifest", manifest("bad-manifest", { version: "one" }), "exports.createModule = () => null;");
  plugin(dir, "unknown-point", manifest("unknown-point", { contributes: ["SyscallTable"] }), "exports.createModule = () => null;");
  plugin(dir, "not-json", "{ id: 'not-json' ", "");
  plugin(dir, "no-main", manifest("no-main", { main: "dist/index.cjs" }));
  plugin(dir, "dup-builtin", manifest("sa-nofp"), "exports.createModule = () => null;");
  plugin(dir, "dup-1", manifest("twin"), "exports.createModule = (options, api) => new api.ContainerModule(() => {});");
  plugin(dir, "dup-2", manifest("twin"), "exports.createModule = () => null;");
  plugin(dir, "throws-at-load", manifest("throws-at-load"), `throw new Error("boom at load");`);
  plugin(dir, "throws-in-module", manifest("throws-in-module"), `exports.createModule = () => { throw new Error("no module for you"); };`);
  plugin(dir, "throws-in-run", manifest("throws-in-run"), THROWS_IN_RUN);
  plugin(dir, "escapes", manifest("escapes"), `const fs = require("fs"); exports.createModule = () => null;`);
  // a CPU profile contributed by a plugin (a copy of the P6 Coppermine under its own id)
  const p6 = resolveInheritance(BUILTIN_PROFILE_FILES).find((p) => p.id === "p6-coppermine")!;
  const mine = { ...p6, id: "p6-plugin", name: "P6 from a plugin" };
  plugin(dir, "cpu-plus", manifest("cpu-plus", { contributes: ["CpuProfileContribution"] }), `const P = ${JSON.stringify(mine)};
exports.createModule = (o, api) => new api.ContainerModule(({ bind }) => bind(api.TOKENS.CpuProfileContribution).toConstantValue({ profiles: () => [P] }));`);
  mkdirSync(join(root, "workloads"));
  writeFileSync(join(root, "workloads", "call250.ts"), WORKLOAD);
});

afterAll(() => {
  stopSandbox();
  rmSync(root, { recursive: true, force: true });
});

describe("listing (manifests only, no plugin code runs)", () => {
  it("refuses bad manifests naming the file and the field, and missing main files", () => {
    const { plugins, refusals } = listPlugins([dir]);
    const why = (folder: string) => refusals.find((r) => r.dir.endsWith(`/${folder}`))?.reason ?? "";
    expect(why("bad-manifest")).toMatch(/bad-manifest\/plugin\.json: \/version: /);
    expect(why("unknown-point")).toMatch(/unknown-point\/plugin\.json: unknown extension point 'SyscallTable' \(known: .*SyscallContribution/);
    expect(why("not-json")).toMatch(/not-json\/plugin\.json: not valid JSON/);
    expect(why("no-main")).toMatch(/no-main\/dist\/index\.cjs: the plugin's main file is missing \(build the plugin first\)/);
    expect(plugins.map((p) => p.manifest.id)).not.toContain("bad-manifest");
  });

  it("refuses another plugin-API major version, naming the plugin and both versions", () => {
    const r = listPlugins([dir]).refusals.find((x) => x.id === "future-api");
    expect(r?.reason).toMatch(new RegExp(`future-api/plugin\\.json: plugin 'future-api' targets plugin API 3\\.0, but this SigLab implements plugin API ${PLUGIN_API_VERSION.replace(".", "\\.")}`));
  });

  it("refuses duplicate ids, naming both owners", () => {
    const { plugins, refusals } = listPlugins([dir]);
    expect(refusals.find((r) => r.dir.endsWith("/dup-builtin"))?.reason).toMatch(/plugin id 'sa-nofp' is already taken by the built-in plugin 'sa-nofp'/);
    // an id in two folders: both refused, each naming both folders (neither is taken silently)
    for (const folder of ["dup-1", "dup-2"]) {
      expect(refusals.find((r) => r.dir.endsWith(`/${folder}`))?.reason).toMatch(/^plugin id 'twin' is in 2 plugin folders, .*\/dup-1 and .*\/dup-2: remove or rename all but one/);
    }
    expect(plugins.filter((p) => p.manifest.id === "twin")).toHaveLength(0);
  });

  it("a --plugin-dir that is missing or not a folder is an error naming it (never silently ignored)", () => {
    expect(() => listPlugins([join(root, "nope")])).toThrow(`--plugin-dir ${join(root, "nope")}: no such folder`);
    expect(() => listPlugins([join(dir, "entry-a", "plugin.json")])).toThrow(`--plugin-dir ${join(dir, "entry-a", "plugin.json")}: not a folder`);
  });
});

describe("runs with bad plugins fail cleanly; the others go on", () => {
  const run = (variant: string, extra: Record<string, unknown> = {}) =>
    runExperimentArgs("lat_syscall", { pluginDir: dir, variant, baseline: true, cpu: ["p4-northwood@2200", "p6-coppermine@1000"], param: "iterations=200", ...extra });

  it("a plugin that threw at load: its runs fail with the reason, the baseline runs complete", async () => {
    const results = await run("throws-at-load");
    expect(results.map((r) => [r.cpu.id, r.variants.map((v) => v.id).join("+"), r.error?.kind ?? "ok"])).toEqual([
      ["p4-northwood", "", "ok"],
      ["p4-northwood", "throws-at-load", "plugin"],
      ["p6-coppermine", "", "ok"],
      ["p6-coppermine", "throws-at-load", "plugin"],
    ]);
    expect(results[1]!.error!.message).toMatch(/plugin 'throws-at-load' \(.*throws-at-load\/index\.js\) threw while loading: boom at load/);
    expect(results[2]!.metrics.find((m) => m.name === "getppid")!.value).toBeGreaterThan(100);
  });

  it("a plugin whose createModule throws", async () => {
    const [, bad, base2] = await run("throws-in-module");
    expect(bad!.error).toMatchObject({ kind: "plugin" });
    expect(bad!.error!.message).toMatch(/plugin 'throws-in-module' failed to load: no module for you/);
    expect(base2!.error).toBeUndefined();
  });

  it("a plugin that throws during the run: that run fails with the message, the next runs complete", async () => {
    const results = await runExperimentArgs(join(root, "workloads", "call250.ts"), { pluginDir: dir, variant: "throws-in-run", baseline: true, cpu: ["p4-northwood@2200", "p6-coppermine@1000"] });
    expect(results.map((r) => r.error?.kind ?? "ok")).toEqual(["ok", "plugin", "ok", "plugin"]);
    // the error names the plugin, the hook and the plugin's own file and line, not the workload
    expect(results[1]!.error!.message).toMatch(/^plugin 'throws-in-run' threw in Object\.handler \(.*throws-in-run\/index\.js:4:\d+\) at cycle [\d.]+: kaboom in the handler$/);
    // the baseline has no syscall 250: ENOSYS
    expect(results[2]!.metrics).toEqual([{ name: "nr250", value: -38, unit: "value" }]);
  });

  it("a plugin that ships a source map: the error names its TypeScript source line (src/index.ts:line:col)", async () => {
    const d = join(root, "mapped-src", "throws-mapped");
    mkdirSync(join(d, "src"), { recursive: true });
    writeFileSync(join(d, "plugin.json"), manifest("throws-mapped", { main: "dist/index.cjs" }));
    // line 6 of src/index.ts is the throw
    writeFileSync(join(d, "src", "index.ts"), `import { ContainerModule, TOKENS } from "@siglab/plugin-api";

export const createModule = () =>
  new ContainerModule(({ bind }) => {
    const kaboom = (): number => {
      const message: string = "kaboom, mapped"; throw new Error(message);
    };
    bind(TOKENS.SyscallContribution).toConstantValue({ nr: 250, name: "kaboom", handler: kaboom });
  });
`);
    // the scaffold's build: esbuild with --sourcemap (dist/index.cjs.map beside dist/index.cjs)
    buildSync({ entryPoints: [join(d, "src", "index.ts")], bundle: true, format: "cjs", platform: "neutral", target: "es2022", external: ["@siglab/plugin-api"], outfile: join(d, "dist", "index.cjs"), sourcemap: true, logLevel: "error" });
    const [r] = await runExperimentArgs(join(root, "workloads", "call250.ts"), { pluginDir: join(root, "mapped-src"), variant: "throws-mapped" });
    expect(r!.error).toMatchObject({ kind: "plugin", file: join(d, "src/index.ts"), line: 6 });
    expect(r!.error!.message).toMatch(new RegExp(`^plugin 'throws-mapped' threw in .* \\(${join(d, "src/index.ts").replace(/[/.]/g, "\\$&")}:6:\\d+\\) at cycle [\\d.]+: kaboom, mapped$`));
  });

  it("a plugin hook that loops: the run's budget error names the plugin and the hook, not the workload", async () => {
    const d = plugin(join(root, "looping"), "loops", manifest("loops"), `
const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ bind }) => {
  bind(TOKENS.SyscallContribution).toConstantValue({ nr: 250, name: "spin", handler() { for (;;) {} } });
});`);
    const [r] = await runExperimentArgs(join(root, "workloads", "call250.ts"), { pluginDir: join(root, "looping"), variant: "loops", maxSeconds: 1.5 });
    expect(d).toMatch(/loops$/);
    expect(r!.error).toMatchObject({ kind: "budget" });
    expect(r!.error!.message).toMatch(/call250\.ts: stopped after 1\.5 s of host time \(the run's budget; --max-seconds\) in plugin 'loops' \(SyscallContribution\.handler\), which had not returned$/);
    // a plugin's module that loops at its top level
    plugin(join(root, "looping-top"), "loops-top", manifest("loops-top"), "for (;;) {}");
    const [t] = await runExperimentArgs(join(root, "workloads", "call250.ts"), { pluginDir: join(root, "looping-top"), variant: "loops-top", maxSeconds: 1.5 });
    expect(t!.error!.message).toMatch(/in plugin 'loops-top' \(its module's top level\), which had not returned$/);
  });

  it("plugin code that imports anything but the plugin API is refused inside the sandbox", async () => {
    const [, bad] = await run("escapes");
    expect(bad!.error).toMatchObject({ kind: "plugin" });
    expect(bad!.error!.message).toMatch(/escapes\/index\.js: cannot import "fs"/);
  });

  it("the host gets code, never a loaded plugin: refused folders travel as stand-ins naming the reason", () => {
    const sources = pluginSources([dir]);
    expect(sources.find((p) => p.id === "entry-a")).toMatchObject({ main: "index.js", files: { "index.js": expect.stringContaining("EntryMechanism") } });
    expect(sources.find((p) => p.id === "future-api")?.refused).toMatch(/targets plugin API 3\.0/);
    expect(sources.find((p) => p.id === "bad-manifest")?.refused).toMatch(/\/version/);
    expect(sources.some((p) => p.id === "sa-nofp")).toBe(false);
  });

  // a refused plugin or a conflicting stack is configuration: refused before any run starts
  it("another plugin-API version: refused before the runs, naming the plugin and both versions", async () => {
    await expect(run("future-api")).rejects.toThrow(new RegExp(`--variant future-api: the plugin is refused: .*plugin 'future-api' targets plugin API 3\\.0, but this SigLab implements plugin API ${PLUGIN_API_VERSION.replace(".", "\\.")}`));
  });

  it("a broken manifest: refused before the runs, naming the file and the field, even with options given", async () => {
    await expect(run("bad-manifest:x=1")).rejects.toThrow(/--variant bad-manifest: the plugin is refused: .*bad-manifest\/plugin\.json: \/version/);
  });

  it("a CPU profile a plugin contributes can be named with --cpu (the run resolves it once the plugin loaded)", async () => {
    const [r] = await runExperimentArgs("lat_syscall", { pluginDir: dir, variant: "cpu-plus", cpu: "p6-plugin@900", param: "iterations=100" });
    expect(r!.error).toBeUndefined();
    expect(r!.cpu).toEqual({ id: "p6-plugin", mhz: 900 });
    const [d] = await runExperimentArgs("lat_syscall", { pluginDir: dir, variant: "cpu-plus", cpu: "p6-plugin", param: "iterations=100" });
    expect(d!.cpu).toEqual({ id: "p6-plugin", mhz: 733 }); // the profile's default clock
    // the same cycles as the built-in profile it copies
    const [base] = await runExperimentArgs("lat_syscall", { cpu: "p6-coppermine@900", param: "iterations=100" });
    expect(r!.totalCycles).toBe(base!.totalCycles);
    await expect(runExperimentArgs("lat_syscall", { cpu: "p6-plugin" })).rejects.toThrow(/unknown CPU profile 'p6-plugin' .*a plugin may contribute others: name it with --variant/);
  });

  it("the same plugin id in two --plugin-dir folders: a run naming it is refused before any run starts, naming every folder", async () => {
    const other = join(root, "other-plugins");
    plugin(other, "twin-again", manifest("twin"), "exports.createModule = (options, api) => new api.ContainerModule(() => {});");
    plugin(other, "solo", manifest("solo"), "exports.createModule = (options, api) => new api.ContainerModule(() => {});");
    await expect(runExperimentArgs("lat_syscall", { pluginDir: [dir, other], variant: "twin", param: "iterations=100" })).rejects.toThrow(`--variant twin: the plugin is refused: plugin id 'twin' is in 3 plugin folders, ${join(dir, "dup-1")}, ${join(dir, "dup-2")} and ${join(other, "twin-again")}`);
    // the other plugins of both folders are not affected
    const [solo] = await runExperimentArgs("lat_syscall", { pluginDir: [dir, other], variant: "solo", param: "iterations=100" });
    expect(solo!.error).toBeUndefined();
  });

  it("two plugins replacing the same extension point conflict, named both, before any run starts", async () => {
    await expect(runExperimentArgs("lat_syscall", { pluginDir: dir, variant: ["entry-a", "entry-b"], param: "iterations=100" })).rejects.toThrow("variant stack entry-a;entry-b: plugins 'entry-a' and 'entry-b' conflict: both replace the EntryMechanism extension point");
    const [alone] = await runExperimentArgs("lat_syscall", { pluginDir: dir, variant: "entry-a", param: "iterations=100" });
    expect(alone!.error).toBeUndefined();
  });
});
