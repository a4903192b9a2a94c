/**
 * "Install from file…" on the Node side (issue 31): a .siglab-plugin archive made by core's packer
 * is checked by core's reader here (never trusted from the renderer), installed under its id, and
 * another installed version is replaced only after the user's answer, as for a folder; a tampered
 * archive and a built-in id are refused with the file named. Electron's dialog path reads the file.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "@siglab/core/plugin-api";
import { packPluginFolder } from "@siglab/core/plugin-archive/node";
import { HostService, type HostUi } from "../src/node/host-service.js";
import { Workspace } from "../src/node/workspace.js";

// core's zip library (the app does not depend on it directly), to tamper with an archive
const { unzipSync, zipSync } = createRequire(fileURLToPath(new URL("../../../packages/core/package.json", import.meta.url)))("fflate") as { unzipSync(b: Uint8Array): Record<string, Uint8Array>; zipSync(e: Record<string, Uint8Array>): Uint8Array };
const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), "siglab-archive-"));

/** a built plugin folder packed: its archive's bytes */
function archive(version: string, code: string, id = "demo"): Uint8Array {
  const dir = path.join(tmp(), id);
  mkdirSync(path.join(dir, "dist"), { recursive: true });
  writeFileSync(path.join(dir, "plugin.json"), JSON.stringify({ id, version, apiVersion: PLUGIN_API_VERSION, displayName: "Demo", description: "d", options: {}, contributes: ["SyscallContribution"], main: "dist/index.js" }));
  writeFileSync(path.join(dir, "dist/index.js"), code);
  return packPluginFolder(dir).bytes;
}

const ui: HostUi = { kind: "http", appVersion: "0", choosePluginFolder: async () => null, chooseSavePath: async () => null, chooseBundleToOpen: async () => null, openExternal: async () => false };

async function service(over: Partial<HostUi> = {}, builtin: string[] = []): Promise<{ s: HostService; ws: Workspace }> {
  const ws = new Workspace(tmp());
  await ws.ensure();
  const plugins = builtin.map((id) => ({ id }) as never);
  return { s: new HostService(ws, { ...ui, ...over }, { examples: [], profiles: [], plugins, presets: [] }), ws };
}

describe("installing a plugin archive in the app's host", () => {
  it("installs it under its id, asks before replacing another version, and installs that only after the answer", async () => {
    const { s, ws } = await service();
    const installed = () => readFileSync(path.join(ws.pluginDir, "demo", "dist", "index.js"), "utf8");
    const first = await s.installPluginArchive("demo-1.0.0.siglab-plugin", archive("1.0.0", "// one"));
    expect(first).toMatchObject({ installed: true, entry: { id: "demo", status: "ok" } });
    expect(installed()).toBe("// one");
    const asked = await s.installPluginArchive("demo-2.0.0.siglab-plugin", archive("2.0.0", "// two"));
    expect(asked).toMatchObject({ installed: false, confirm: { id: "demo", installedVersion: "1.0.0", version: "2.0.0" } });
    expect(installed()).toBe("// one");
    expect(await s.handlers().confirmPluginReplace(asked.confirm!.token)).toMatchObject({ installed: true });
    expect(installed()).toBe("// two");
  });

  it("refuses a tampered archive and a built-in plugin's id, naming the file; nothing is installed", async () => {
    const { s } = await service({}, ["demo"]);
    const bytes = archive("1.0.0", "// one", "other");
    // the code changed after packing, integrity.json kept
    const entries = unzipSync(bytes);
    entries["dist/index.js"] = new TextEncoder().encode("// not what was packed");
    const r = await s.installPluginArchive("other.siglab-plugin", zipSync(entries));
    expect(r).toEqual({ installed: false, error: "other.siglab-plugin: dist/index.js: 22 bytes, but integrity.json says 6 (changed after packing?)" });
    const clash = await s.installPluginArchive("demo.siglab-plugin", archive("1.0.0", "// one"));
    expect(clash).toEqual({ installed: false, error: 'demo.siglab-plugin: plugin id "demo" is a built-in plugin\'s id' });
    expect((await s.listPlugins()).filter((p) => p.origin === "third-party")).toEqual([]);
  });

  it("Electron's path: the file chosen in the dialog is read and checked on this side", async () => {
    const file = path.join(tmp(), "demo-1.0.0.siglab-plugin");
    writeFileSync(file, archive("1.0.0", "// one"));
    const { s } = await service({ choosePluginArchive: async () => file });
    expect(await s.handlers().installPluginFromFile()).toMatchObject({ installed: true, entry: { id: "demo" } });
    const { s: cancelled } = await service({ choosePluginArchive: async () => null });
    expect(await cancelled.handlers().installPluginFromFile()).toEqual({ installed: false });
    const { s: notZip } = await service({ choosePluginArchive: async () => path.dirname(file) });
    expect((await notZip.handlers().installPluginFromFile()).error).toMatch(/not a file/);
  });
});
