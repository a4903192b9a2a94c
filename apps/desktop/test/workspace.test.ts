import { mkdtempSync, readdirSync, readFileSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atomicWriteFile } from "../src/node/atomic.js";
import { MAX_RECENT, Workspace, defaultWorkspaceDir } from "../src/node/workspace.js";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), "siglab-ws-"));

describe("atomic writes", () => {
  it("replaces the content and leaves no temp file behind", async () => {
    const dir = tmp();
    const f = path.join(dir, "a.ts");
    await atomicWriteFile(f, "one");
    await atomicWriteFile(f, "two");
    expect(readFileSync(f, "utf8")).toBe("two");
    expect(readdirSync(dir)).toEqual(["a.ts"]);
  });

  it("keeps the old file when the write cannot complete", async () => {
    const dir = tmp();
    const target = path.join(dir, "w.ts");
    mkdirSync(target); // a folder where the file should go: rename must fail
    writeFileSync(path.join(target, "keep"), "x");
    await expect(atomicWriteFile(target, "new")).rejects.toThrow();
    expect(readFileSync(path.join(target, "keep"), "utf8")).toBe("x");
    expect(readdirSync(dir)).toEqual(["w.ts"]);
  });
});

describe("workspace", () => {
  it("defaults to $SIGLAB_HOME, else ~/.siglab", () => {
    expect(defaultWorkspaceDir({ SIGLAB_HOME: "/x/y" })).toBe(path.resolve("/x/y"));
    expect(defaultWorkspaceDir({})).toBe(path.join(os.homedir(), ".siglab"));
  });

  it("saves, lists and reads workloads; refuses names that could escape the folder", async () => {
    const ws = new Workspace(tmp());
    await ws.ensure();
    await ws.saveWorkload("my_test.ts", "export default 1;");
    expect((await ws.listWorkloads()).map((w) => w.name)).toEqual(["my_test.ts"]);
    expect(await ws.readWorkload("my_test.ts")).toBe("export default 1;");
    for (const bad of ["../evil.ts", "a/b.ts", "x.js", ".hidden.ts", "..ts", "C:\\x.ts"]) {
      await expect(ws.saveWorkload(bad, "")).rejects.toThrow(/invalid workload file name/);
    }
    await expect(ws.readWorkload("missing.ts")).rejects.toThrow(/does not exist/);
  });

  it("autosaves drafts and recovers them; damaged drafts are skipped", async () => {
    const ws = new Workspace(tmp());
    await ws.ensure();
    await ws.saveDraft("user:a.ts", "draft A");
    await ws.saveDraft("new:untitled-1", "draft B");
    writeFileSync(path.join(ws.draftsDir, "broken.json"), "{not json");
    const drafts = await ws.listDrafts();
    expect(drafts.map((d) => [d.key, d.source])).toEqual([["new:untitled-1", "draft B"], ["user:a.ts", "draft A"]]);
    await ws.discardDraft("user:a.ts");
    expect((await ws.listDrafts()).map((d) => d.key)).toEqual(["new:untitled-1"]);
    await expect(ws.saveDraft("user:../../x", "")).rejects.toThrow(/invalid draft key/);
  });

  it("keeps the newest recent experiments, de-duplicated, at most MAX_RECENT", async () => {
    const ws = new Workspace(tmp());
    await ws.ensure();
    for (let i = 0; i < MAX_RECENT + 5; i++) {
      await ws.addRecent({ id: `e${i % (MAX_RECENT + 2)}`, title: `t${i}`, savedAtMs: i, workload: { kind: "example", id: "x" }, config: {} as never });
    }
    const list = await ws.listRecent();
    expect(list.length).toBe(MAX_RECENT);
    expect(list[0]!.title).toBe(`t${MAX_RECENT + 4}`);
    expect(new Set(list.map((r) => r.id)).size).toBe(list.length);
  });

  it("validates user profiles and refuses built-in ids", async () => {
    const ws = new Workspace(tmp());
    await ws.ensure();
    const base = BUILTIN_PROFILE_FILES[0]!;
    const builtin = new Set([base.id]);
    await expect(ws.saveUserProfile(base, builtin)).rejects.toThrow(/built-in profile/);
    const mine = { ...structuredClone(base), id: `${base.id}-mine` };
    await ws.saveUserProfile(mine, builtin);
    expect((await ws.listUserProfiles()).map((p) => p.profile?.id)).toEqual([mine.id]);
    const broken = structuredClone(mine) as unknown as { costs: Record<string, unknown> };
    delete broken.costs.cli;
    await expect(ws.saveUserProfile(broken, builtin)).rejects.toThrow(/costs\.cli" is missing/);
    writeFileSync(path.join(ws.profilesDir, "bad.json"), "[]");
    const listed = await ws.listUserProfiles();
    expect(listed.find((p) => p.fileName === "bad.json")?.error).toMatch(/bad\.json: expected a JSON object/);
  });

  it("gives exports unique names instead of overwriting", async () => {
    const ws = new Workspace(tmp());
    const a = await ws.uniqueExportPath("r.csv");
    await atomicWriteFile(a, "1");
    const b = await ws.uniqueExportPath("r.csv");
    expect(path.basename(b)).toBe("r (1).csv");
    await expect(ws.uniqueExportPath("../r.csv")).rejects.toThrow(/invalid export file name/);
  });
});
