/**
 * Runs simulations in a separate sandbox process (see sandbox-child.ts), one request at a time,
 * with a host-time budget: a run over budget is killed and reported, the next run gets a fresh
 * process. The CLI never evaluates workload or plugin code in its own process.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunProgress, RunResult, RunSpec } from "@siglab/core";
import type { CpuProfileFile } from "@siglab/cpu-profiles";

const CHILD_SRC = fileURLToPath(new URL("./sandbox-child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * The sandbox runs plain JavaScript: Node's permission model forbids the child processes that a
 * TypeScript loader needs, so the child is bundled once per CLI process (esbuild, ~0.3 s).
 */
async function buildChild(): Promise<string> {
  const { build } = await import("esbuild");
  // inside the CLI package so that the bundle resolves `typescript` from its node_modules
  const cache = join(ROOT, "apps/cli/node_modules/.cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "sandbox-"));
  const outfile = join(dir, "sandbox-child.mjs");
  await build({
    entryPoints: [CHILD_SRC],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    external: ["typescript"],
    absWorkingDir: ROOT,
    tsconfig: join(ROOT, "tsconfig.base.json"),
    logLevel: "error",
  });
  childDir = dir;
  return outfile;
}
let childDir: string | null = null;
let childFile: Promise<string> | null = null;
process.on("exit", () => {
  if (childDir) rmSync(childDir, { recursive: true, force: true });
});
export const DEFAULT_HOST_MS = 10 * 60_000;

export interface SandboxRunOptions {
  pluginDirs?: string[];
  profiles?: CpuProfileFile[];
  onProgress?(p: RunProgress): void;
  /** host wall-clock budget for this run (default 10 min) */
  maxHostMs?: number;
}

let child: ChildProcess | null = null;
let ready: Promise<void> | null = null;
let nextId = 1;
let queue: Promise<unknown> = Promise.resolve();

async function start(): Promise<void> {
  childFile ??= buildChild();
  const file = await childFile;
  child = fork(file, [], {
    execArgv: ["--experimental-permission", "--allow-fs-read=*", "--no-warnings"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "advanced",
  });
  const c = child;
  c.on("exit", () => {
    if (child === c) {
      child = null;
      ready = null;
    }
  });
  return new Promise((resolve, reject) => {
    c.once("message", (m: { type?: string }) => (m?.type === "ready" ? resolve() : reject(new Error("sandbox failed to start"))));
    c.once("error", reject);
  });
}

export function stopSandbox(): void {
  child?.kill("SIGKILL");
  child = null;
  ready = null;
}

function runOne(spec: RunSpec, opts: SandboxRunOptions): Promise<RunResult> {
  return (async () => {
    if (!child || !ready) ready = start();
    await ready;
    const c = child!;
    const id = nextId++;
    return await new Promise<RunResult>((resolve) => {
      const budget = opts.maxHostMs ?? spec.budget?.maxHostMs ?? DEFAULT_HOST_MS;
      const fail = (kind: string, message: string, extra: Partial<NonNullable<RunResult["error"]>> = {}) =>
        resolve({ workload: spec.workload.id, cpu: spec.cpu, variants: spec.variants, params: spec.params, seed: spec.seed, metrics: [], phases: {}, counters: {}, findings: [], totalCycles: 0, simSeconds: 0, paths: [], error: { kind, message, file: spec.workload.file, ...extra } });
      const timer = setTimeout(() => {
        cleanup();
        stopSandbox();
        fail("budget", `${spec.workload.file}: stopped after ${budget} ms of host time (runaway workload?)`);
      }, budget);
      const onMsg = (m: { type: string; id: number; result?: RunResult; progress?: RunProgress; message?: string; file?: string; line?: number; column?: number }) => {
        if (m.id !== id) return;
        if (m.type === "progress" && m.progress) opts.onProgress?.(m.progress);
        else if (m.type === "result") {
          cleanup();
          resolve(m.result!);
        } else if (m.type === "error") {
          cleanup();
          const extra: Partial<NonNullable<RunResult["error"]>> = {};
          if (m.file) extra.file = m.file;
          if (m.line) extra.line = m.line;
          if (m.column) extra.column = m.column;
          fail(m.line ? "compile" : "internal", m.message ?? "sandbox error", extra);
        }
      };
      const onExit = () => {
        cleanup();
        fail("internal", `${spec.workload.file}: the sandbox process died`);
      };
      function cleanup() {
        clearTimeout(timer);
        c.off("message", onMsg);
        c.off("exit", onExit);
      }
      c.on("message", onMsg);
      c.on("exit", onExit);
      c.send({ type: "run", id, spec, pluginDirs: opts.pluginDirs ?? [], profiles: opts.profiles ?? [] });
    });
  })();
}

/** Queue a run in the sandbox process (runs execute one after another). */
export function runInSandbox(spec: RunSpec, opts: SandboxRunOptions = {}): Promise<RunResult> {
  const p = queue.then(() => runOne(spec, opts));
  queue = p.catch(() => undefined);
  return p;
}
