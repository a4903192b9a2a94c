/**
 * --jobs N and --shard i/n with the real execution host: the same bytes as one run at a time
 * (also with third-party plugin code and a run over its host-time budget), one locked-down host
 * process per run in flight that dies with the CLI, round-robin slices, clear usage errors, and the
 * progress line (a terminal's stderr only).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cac } from "cac";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { EXAMPLES, PLUGIN_API_VERSION, type RunResult } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { runExperimentArgs } from "../src/commands/run.js";
import { registerSuiteCommand } from "../src/commands/suite.js";
import { registerUmlSuite } from "../src/commands/suite-uml.js";
import { hostCount, stopSandbox } from "../src/run/host.js";
import { parseJobs, parseShard, ProgressLine, runSpecs } from "../src/run/parallel.js";

const ROOT = join(import.meta.dirname, "../../..");
/** the CLI bundle built from apps/cli/src for this test run (built-cli.setup.ts) */
const BIN = inject("siglabBin");
let root: string;

function siglab(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", timeout: 180_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A third-party plugin: syscall 250 returns 7. */
const NR250 = `
const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ bind }) => {
  bind(TOKENS.SyscallContribution).toConstantValue({ nr: 250, name: "seven", handler: () => 7 });
});`;

/** spin=1 loops after its report: the host-time budget stops it (its worker is killed and replaced). */
const MIX = `import { workload } from "siglab";
export default workload({
  name: "mix",
  params: { spin: 0, n: 50 },
  *main(t, { spin, n }) {
    for (let i = 0; i < n; i++) yield* t.getpid();
    const r = yield* t.syscall(250);
    t.report("nr250", typeof r === "number" ? r : -1, "value");
    if (spin) for (;;) {}
  },
});
`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "siglab-jobs-"));
  const p = join(root, "plugins", "nr250");
  mkdirSync(p, { recursive: true });
  writeFileSync(join(p, "plugin.json"), JSON.stringify({ id: "nr250", version: "1.0.0", apiVersion: PLUGIN_API_VERSION, displayName: "nr250", description: "test", options: {}, contributes: ["SyscallContribution"], main: "index.js" }));
  writeFileSync(join(p, "index.js"), NR250);
  writeFileSync(join(root, "mix.ts"), MIX);
});

afterAll(() => {
  stopSandbox();
  rmSync(root, { recursive: true, force: true });
});

