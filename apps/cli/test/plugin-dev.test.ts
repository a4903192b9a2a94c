/**
 * `siglab plugin dev <dir>`, the real CLI on a temporary copy of the shipped sample getpid-cache:
 * it builds and runs the example at start; a type error is printed and the loop keeps watching;
 * a hook that throws is re-run and reported at its source-mapped src/ line; Ctrl-C ends it
 * with exit code 0.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startPluginDev } from "../src/commands/plugin-dev.js";

const ROOT = join(import.meta.dirname, "../../..");
const SAMPLE = join(ROOT, "examples/third-party-plugins/getpid-cache");
const tmp = mkdtempSync(join(tmpdir(), "siglab-plugin-dev-"));
const folder = join(tmp, "getpid-cache");
const SRC = join(folder, "src/index.ts");
let dev: ChildProcess;
let output = "";

/** The sample's sources, and a node_modules of links to what the checkout installed for it (no network). */
function copySample(): void {
  for (const f of ["plugin.json", "package.json", "tsconfig.json", "src", "examples"]) cpSync(join(SAMPLE, f), join(folder, f), { recursive: true });
  const nm = join(folder, "node_modules");
  mkdirSync(join(nm, "@siglab"), { recursive: true });
  cpSync(join(SAMPLE, "node_modules/.bin"), join(nm, ".bin"), { recursive: true }); // shims: paths relative to themselves
  for (const p of ["esbuild", "tsx", "typescript", "@siglab/plugin-api", "@siglab/plugin-harness"]) symlinkSync(realpathSync(join(SAMPLE, "node_modules", p)), join(nm, p));
}

/** Resolves once the output after `from` matches, with that part of the output. */
async function waitFor(re: RegExp, from: number, ms = 150_000): Promise<string> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const seen = output.slice(from);
    if (re.test(seen)) return seen;
    if (dev.exitCode !== null) throw new Error(`plugin dev exited (${dev.exitCode}):\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${re} within ${ms} ms:\n${output.slice(from)}`);
}

const edit = (from: string, to: string) => writeFileSync(SRC, readFileSync(SRC, "utf8").replace(from, to));

beforeAll(() => {
  copySample();
  dev = spawn(process.execPath, [inject("siglabBin"), "plugin", "dev", folder], { cwd: tmp, stdio: ["ignore", "pipe", "pipe"] });
  dev.stdout!.on("data", (b: Buffer) => (output += b.toString()));
  dev.stderr!.on("data", (b: Buffer) => (output += b.toString()));
});
afterAll(() => {
  if (dev.exitCode === null) dev.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

describe("siglab plugin dev", () => {
  it("refuses a missing folder, and a folder without a manifest, before it watches anything", () => {
    const err: string[] = [];
    const io = { log: () => {}, error: (l: string) => err.push(l) };
    expect(startPluginDev(undefined, {}, io)).toBe(2);
    expect(err.pop()).toMatch(/which plugin folder\?/);
    expect(startPluginDev(join(tmp, "nowhere"), {}, io)).toBe(2);
    expect(err.pop()).toMatch(/nowhere: no such folder/);
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    expect(startPluginDev(empty, {}, io)).toBe(2);
    expect(err.pop()).toMatch(/empty\/plugin\.json: missing or not JSON/);
  });

  it("builds and runs the plugin's example at start, rebuilds on a change, survives a build error, reports a throwing hook at its src line, and stops on Ctrl-C", async () => {
    const first = await waitFor(/1 of 1 examples ran; watching/, 0);
    expect(first).toMatch(/building: npm run build/);
    expect(first).toMatch(/siglab run getpid_cache/);
    expect(first).toMatch(/pid page registered\s+1\s+bool/);

    // a type error: tsc's message, and the loop waits for the next change
    let mark = output.length;
    edit("return -EINVAL;", "return -EINVAL as string;");
    const broken = await waitFor(/build failed \(exit \d+\)/, mark);
    expect(broken).toMatch(/changed: src\/index\.ts/);
    expect(broken).toMatch(/src\/index\.ts\(\d+,\d+\): error TS2322/);
    expect(broken).not.toMatch(/siglab run getpid_cache/);

    // fixed, but the system call's hook throws: rebuilt, re-run, the error at its source-mapped line
    mark = output.length;
    edit("return -EINVAL as string;", "return -EINVAL;");
    edit("  k.count(`${ID}.registered`);", '  if (addr > 0) throw new Error("pid page refused by the dev-loop test");\n  k.count(`${ID}.registered`);');
    const throwing = await waitFor(/0 of 1 examples ran; failed: getpid_cache \(exit \d+\)/, mark);
    expect(throwing).toMatch(/pid page refused by the dev-loop test/);
    const line = readFileSync(SRC, "utf8").split("\n").findIndex((l) => l.includes("dev-loop test")) + 1;
    expect(throwing).toContain(`src/index.ts:${line}:`);

    // three cycles (start, the type error, the throwing hook): the build's own writes to dist/ start none
    expect(output.match(/── building: npm run build/g)).toHaveLength(3);

    // Ctrl-C
    mark = output.length;
    dev.kill("SIGINT");
    const code = await new Promise<number | null>((r) => (dev.exitCode !== null ? r(dev.exitCode) : dev.on("exit", (c) => r(c))));
    expect(code).toBe(0);
    expect(output.slice(mark)).toMatch(/stopped watching/);
  }, 400_000);
});
