/**
 * The result cache through the CLI: an unchanged run is read back (the same bytes, said to be
 * cached), a changed one is simulated; damaged entries are never returned; --no-cache and bundles
 * leave the cache alone. Each test has a cache folder of its own (XDG_CACHE_HOME).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { BUILTIN_PROFILE_FILES, cloneProfile, serializeProfile } from "@siglab/cpu-profiles";
import { PLUGIN_API_VERSION } from "@siglab/core";
import { CacheStore, RunCache } from "@siglab/core/cache";

const BIN = inject("siglabBin");
const root = mkdtempSync(join(tmpdir(), "siglab-result-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let homes = 0;
const freshHome = () => join(root, `cache-${homes++}`);

function siglab(home: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: root, encoding: "utf8", timeout: 120_000, env: { ...process.env, XDG_CACHE_HOME: home, SIGLAB_CACHE_DIR: "", SIGLAB_NO_CACHE: "" } });
  if (r.status !== 0 && r.status !== 1) throw new Error(`siglab ${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return r;
}
interface Run {
  cached?: true;
  metrics: { name: string; value: number }[];
  totalCycles: number;
}
const runs = (json: string) => (JSON.parse(json) as { runs: Run[] }).runs;
const cachedFlags = (json: string) => runs(json).map((r) => r.cached === true);
/** the --json text as a fresh run prints it */
const uncachedText = (json: string) => json.replace(/,\n\s*"cached": true/g, "");

const resultsDir = (home: string) => join(home, "siglab", "results");
function entryFiles(home: string): string[] {
  const dir = resultsDir(home);
  let subs: string[] = [];
  try {
    subs = readdirSync(dir);
  } catch {
    return [];
  }
  return subs.flatMap((s) => readdirSync(join(dir, s)).map((f) => join(dir, s, f))).sort();
}
/** Every stored result rewritten as a valid entry with `edit` applied: what a hit then shows. */
function tamper(home: string, edit: (r: Run) => void): void {
  const cache = new RunCache(new CacheStore(resultsDir(home), { maxBytes: 1 << 30 }));
  for (const f of entryFiles(home)) {
    const key = f.split("/").pop()!;
    const r = cache.get(key);
    if (!r) throw new Error(`${f}: not a stored result`);
    edit(r as unknown as Run);
    cache.put(key, r);
  }
}
const snapshot = (home: string) => entryFiles(home).map((f) => `${f} ${statSync(f).mtimeMs} ${readFileSync(f).toString("base64")}`);

const SWEEP = ["run", "lat_syscall", "--sweep", "iterations=100,200,300", "--jobs", "1"];

