/**
 * The execution host as the CLI runs it (spawned for real: the CLI bundle built from apps/cli/src
 * for this test run, `node <siglabBin>`, and once the workspace script `pnpm -s siglab ...`): an empty
 * environment in each sandbox process and nothing of the CLI's environment in any output; a bundle
 * cannot raise its own budget above the local limit and cannot expand into a run bomb; the sandbox
 * processes die with the CLI; bad seeds are refused; crashing workloads never print a raw Node/V8
 * stack trace. (The network: network.test.ts.)
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEntries, manifestFor, zipEntries } from "../packages/core/src/bundle/write.js";
import { BUILTIN_PROFILE_FILES } from "../packages/cpu-profiles/src/index.js";
import { BIN, killStarted, RAW_TRACE, siglab as spawnSiglab } from "./cli-process.js";

const SECRET = `siglab-secret-${randomBytes(8).toString("hex")}`;
const dir = mkdtempSync(join(tmpdir(), "siglab-security-"));
/** the CLI with SIGLAB_TEST_SECRET in its environment (see cli-process.ts) */
const siglab = (args: string[], via: "bin" | "pnpm" = "bin") => spawnSiglab(args, { via, env: { SIGLAB_TEST_SECRET: SECRET } });

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function cmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return undefined;
  }
}

/** Every process below `pid` (recursively), with its command line. */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  const r = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" });
  for (const line of r.stdout.split("\n").filter(Boolean)) {
    const child = Number(line);
    const cmd = cmdline(child);
    if (cmd === undefined) continue;
    out.push({ pid: child, cmd }, ...descendants(child));
  }
  return out;
}

/** a sandbox process (host/node/child.ts, bundled into the siglab-host cache) */
const isSandboxProcess = (cmd: string) => cmd.includes("siglab-host") && cmd.includes("child.mjs");
const isCliProcess = (cmd: string) => (cmd.includes("apps/cli/src/main.ts") || cmd.includes(BIN)) && !cmd.startsWith("sh ");

/** `pid` and every process below it */
const tree = (pid: number) => [{ pid, cmd: cmdline(pid) ?? "" }, ...descendants(pid)];

