/**
 * docs/scale-out.md's recipes, run: for each engine (Slurm job array, Kubernetes Indexed Job, GitHub
 * Actions matrix) the recipe's own `bundle export` command line in 4 local shell processes, each
 * with the engine's index variable set as the engine would set it, then the recipe's `bundle merge`;
 * the merged bundle must equal the unsharded export (results.json byte for byte; every entry but
 * manifest.json's createdAt).
 *
 * The Slurm recipe runs the real CLI in each of its 4 processes (`pnpm siglab` stands for the CLI
 * bundle built from apps/cli/src for this test run, `node <siglabBin>`, see built-cli.setup.ts).
 * A CLI process costs a second or more of start-up (TypeScript, the simulator, its execution host),
 * so for the other two recipes each shell process expands
 * the command line (the engine's variable, the arithmetic, the quoting, the glob of the merge) and
 * hands the resulting arguments to the same CLI commands in this process (cac, the bundle commands,
 * the execution host pool), as main.ts wires them.
 */
import { spawn } from "node:child_process";
import { cac } from "cac";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { unzipSync } from "../../../packages/core/test/bundle/zip-craft.js";
import { readBundle } from "@siglab/core/bundle";
import { registerBundleCommands, type BundleCommandDeps } from "../src/commands/bundle.js";
import { addRunOptions, resolveRunArgs } from "../src/commands/run.js";
import { configureHost, runInSandbox, stopSandbox } from "../src/run/host.js";
import { hostLimitsFrom } from "../src/run/limits.js";

const ROOT = join(import.meta.dirname, "../../..");
const DOC = readFileSync(join(ROOT, "docs/scale-out.md"), "utf8");
const SIGLAB = `${JSON.stringify(process.execPath)} ${JSON.stringify(inject("siglabBin"))}`;
const work = mkdtempSync(join(tmpdir(), "siglab-scale-out-"));
afterAll(() => {
  stopSandbox();
  rmSync(work, { recursive: true, force: true });
});

interface Recipe {
  heading: string;
  /** run the real CLI in each of the 4 processes (else: the processes expand the command line, the CLI runs here) */
  processes: "cli" | "shell";
  /** the engine's index variable and the values it takes for 4 tasks */
  variable: string;
  values: number[];
  /** what in the recipe declares those 4 tasks */
  declares: RegExp[];
}

const RECIPES: Recipe[] = [
  { heading: "Slurm job array", processes: "cli", variable: "SLURM_ARRAY_TASK_ID", values: [0, 1, 2, 3], declares: [/#SBATCH --array=0-3\n/] },
  { heading: "Kubernetes Indexed Job", processes: "shell", variable: "JOB_COMPLETION_INDEX", values: [0, 1, 2, 3], declares: [/completionMode: Indexed\n/, /completions: 4\n/] },
  { heading: "CI matrix (GitHub Actions)", processes: "shell", variable: "SHARD", values: [1, 2, 3, 4], declares: [/shard: \[1, 2, 3, 4\]\n/, /SHARD: \$\{\{ matrix\.shard \}\}\n/] },
];

/** The recipe's section of the document, and its export and merge commands (one each). */
function commands(r: Recipe): { section: string; exportCmd: string; mergeCmd: string } {
  const start = DOC.indexOf(`### ${r.heading}\n`);
  expect(start, r.heading).toBeGreaterThan(0);
  const rest = DOC.slice(start + 4);
  const end = rest.search(/\n##+ /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const code = [...section.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
  // up to the end of the line, or the quote that closes a `--wrap '…'`
  const found = (verb: string) => [...code.matchAll(new RegExp(`pnpm siglab bundle ${verb}[^'\\n]*`, "g"))].map((m) => m[0].trim());
  const exports = found("export");
  const merges = found("merge");
  expect(exports, `${r.heading}: one export command`).toHaveLength(1);
  expect(merges, `${r.heading}: one merge command`).toHaveLength(1);
  return { section, exportCmd: exports[0]!, mergeCmd: merges[0]! };
}

function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("SLURM_") || k === "JOB_COMPLETION_INDEX" || k === "SHARD" || k === "RESULTS") delete base[k];
  return { ...base, ...env };
}

function collect(c: ReturnType<typeof spawn>): Promise<{ code: number | null; out: string; err: string }> {
  let out = "";
  let err = "";
  c.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  c.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  return new Promise((resolve) => c.on("close", (code) => resolve({ code, out, err })));
}

/** `bash -c cmd` with `pnpm siglab` as the workspace script runs it: the real CLI. */
function sh(cmd: string, env: Record<string, string>) {
  return collect(spawn("bash", ["-c", cmd.replace(/^pnpm siglab /, `${SIGLAB} `)], { cwd: ROOT, env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] }));
}

