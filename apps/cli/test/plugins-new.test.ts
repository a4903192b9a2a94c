/**
 * `siglab plugin new`: the skeleton is complete, never overwrites, builds with its own build
 * script, loads through the CLI's loader, and its own test passes against this SigLab.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "@siglab/core";
import { pluginNew } from "../src/commands/plugins.js";
import { listPlugins } from "../src/plugins/catalog.js";

const ROOT = join(import.meta.dirname, "../../..");
let tmp: string;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { log: (l: string) => out.push(l), error: (l: string) => err.push(l) }, out, err };
}

/**
 * What `npm install` would give the skeleton, without the network: its dev dependencies linked
 * from this checkout (the packed packages, installed outside the repository with npm, are
 * packages/plugin-harness/test/packed.test.ts's).
 */
function installFromCheckout(folder: string): void {
  const nm = join(folder, "node_modules");
  mkdirSync(join(nm, "@siglab"), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  expect(pkg.devDependencies["@siglab/plugin-api"]).toBe(`^${PLUGIN_API_VERSION}.0`);
  symlinkSync(join(ROOT, "packages/plugin-api"), join(nm, "@siglab/plugin-api"));
  symlinkSync(join(ROOT, "packages/plugin-harness"), join(nm, "@siglab/plugin-harness"));
  symlinkSync(realpathSync(join(ROOT, "node_modules/tsx")), join(nm, "tsx"));
}

/** Runs one of the skeleton's package.json scripts with this checkout's tsc/esbuild on PATH (no npm install in a temp folder). */
function npmScript(folder: string, name: string, env: Record<string, string> = {}) {
  const script = (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts[name]!;
  const bins = [join(ROOT, "node_modules/.bin"), join(ROOT, "apps/cli/node_modules/.bin")];
  return spawnSync(script, { shell: true, cwd: folder, encoding: "utf8", timeout: 180_000, env: { ...process.env, ...env, PATH: [...bins, process.env["PATH"]].join(delimiter) } });
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "siglab-plugin-new-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("siglab plugin new", () => {
  it("creates the skeleton: manifest, source, types, example, test, README, build config", () => {
    const c = capture();
    expect(pluginNew("my-gettid", { dir: tmp }, c.io)).toBe(0);
    const folder = join(tmp, "my-gettid");
    const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name).slice(folder.length + 1)).sort();
    expect(files).toEqual([".gitignore", "README.md", "examples/my-gettid-demo.ts", "package.json", "plugin.json", "src/index.ts", "test/cli.test.mjs", "test/plugin.test.mjs", "tsconfig.examples.json", "tsconfig.json"]);
    const manifest = JSON.parse(readFileSync(join(folder, "plugin.json"), "utf8"));
    expect(manifest).toMatchObject({ id: "my-gettid", apiVersion: PLUGIN_API_VERSION, main: "dist/index.cjs", contributes: ["SyscallContribution", "PathContribution"] });
    // no copy of the API's declarations, no path into this checkout: the packages, by version range
    expect(JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).devDependencies).toMatchObject({ "@siglab/plugin-api": `^${PLUGIN_API_VERSION}.0`, "@siglab/plugin-harness": `^${PLUGIN_API_VERSION}.0` });
    for (const f of files) expect(readFileSync(join(folder, f), "utf8"), f).not.toContain(ROOT);
    for (const f of files) expect(readFileSync(join(folder, f), "utf8"), f).not.toMatch(/__ID__|__API_VERSION__/);
    expect(c.out.join("\n")).toMatch(/npm run build/);
  });

  it("refuses to overwrite an existing folder, and names that are not plugin ids", () => {
    const existing = join(tmp, "taken");
    mkdirSync(existing);
    writeFileSync(join(existing, "keep.txt"), "mine");
    const c = capture();
    expect(pluginNew("taken", { dir: tmp }, c.io)).toBe(2);
    expect(c.err.join("\n")).toMatch(/taken already exists; refusing to overwrite it/);
    expect(readdirSync(existing)).toEqual(["keep.txt"]);
    for (const bad of ["My_Plugin", "-x", "a/b", "..", ""]) {
      const d = capture();
      expect(pluginNew(bad, { dir: tmp }, d.io), bad).toBe(2);
      expect(d.err.join("\n")).toMatch(bad ? /is not a valid plugin id/ : /give the plugin's id/);
    }
    expect(existsSync(join(tmp, "My_Plugin"))).toBe(false);
  });

  it("builds with its own build script (its examples type-checked too), its harness tests pass, and it runs from its folder in the CLI", () => {
    const folder = join(tmp, "my-gettid");
    installFromCheckout(folder);
    const build = npmScript(folder, "build");
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    expect(existsSync(join(folder, "dist/index.cjs"))).toBe(true);
    // and its source map, so that an error in a hook names src/index.ts and its line
    expect(JSON.parse(readFileSync(join(folder, "dist/index.cjs.map"), "utf8")).sources).toEqual(["../src/index.ts"]);
    const { plugins, refused } = listPlugins([tmp]);
    expect(refused).toEqual([]);
    expect(plugins.find((p) => p.manifest.id === "my-gettid")?.examples.map((e) => e.id)).toEqual(["my-gettid-demo"]);
    // the skeleton's tests: the harness (in process), and the real CLI (--plugin-dir, sandbox, JSON)
    const test = npmScript(folder, "test", { SIGLAB: `pnpm -s -C ${JSON.stringify(ROOT)} siglab` });
    expect(test.status, `${test.stdout}\n${test.stderr}`).toBe(0);
    expect(test.stdout).toMatch(/# pass 3/);
    expect(test.stdout).toMatch(/# fail 0/);
  }, 240_000);

  it("a type error in the plugin source fails its build (it compiles against the plugin-API types)", () => {
    const c = capture();
    expect(pluginNew("typo", { dir: tmp }, c.io)).toBe(0);
    const folder = join(tmp, "typo");
    installFromCheckout(folder);
    const src = join(folder, "src/index.ts");
    writeFileSync(src, readFileSync(src, "utf8").replace('op("sys_gettid", "load", 1', 'op("sys_gettid", "lod", 1'));
    const build = npmScript(folder, "build");
    expect(build.status).not.toBe(0);
    // "lod" is not an op class (the declarations list them: "pop" | "push" | "int_gate" | ...)
    expect(build.stdout + build.stderr).toMatch(/src\/index\.ts.*Argument of type '"lod"' is not assignable to parameter of type '"pop" \| "push" \| "int_gate"/s);
    expect(existsSync(join(folder, "dist/index.cjs"))).toBe(false);
  }, 120_000);

  it("a type error in an example workload fails the build (examples are checked against the workload API)", () => {
    const c = capture();
    expect(pluginNew("badex", { dir: tmp }, c.io)).toBe(0);
    const folder = join(tmp, "badex");
    installFromCheckout(folder);
    const ex = join(folder, "examples/badex-demo.ts");
    writeFileSync(ex, readFileSync(ex, "utf8").replace("yield* t.syscall(NR_gettid);\n    t.report", "yield* t.kill(\"x\", 10);\n    t.report"));
    const build = npmScript(folder, "build");
    expect(build.status).not.toBe(0);
    expect(build.stdout + build.stderr).toMatch(/examples\/badex-demo\.ts.*Argument of type 'string' is not assignable to parameter of type 'number'/s);
  }, 120_000);
});