async function waitFor<T>(f: () => T | undefined, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** true while `pid` exists and is not a zombie */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

/** per-test timeout: a test may wait for a CLI slot, and the CLI's start-up is slow on a busy machine */
const LONG = 240_000;

// ---------------------------------------------------------------------------------------------

const SPIN = file(
  "spin.ts",
  `import { workload } from "siglab";
export default workload({
  name: "spin",
  params: { spin: 1 },
  *main(t, { spin }) {
    yield* t.getpid();
    if (spin) for (;;) {}
    t.report("done", 1, "");
  },
});
`,
);

afterAll(() => {
  // whatever a failed test left behind: each CLI's own process group (pnpm, the CLI, its sandboxes)
  killStarted();
  rmSync(dir, { recursive: true, force: true });
});

describe.concurrent("the CLI's execution host", () => {
  // SIGTERM through the workspace script (pnpm, then the CLI's own node process under tsx); SIGKILL
  // to the CLI bundle's node process
  for (const [sig, via] of [["SIGTERM", "pnpm"], ["SIGKILL", "bin"]] as const) {
    it(`the sandbox process has an empty environment, no extra permissions, and dies with the CLI (${sig}, ${via === "pnpm" ? "pnpm -s siglab" : "the built CLI"})`, async () => {
      const run = siglab(["run", SPIN, "--max-seconds", "90"], via);
      const child = await run.child;
      const host = await waitFor(() => descendants(child.pid!).find((d) => isSandboxProcess(d.cmd)), 90_000, "the sandbox process");
      const cli = tree(child.pid!).find((d) => isCliProcess(d.cmd));
      expect(cli, "the CLI's node process").toBeDefined();
      // the CLI itself has the secret (so the check below can fail) ...
      expect(readFileSync(`/proc/${cli!.pid}/environ`, "utf8")).toContain(SECRET);
      // ... the sandbox process has no environment: nothing but the IPC channel Node's fork() adds itself
      const environ = readFileSync(`/proc/${host.pid}/environ`, "utf8");
      expect(environ).not.toContain(SECRET);
      const names = environ.split("\0").filter(Boolean).map((kv) => kv.split("=")[0]);
      expect(names.filter((n) => n !== "NODE_CHANNEL_FD" && n !== "NODE_CHANNEL_SERIALIZATION_MODE")).toEqual([]);
      expect(host.cmd).toContain("--experimental-permission");
      expect(host.cmd).not.toMatch(/--allow-child-process|--allow-fs-write|--allow-addons|--allow-wasi/);
      // file reads: only the sandbox's own code bundle, never everything
      const reads = [...host.cmd.matchAll(/--allow-fs-read=(\S+)/g)].map((m) => m[1]!);
      expect(reads.length).toBeGreaterThan(0);
      for (const r of reads) expect(r).toMatch(/siglab-host/);
      // the workload is spinning in the host; kill the CLI
      process.kill(cli!.pid, sig);
      await waitFor(() => (alive(host.pid) ? undefined : true), 15_000, `the sandbox process ${host.pid} to exit after the CLI got ${sig}`);
      await run.done;
    }, LONG);
  }

  it("nothing of the CLI's environment reaches a workload or any output (--json and --verbose)", async () => {
    const probe = file(
      "env-probe.ts",
      `// @ts-nocheck
import { workload } from "siglab";
const found: string[] = [];
const G: any = globalThis;
const collect = (v: any) => { try { const s = typeof v === "string" ? v : JSON.stringify(v); if (s) found.push(s.slice(0, 5000)); } catch {} };
for (const f of [() => process.env, () => G.process.env, () => require("process").env, () => (require as any).constructor("return process")().env,
  () => Function("return this")().process.env, () => module.constructor.constructor("return process")().env, () => new Error("x").stack,
  () => Object.getOwnPropertyNames(G), () => G.Deno.env.toObject(), () => G.navigator.userAgent, () => G.location.href]) {
  try { collect(f()); } catch (e) { collect(String(e && e.message)); }
}
export default workload({ name: "env", params: {}, *main(t) {
  let caught: any = null;
  try { yield* t.kill("x" as any, 1); } catch (e) { caught = e; }
  collect(caught && caught.stack);
  for (const s of found) t.log(s);
  t.report("probes", found.length, "");
  throw new Error("env probe: " + found.join(" | ").slice(0, 500));
} });
`,
    );
    const r = await siglab(["run", probe, "--json", "--verbose"]).done;
    expect(r.out + r.err).toMatch(/env probe/); // the workload ran
    expect(r.out + r.err).not.toContain(SECRET);
    expect(r.out + r.err).not.toContain("SIGLAB_TEST_SECRET");
  }, LONG);

  // network: security/network.test.ts (a workload, a bundle and a plugin against a loopback listener)

  describe("bundles", () => {
    const profiles = BUILTIN_PROFILE_FILES.filter((p) => p.id === "p4-northwood");
    const experiment = {
      workload: { id: "spin", file: "spin.ts", source: readFileSync(SPIN, "utf8") },
      cpus: [{ id: "p4-northwood", mhz: 2200 }],
      stacks: [[]],
      params: { spin: 1 },
      seed: 1,
      // the bundle asks for 2^31 ms of host time and switches the other limits off
      budget: { maxHostMs: 2 ** 31, maxSteps: 1e15, maxCycles: 1e300 },
    };
    const createdAt = "2026-12-01T00:00:00.000Z";
    const write = (name: string, exp: object): string => {
      const files = buildEntries({ experiment: experiment as never, profiles, plugins: [], results: [], appVersion: "0.1.0", createdAt });
      files.set("experiment.json", new TextEncoder().encode(JSON.stringify({ ...exp, workload: { id: "spin", file: "spin.ts", entry: "workloads/spin.ts" } })));
      files.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifestFor(files, "0.1.0", createdAt))));
      const p = join(dir, name);
      writeFileSync(p, zipEntries(files, createdAt));
      return p;
    };

    it("a bundle asking for maxHostMs 2^31 with a runaway workload is stopped at the local limit (bundle run --max-seconds)", async () => {
      const b = write("runaway.siglab", experiment);
      const r = await siglab(["bundle", "run", b, "--max-seconds", "3"]).done;
      expect(r.code).not.toBe(0);
      expect(r.out + r.err).toMatch(/stopped after 3 s of host time/);
      expect(r.out + r.err).not.toMatch(RAW_TRACE);
      expect(r.ms).toBeLessThan(90_000);
    }, LONG);

    it("a 2000 x 2000 x 2000 experiment in a small bundle is refused before it is expanded", async () => {
      const cpus = Array.from({ length: 2000 }, () => ({ id: "p4-northwood", mhz: 2200 }));
      const bomb = { ...experiment, params: { spin: 0 }, cpus, stacks: Array.from({ length: 2000 }, () => []), sweep: { param: "spin", values: Array.from({ length: 2000 }, () => 0) } };
      const b = write("bomb.siglab", bomb);
      const r = await siglab(["bundle", "verify", b]).done;
      expect(r.code).toBe(2);
      expect(r.out + r.err).toMatch(/8,000,000,000 runs|over the limit/);
      expect(r.out + r.err).not.toMatch(RAW_TRACE);
    }, LONG);
  });

  it("invalid seeds are refused (2^32, 1e300)", async () => {
    const rs = await Promise.all(["4294967296", "1e300"].map((s) => siglab(["run", "lat_syscall", "--param", "iterations=10", `--seed=${s}`]).done));
    for (const r of rs) {
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--seed: expected an unsigned 32-bit integer/);
    }
  }, LONG);

  it("crashing workloads never print a raw Node/V8 stack trace", async () => {
    const crash = file(
      "crash.ts",
      `// @ts-nocheck
import { workload, SIGUSR1 } from "siglab";
const p = () => new Proxy(function () {}, { get() { throw new Error("trap"); }, getOwnPropertyDescriptor() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); }, has() { throw new Error("trap"); }, ownKeys() { throw new Error("trap"); } });
export default workload({ name: "crash", params: { mode: 0 }, *main(t, { mode }) {
  yield* t.getpid();
  if (mode === 1) throw new Error("plain error");
  if (mode === 2) throw p();
  if (mode === 3) { yield* t.sigaction(SIGUSR1, function* () { throw p(); }); yield* t.kill(t.pid, SIGUSR1); }
  if (mode === 4) { const f = (): number => f() + 1; f(); }
  if (mode === 5) require("fs");
  if (mode === 6) { Promise.reject(new Error("unhandled")); import("node:fs"); }
  if (mode === 7) yield* t.kill("x", 1);
  if (mode === 8) { const g = t.getpid(); yield* t.clone(function* () { g.next(); return 0; }); yield* t.nanosleep(1e6); }
  if (mode === 9) { throw { message: { toString() { throw new Error("x"); } } }; }
  if (mode === 10) { const keep = []; for (;;) { keep.push(new Array(100000).fill(keep.length)); if (keep.length % 64 === 0) yield* t.getpid(); } }
} });
`,
    );
    const top = file("top-throw.ts", `// @ts-nocheck\nimport { workload } from "siglab";\nthrow new TypeError("at the top level");\nexport default workload({ name: "x", params: {}, *main(t) {} });\n`);
    const spinTop = file("spin-top.ts", `// @ts-nocheck\nimport { workload } from "siglab";\nfor (;;) {}\nexport default workload({ name: "x", params: {}, *main(t) {} });\n`);
    const rs = await Promise.all([
      siglab(["run", crash, "--sweep", "mode=1,2,3,4,5,6,7,8,9,10", "--max-memory", "256", "--max-seconds", "20"]).done,
      siglab(["run", top]).done,
      siglab(["run", spinTop, "--json"]).done,
    ]);
    const [sweep, topR, spinR] = rs;
    expect(sweep!.code).toBe(1);
    expect(sweep!.out).toMatch(/plain error/);
    expect(sweep!.out + sweep!.err).toMatch(/memory budget|host time/);
    expect(topR!.out + topR!.err).toMatch(/at the top level/);
    expect(spinR!.out).toMatch(/module evaluation stopped/);
    for (const r of rs) {
      expect(r.code).not.toBe(0);
      expect(r.out + r.err, "a raw stack trace in the output").not.toMatch(RAW_TRACE);
      expect(r.err).not.toMatch(/node:internal|triggerUncaughtException|Error: .*\n\s+at /);
    }
  }, LONG);
});
