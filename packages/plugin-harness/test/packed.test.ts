/**
 * The plugin API and the harness as an author outside this repository gets them: packed with
 * `pnpm pack` (as a release packs them), installed with npm (from the tarballs and the npm
 * registry) into a temporary folder outside the repository, and used there. The shipped sample,
 * examples/third-party-plugins/getpid-cache, copied out, builds and passes its own tests against
 * them; a plugin type-checks against the packed declarations (the API, its internal types, the
 * harness); and a plugin runs through the packed harness in process, in its worker thread, and
 * through the deprecated @siglab/plugin-api/harness.
 *
 * Both are packed from the dist/ `pnpm typecheck` built (rebuilding here would pull dist/ from
 * under the other tests that read it; a release's `pnpm --filter … pack` rebuilds in prepack).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "@siglab/plugin-api";

const ROOT = realpathSync(join(import.meta.dirname, "../../.."));
const SAMPLE = join(ROOT, "examples/third-party-plugins/getpid-cache");
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "siglab-packed-")));
const project = join(tmp, "getpid-cache");
const tarballs: Record<string, string> = {};

function run(cmd: string, args: string[], cwd: string, timeout = 180_000, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout, env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", ...env } });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}`, stdout: r.stdout };
}

function pack(pkg: string): string {
  const dest = join(tmp, "packs");
  mkdirSync(dest, { recursive: true });
  const before = new Set(readdirSync(dest));
  // (pnpm pack has no --ignore-scripts: the setting skips prepack's build)
  const r = run("pnpm", ["pack", "--pack-destination", dest], join(ROOT, "packages", pkg), 180_000, { npm_config_ignore_scripts: "true" });
  expect(r.status, r.out).toBe(0);
  const made = readdirSync(dest).filter((f) => !before.has(f));
  expect(made).toHaveLength(1);
  return join(dest, made[0]!);
}

const listing = (tgz: string) => run("tar", ["-tzf", tgz], tmp).stdout.split("\n").filter(Boolean).sort();
const packedJson = (tgz: string) => JSON.parse(run("tar", ["-xzOf", tgz, "package/package.json"], tmp).stdout) as Record<string, unknown>;

beforeAll(() => {
  expect(tmp.startsWith(ROOT)).toBe(false);
  tarballs["api"] = pack("plugin-api");
  tarballs["harness"] = pack("plugin-harness");
  // the sample as an author has it: its sources, no node_modules, no build
  cpSync(SAMPLE, project, { recursive: true, filter: (src) => !/\/(node_modules|dist)(\/|$)/.test(src.slice(SAMPLE.length)) });
  const r = run("npm", ["install", "--save-dev", tarballs["api"]!, tarballs["harness"]!], project);
  expect(r.status, r.out).toBe(0);
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("@siglab/plugin-api packed", () => {
  it("is a versioned, self-contained tarball ready to publish", () => {
    expect(tarballs["api"]).toMatch(new RegExp(`siglab-plugin-api-${PLUGIN_API_VERSION.replace(".", "\\.")}\\.\\d+\\.tgz$`));
    expect(listing(tarballs["api"]!)).toEqual(["package/LICENSE", "package/README.md", "package/dist/harness.d.ts", "package/dist/harness.js", "package/dist/index.d.ts", "package/dist/index.js", "package/dist/internal.d.ts", "package/dist/workload.d.ts", "package/package.json"]);
    const pkg = packedJson(tarballs["api"]!);
    expect(pkg).toMatchObject({ name: "@siglab/plugin-api", license: "MIT", type: "module", types: "./dist/index.d.ts", publishConfig: { access: "public", provenance: true } });
    expect(String(pkg["version"]).startsWith(`${PLUGIN_API_VERSION}.`)).toBe(true);
    expect(pkg["exports"]).toEqual({
      ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./harness": { types: "./dist/harness.d.ts", default: "./dist/harness.js" },
      "./internal": { types: "./dist/internal.d.ts" },
      "./workload": { types: "./dist/workload.d.ts" },
    });
    expect(JSON.stringify(pkg)).not.toMatch(/workspace:|src\//);
  });

  it("the harness tarball depends on the API by version range, and carries its worker", () => {
    const files = listing(tarballs["harness"]!);
    expect(files).toEqual(expect.arrayContaining(["package/dist/index.js", "package/dist/index.d.ts", "package/dist/worker.js", "package/README.md", "package/LICENSE"]));
    expect(files.filter((f) => f.includes("/src/") || f.includes("/test/"))).toEqual([]);
    expect(packedJson(tarballs["harness"]!)).toMatchObject({ name: "@siglab/plugin-harness", peerDependencies: { "@siglab/plugin-api": `^${PLUGIN_API_VERSION}.0` } });
  });
});

describe("installed with npm outside the repository", () => {
  it("the shipped sample getpid-cache builds (tsc against the packed declarations, esbuild) and passes its own tests", () => {
    const build = run("npm", ["run", "build"], project);
    expect(build.status, build.out).toBe(0);
    const test = run("npm", ["test"], project);
    expect(test.status, test.out).toBe(0);
    expect(test.stdout).toMatch(/# pass 2/);
  }, 120_000);

  it("a plugin type-checks against the packed API, its internal types and the harness", () => {
    writeFileSync(join(project, "probe.ts"), `import { ContainerModule, TOKENS, op, type CreateModule, type Kernel, type Task } from "@siglab/plugin-api";
import type { FastRuntimeThread } from "@siglab/plugin-api/internal";
import { runInWorker, runWorkload, type WorkerHarnessOptions } from "@siglab/plugin-harness";
export const createModule: CreateModule = () =>
  new ContainerModule(({ bind }) => {
    bind(TOKENS.SyscallContribution).toConstantValue({ nr: 224, name: "gettid", path: "sys_gettid", handler: (_k: Kernel, t: Task) => t.pid });
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => [{ name: "sys_gettid", phase: "syscall.body", ops: [op("sys_gettid", "load", 1)] }] });
  });
export const fast: FastRuntimeThread["runUserNow"] | undefined = undefined;
export const o: WorkerHarnessOptions = { plugins: [{ dir: "." }], workload: "lat_syscall", budget: { hostMs: 1000 } };
export const runs = [runWorkload, runInWorker];
// @ts-expect-error op classes are checked: "lod" is none
op("sys_gettid", "lod");
`);
    writeFileSync(join(project, "tsconfig.probe.json"), JSON.stringify({ compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM"], types: [], strict: true, noEmit: true, skipLibCheck: false }, files: ["probe.ts"] }));
    const r = run(join(project, "node_modules/.bin/tsc"), ["-p", "tsconfig.probe.json"], project);
    expect(r.status, r.out).toBe(0);
  }, 60_000);

  it("a plugin runs through the packed harness in process and in its worker, and through the deprecated @siglab/plugin-api/harness", () => {
    writeFileSync(join(project, "probe.mjs"), `import * as api from "@siglab/plugin-api";
import { runWorkload } from "@siglab/plugin-harness";
import { runInWorker } from "@siglab/plugin-harness";
import { runWorkload as runWorkload22 } from "@siglab/plugin-api/harness";
const manifest = { id: "t-gettid", version: "1.0.0", apiVersion: "2.0", displayName: "gettid", description: "probe", options: {}, contributes: ["SyscallContribution", "PathContribution"] };
const createModule = () => new api.ContainerModule(({ bind }) => {
  bind(api.TOKENS.SyscallContribution).toConstantValue({ nr: 224, name: "gettid", path: "sys_gettid", handler: (_k, t) => t.pid });
  bind(api.TOKENS.PathContribution).toConstantValue({ paths: () => [{ name: "sys_gettid", phase: "syscall.body", ops: [api.op("sys_gettid", "load", 1)] }] });
});
const source = 'import { workload } from "siglab";\\nexport default workload({ name: "gettid", params: {}, *main(t) { t.report("tid", (yield* t.syscall(224)), "pid"); } });\\n';
const o = { plugins: [{ manifest, createModule }], variant: "t-gettid", workload: { file: "gettid.ts", source } };
const metric = (r, n) => r.error ? r.error.message : r.metrics.find((m) => m.name === n)?.value;
const inWorker = await runInWorker({ plugins: [{ dir: "." }], variant: "getpid-cache", workload: "getpid_cache", params: { iterations: 100 } });
console.log(JSON.stringify({ api: api.PLUGIN_API_VERSION, harness: metric(runWorkload(o), "tid"), deprecated: metric(runWorkload22(o), "tid"), worker: metric(inWorker, "pid page registered") }));
`);
    const r = run("node", ["probe.mjs"], project, 120_000);
    expect(r.status, r.out).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n").pop()!)).toEqual({ api: PLUGIN_API_VERSION, harness: 1, deprecated: 1, worker: 1 });
  }, 120_000);
});
