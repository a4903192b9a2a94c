/**
 * The example third-party plugin (examples/third-party-plugins/getpid-cache), built by its own
 * build script and loaded through --plugin-dir exactly as a third party's: its mechanism, its
 * speed effect on two CPUs, and its fork hazard as a finding.
 */
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RunResult } from "@siglab/core";
import { runExperimentArgs } from "../src/commands/run.js";
import { pluginsInfo } from "../src/commands/plugins.js";
import { stopSandbox } from "../src/run/host.js";

const ROOT = join(import.meta.dirname, "../../..");
const PLUGINS = join(ROOT, "examples/third-party-plugins");
const FOLDER = join(PLUGINS, "getpid-cache");
const CPUS = ["p4-northwood@2200", "p6-coppermine@1000"];

const metric = (r: RunResult, name: string) => r.metrics.find((m) => m.name === name)?.value;

beforeAll(() => {
  // its own build script (tsc against @siglab/plugin-api's declarations, then esbuild), as a third party runs it
  // (dist/ is overwritten, not deleted first: other test runs in this tree may be reading it)
  const started = Date.now();
  const r = spawnSync("pnpm", ["run", "build"], { cwd: FOLDER, encoding: "utf8", timeout: 120_000 });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  const out = statSync(join(FOLDER, "dist/index.cjs"));
  expect(out.size).toBeGreaterThan(1000);
  expect(out.mtimeMs).toBeGreaterThanOrEqual(started - 2000); // written by this build
}, 120_000);

afterAll(() => stopSandbox());

describe("getpid-cache, loaded from the plugin folder", () => {
  it("passes its own tests (in process, with @siglab/plugin-api's harness)", () => {
    const r = spawnSync("pnpm", ["-s", "test"], { cwd: FOLDER, encoding: "utf8", timeout: 120_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/# pass 2/);
  });

  it("is listed with its manifest", () => {
    const out: string[] = [];
    expect(pluginsInfo("getpid-cache", [PLUGINS], { json: true }, { log: (l) => out.push(l), error: (l) => out.push(l) })).toBe(0);
    const info = JSON.parse(out.join("\n"));
    expect(info).toMatchObject({ builtin: false, from: FOLDER, manifest: { id: "getpid-cache", main: "dist/index.cjs", options: { updateOnFork: { type: "boolean", default: true } } } });
    expect(info.examples.map((e: { id: string }) => e.id)).toEqual(["getpid_cache"]);
  });

  it("answers getpid from the page: the kernel round trip disappears on both CPUs", async () => {
    const runs = await runExperimentArgs("getpid_cache", { pluginDir: PLUGINS, variant: "getpid-cache", baseline: true, cpu: CPUS, param: "iterations=3000" });
    expect(runs.map((r) => [r.cpu.id, r.variants.map((v) => v.id).join(",") || "baseline", r.error?.message ?? "ok"])).toEqual([
      ["p4-northwood", "baseline", "ok"],
      ["p4-northwood", "getpid-cache", "ok"],
      ["p6-coppermine", "baseline", "ok"],
      ["p6-coppermine", "getpid-cache", "ok"],
    ]);
    for (const [base, cached] of [[runs[0]!, runs[1]!], [runs[2]!, runs[3]!]] as const) {
      expect(metric(base, "pid page registered")).toBe(0); // ENOSYS without the plugin
      expect(metric(cached, "pid page registered")).toBe(1);
      const syscall = metric(base, "getpid")!, page = metric(cached, "getpid")!;
      expect(syscall).toBeGreaterThan(100); // int $0x80 ... iret
      expect(page).toBeGreaterThan(0);
      expect(page).toBeLessThan(20); // a call and a load
      expect(page / syscall).toBeLessThan(0.05);
      // correct pids, fork included (copy_process rewrote the child's page)
      expect([metric(cached, "parent getpid right"), metric(cached, "child getpid right")]).toEqual([1, 1]);
      expect(cached.findings).toEqual([]);
      expect(cached.counters["getpid-cache.fork_updates"]).toBe(1);
      // the mechanism in the path inspector, attributed to the plugin
      const paths = Object.fromEntries(cached.paths.map((p) => [p.name, p]));
      expect(paths["sys_set_pid_page"]).toMatchObject({ origin: "getpid-cache", count: 1 });
      expect(paths["getpid_cache.copy_process"]).toMatchObject({ origin: "getpid-cache", count: 1 });
      expect(paths["sys_getpid"]!.count).toBeLessThan(10); // only the child's check
      expect(base.paths.find((p) => p.name === "sys_getpid")!.count).toBeGreaterThan(3000);
    }
    // the faster CPU clock does not make the syscall cheaper in cycles: P4's entry is the slow one
    expect(metric(runs[0]!, "getpid")!).toBeGreaterThan(metric(runs[2]!, "getpid")!);
  });

  it("without the rewrite at fork, the child reads its parent's pid: a finding and a wrong result", async () => {
    const [r] = await runExperimentArgs("getpid_cache", { pluginDir: PLUGINS, variant: "getpid-cache:updateOnFork=false", param: "iterations=100" });
    expect(r!.error).toBeUndefined();
    expect(metric(r!, "child getpid right")).toBe(0);
    expect(metric(r!, "parent getpid right")).toBe(1);
    expect(r!.findings).toHaveLength(1);
    expect(r!.findings[0]).toMatchObject({ severity: "error", kind: "getpid-cache.stale-pid", evidence: { task: 2, cached: 1, actual: 2, parent: 1, variants: "getpid-cache" } });
    expect(r!.findings[0]!.message).toMatch(/returns its parent's pid/);
  });

  it("`siglab run lat_syscall --plugin-dir examples/third-party-plugins --variant getpid-cache` works (and leaves the syscall alone)", () => {
    expect(existsSync(join(FOLDER, "dist/index.cjs"))).toBe(true);
    // the CLI bundle built from apps/cli/src for this test run (built-cli.setup.ts)
    const r = spawnSync(process.execPath, [inject("siglabBin"), "run", "lat_syscall", "--plugin-dir", "examples/third-party-plugins", "--variant", "getpid-cache", "--baseline", "--param", "iterations=2000", "--param", "call=getpid", "--json"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const { runs } = JSON.parse(r.stdout) as { runs: RunResult[] };
    expect(runs.map((x) => x.variants)).toEqual([[], [{ id: "getpid-cache" }]]);
    expect(runs[1]!.error).toBeUndefined();
    expect(metric(runs[1]!, "getpid")).toBe(metric(runs[0]!, "getpid"));
  });
});