/** The arguments `pnpm siglab` receives when a shell with `env` runs `cmd`. */
async function argvOf(cmd: string, env: Record<string, string>): Promise<string[]> {
  const r = await collect(spawn("bash", ["-c", `siglab() { printf '%s\\0' "$@"; }; ${cmd.replace(/^pnpm siglab /, "siglab ")}`], { cwd: ROOT, env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] }));
  expect(r.code, r.err).toBe(0);
  return r.out.split("\0").slice(0, -1);
}

/** `siglab <argv>` in this process, wired as main.ts wires the bundle commands. */
async function siglabHere(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const deps: BundleCommandDeps = {
    runInSandbox: (spec, opts) => runInSandbox(spec, opts ?? {}),
    resolveRunArgs,
    addRunOptions,
    configure: (o) => configureHost({ limits: hostLimitsFrom(o), verbose: o["verbose"] === true }),
    maxRuns: (o) => hostLimitsFrom(o).maxRuns,
    log: (l) => out.push(l),
    error: (l) => err.push(l),
  };
  const cli = cac("siglab");
  registerBundleCommands(cli, deps);
  cli.parse(["node", "siglab", ...argv], { run: false });
  await cli.runMatchedCommand();
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** cmd without ` flag value` (the value may be a quoted string with spaces) */
const drop = (cmd: string, flag: string) => cmd.replace(new RegExp(` ${flag} ("[^"]*"|\\S+)`), "");
const entries = (file: string) => unzipSync(new Uint8Array(readFileSync(file)));
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

describe("docs/scale-out.md recipes", () => {
  const parsed = RECIPES.map((r) => ({ r, ...commands(r) }));

  it("each recipe declares 4 tasks, maps its index to --shard and runs the same experiment", () => {
    for (const { r, section, exportCmd } of parsed) {
      for (const re of r.declares) expect(section, r.heading).toMatch(re);
      expect(exportCmd).toContain("--shard ");
      expect(exportCmd).toContain(r.variable);
    }
    const experiment = (cmd: string) => drop(drop(drop(cmd, "--jobs"), "--shard"), "-o");
    expect(new Set(parsed.map((p) => experiment(p.exportCmd))).size).toBe(1);
  });

  let whole = "";
  it("the unsharded export (the reference)", async () => {
    const dir = join(work, "whole");
    mkdirSync(dir);
    const cmd = `${drop(drop(drop(parsed[0]!.exportCmd, "--jobs"), "--shard"), "-o")} -o "$RESULTS/whole.siglab"`;
    const r = await siglabHere(await argvOf(cmd, { RESULTS: dir }));
    expect(r.code, r.err + r.out).toBe(0);
    whole = join(dir, "whole.siglab");
    expect(readBundle(new Uint8Array(readFileSync(whole))).results).toHaveLength(8);
  }, 180_000);

  for (const [k, r] of RECIPES.entries()) {
    it(`${r.heading}: 4 processes with ${r.variable} set, then the merge, give the unsharded bundle`, async () => {
      expect(whole, "the reference export ran").not.toBe("");
      const { exportCmd, mergeCmd } = parsed[k]!;
      const dir = join(work, r.variable);
      mkdirSync(dir);
      if (r.processes === "cli") {
        const parts = await Promise.all(r.values.map((v) => sh(exportCmd, { [r.variable]: String(v), RESULTS: dir })));
        for (const p of parts) expect(p.code, p.err + p.out).toBe(0);
      } else {
        const argvs = await Promise.all(r.values.map((v) => argvOf(exportCmd, { [r.variable]: String(v), RESULTS: dir })));
        for (const argv of argvs) {
          const p = await siglabHere(argv);
          expect(p.code, p.err + p.out).toBe(0);
        }
      }
      const files = readdirSync(dir).sort();
      expect(files).toHaveLength(4);
      const shards = files.map((f) => readBundle(new Uint8Array(readFileSync(join(dir, f))), { fileName: f }).shard);
      expect(shards.map((s) => `${s?.index}/${s?.count}:${s?.runs.join(",")}`).sort()).toEqual(["1/4:1,5", "2/4:2,6", "3/4:3,7", "4/4:4,8"]);

      const m = await siglabHere(await argvOf(mergeCmd, { RESULTS: dir }));
      expect(m.code, m.err + m.out).toBe(0);
      expect(m.out).toMatch(/all\.siglab: 4 parts joined, 8 runs/);
      const a = entries(join(dir, "all.siglab"));
      const w = entries(whole);
      expect(text(a["results.json"])).toBe(text(w["results.json"]));
      expect(Object.keys(a).sort()).toEqual(Object.keys(w).sort());
      for (const name of Object.keys(w).filter((n) => n !== "manifest.json")) expect(text(a[name]), name).toBe(text(w[name]));
      const { createdAt: _a, ...ma } = JSON.parse(text(a["manifest.json"]));
      const { createdAt: _w, ...mw } = JSON.parse(text(w["manifest.json"]));
      expect(ma).toEqual(mw);
    }, 240_000);
  }
});
