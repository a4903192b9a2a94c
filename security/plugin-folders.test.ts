/**
 * Issue 30, finding 1: plugin folders are closed. A symbolic link (to a file, a folder, a device)
 * or a special file anywhere in a plugin folder — the folder itself, its main file's folder, its
 * examples folder included — is refused with a message naming it, in `plugins list`, `run`,
 * `bundle export` and the desktop app's installer, and nothing it points to is read, run or
 * embedded. A --plugin-dir that is missing or not a folder is named, not ignored.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installPluginFolder, readPluginCode } from "../apps/desktop/src/node/plugin-folder.js";
import { killStarted, RAW_TRACE, runSiglab } from "./cli-process.js";

const root = mkdtempSync(join(tmpdir(), "siglab-plugin-folders-"));
const outside = join(root, "outside");
const plugins = join(root, "plugins");
const SECRET = "TOPSECRET-7f3a9c";
afterAll(() => {
  killStarted();
  rmSync(root, { recursive: true, force: true });
});

const CODE = "exports.createModule = (options, api) => new api.ContainerModule(() => {});\n";
const example = (id: string) => `import { workload } from "siglab";\nexport default workload({ name: "${id} demo", params: {}, *main(t) { yield* t.getpid(); } });\n`;

/** A built plugin folder: plugin.json, dist/index.js, examples/<id>-demo.ts. */
function plugin(dir: string, id: string): string {
  mkdirSync(join(dir, "dist"), { recursive: true });
  mkdirSync(join(dir, "examples"), { recursive: true });
  const manifest = { id, version: "1.0.0", apiVersion: "2.0", displayName: id, description: "d", options: {}, contributes: ["SyscallContribution"], main: "dist/index.js" };
  writeFileSync(join(dir, "plugin.json"), JSON.stringify(manifest));
  writeFileSync(join(dir, "dist", "index.js"), CODE);
  writeFileSync(join(dir, "examples", `${id}-demo.ts`), example(id));
  return dir;
}

mkdirSync(outside, { recursive: true });
writeFileSync(join(outside, "secret.js"), `module.exports = "${SECRET}";\n`);
writeFileSync(join(outside, "secret.ts"), `// ${SECRET}\n${example("secret")}`);
mkdirSync(join(outside, "examples"));
writeFileSync(join(outside, "examples", "secret-demo.ts"), `// ${SECRET}\n${example("secret")}`);
mkdirSync(join(outside, "dist"));
writeFileSync(join(outside, "dist", "index.js"), `${CODE}// ${SECRET}\n`);
writeFileSync(join(outside, "plugin.json"), JSON.stringify({ id: "link-manifest", version: "1.0.0", apiVersion: "2.0", displayName: SECRET, description: "d", options: {}, contributes: [], main: "dist/index.js" }));

/** id -> [the path that must be named, how the folder was made bad] */
const BAD: Record<string, string> = {};
function bad(id: string, named: string, make: (dir: string) => void): void {
  const dir = plugin(join(plugins, id), id);
  make(dir);
  BAD[id] = named;
}
bad("link-file", "link-file/dist/leak.js", (d) => symlinkSync(join(outside, "secret.js"), join(d, "dist", "leak.js")));
bad("link-example", "link-example/examples/leak.ts", (d) => symlinkSync(join(outside, "secret.ts"), join(d, "examples", "leak.ts")));
bad("link-examples-folder", "link-examples-folder/examples", (d) => {
  rmSync(join(d, "examples"), { recursive: true });
  symlinkSync(join(outside, "examples"), join(d, "examples"));
});
bad("link-main-folder", "link-main-folder/dist", (d) => {
  rmSync(join(d, "dist"), { recursive: true });
  symlinkSync(join(outside, "dist"), join(d, "dist"));
});
bad("link-device", "link-device/dist/zero.js", (d) => symlinkSync("/dev/zero", join(d, "dist", "zero.js")));
bad("link-manifest", "link-manifest/plugin.json", (d) => {
  rmSync(join(d, "plugin.json"));
  symlinkSync(join(outside, "plugin.json"), join(d, "plugin.json"));
});
bad("fifo", "fifo/dist/pipe.js", (d) => {
  const r = spawnSync("mkfifo", [join(d, "dist", "pipe.js")]);
  if (r.status !== 0) throw new Error("mkfifo failed");
});
// the plugin folder itself a link (to a complete plugin outside)
plugin(join(outside, "link-root"), "link-root");
symlinkSync(join(outside, "link-root"), join(plugins, "link-root"));
BAD["link-root"] = "plugins/link-root";
plugin(join(plugins, "good"), "good");

