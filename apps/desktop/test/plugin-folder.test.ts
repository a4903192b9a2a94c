import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiVersionProblem, installPluginFolder, readPluginCode, ReplaceNeedsConfirmation, scanPluginDir } from "../src/node/plugin-folder.js";
import { HostService, type HostUi } from "../src/node/host-service.js";
import { Workspace } from "../src/node/workspace.js";
import { PLUGIN_API_VERSION } from "@siglab/core/plugin-api";

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), "siglab-plug-"));

function makePlugin(dir: string, manifest: Record<string, unknown>, files: Record<string, string> = { "dist/index.js": "export default function () {}" }): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "plugin.json"), JSON.stringify({ id: "demo", version: "1.0.0", apiVersion: "1.0", displayName: "Demo", description: "d", options: {}, contributes: ["SyscallContribution"], main: "dist/index.js", ...manifest }));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const ui: HostUi = {
  kind: "http", appVersion: "0", choosePluginFolder: async () => null, chooseSavePath: async () => null, chooseBundleToOpen: async () => null, openExternal: async () => false,
};

describe("plugin folder", () => {
  it("installs a valid plugin folder by copying it under its id", async () => {
    const src = makePlugin(path.join(tmp(), "src-demo"), {}, { "dist/index.js": "module.exports = 1", "dist/util.js": "x", "README.md": "hi", "node_modules/dep/index.js": "skip", "examples/demo_call.ts": "// example", "src/index.ts": "// source" });
    const pluginDir = tmp();
    const m = await installPluginFolder(src, pluginDir, "1.0", new Set());
    expect(m.id).toBe("demo");
    expect(readFileSync(path.join(pluginDir, "demo", "dist", "util.js"), "utf8")).toBe("x");
    expect(existsSync(path.join(pluginDir, "demo", "node_modules"))).toBe(false);
    const code = await readPluginCode(pluginDir, "demo", "1.0");
    expect(Object.keys(code.files).sort()).toEqual(["dist/index.js", "dist/util.js", "plugin.json"]);
    expect(code.main).toBe("dist/index.js");
    // the example workloads of examples/*.ts come as text (the app lists them); other .ts files do not
    expect(code.examples).toEqual({ "examples/demo_call.ts": "// example" });
  });

  it("refuses incompatible API versions with a clear reason", async () => {
    expect(apiVersionProblem("2.0", "1.0")).toMatch(/different major version/);
    expect(apiVersionProblem("1.5", "1.0")).toMatch(/newer than this SigLab/);
    expect(apiVersionProblem("1.0", "1.0")).toBeUndefined();
    const src = makePlugin(path.join(tmp(), "p"), { apiVersion: "2.0" });
    await expect(installPluginFolder(src, tmp(), "1.0", new Set())).rejects.toThrow(/p: targets plugin API 2\.0/);
  });

  it("refuses folders without a manifest, a missing entry, a built-in id, escaping main, symlinks", async () => {
    const empty = tmp();
    await expect(installPluginFolder(empty, tmp(), "1.0", new Set())).rejects.toThrow(/no plugin\.json/);
    const noMain = makePlugin(path.join(tmp(), "nm"), {}, {});
    await expect(installPluginFolder(noMain, tmp(), "1.0", new Set())).rejects.toThrow(/entry file "dist\/index\.js" does not exist/);
    const clash = makePlugin(path.join(tmp(), "c"), { id: "sa-nofp" });
    await expect(installPluginFolder(clash, tmp(), "1.0", new Set(["sa-nofp"]))).rejects.toThrow(/built-in plugin's id/);
    const escape = makePlugin(path.join(tmp(), "e"), { main: "../../etc/passwd" });
    await expect(installPluginFolder(escape, tmp(), "1.0", new Set())).rejects.toThrow(/must stay inside the plugin folder/);
    const linked = makePlugin(path.join(tmp(), "l"), {});
    symlinkSync("/etc/passwd", path.join(linked, "dist", "leak.js"));
    const dest = tmp();
    await expect(installPluginFolder(linked, dest, "1.0", new Set())).rejects.toThrow(/leak\.js: a symbolic link; a plugin folder may hold only regular files/);
    expect(existsSync(path.join(dest, "demo"))).toBe(false);
  });

  it("lists third-party plugins with why each was refused, and persists enable/disable", async () => {
    const root = tmp();
    const ws = new Workspace(root);
    await ws.ensure();
    makePlugin(path.join(ws.pluginDir, "demo"), { apiVersion: PLUGIN_API_VERSION });
    makePlugin(path.join(ws.pluginDir, "old"), { id: "old", apiVersion: "0.9" });
    makePlugin(path.join(ws.pluginDir, "wrongname"), { id: "other", apiVersion: PLUGIN_API_VERSION });
    mkdirSync(path.join(ws.pluginDir, "junk"));
    writeFileSync(path.join(ws.pluginDir, "junk", "plugin.json"), "{oops");
    const service = new HostService(ws, ui, { examples: [], profiles: [], plugins: [], presets: [] });
    const h = service.handlers();
    const list = await h.listPlugins();
    const byId = Object.fromEntries(list.map((p) => [p.id, p]));
    expect(byId.demo!.status).toBe("ok");
    expect(byId.old!.reason).toMatch(/targets plugin API 0\.9/);
    expect(byId.other!.reason).toMatch(/folder name must equal the manifest id/);
    expect(byId.junk!.reason).toMatch(/invalid JSON/);
    const after = await h.setPluginEnabled("demo", false);
    expect(after.find((p) => p.id === "demo")!.enabled).toBe(false);
    expect((await new HostService(ws, ui, { examples: [], profiles: [], plugins: [], presets: [] }).listPlugins()).find((p) => p.id === "demo")!.enabled).toBe(false);
    await expect(h.setPluginEnabled("nope", true)).rejects.toThrow(/no plugin with id "nope"/);
    await expect(h.readPluginCode("old")).rejects.toThrow(/targets plugin API/);
    expect((await scanPluginDir(path.join(root, "missing"), "1.0")).length).toBe(0);
  });

  it("asks before replacing an installed plugin with another version: nothing is written until the user confirms", async () => {
    const ws = new Workspace(tmp());
    await ws.ensure();
    const src = tmp();
    const v1 = makePlugin(path.join(src, "v1"), { apiVersion: PLUGIN_API_VERSION }, { "dist/index.js": "// one" });
    const v2 = makePlugin(path.join(src, "v2"), { apiVersion: PLUGIN_API_VERSION, version: "2.0.0" }, { "dist/index.js": "// two" });
    const service = new HostService(ws, ui, { examples: [], profiles: [], plugins: [], presets: [] });
    expect((await service.installPlugin(v1)).installed).toBe(true);
    const installedCode = () => readFileSync(path.join(ws.pluginDir, "demo", "dist", "index.js"), "utf8");
    // another version: a question for the renderer, naming the plugin and both versions; v1 stays
    const asked = await service.installPlugin(v2);
    expect(asked).toMatchObject({ installed: false, confirm: { id: "demo", installedVersion: "1.0.0", version: "2.0.0" } });
    expect(asked.error).toBeUndefined();
    expect(installedCode()).toBe("// one");
    // the user agrees: the renderer answers with the token (the folder never travels)
    const h = service.handlers();
    const done = await h.confirmPluginReplace(asked.confirm!.token);
    expect(done.installed).toBe(true);
    expect(installedCode()).toBe("// two");
    // a token is answered once
    expect((await h.confirmPluginReplace(asked.confirm!.token)).error).toMatch(/nothing to confirm/);
    // the same version again (a rebuilt plugin) is no question
    writeFileSync(path.join(v2, "dist", "index.js"), "// two, rebuilt");
    expect(await service.installPlugin(v2)).toMatchObject({ installed: true });
    expect(installedCode()).toBe("// two, rebuilt");
  });

  it("a confirmation no longer holds when the folder offers another version by then", async () => {
    const ws = new Workspace(tmp());
    await ws.ensure();
    const dir = makePlugin(path.join(tmp(), "p"), { apiVersion: PLUGIN_API_VERSION }, { "dist/index.js": "// one" });
    const service = new HostService(ws, ui, { examples: [], profiles: [], plugins: [], presets: [] });
    await service.installPlugin(dir);
    makePlugin(dir, { apiVersion: PLUGIN_API_VERSION, version: "2.0.0" });
    const asked = await service.installPlugin(dir);
    makePlugin(dir, { apiVersion: PLUGIN_API_VERSION, version: "3.0.0" });
    const again = await service.confirmPluginReplace(asked.confirm!.token);
    expect(again).toMatchObject({ installed: false, confirm: { installedVersion: "1.0.0", version: "3.0.0" } });
    await expect(installPluginFolder(dir, ws.pluginDir, PLUGIN_API_VERSION, new Set())).rejects.toThrow(ReplaceNeedsConfirmation);
  });

  it("lists the presets of enabled third-party plugins after the built-in ones (a taken id is left out)", async () => {
    const ws = new Workspace(tmp());
    await ws.ensure();
    const preset = (id: string, name: string) => ({ id, name, description: "d", stack: [{ id: "demo", options: { depth: 2 } }] });
    makePlugin(path.join(ws.pluginDir, "demo"), { apiVersion: PLUGIN_API_VERSION, presets: [preset("demo-fast", "Demo, fast"), preset("base", "not the built-in one")] });
    const builtin = { id: "base", name: "Baseline", description: "built-in", stack: [] };
    const h = new HostService(ws, ui, { examples: [], profiles: [], plugins: [], presets: [builtin] }).handlers();
    expect(await h.listPresets()).toEqual([builtin, preset("demo-fast", "Demo, fast")]);
    await h.setPluginEnabled("demo", false);
    expect(await h.listPresets()).toEqual([builtin]);
  });
});
