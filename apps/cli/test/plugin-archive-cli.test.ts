/**
 * `siglab plugin pack|install|list|remove` (issue 31), through the built CLI with its own
 * $SIGLAB_HOME: the shipped getpid-cache packed, installed into the CLI's plugin folder and run by
 * `siglab run` with no --plugin-dir; another version refused without --force (naming both), a
 * tampered archive refused, an input of pack never written over; list and remove.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, linkSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RunResult } from "@siglab/core";

const ROOT = join(import.meta.dirname, "../../..");
const FOLDER = join(ROOT, "examples/third-party-plugins/getpid-cache");
// core's zip library (the CLI does not depend on it directly), to look inside and tamper with an archive
const { unzipSync, zipSync } = createRequire(join(ROOT, "packages/core/package.json"))("fflate") as { unzipSync(b: Uint8Array): Record<string, Uint8Array>; zipSync(e: Record<string, Uint8Array>): Uint8Array };
let home: string;
let work: string;

function siglab(args: string[]) {
  const r = spawnSync(process.execPath, [inject("siglabBin"), ...args], { cwd: work, encoding: "utf8", timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, SIGLAB_HOME: home } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  const r = spawnSync("pnpm", ["run", "build"], { cwd: FOLDER, encoding: "utf8", timeout: 120_000 });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  home = mkdtempSync(join(tmpdir(), "siglab-home-"));
  work = mkdtempSync(join(tmpdir(), "siglab-pack-"));
}, 120_000);
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("siglab plugin pack / install / list / remove", () => {
  it("packs getpid-cache into <id>-<version>.siglab-plugin here; never replaces a file without --force, never writes over a file it packed", () => {
    const a = siglab(["plugin", "pack", FOLDER]);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toMatch(/^packed getpid-cache 1\.0\.0 \(plugin API 2\.0\) into getpid-cache-1\.0\.0\.siglab-plugin: 5 files \+ integrity\.json/);
    expect(Object.keys(unzipSync(readFileSync(join(work, "getpid-cache-1.0.0.siglab-plugin")))).sort()).toEqual(["README.md", "dist/index.cjs", "dist/index.cjs.map", "examples/getpid_cache.ts", "integrity.json", "plugin.json"]);
    const b = siglab(["plugin", "pack", FOLDER]);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/getpid-cache-1\.0\.0\.siglab-plugin: already exists; use --force to replace it/);
    expect(siglab(["plugin", "pack", FOLDER, "--force"]).code).toBe(0);
    // an output that is (a hard link to) a file the archive is packed from: refused even with --force
    linkSync(join(FOLDER, "README.md"), join(work, "readme.siglab-plugin"));
    const c = siglab(["plugin", "pack", FOLDER, "-o", "readme.siglab-plugin", "--force"]);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/readme\.siglab-plugin: is the same file as .*README\.md \(a hard link\).*refusing to write over it \(even with --force\)/);
    expect(readFileSync(join(FOLDER, "README.md"), "utf8")).toMatch(/^# /);
    const d = siglab(["plugin", "pack", join(work, "nowhere")]);
    expect(d.code).toBe(1);
    expect(d.err).toMatch(/nowhere: no such folder/);
  });

  it("installs it into the CLI's plugin folder, where `siglab run` finds it without --plugin-dir", () => {
    const i = siglab(["plugin", "install", "getpid-cache-1.0.0.siglab-plugin"]);
    expect(i.code, i.err).toBe(0);
    expect(i.out).toContain(`installed getpid-cache 1.0.0 into ${join(home, "plugins", "getpid-cache")}`);
    const r = siglab(["run", "getpid_cache", "--variant", "getpid-cache", "--cpu", "p4-northwood@2200", "--json"]);
    expect(r.code, r.err).toBe(0);
    const [run] = (JSON.parse(r.out) as { runs: RunResult[] }).runs;
    expect(run!.error).toBeUndefined();
    expect(run!.metrics.find((m) => m.name === "pid page registered")?.value).toBe(1);
  });

  it("refuses another version without --force, naming both; replaces it with --force", () => {
    const v2 = join(work, "getpid-cache-v2");
    cpSync(FOLDER, v2, { recursive: true, filter: (s) => !s.includes("node_modules") });
    const m = JSON.parse(readFileSync(join(v2, "plugin.json"), "utf8")) as { version: string };
    writeFileSync(join(v2, "plugin.json"), JSON.stringify({ ...m, version: "1.1.0" }));
    expect(siglab(["plugin", "pack", v2]).code).toBe(0);
    const a = siglab(["plugin", "install", "getpid-cache-1.1.0.siglab-plugin"]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/getpid-cache-1\.1\.0\.siglab-plugin: getpid-cache 1\.0\.0 is installed; this archive is getpid-cache 1\.1\.0 .*use --force to replace it/);
    expect(JSON.parse(readFileSync(join(home, "plugins/getpid-cache/plugin.json"), "utf8")).version).toBe("1.0.0");
    const b = siglab(["plugin", "install", "getpid-cache-1.1.0.siglab-plugin", "--force"]);
    expect(b.code, b.err).toBe(0);
    expect(b.out).toMatch(/installed getpid-cache 1\.1\.0 \(replacing 1\.0\.0\)/);
    expect(JSON.parse(readFileSync(join(home, "plugins/getpid-cache/plugin.json"), "utf8")).version).toBe("1.1.0");
  });

  it("refuses a tampered archive, naming the file and the entry, and installs nothing", () => {
    const entries = unzipSync(readFileSync(join(work, "getpid-cache-1.0.0.siglab-plugin")));
    entries["dist/index.cjs"] = new TextEncoder().encode("module.exports = { createModule() { /* not what was packed */ } };\n");
    writeFileSync(join(work, "evil.siglab-plugin"), zipSync(entries));
    const r = siglab(["plugin", "install", "evil.siglab-plugin", "--force"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^siglab plugin install: evil\.siglab-plugin: dist\/index\.cjs: \d+ bytes, but integrity\.json says \d+ \(changed after packing\?\)$/m);
    expect(JSON.parse(readFileSync(join(home, "plugins/getpid-cache/plugin.json"), "utf8")).version).toBe("1.1.0");
  });

  it("a --plugin-dir working copy of an installed plugin's id takes its place (siglab plugin dev on the source folder)", () => {
    const parent = join(work, "dev-copies");
    cpSync(FOLDER, join(parent, "getpid-cache"), { recursive: true, filter: (s) => !s.includes("node_modules") });
    const l = siglab(["plugin", "list", "--plugin-dir", parent, "--json"]);
    expect(l.code, l.err).toBe(0);
    const mine = (JSON.parse(l.out) as { plugins: Record<string, unknown>[] }).plugins.filter((x) => x["id"] === "getpid-cache");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ version: "1.0.0", origin: "--plugin-dir" }); // the installed one is 1.1.0
    const r = siglab(["run", "getpid_cache", "--variant", "getpid-cache", "--plugin-dir", parent, "--cpu", "p4-northwood@2200", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { runs: RunResult[] }).runs[0]!.error).toBeUndefined();
    // two --plugin-dir folders with one id are still refused, naming both
    const other = join(work, "dev-copies-2");
    cpSync(FOLDER, join(other, "getpid-cache"), { recursive: true, filter: (s) => !s.includes("node_modules") });
    const t = siglab(["run", "getpid_cache", "--variant", "getpid-cache", "--plugin-dir", parent, "--plugin-dir", other, "--cpu", "p4-northwood@2200"]);
    expect(t.code).not.toBe(0);
    expect(t.out + t.err).toMatch(/plugin id 'getpid-cache' is in 2 plugin folders/);
  });

  it("lists it with version, API range, folder and origin; removes it by id (did-you-mean for a near miss)", () => {
    const l = siglab(["plugin", "list", "--json"]);
    expect(l.code, l.err).toBe(0);
    const p = (JSON.parse(l.out) as { plugins: Record<string, unknown>[] }).plugins.find((x) => x["id"] === "getpid-cache");
    expect(p).toMatchObject({ version: "1.1.0", apiRange: "^2.0", origin: "installed", from: join(home, "plugins", "getpid-cache") });
    expect(siglab(["plugin", "list"]).out).toMatch(/^  getpid-cache\s+1\.1\.0\s+\^2\.0\s+installed\s+/m);
    const miss = siglab(["plugin", "remove", "getpid-cach"]);
    expect(miss.code).toBe(2);
    expect(miss.err).toMatch(/no plugin 'getpid-cach' is installed in .* \(did you mean 'getpid-cache'\? installed: getpid-cache/);
    const builtin = siglab(["plugin", "remove", "sa-nofp"]);
    expect(builtin.code).toBe(2);
    expect(builtin.err).toMatch(/'sa-nofp' is a built-in plugin/);
    const r = siglab(["plugin", "remove", "getpid-cache"]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(home, "plugins", "getpid-cache"))).toBe(false);
    expect(siglab(["plugin", "list", "--json"]).out).not.toContain('"getpid-cache"');
  });
});
