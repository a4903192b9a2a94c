/** bin/siglab.mjs never runs a stale bundle: scripts/fresh.mjs tells a stale manifest from a fresh one, and rebuilds. */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freshCli, staleness } from "../scripts/fresh.mjs";

const out = inject("siglabBin");
const dir = mkdtempSync(join(import.meta.dirname, "..", "dist", "fresh-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Input = [path: string, size: number, mtimeMs: number, sha256: string];
interface Manifest {
  format: number;
  workspace: string;
  inputs: Input[];
}

/** a copy of the test run's bundle (its entries) and manifest, with `edit` applied to the manifest */
function copy(name: string, edit: (m: Manifest) => void = () => {}): string {
  const to = join(dir, `${name}.mjs`);
  copyFileSync(out, to);
  copyFileSync(join(out, "..", "prestart.mjs"), join(dir, "prestart.mjs")); // the launcher's first entry, beside every bundle
  const m = JSON.parse(readFileSync(`${out}.inputs.json`, "utf8")) as Manifest;
  edit(m);
  writeFileSync(`${to}.inputs.json`, JSON.stringify(m));
  return to;
}
const input = (m: Manifest, path: string): Input => m.inputs.find((i) => i[0] === path)!;
const manifest = (f: string) => JSON.parse(readFileSync(`${f}.inputs.json`, "utf8")) as Manifest;

describe("the CLI bundle's freshness check", () => {
  it("lists what the bundle was built from: the CLI's and the packages' sources, the build script, the lockfile", () => {
    const paths = manifest(out).inputs.map((i) => i[0]);
    for (const p of ["apps/cli/src/main.ts", "packages/core/src/index.ts", "apps/cli/scripts/build.mjs", "tsconfig.base.json", "node_modules/.pnpm/lock.yaml"]) expect(paths).toContain(p);
    expect(staleness(copy("same"))).toBeNull();
  });

  it("is stale when a source's content changed, a source is gone, the checkout moved or there is no manifest", () => {
    expect(staleness(copy("edited", (m) => void (input(m, "apps/cli/src/main.ts")[3] = "0".repeat(64), (input(m, "apps/cli/src/main.ts")[2] -= 1))))).toBe("apps/cli/src/main.ts changed");
    expect(staleness(copy("resized", (m) => void (input(m, "apps/cli/src/format.ts")[1] += 1)))).toBe("apps/cli/src/format.ts changed");
    expect(staleness(copy("gone", (m) => void m.inputs.push(["apps/cli/src/no-such-file.ts", 1, 1, "0".repeat(64)])))).toBe("apps/cli/src/no-such-file.ts is gone");
    expect(staleness(copy("moved", (m) => void (m.workspace = "/elsewhere")))).toMatch(/another folder/);
    const bare = copy("bare");
    rmSync(`${bare}.inputs.json`);
    expect(staleness(bare)).toMatch(/no readable manifest/);
    expect(staleness(join(dir, "absent.mjs"))).toBe("no CLI bundle yet");
    const lone = join(dir, "lone");
    mkdirSync(lone);
    copyFileSync(out, join(lone, "siglab.mjs"));
    copyFileSync(`${out}.inputs.json`, join(lone, "siglab.mjs.inputs.json"));
    expect(staleness(join(lone, "siglab.mjs"))).toBe("no CLI bundle yet"); // no prestart.mjs beside it
  });

  it("takes a touched but unchanged source for fresh, and records its new mtime (the next check only stats)", () => {
    const f = copy("touched", (m) => void (input(m, "apps/cli/src/main.ts")[2] -= 1000));
    expect(staleness(f)).toBeNull();
    expect(input(manifest(f), "apps/cli/src/main.ts")[2]).toBe(input(manifest(out), "apps/cli/src/main.ts")[2]);
  });

  it("rebuilds a stale bundle before it runs it (freshCli)", async () => {
    const f = copy("rebuilt", (m) => void (input(m, "apps/cli/src/main.ts")[3] = "0".repeat(64), (input(m, "apps/cli/src/main.ts")[2] -= 1)));
    writeFileSync(f, "#!/usr/bin/env node\nthrow new Error('stale');\n");
    const told: string[] = [];
    expect(await freshCli({ out: f, onBuild: (why) => told.push(why) })).toBe(f);
    expect(told).toEqual(["apps/cli/src/main.ts changed"]);
    expect(readFileSync(f, "utf8")).toContain("registerRunCommand");
    expect(staleness(f)).toBeNull();
    expect(existsSync(`${f}.inputs.json`)).toBe(true);
  }, 120_000);
});
