import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const CLI = join(import.meta.dirname, "..");
// built for this test run by the package's build script (scripts/build.mjs --outfile, in
// built-cli.setup.ts; a failed build fails the run) beside the real one (dist/ is not tracked):
// typescript and esbuild stay outside the bundle and resolve from apps/cli's node_modules, as they
// do for dist/siglab.mjs
const out = inject("siglabBin");

describe("the installable siglab command (apps/cli/dist/siglab.mjs, the package's bin)", () => {
  it("is what package.json's bin names: a Node script with a shebang, executable", () => {
    const pkg = JSON.parse(readFileSync(join(CLI, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.bin["siglab"]).toBe("./dist/siglab.mjs");
    expect(pkg.scripts["build"]).toMatch(/scripts\/build\.mjs/);
    expect(readFileSync(out, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(out).mode & 0o111).not.toBe(0);
  });

  it("runs with plain Node from any folder: --help, list, a workload file and outputs relative to that folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-cwd-"));
    const run = (args: string[]) => spawnSync(out, args, { cwd: dir, encoding: "utf8", timeout: 120_000, env: { ...process.env, INIT_CWD: "", npm_lifecycle_event: "" } });
    const help = run(["--help"]);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage:\s+\$ siglab <command>/);
    const list = run(["list"]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/lat_sig_catch\s+lat_sig catch/);
    writeFileSync(join(dir, "mine.ts"), `import { workload } from "siglab";\nexport default workload({ name: "mine", params: {}, *main(t) { yield* t.getpid(); t.report("n", 1, "count"); } });\n`);
    const r = run(["run", "./mine.ts"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^== mine on p4-northwood@2200 MHz/m);
    const e = run(["bundle", "export", "mine.ts", "-o", "mine.siglab"]);
    expect(e.status, e.stderr).toBe(0);
    expect(existsSync(join(dir, "mine.siglab"))).toBe(true);
    const p = run(["plugin", "new", "my-thing"]);
    expect(p.status, p.stderr).toBe(0);
    expect(existsSync(join(dir, "my-thing", "plugin.json"))).toBe(true);
  }, 180_000);

  it("`pnpm siglab …` (the workspace script, started in the workspace root) resolves paths against the folder it was typed in (INIT_CWD)", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-init-cwd-"));
    writeFileSync(join(dir, "typed.ts"), `import { workload } from "siglab";\nexport default workload({ name: "typed", params: {}, *main(t) { yield* t.getpid(); t.report("n", 1, "count"); } });\n`);
    const root = join(CLI, "..", "..");
    const r = spawnSync(process.execPath, ["--import", "tsx", "apps/cli/src/main.ts", "run", "./typed.ts"], { cwd: root, encoding: "utf8", timeout: 120_000, env: { ...process.env, INIT_CWD: dir, npm_lifecycle_event: "siglab" } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^== typed on /m);
  }, 120_000);
});
