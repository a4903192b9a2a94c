/**
 * The .siglab-plugin archive (issue 31): a round trip of a real plugin folder, and each refusal on
 * pack and on install — a tampered file, an entry added after packing, a link (in the folder and in
 * the zip), a path escaping the folder, an oversized file, a plugin API this SigLab does not implement.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/bundle/hash.js";
import { PLUGIN_API_VERSION } from "../../src/plugin-api/manifest.js";
import { ARCHIVE_LIMITS, packPluginArchive, PluginArchiveError, readPluginArchive } from "../../src/plugin-archive/index.js";
import { installedVersion, installPluginFiles, packPluginFolder } from "../../src/plugin-archive/node/index.js";

const manifest = (over: Record<string, unknown> = {}) => ({
  id: "demo-plugin",
  version: "1.2.3",
  apiVersion: PLUGIN_API_VERSION,
  displayName: "Demo",
  description: "a plugin for the archive tests",
  options: {},
  contributes: ["InvariantChecker"],
  main: "dist/index.cjs",
  ...over,
});

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "siglab-archive-"));
  dirs.push(d);
  return d;
}

/** A plugin folder with what a built plugin has beside its distributable part (sources, tests, a package.json). */
function pluginFolder(over: Record<string, unknown> = {}): string {
  const d = join(tmp(), "demo-plugin");
  for (const sub of ["dist", "examples", "src", "test", "node_modules/x"]) mkdirSync(join(d, sub), { recursive: true });
  writeFileSync(join(d, "plugin.json"), JSON.stringify(manifest(over)));
  writeFileSync(join(d, "dist/index.cjs"), "module.exports = {};\n");
  writeFileSync(join(d, "dist/index.cjs.map"), "{}");
  writeFileSync(join(d, "examples/demo.ts"), "export default {};\n");
  writeFileSync(join(d, "README.md"), "# demo\n");
  writeFileSync(join(d, "src/index.ts"), "export {};\n");
  writeFileSync(join(d, "test/a.test.mjs"), "");
  writeFileSync(join(d, "package.json"), "{}");
  writeFileSync(join(d, "node_modules/x/index.js"), "");
  return d;
}

const entriesOf = (bytes: Uint8Array): Record<string, Uint8Array> => unzipSync(bytes);
const rezip = (entries: Record<string, Uint8Array>): Uint8Array => zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, [v, { level: 6 }]])) as Zippable);
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PluginArchiveError);
    return (e as Error).message;
  }
  throw new Error("expected a refusal");
};