describe("the result cache (siglab run, suite examples)", () => {
  it("reads an unchanged run back: the same bytes, said to be cached (text and --json)", () => {
    const home = freshHome();
    const first = siglab(home, [...SWEEP, "--json"]);
    expect(cachedFlags(first.stdout)).toEqual([false, false, false]);
    const again = siglab(home, [...SWEEP, "--json"]);
    expect(cachedFlags(again.stdout)).toEqual([true, true, true]);
    expect(uncachedText(again.stdout)).toBe(first.stdout);
    const text = siglab(home, SWEEP);
    const fresh = siglab(home, [...SWEEP, "--no-cache"]);
    expect(text.stdout.match(/^== .*, cached$/gm)).toHaveLength(3);
    expect(text.stdout.replace(/, cached$/gm, "")).toBe(fresh.stdout);
  });

  it("re-runs only the sweep points whose key changed (a value, the seed)", () => {
    const home = freshHome();
    siglab(home, [...SWEEP, "--json"]);
    expect(cachedFlags(siglab(home, ["run", "lat_syscall", "--sweep", "iterations=100,200,400", "--json"]).stdout)).toEqual([true, true, false]);
    expect(cachedFlags(siglab(home, [...SWEEP, "--seed", "2", "--json"]).stdout)).toEqual([false, false, false]);
    expect(cachedFlags(siglab(home, [...SWEEP, "--param", "call=getpid", "--json"]).stdout)).toEqual([false, false, false]);
  });

  it("never returns a truncated or corrupted entry: the run is simulated again and stored whole", () => {
    const home = freshHome();
    const first = siglab(home, [...SWEEP, "--json"]).stdout;
    const [a, b] = entryFiles(home);
    writeFileSync(a!, readFileSync(a!).subarray(0, 300));
    const bytes = readFileSync(b!);
    bytes[bytes.length - 10] ^= 0x55;
    writeFileSync(b!, bytes);
    const again = siglab(home, [...SWEEP, "--json"]);
    expect(cachedFlags(again.stdout).filter((c) => !c)).toHaveLength(2);
    expect(uncachedText(again.stdout)).toBe(first);
    expect(again.stderr.match(/a stored result was damaged/g)).toHaveLength(2);
    expect(cachedFlags(siglab(home, [...SWEEP, "--json"]).stdout)).toEqual([true, true, true]);
  });

  it("--no-cache neither reads nor writes it", () => {
    const home = freshHome();
    siglab(home, [...SWEEP, "--no-cache"]);
    expect(entryFiles(home)).toEqual([]);
    siglab(home, SWEEP);
    tamper(home, (r) => (r.metrics[0]!.value = 12345));
    expect(runs(siglab(home, [...SWEEP, "--json"]).stdout).map((r) => r.metrics[0]!.value)).toEqual([12345, 12345, 12345]); // a hit shows the stored value
    const before = snapshot(home);
    const real = runs(siglab(home, [...SWEEP, "--json", "--no-cache"]).stdout);
    expect(real.map((r) => r.metrics[0]!.value)).not.toContain(12345);
    expect(real.some((r) => r.cached)).toBe(false);
    expect(snapshot(home)).toEqual(before); // not even a hit's last-use time moved
  });

  it("misses when a third-party plugin's code or a CPU profile's content changes", () => {
    const home = freshHome();
    const plugins = join(root, "plugins");
    const folder = join(plugins, "answer");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "plugin.json"), JSON.stringify({ id: "answer", version: "1.0.0", apiVersion: PLUGIN_API_VERSION, displayName: "answer", description: "syscall 250 returns a constant", options: {}, contributes: ["SyscallContribution"], main: "index.js" }));
    const code = (n: number) => `const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ bind }) => bind(TOKENS.SyscallContribution).toConstantValue({ nr: 250, name: "answer", handler: () => ${n} }));`;
    writeFileSync(join(folder, "index.js"), code(7));
    const workload = join(root, "answer.ts");
    writeFileSync(workload, `import { workload } from "siglab";\nexport default workload({ name: "answer", params: {}, *main(t) { const r = yield* t.syscall(250); t.report("answer", typeof r === "number" ? r : -1, "value"); } });\n`);
    const args = ["run", workload, "--plugin-dir", plugins, "--variant", "answer", "--json"];
    const answer = (json: string) => [runs(json)[0]!.metrics[0]!.value, runs(json)[0]!.cached === true];
    expect(answer(siglab(home, args).stdout)).toEqual([7, false]);
    expect(answer(siglab(home, args).stdout)).toEqual([7, true]);
    writeFileSync(join(folder, "index.js"), code(8));
    expect(answer(siglab(home, args).stdout)).toEqual([8, false]);

    const profile = join(root, "my-p4.json");
    const p4 = BUILTIN_PROFILE_FILES.find((p) => p.id === "p4-northwood")!;
    writeFileSync(profile, serializeProfile(cloneProfile(p4, "my-p4", "my P4")));
    const pargs = ["run", "lat_syscall", "--param", "iterations=100", "--profile-file", profile, "--cpu", "my-p4", "--json"];
    const first = runs(siglab(home, pargs).stdout)[0]!;
    expect(first.cached).toBeUndefined();
    expect(runs(siglab(home, pargs).stdout)[0]!.cached).toBe(true);
    const j = JSON.parse(readFileSync(profile, "utf8")) as { costs: Record<string, { cycles: number }> };
    for (const c of Object.values(j.costs)) if (c.cycles > 0) c.cycles += 3;
    writeFileSync(profile, JSON.stringify(j, null, 2));
    const changed = runs(siglab(home, pargs).stdout)[0]!;
    expect(changed.cached).toBeUndefined();
    expect(changed.totalCycles).not.toBe(first.totalCycles);
  });

  it("bundle export and bundle verify never read (or write) it: verification always simulates", () => {
    const home = freshHome();
    const args = ["lat_syscall", "--param", "iterations=100"];
    siglab(home, ["run", ...args]);
    tamper(home, (r) => (r.metrics[0]!.value = 12345));
    expect(runs(siglab(home, ["run", ...args, "--json"]).stdout)[0]!.metrics[0]!.value).toBe(12345);
    const before = snapshot(home);
    const bundle = join(root, "x.siglab");
    expect(siglab(home, ["bundle", "export", ...args, "-o", bundle]).status).toBe(0);
    const verify = siglab(home, ["bundle", "verify", bundle]);
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stdout).not.toContain("12345");
    expect(snapshot(home)).toEqual(before);
  });

  it("siglab cache info counts the stored runs; clear deletes them", () => {
    const home = freshHome();
    siglab(home, ["suite", "examples", "--shard", "1/15"]);
    const info = JSON.parse(siglab(home, ["cache", "info", "--json"]).stdout) as { dir: string; results: { entries: number; bytes: number; maxBytes: number } };
    expect(info.dir).toBe(join(home, "siglab"));
    expect(info.results.entries).toBe(2);
    expect(info.results.bytes).toBeGreaterThan(0);
    expect(siglab(home, ["suite", "examples", "--shard", "1/15"]).stdout.match(/, cached$/gm)).toHaveLength(2);
    expect(siglab(home, ["cache", "clear"]).stdout).toMatch(/cleared 2 stored run\(s\)/);
    expect(entryFiles(home)).toEqual([]);
  });
});