describe("--jobs (in process, the real host pool)", () => {
  it("gives the same results as --jobs 1 with third-party plugin runs and runs over budget, from one host process per run in flight", async () => {
    const args = { pluginDir: join(root, "plugins"), baseline: true, variant: "nr250", sweep: "spin=1,0", maxSeconds: 2 };
    const one = await runExperimentArgs(join(root, "mix.ts"), { ...args, jobs: 1 });
    expect(hostCount()).toBe(1);
    stopSandbox();
    const two = await runExperimentArgs(join(root, "mix.ts"), { ...args, jobs: "2" });
    expect(hostCount()).toBe(2);
    stopSandbox();
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
    // baseline: ENOSYS; with the plugin: 7; the spinning runs stopped by their own budget only
    const nr = (r: RunResult) => r.metrics.find((m) => m.name === "nr250")?.value;
    expect(one.map((r) => r.error?.kind ?? nr(r))).toEqual(["budget", -38, "budget", 7]);
    expect(one[0]!.error!.message).toMatch(/mix\.ts: stopped after 2 s of host time/);
  }, 120_000);

  it("starts no host for a sweep whose points are all stored, one for a sweep with one point changed", async () => {
    const env = { SIGLAB_NO_CACHE: process.env["SIGLAB_NO_CACHE"], SIGLAB_CACHE_DIR: process.env["SIGLAB_CACHE_DIR"] };
    process.env["SIGLAB_NO_CACHE"] = "";
    process.env["SIGLAB_CACHE_DIR"] = join(root, "cache");
    try {
      stopSandbox();
      const sweep = (values: string) => runExperimentArgs("lat_syscall", { sweep: `iterations=${values}`, jobs: 2 });
      const first = await sweep("100,200,300");
      expect(hostCount()).toBeGreaterThan(0);
      stopSandbox();
      const again = await sweep("100,200,300");
      expect(hostCount()).toBe(0);
      expect(again.map((r) => (r as { cached?: true }).cached)).toEqual([true, true, true]);
      expect(JSON.stringify(again.map(({ cached: _, ...r }: RunResult & { cached?: true }) => r))).toBe(JSON.stringify(first));
      const changed = await sweep("100,250,300");
      expect(hostCount()).toBe(1);
      expect(changed.map((r) => (r as { cached?: true }).cached === true)).toEqual([true, false, true]);
    } finally {
      stopSandbox();
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }, 120_000);

  it("bad --jobs and --shard are usage errors before anything starts", async () => {
    stopSandbox();
    for (const [o, m] of [
      [{ jobs: 0 }, /--jobs: expected .* from 1 to 256, got '0'/],
      [{ jobs: "abc" }, /--jobs: .*got 'abc'/],
      [{ jobs: [2, 3] }, /--jobs: .*got '2, 3'/],
      [{ shard: "0/2" }, /--shard: expected i\/n.*got '0\/2'/],
      [{ shard: "3/2" }, /--shard: .*got '3\/2'/],
      [{ shard: "1/0" }, /--shard: .*got '1\/0'/],
      [{ shard: "1-2" }, /--shard: .*got '1-2'/],
    ] as const) {
      await expect(runExperimentArgs("lat_syscall", o)).rejects.toThrow(m);
    }
    expect(hostCount()).toBe(0);
    expect(parseJobs(undefined)).toBeGreaterThanOrEqual(1);
    expect(parseShard(" 2/4 ")).toEqual({ index: 2, count: 4 });
  });
});

describe("the progress line", () => {
  const tty = () => {
    const writes: string[] = [];
    return { writes, stream: { isTTY: true, write: (s: string) => writes.push(s) } };
  };

  it("is drawn on a terminal's stderr only, and cleared before ordered output and at the end", async () => {
    const t = tty();
    let clock = 0;
    const events: string[] = [];
    const results = await runSpecs(
      [30, 10, 20],
      async (ms, i) => {
        await new Promise((r) => setTimeout(r, ms));
        clock += 1000;
        return { workload: `w${i}` } as RunResult;
      },
      {
        jobs: 2,
        progress: new ProgressLine(3, { isTTY: true, write: (s: string) => (t.writes.push(s), events.push(s.includes("runs done") ? "draw" : "clear")) }, () => clock, {}),
        onResult: (i) => events.push(`result ${i}`),
      },
    );
    expect(results.map((r) => r.workload)).toEqual(["w0", "w1", "w2"]);
    expect(t.writes.some((w) => /\r\x1b\[Ksiglab: 3\/3 runs done/.test(w))).toBe(true);
    expect(events.filter((e) => e.startsWith("result"))).toEqual(["result 0", "result 1", "result 2"]);
    // every result is preceded by a cleared line, and the line is gone at the end
    for (const [k, e] of events.entries()) if (e.startsWith("result") && k > 0 && events[k - 1] === "draw") throw new Error(`${e} written over the progress line`);
    expect(events.at(-1)).toBe("clear");
  });

  it("writes nothing at the start of a command off a terminal or for a single run", async () => {
    const writes: string[] = [];
    const p = new ProgressLine(5, { isTTY: false, write: (s: string) => writes.push(s) }, undefined, {});
    p.update(1, 1, true);
    p.clear();
    const q = new ProgressLine(1, { isTTY: true, write: (s: string) => writes.push(s) }, undefined, {});
    q.update(1, 0, true);
    expect(writes).toEqual([]);
  });
});

describe("the CLI", () => {
  it("run --json --jobs 2 --shard 2/3 prints the slice's runs as one at a time would, in run order, and nothing on stderr off a terminal", async () => {
    // every run one at a time, in this process: what --jobs 1 computes
    const one = await runExperimentArgs("lat_syscall", { cpu: ["p4-northwood@2200", "p6-coppermine@1000"], baseline: true, variant: "sysenter", sweep: "iterations=100,200", jobs: 1 });
    stopSandbox();
    const b = siglab(["run", "lat_syscall", "--cpu", "p4-northwood@2200", "--cpu", "p6-coppermine@1000", "--baseline", "--variant", "sysenter", "--sweep", "iterations=100,200", "--json", "--jobs", "2", "--shard", "2/3"]);
    expect(b.code, b.err).toBe(0);
    expect(b.err).toBe("");
    expect(b.out).toBe(JSON.stringify({ shard: { index: 2, count: 3, totalRuns: 8, runs: [2, 5, 8] }, runs: [one[1], one[4], one[7]] }, null, 2) + "\n");
  }, 240_000);

  it("suite examples takes --jobs and --shard; other suites refuse them", async () => {
    const cli = cac("siglab");
    registerUmlSuite();
    registerSuiteCommand(cli);
    const suite = async (args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const w = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
      const e = vi.spyOn(console, "error").mockImplementation((s) => void err.push(String(s)));
      try {
        cli.parse(["node", "siglab", "suite", ...args], { run: false });
        await cli.runMatchedCommand();
      } finally {
        w.mockRestore();
        e.mockRestore();
      }
      const code = Number(process.exitCode ?? 0);
      process.exitCode = 0;
      return { code, out: out.join(""), err: err.join("\n") };
    };
    // the suite's runs: the core's examples, then the built-in plugins' (their list grows, so the
    // slice is the one of 11 that holds linux6_altstack)
    const shipped = [...EXAMPLES.map((e) => e.id), ...BUILTIN_PLUGINS.flatMap((p) => (p.examples ?? []).map((e) => e.id))];
    const at = shipped.indexOf("linux6_altstack");
    expect(at).toBeGreaterThanOrEqual(EXAMPLES.length);
    const index = (at % 11) + 1;
    const runs = shipped.map((_, k) => k + 1).filter((n) => (n - 1) % 11 === index - 1);
    const a = await suite(["examples", "--json", "--shard", `${index}/11`, "--jobs", "2"]);
    expect(a.code, a.err).toBe(0);
    const doc = JSON.parse(a.out) as { shard: { runs: number[]; totalRuns: number }; runs: RunResult[] };
    expect(doc.shard.totalRuns).toBe(shipped.length);
    expect(doc.shard.runs).toEqual(runs); // round-robin: index, index + 11, ...
    expect(doc.runs.map((r) => r.workload)).toEqual(runs.map((n) => shipped[n - 1]));
    // an example made for another CPU (linux6's need long mode) runs on it
    const altstack = doc.runs[runs.indexOf(at + 1)]!;
    expect(altstack.cpu.id).toBe("skylake-x"); // its AVX-512 frame overflows a MINSIGSTKSZ altstack
    expect(altstack.findings.map((f) => f.kind)).toContain("sigaltstack-overflow");
    const u = await suite(["uml", "--jobs", "2"]);
    expect(u.code).toBe(2);
    expect(u.err).toMatch(/siglab: --jobs has no effect on suite uml \(it runs its runs one after another; --jobs and --shard apply to suite examples\)/);
    const z = await suite(["examples", "--shard", "12/11"]);
    expect(z.code).toBe(2);
    expect(z.err).toMatch(/siglab: --shard: expected i\/n/);
  }, 240_000);

  it.skipIf(process.platform !== "linux")("with --jobs 2 every host process is locked down like the one host, and all die with the CLI", async () => {
    const spin = join(root, "spin.ts");
    writeFileSync(spin, `import { workload } from "siglab";\nexport default workload({ name: "spin", params: { spin: 1 }, *main(t, { spin }) { yield* t.getpid(); if (spin) for (;;) {} } });\n`);
    const cli = spawn(process.execPath, [BIN, "run", spin, "--sweep", "spin=1,1,1", "--jobs", "2", "--max-seconds", "90"], { cwd: ROOT, env: { ...process.env, SIGLAB_JOBS_TEST_SECRET: "s3cret" }, stdio: "ignore" });
    const hostsOf = (pid: number): { pid: number; cmd: string }[] => {
      const kids = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).map(Number);
      return kids.flatMap((k) => {
        let cmd = "";
        try {
          cmd = readFileSync(`/proc/${k}/cmdline`, "utf8").split("\0").join(" ");
        } catch {
          return [];
        }
        return [...(cmd.includes("siglab-host") && cmd.includes("child.mjs") ? [{ pid: k, cmd }] : []), ...hostsOf(k)];
      });
    };
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    try {
      let hosts: { pid: number; cmd: string }[] = [];
      for (let t = Date.now(); hosts.length < 2 && Date.now() - t < 90_000; ) {
        await new Promise((r) => setTimeout(r, 200));
        hosts = hostsOf(cli.pid!);
      }
      // two runs in flight, two host processes (the third run waits for one of them)
      expect(hosts).toHaveLength(2);
      for (const h of hosts) {
        const names = readFileSync(`/proc/${h.pid}/environ`, "utf8").split("\0").filter(Boolean).map((kv) => kv.split("=")[0]);
        expect(names.filter((n) => n !== "NODE_CHANNEL_FD" && n !== "NODE_CHANNEL_SERIALIZATION_MODE")).toEqual([]);
        expect(h.cmd).toContain("--experimental-permission");
        expect(h.cmd).not.toMatch(/--allow-child-process|--allow-fs-write|--allow-addons|--allow-wasi/);
        for (const m of h.cmd.matchAll(/--allow-fs-read=(\S+)/g)) expect(m[1]).toMatch(/siglab-host/);
      }
      cli.kill("SIGTERM");
      for (let t = Date.now(); hosts.some((h) => alive(h.pid)) && Date.now() - t < 15_000; ) await new Promise((r) => setTimeout(r, 200));
      expect(hosts.filter((h) => alive(h.pid))).toEqual([]);
    } finally {
      cli.kill("SIGKILL");
    }
  }, 240_000);
});
