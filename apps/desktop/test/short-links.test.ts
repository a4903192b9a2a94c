/** The short-link store (node/short-links.ts): ids from the data's hash, validated data, no links followed, a bound. */
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ShortLinks } from "../src/node/short-links.js";

const DATA = "1.AbCdEf_-0123";

function store(): { root: string; links: ShortLinks } {
  const root = mkdtempSync(path.join(os.tmpdir(), "siglab-links-"));
  return { root, links: new ShortLinks(root) };
}

describe("short links", () => {
  it("keeps a link's data under an id taken from it: the same data, the same id and one file", async () => {
    const { root, links } = store();
    const id = await links.save(DATA);
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(await links.save(DATA)).toBe(id);
    expect(await links.save("1.other")).not.toBe(id);
    expect(readdirSync(path.join(root, "links")).sort()).toHaveLength(2);
    expect(await links.read(id)).toBe(DATA);
    expect(await links.read("A".repeat(16))).toBeNull();
  });

  it("refuses what is not a link's data, and ids of another shape", async () => {
    const { links } = store();
    await expect(links.save("<script>")).rejects.toThrow(/SigLab link's data/);
    await expect(links.save(`1.${"A".repeat(70_000)}`)).rejects.toThrow(/at most 64 KB/);
    await expect(links.read("../settings")).rejects.toThrow(/16 letters/);
  });

  it("never follows a symlink planted in the links folder, for reading or writing", async () => {
    const { root, links } = store();
    const secret = path.join(root, "secret.txt");
    writeFileSync(secret, "1.secretdata");
    const id = "B".repeat(16);
    mkdirSync(path.join(root, "links"));
    symlinkSync(secret, path.join(root, "links", `${id}.link`));
    expect(await links.read(id)).toBeNull();
    // the links folder itself a link: refused, nothing written through it
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "siglab-elsewhere-"));
    const { root: root2, links: links2 } = store();
    symlinkSync(elsewhere, path.join(root2, "links"));
    await expect(links2.save(DATA)).rejects.toThrow(/symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
