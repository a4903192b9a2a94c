import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const CLI = join(import.meta.dirname, "..");
// apps/cli/dist/siglab.mjs, fresh for this test run (built-cli.setup.ts; a failed build fails the
// run): typescript and esbuild stay outside the bundle and resolve from apps/cli's node_modules
const out = inject("siglabBin");
const LAUNCHER = join(CLI, "bin", "siglab.mjs");

describe("the installable siglab command (apps/cli/bin/siglab.mjs, the package's bin, running dist/siglab.mjs)", () => {
  it("is what package.json's bin names: a Node script with a shebang, executable, as is the bundle it runs", () => {
    const pkg = JSON.parse(readFileSync(join(CLI, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.bin["siglab"]).toBe("./bin/siglab.mjs");
    expect(pkg.scripts["build"]).toMatch(/scripts\/build\.mjs/);
    const root = JSON.parse(readFileSync(join(CLI, "..", "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(root.scripts["siglab"]).toBe("node apps/cli/bin/siglab.mjs"); // no tsx: nothing transpiled at run time
    for (const f of [LAUNCHER, out]) {
      expect(readFileSync(f, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
      expect(statSync(f).mode & 0o111).not.toBe(0);
    }
  });

  it("runs with plain Node from any folder: --help, list, a workload file and outputs relative to that folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-cwd-"));
    const run = (args: string[]) => spawnSync(LAUNCHER, args, { cwd: dir, encoding: "utf8", timeout: 120_000, env: { ...process.env, INIT_CWD: "", npm_lifecycle_event: "" } });
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
    const r = spawnSync(process.execPath, ["apps/cli/bin/siglab.mjs", "run", "./typed.ts"], { cwd: root, encoding: "utf8", timeout: 120_000, env: { ...process.env, INIT_CWD: dir, npm_lifecycle_event: "siglab" } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^== typed on /m);
  }, 120_000);
});
