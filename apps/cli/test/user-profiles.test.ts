/** The CLI reads the user's own profiles: the user profiles folder ($SIGLAB_HOME/profiles) and --profile-file. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES, cloneProfile, serializeProfile } from "@siglab/cpu-profiles";
import { allProfiles, userProfiles } from "../src/catalog.js";

const home = mkdtempSync(join(tmpdir(), "siglab-home-"));
const before = process.env["SIGLAB_HOME"];
afterEach(() => {
  if (before === undefined) delete process.env["SIGLAB_HOME"];
  else process.env["SIGLAB_HOME"] = before;
});
afterAll(() => rmSync(home, { recursive: true, force: true }));
const clone = (id: string) => serializeProfile(cloneProfile(BUILTIN_PROFILE_FILES.find((p) => p.id === "zen4")!, id, `my ${id}`));

describe("user profiles", () => {
  it("loads the folder's profiles beside the built-in ones, skipping a bad file with a warning that names it", async () => {
    process.env["SIGLAB_HOME"] = home;
    mkdirSync(join(home, "profiles"), { recursive: true });
    writeFileSync(join(home, "profiles", "mine.json"), clone("my-zen4"));
    writeFileSync(join(home, "profiles", "broken.json"), "{ not json");
    const warnings: string[] = [];
    const mine = await userProfiles([], (l) => warnings.push(l));
    expect(mine.map((p) => p.id)).toEqual(["my-zen4"]);
    expect(warnings.join("\n")).toMatch(/broken\.json/);
    const all = await allProfiles();
    expect(all.some((p) => p.id === "zen4")).toBe(true);
    expect(all.some((p) => p.id === "my-zen4")).toBe(true);
  });

  it("reads --profile-file; a bad one or a built-in id is an error naming it", async () => {
    process.env["SIGLAB_HOME"] = join(home, "none");
    const f = join(home, "other.json");
    writeFileSync(f, clone("other-zen4"));
    expect((await userProfiles([f])).map((p) => p.id)).toEqual(["other-zen4"]);
    const bad = join(home, "bad.json");
    writeFileSync(bad, "[]");
    await expect(userProfiles([bad])).rejects.toThrow(/--profile-file .*bad\.json/);
    const dup = join(home, "dup.json");
    writeFileSync(dup, clone("zen4"));
    await expect(userProfiles([dup])).rejects.toThrow(/id of a built-in profile/);
  });
});
