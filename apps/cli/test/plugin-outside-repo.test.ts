/**
 * A plugin author outside the repository, end to end: `pnpm pack:api` packs @siglab/plugin-api and
 * @siglab/plugin-harness as a release does; `siglab plugin new` scaffolds a plugin in a temporary
 * folder outside the checkout; `pnpm install` installs the two tarballs there through pnpm overrides,
 * as the scaffold's README says (the rest, esbuild, tsx and typescript, from pnpm's store or the registry); the plugin builds with its own build script,
 * passes its harness tests, and `siglab run --plugin-dir` runs its example. The packed API
 * type-checks and imports there on its own.
 *
 * One install for the whole file (outside-plugin.ts, shared with the app's e2e). The tarballs are
 * packed from the dist/ `pnpm typecheck` built (--no-build: rebuilding would pull dist/ from under
 * other tests reading it).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PLUGIN_API_VERSION } from "@siglab/core";
import { ROOT, runAsAuthor as run, scaffoldOutsidePlugin, type OutsidePlugin } from "./outside-plugin.js";

const ID = "outside-tid";
let tmp: string, plugin: string, tarballs: OutsidePlugin["tarballs"];

const siglab = (args: string[], cwd: string) => run(process.execPath, [inject("siglabBin"), ...args], cwd);
const metric = (r: { metrics: { name: string; value: number }[] }, name: string) => r.metrics.find((m) => m.name === name)?.value;

beforeAll(() => {
  ({ tmp, plugin, tarballs } = scaffoldOutsidePlugin(inject("siglabBin"), ID));
}, 300_000);
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("the packed plugin API, installed with pnpm outside the repository", () => {
  it("is what `pnpm pack:api` wrote: versioned, its package.json the publish one, dist/index.js in it", () => {
    const listing = run("tar", ["-tzf", tarballs.api], tmp).stdout.split("\n");
    expect(listing).toEqual(expect.arrayContaining(["package/dist/index.js", "package/dist/index.d.ts", "package/README.md", "package/LICENSE", "package/package.json"]));
    const pkg = JSON.parse(run("tar", ["-xzOf", tarballs.api, "package/package.json"], tmp).stdout) as Record<string, unknown>;
    expect(pkg).toMatchObject({ name: "@siglab/plugin-api", version: `${PLUGIN_API_VERSION}.0`, exports: { ".": { default: "./dist/index.js" } } });
  });

  it("cannot be published from its folder with npm, which would publish the workspace's exports (src/)", () => {
    const r = run("npm", ["publish", "--dry-run"], join(ROOT, "packages/plugin-api"));
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/@siglab\/plugin-api: publish the tarball `pnpm pack:api` writes/);
  });

  it("is a real install, not a link into the checkout", () => {
    for (const p of ["@siglab/plugin-api", "@siglab/plugin-harness"]) expect(realpathSync(join(plugin, "node_modules", p)).startsWith(ROOT), p).toBe(false);
    // the scaffold's semver range stays: the overrides point it at the tarball
    expect(JSON.parse(readFileSync(join(plugin, "package.json"), "utf8")).devDependencies["@siglab/plugin-api"]).toBe(`^${PLUGIN_API_VERSION}.0`);
    expect(JSON.parse(readFileSync(join(plugin, "node_modules/@siglab/plugin-api/package.json"), "utf8")).version).toBe(`${PLUGIN_API_VERSION}.0`);
  });

  it("type-checks a plugin and imports as an ES module", () => {
    writeFileSync(join(plugin, "probe.ts"), `import { ContainerModule, TOKENS, op, PLUGIN_API_VERSION, type CreateModule } from "@siglab/plugin-api";
export const createModule: CreateModule = () => new ContainerModule(({ bind }) => {
  bind(TOKENS.PathContribution).toConstantValue({ paths: () => [{ name: "p", phase: "syscall.body", ops: [op("p", "load", 1)] }] });
});
export const v: string = PLUGIN_API_VERSION;
// @ts-expect-error op classes are checked: "lod" is none
op("p", "lod");
`);
    writeFileSync(join(plugin, "tsconfig.probe.json"), JSON.stringify({ extends: "./tsconfig.json", include: [], files: ["probe.ts"] }));
    const tsc = run(join(plugin, "node_modules/.bin/tsc"), ["-p", "tsconfig.probe.json"], plugin);
    expect(tsc.status, tsc.out).toBe(0);
    const imported = run(process.execPath, ["--input-type=module", "-e", `const api = await import("@siglab/plugin-api"); console.log(JSON.stringify({ v: api.PLUGIN_API_VERSION, tokens: typeof api.TOKENS.SyscallContribution, module: typeof api.ContainerModule }));`], plugin);
    expect(imported.status, imported.out).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ v: PLUGIN_API_VERSION, tokens: "symbol", module: "function" });
  }, 120_000);
});

describe("siglab plugin new, outside the repository", () => {
  it("builds, passes its harness tests, and runs its example with --plugin-dir", () => {
    const build = run("pnpm", ["run", "build"], plugin);
    expect(build.status, build.out).toBe(0);
    expect(existsSync(join(plugin, "dist/index.cjs"))).toBe(true);

    const test = run("pnpm", ["test"], plugin);
    expect(test.status, test.out).toBe(0);
    expect(test.stdout).toMatch(/# pass 2/); // the two harness tests (cli.test.mjs is skipped without SIGLAB)
    expect(test.stdout).toMatch(/# fail 0/);

    const r = siglab(["run", `${ID}-demo`, "--plugin-dir", plugin, "--variant", ID, "--baseline", "--json"], tmp);
    expect(r.status, r.out).toBe(0);
    const { runs } = JSON.parse(r.stdout.slice(r.stdout.indexOf("{"))) as { runs: { metrics: { name: string; value: number }[] }[] };
    expect(metric(runs[0]!, "gettid available")).toBe(0);
    expect(metric(runs[1]!, "gettid available")).toBe(1);
    expect(metric(runs[1]!, "gettid is the tid")).toBe(1);
  }, 240_000);

  it("packs, installs into the CLI (runs with no --plugin-dir) and embeds in a bundle that re-runs identically where it is not installed", () => {
    const home = join(tmp, "home"), elsewhere = join(tmp, "elsewhere");
    const as = (h: string) => ({ SIGLAB_HOME: h });
    const packed = siglab(["plugin", "pack", plugin], tmp);
    expect(packed.status, packed.out).toBe(0);
    const archive = readdirSync(tmp).find((f) => f.startsWith(`${ID}-`) && f.endsWith(".siglab-plugin"));
    expect(archive, packed.out).toBeDefined();
    const installed = run(process.execPath, [inject("siglabBin"), "plugin", "install", archive!], tmp, as(home));
    expect(installed.status, installed.out).toBe(0);
    const r = run(process.execPath, [inject("siglabBin"), "run", `${ID}-demo`, "--variant", ID, "--json"], tmp, as(home));
    expect(r.status, r.out).toBe(0);
    const { runs } = JSON.parse(r.stdout.slice(r.stdout.indexOf("{"))) as { runs: { metrics: { name: string; value: number }[] }[] };
    expect(metric(runs[0]!, "gettid is the tid")).toBe(1);
    const exported = run(process.execPath, [inject("siglabBin"), "bundle", "export", `${ID}-demo`, "--variant", ID, "--baseline", "-o", "outside.siglab"], tmp, as(home));
    expect(exported.status, exported.out).toBe(0);
    // another user: nothing installed; the bundle's own copy of the plugin runs after consent
    const refused = run(process.execPath, [inject("siglabBin"), "bundle", "verify", "outside.siglab"], tmp, as(elsewhere));
    expect(refused.status).not.toBe(0);
    expect(refused.out).toMatch(/--trust-embedded/);
    const verified = run(process.execPath, [inject("siglabBin"), "bundle", "verify", "outside.siglab", "--trust-embedded"], tmp, as(elsewhere));
    expect(verified.status, verified.out).toBe(0);
    expect(verified.out).toMatch(/identical/i);
  }, 240_000);
});
