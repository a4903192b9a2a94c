import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES, cloneProfile, deriveProfile, resolveProfile } from "../src/index.js";
import { loadProfileFolder, readProfileFile, writeProfileFile } from "../src/node.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "siglab-profiles-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const p4 = () => BUILTIN_PROFILE_FILES.find((f) => f.id === "p4-northwood")!;

describe("user profile folder", () => {
  it("a missing folder is an empty result", async () => {
    expect(await loadProfileFolder(join(dir, "nope"))).toEqual({ sources: [], profiles: [], errors: [] });
  });

  it("loads good files, reports bad ones by file name, and resolves against the builtins", async () => {
    await writeFile(
      join(dir, "p4-slow-cr0.json"),
      JSON.stringify({
        id: "p4-slow-cr0",
        inherits: "p4-northwood",
        name: "P4 with a slower CR0 write",
        costs: { write_cr0: { cycles: 400, kind: "estimated", source: "what if CR0 writes cost 400" } },
      }),
    );
    await writeFile(join(dir, "broken.json"), "{ \"id\": \"broken\", ");
    await writeFile(join(dir, "bad-type.json"), JSON.stringify({ id: "bad-type", inherits: "zen4", costs: { cli: { cycles: "4", kind: "estimated", source: "x" } } }));
    await writeFile(join(dir, "notes.txt"), "not a profile");

    const res = await loadProfileFolder(dir);
    expect(res.profiles.map((p) => p.id)).toEqual(["p4-slow-cr0"]);
    expect(resolveProfile(res.profiles[0]!).costs.clts).toBe(250); // relative to the user's write_cr0
    const messages = res.errors.map((e) => e.message.split("\n")[0]).sort();
    expect(messages).toEqual([
      "bad-type.json: /costs/cli/cycles: expected number",
      expect.stringMatching(/^broken\.json: invalid JSON/),
    ]);
  });

  it("writes a clone atomically and reads it back to the same costs", async () => {
    const clone = cloneProfile(p4(), "my-p4", "My P4");
    clone.costs!.fxsave = { cycles: 500, kind: "estimated", source: "my guess" };
    const path = await writeProfileFile(dir, clone);
    expect(path).toBe(join(dir, "my-p4.json"));
    expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);

    const back = await readProfileFile(path, "my-p4.json");
    expect(back.inherits).toBeUndefined();
    expect(back.notes).toContain('Cloned from profile "p4-northwood".');
    const { profiles, errors } = await loadProfileFolder(dir);
    expect(errors).toEqual([]);
    const mine = resolveProfile(profiles[0]!);
    const orig = resolveProfile(p4());
    expect(mine.costs.fxsave).toBe(500);
    expect({ ...mine.costs, fxsave: 0 }).toEqual({ ...orig.costs, fxsave: 0 });
    expect(await readFile(path, "utf8")).toMatch(/^\{\n {2}"id": "my-p4",/);
  });

  it("refuses to write an invalid profile and leaves the old file intact", async () => {
    const good = deriveProfile("zen4", "zen4-mine", "Mine");
    const path = await writeProfileFile(dir, good);
    const before = await readFile(path, "utf8");
    const bad = { ...good, costs: { cli: { cycles: -1, kind: "estimated", source: "x" } } } as typeof good;
    await expect(writeProfileFile(dir, bad)).rejects.toThrow("zen4-mine.json: /costs/cli/cycles: expected number to be greater or equal to 0");
    expect(await readFile(path, "utf8")).toBe(before);
  });
});
