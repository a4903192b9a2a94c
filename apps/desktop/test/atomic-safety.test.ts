/**
 * The desktop app's writes: atomic, never through a symlink or onto a non-regular file, never out
 * of the workspace through a planted symlink, and (HTTP host) never replacing an existing export.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atomicWriteFile } from "../src/node/atomic.js";
import { WriteRefusedError } from "../src/node/host-errors.js";
import type { BuiltinCatalog } from "../src/node/catalog.js";
import { HostService, type HostUi } from "../src/node/host-service.js";
import { Workspace } from "../src/node/workspace.js";

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), "siglab-atomic-"));

describe("atomicWriteFile", () => {
  it("refuses a symlink target (also a dangling one), leaving the link and its target alone", async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, "real.txt"), "old");
    symlinkSync(path.join(dir, "real.txt"), path.join(dir, "link.txt"));
    symlinkSync(path.join(dir, "nowhere.txt"), path.join(dir, "dangling.txt"));
    for (const name of ["link.txt", "dangling.txt"]) {
      await expect(atomicWriteFile(path.join(dir, name), "new")).rejects.toThrow(new RegExp(`${name}: is a symbolic link; refusing to write to it`));
    }
    expect(readFileSync(path.join(dir, "real.txt"), "utf8")).toBe("old");
    expect(readlinkSync(path.join(dir, "link.txt"))).toBe(path.join(dir, "real.txt"));
    expect(readdirSync(dir).sort()).toEqual(["dangling.txt", "link.txt", "real.txt"]);
  });

  it("refuses a folder, a FIFO and a device", async () => {
    const dir = tmp();
    mkdirSync(path.join(dir, "d"));
    execFileSync("mkfifo", [path.join(dir, "fifo")]);
    await expect(atomicWriteFile(path.join(dir, "d"), "x")).rejects.toThrow(/d: is a folder/);
    await expect(atomicWriteFile(path.join(dir, "fifo"), "x")).rejects.toThrow(/fifo: is a FIFO/);
    await expect(atomicWriteFile("/dev/null", "x")).rejects.toBeInstanceOf(WriteRefusedError);
    expect(readdirSync(dir).sort()).toEqual(["d", "fifo"]);
    expect(lstatSync(path.join(dir, "fifo")).isFIFO()).toBe(true);
  });

  it('with existing: "create" never replaces a file', async () => {
    const dir = tmp();
    const f = path.join(dir, "a.csv");
    await atomicWriteFile(f, "first", { existing: "create" });
    const err = await atomicWriteFile(f, "second", { existing: "create" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteRefusedError);
    expect((err as WriteRefusedError).code).toBe("EEXIST");
    expect(readFileSync(f, "utf8")).toBe("first");
    expect(readdirSync(dir)).toEqual(["a.csv"]);
  });

  it("with within, creates missing folders but follows no symlinked folder below the root", async () => {
    const root = tmp();
    const outside = tmp();
    await atomicWriteFile(path.join(root, "a", "b", "f.json"), "{}", { within: root });
    expect(readFileSync(path.join(root, "a", "b", "f.json"), "utf8")).toBe("{}");
    symlinkSync(outside, path.join(root, "evil"));
    await expect(atomicWriteFile(path.join(root, "evil", "f.json"), "x", { within: root })).rejects.toThrow(/evil: is a symbolic link inside .*; refusing to follow it/);
    expect(readdirSync(outside)).toEqual([]);
    // the root itself may be a link (a workspace the user moved elsewhere)
    const alias = path.join(tmp(), "ws");
    symlinkSync(root, alias);
    await atomicWriteFile(path.join(alias, "a", "g.json"), "ok", { within: alias });
    expect(readFileSync(path.join(root, "a", "g.json"), "utf8")).toBe("ok");
  });

  it("needs an existing folder without within", async () => {
    await expect(atomicWriteFile(path.join(tmp(), "missing", "x.csv"), "x")).rejects.toThrow(/folder .*missing does not exist/);
  });
});

describe("workspace writes refuse planted symlinks", () => {
  it("settings, recent list, user profile and workload", async () => {
    const root = tmp();
    const outside = tmp();
    const ws = new Workspace(root);
    await ws.ensure();
    symlinkSync(path.join(outside, "settings.json"), path.join(root, "settings.json"));
    await expect(ws.writeSettings({ disabledPlugins: [] })).rejects.toThrow(/settings\.json: is a symbolic link/);
    symlinkSync(path.join(outside, "recent.json"), path.join(root, "recent.json"));
    await expect(ws.addRecent({ id: "r", title: "t", savedAtMs: 1, workload: { kind: "example", id: "x" }, config: {} } as never)).rejects.toThrow(/recent\.json: is a symbolic link/);
    rmSync(ws.profilesDir, { recursive: true });
    symlinkSync(outside, ws.profilesDir);
    rmSync(ws.workloadsDir, { recursive: true });
    symlinkSync(outside, ws.workloadsDir);
    await expect(ws.saveWorkload("w.ts", "x")).rejects.toThrow(/workloads: is a symbolic link inside/);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe("saving a chosen export", () => {
  function service(root: string, ui: Partial<HostUi>): ReturnType<HostService["handlers"]> {
    const base: HostUi = { kind: "http", appVersion: "0", choosePluginFolder: async () => null, chooseSavePath: async () => null, chooseBundleToOpen: async () => null, openExternal: async () => false };
    return new HostService(new Workspace(root), { ...base, ...ui }, { examples: [], presets: [], profiles: [], plugins: [] } satisfies BuiltinCatalog).handlers();
  }

  it("Electron (the dialog confirmed): replaces a regular file, refuses a symlink", async () => {
    const dir = tmp();
    const target = path.join(dir, "r.csv");
    writeFileSync(target, "old");
    const h = service(tmp(), { kind: "electron", overwriteConfirmed: true, chooseSavePath: async () => target });
    expect(await h.saveExport("r.csv", "new")).toEqual({ saved: true, path: target });
    expect(readFileSync(target, "utf8")).toBe("new");
    symlinkSync(target, path.join(dir, "link.csv"));
    const viaLink = service(tmp(), { kind: "electron", overwriteConfirmed: true, chooseSavePath: async () => path.join(dir, "link.csv") });
    await expect(viaLink.saveExport("r.csv", "evil")).rejects.toThrow(/link\.csv: is a symbolic link/);
    expect(readFileSync(target, "utf8")).toBe("new");
  });

  it("without a confirming dialog an existing file is never replaced (a new path is asked for)", async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, "a.csv"), "theirs");
    const offered = [path.join(dir, "a.csv"), path.join(dir, "b.csv")];
    const h = service(tmp(), { chooseSavePath: async () => offered.shift() ?? null });
    expect(await h.saveExport("a.csv", "mine")).toEqual({ saved: true, path: path.join(dir, "b.csv") });
    expect(readFileSync(path.join(dir, "a.csv"), "utf8")).toBe("theirs");
    expect(readFileSync(path.join(dir, "b.csv"), "utf8")).toBe("mine");
  });
});