describe("plugin archive", () => {
  it("packs a folder's distributable part and reads it back identically, byte for byte the same each time", () => {
    const dir = pluginFolder();
    const packed = packPluginFolder(dir);
    expect(packed.fileName).toBe("demo-plugin-1.2.3.siglab-plugin");
    expect(packed.paths).toEqual(["README.md", "dist/index.cjs", "dist/index.cjs.map", "examples/demo.ts", "plugin.json"]);
    expect(Object.keys(entriesOf(packed.bytes)).sort()).toEqual([...packed.paths, "integrity.json"].sort());
    const read = readPluginArchive(packed.bytes, "demo.siglab-plugin");
    expect(read.manifest.id).toBe("demo-plugin");
    expect([...read.files.keys()].sort()).toEqual(packed.paths);
    expect(new TextDecoder().decode(read.files.get("dist/index.cjs"))).toBe("module.exports = {};\n");
    expect(packPluginFolder(dir).bytes).toEqual(packed.bytes);
  });

  it("installs the files it read into <pluginDir>/<id>, replacing another version whole", async () => {
    const pluginDir = tmp();
    const read = readPluginArchive(packPluginFolder(pluginFolder()).bytes, "a.siglab-plugin");
    expect(await installedVersion(pluginDir, "demo-plugin")).toBeNull();
    const target = await installPluginFiles(read.files, pluginDir, "demo-plugin");
    expect(target).toBe(join(pluginDir, "demo-plugin"));
    writeFileSync(join(target, "stale.js"), "");
    expect(await installedVersion(pluginDir, "demo-plugin")).toBe("1.2.3");
    const v2 = readPluginArchive(packPluginFolder(pluginFolder({ version: "2.0.0" })).bytes, "b.siglab-plugin");
    await installPluginFiles(v2.files, pluginDir, "demo-plugin");
    expect(await installedVersion(pluginDir, "demo-plugin")).toBe("2.0.0");
    expect(() => readFileSync(join(target, "stale.js"))).toThrow(/ENOENT/);
  });

  it("refuses a file changed after packing (its SHA-256), and an entry added after packing", () => {
    const e = entriesOf(packPluginFolder(pluginFolder()).bytes);
    const longer = rezip({ ...e, "dist/index.cjs": strToU8("module.exports = { evil: 1 };\n") });
    expect(refusal(() => readPluginArchive(longer, "t.siglab-plugin"))).toMatch(/^t\.siglab-plugin: dist\/index\.cjs: 30 bytes, but integrity\.json says 21 \(changed after packing\?\)$/);
    const sameSize = new Uint8Array(e["dist/index.cjs"]!);
    sameSize[0] = "M".charCodeAt(0);
    expect(refusal(() => readPluginArchive(rezip({ ...e, "dist/index.cjs": sameSize }), "t.siglab-plugin"))).toBe("t.siglab-plugin: dist/index.cjs: SHA-256 differs from integrity.json's (changed after packing?)");
    expect(refusal(() => readPluginArchive(rezip({ ...e, "dist/extra.js": strToU8("x") }), "t.siglab-plugin"))).toMatch(/dist\/extra\.js: not listed in integrity\.json/);
    const { "README.md": _readme, ...lacking } = e;
    expect(refusal(() => readPluginArchive(rezip(lacking), "t.siglab-plugin"))).toBe('t.siglab-plugin: "README.md": listed in integrity.json but not in the archive');
    const { "integrity.json": _, ...without } = e;
    expect(refusal(() => readPluginArchive(rezip(without), "t.siglab-plugin"))).toMatch(/no integrity\.json/);
  });

  it("refuses a link: in the folder on pack, and a symbolic-link entry in the zip on install", () => {
    const dir = pluginFolder();
    symlinkSync("/etc/passwd", join(dir, "examples/passwd.ts"));
    expect(() => packPluginFolder(dir)).toThrow(/examples\/passwd\.ts: a symbolic link/);
    const e = entriesOf(packPluginFolder(pluginFolder()).bytes);
    const z: Zippable = {};
    for (const [k, v] of Object.entries(e)) z[k] = [v, k === "README.md" ? { os: 3, attrs: (0o120777 << 16) >>> 0 } : {}];
    expect(refusal(() => readPluginArchive(zipSync(z), "l.siglab-plugin"))).toBe("l.siglab-plugin: README.md: a symbolic link; a plugin archive may hold only regular files");
  });

  it("refuses entry names that escape the folder or are absolute", async () => {
    const e = entriesOf(packPluginFolder(pluginFolder()).bytes);
    const { craftZip } = await import("../bundle/zip-craft.js");
    for (const name of ["../evil.js", "/etc/evil.js", "dist/../../evil.js"]) {
      const bytes = craftZip([...Object.entries(e).map(([n, data]) => ({ name: n, data })), { name, data: strToU8("x") }]);
      expect(refusal(() => readPluginArchive(bytes, "p.siglab-plugin"))).toMatch(/refused entry: (parent-directory segment|absolute path)/);
    }
  });

  it("refuses an oversized file on pack and on install, and files outside the layout", () => {
    const dir = pluginFolder();
    writeFileSync(join(dir, "dist/big.js"), new Uint8Array(ARCHIVE_LIMITS.maxEntryBytes + 1));
    expect(() => packPluginFolder(dir)).toThrow(/dist\/big\.js: 5,242,881 bytes, over the 5,242,880-byte limit/);
    const small = { ...ARCHIVE_LIMITS, maxEntryBytes: 10 };
    const packed = packPluginFolder(pluginFolder());
    expect(refusal(() => readPluginArchive(packed.bytes, "s.siglab-plugin", small))).toMatch(/^s\.siglab-plugin: .*(over the 10-byte limit|declares \d+ bytes uncompressed, over the 10-byte limit)/);
    const files = new Map([...readPluginArchive(packed.bytes, "x").files, ["src/index.ts", strToU8("x")]]);
    expect(refusal(() => packPluginArchive(files, "dir"))).toMatch(/^dir: src\/index\.ts: not part of a plugin archive/);
  });

  it("refuses a plugin API this SigLab does not implement, and a manifest the schema refuses, on pack and on install", () => {
    expect(refusal(() => packPluginFolder(pluginFolder({ apiVersion: "3.0" })))).toMatch(/targets plugin API 3\.0, but this SigLab implements plugin API/);
    expect(refusal(() => packPluginFolder(pluginFolder({ version: "one" })))).toMatch(/plugin\.json: \/version/);
    const e = entriesOf(packPluginFolder(pluginFolder()).bytes);
    const m = strToU8(JSON.stringify(manifest({ apiVersion: "9.0" })));
    const integrity = JSON.parse(new TextDecoder().decode(e["integrity.json"])) as { files: { path: string; size: number; sha256: string }[] };
    for (const f of integrity.files) if (f.path === "plugin.json") Object.assign(f, { size: m.length, sha256: sha256Hex(m) });
    const repacked = rezip({ ...e, "plugin.json": m, "integrity.json": strToU8(JSON.stringify(integrity)) });
    expect(refusal(() => readPluginArchive(repacked, "api.siglab-plugin"))).toMatch(/^api\.siglab-plugin: plugin 'demo-plugin' targets plugin API 9\.0/);
  });

  it("refuses what is not a zip, naming the file", () => {
    expect(refusal(() => readPluginArchive(strToU8("hello, not a zip at all.."), "n.siglab-plugin"))).toMatch(/^n\.siglab-plugin: not a zip archive/);
  });
});