const LONG = 240_000;

describe.concurrent("a plugin folder with a link or a special file anywhere is refused, naming it", () => {
  it("plugins list names every refused folder and the path in it; the good plugin is listed; nothing is read through a link", async () => {
    const r = await runSiglab(["plugins", "list", "--plugin-dir", plugins], { timeoutMs: 60_000 });
    expect(r.signal, "plugins list did not finish (a FIFO or device was read?)").toBeNull();
    expect(r.code, r.err).toBe(0);
    const refused = r.out.slice(r.out.indexOf("Refused"));
    for (const named of Object.values(BAD)) expect(refused, `not named: ${named}`).toContain(named);
    expect(r.out).toMatch(/^\s+good\s/m);
    expect(r.out + r.err).not.toContain(SECRET);
  }, LONG);

  it("run names every refused folder on stderr, a run asking for a refused plugin fails, and nothing leaks", async () => {
    const [all, asked] = await Promise.all([
      runSiglab(["run", "lat_syscall", "--plugin-dir", plugins, "--param", "iterations=10", "--variant", "good", "--json"], { timeoutMs: 90_000 }),
      runSiglab(["run", "lat_syscall", "--plugin-dir", plugins, "--param", "iterations=10", "--variant", "link-file", "--json"], { timeoutMs: 90_000 }),
    ]);
    expect(all.signal).toBeNull();
    expect(all.code, all.err).toBe(0);
    for (const named of Object.values(BAD)) expect(all.err, `not named: ${named}`).toContain(named);
    expect(asked.code).not.toBe(0);
    expect(asked.out + asked.err).toContain("link-file/dist/leak.js");
    for (const r of [all, asked]) {
      expect(r.out + r.err).not.toContain(SECRET);
      expect(r.out + r.err).not.toMatch(RAW_TRACE);
    }
  }, LONG);

  it("bundle export refuses to embed a refused plugin (a linked file, a device), names it and writes nothing", async () => {
    const rs = await Promise.all(
      ["link-file", "link-device", "link-main-folder"].map(async (id) => {
        const out = join(root, `${id}.siglab`);
        const r = await runSiglab(["bundle", "export", "lat_syscall", "--plugin-dir", plugins, "--param", "iterations=10", "--variant", id, "-o", out], { timeoutMs: 90_000 });
        return { id, r, wrote: existsSync(out) };
      }),
    );
    for (const { id, r, wrote } of rs) {
      expect(r.signal, id).toBeNull();
      expect(r.code, `${id}: ${r.out}${r.err}`).toBe(2);
      expect(r.out + r.err, id).toContain(BAD[id]);
      expect(wrote, `${id}: a bundle was written`).toBe(false);
    }
  }, LONG);

  it("a --plugin-dir that is missing or not a folder is an error naming it", async () => {
    const missing = join(root, "no-such-folder");
    const file = join(plugins, "good", "plugin.json");
    const rs = await Promise.all([
      runSiglab(["plugins", "list", "--plugin-dir", missing]),
      runSiglab(["run", "lat_syscall", "--param", "iterations=10", "--plugin-dir", file]),
    ]);
    expect(rs[0]!.code).toBe(2);
    expect(rs[0]!.err).toContain(`--plugin-dir ${missing}: no such folder`);
    expect(rs[1]!.code).toBe(2);
    expect(rs[1]!.err).toContain(`--plugin-dir ${file}: not a folder`);
  }, LONG);
});

describe("the desktop app's installer", () => {
  it.each(Object.keys(BAD))("refuses %s, naming the path, and installs nothing", async (id) => {
    const dest = mkdtempSync(join(root, "installed-"));
    const err = await installPluginFolder(join(plugins, id), dest, "2.0", new Set()).then(
      () => "installed",
      (e: Error) => e.message,
    );
    expect(err).toContain(BAD[id]);
    expect(existsSync(join(dest, id))).toBe(false);
  });

  it("installs the good plugin, and refuses to load an installed one that a link was put into", async () => {
    const dest = mkdtempSync(join(root, "installed-"));
    await installPluginFolder(join(plugins, "good"), dest, "2.0", new Set());
    expect((await readPluginCode(dest, "good", "2.0")).files["dist/index.js"]).toBe(CODE);
    symlinkSync(join(outside, "secret.js"), join(dest, "good", "dist", "leak.js"));
    await expect(readPluginCode(dest, "good", "2.0")).rejects.toThrow(/good\/dist\/leak\.js: a symbolic link/);
  });
});
