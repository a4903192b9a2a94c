/**
 * The execution host as a Node program uses it (the CLI, serve's tests, calibration, bench): one
 * host process per command (host/node/child.ts), started with an empty environment and Node's
 * permission model, supervising sandbox worker threads. This side bundles the host's code once
 * (esbuild; cached by a fingerprint of the sources), transpiles workloads (TypeScript -> CommonJS)
 * before they cross, and turns every failure into a one-line error result.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunProgress, RunResult } from "../../common/results.js";
import { DEFAULT_HOST_LIMITS, type HostLimits } from "../limits.js";
import type { WorkloadInfo } from "../protocol.js";
import { originalPosition } from "../source-map.js";
import { errorResult, type RunRequest } from "../supervisor.js";
import type { FromHostProcess, ToHostProcess } from "./child.js";

export interface NodeHostOptions {
  /** The sandbox worker's entry module (it locks the realm down and starts the sandbox). */
  workerEntry: string;
  limits?: Partial<HostLimits>;
  /**
   * TypeScript -> CommonJS, optionally with a source map (errors then name TypeScript lines); may
   * throw an error with `line`/`column` (a compile error).
   */
  transpile(source: string, file: string): string | { js: string; map?: string };
  /** Print the host process's own diagnostics (stderr) instead of dropping them. */
  verbose?: boolean;
}

const CHILD_SRC = fileURLToPath(new URL("./child.ts", import.meta.url));
const WORKSPACE = fileURLToPath(new URL("../../../../../", import.meta.url));
const CACHE = join(WORKSPACE, "node_modules", ".cache", "siglab-host");
const SKIP = join(WORKSPACE, "packages", "calibration");

/** path+size+mtime of every source file that goes into the bundle (cheap: no reads). */
function fingerprint(extra: string[]): string {
  const h = createHash("sha256");
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const n of names) {
      if (n === "node_modules" || n === "test" || n === "dist" || n.startsWith(".")) continue;
      const p = join(dir, n);
      if (p === SKIP) continue; // the calibration package never goes into the bundle
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.(ts|js|mjs|cjs|json)$/.test(n)) h.update(`${p}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  walk(join(WORKSPACE, "packages"));
  for (const e of extra) h.update(e);
  h.update(process.version);
  return h.digest("hex").slice(0, 16);
}

type HostBundle = { dir: string; child: string; worker: string };
/** builds under way in this process: host processes started side by side (--jobs) share one */
const building = new Map<string, Promise<HostBundle>>();

/** The host's bundle: built once per source state and reused by every later command. */
async function bundle(workerEntry: string): Promise<HostBundle> {
  const key = fingerprint([workerEntry]);
  const dir = join(CACHE, key);
  const out = { dir, child: join(dir, "child.mjs"), worker: join(dir, "worker.mjs") };
  if (existsSync(out.child) && existsSync(out.worker)) return out;
  let b = building.get(key);
  if (!b) {
    b = buildBundle(key, dir, workerEntry, out).finally(() => building.delete(key));
    building.set(key, b);
  }
  return b;
}

async function buildBundle(key: string, dir: string, workerEntry: string, out: HostBundle): Promise<HostBundle> {
  mkdirSync(CACHE, { recursive: true });
  const tmp = mkdtempSync(join(CACHE, `.build-${key}-`));
  try {
    const { build } = await import("esbuild");
    await build({
      entryPoints: { child: CHILD_SRC, worker: workerEntry },
      outdir: tmp,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      absWorkingDir: WORKSPACE,
      tsconfig: join(WORKSPACE, "tsconfig.base.json"),
      logLevel: "error",
      // CommonJS dependencies inside an ESM bundle still call require() for Node built-ins
      banner: { js: 'import { createRequire as __siglabCreateRequire } from "node:module"; const require = __siglabCreateRequire(import.meta.url);' },
    });
    try {
      renameSync(tmp, dir); // atomic: a concurrent command that built the same key first wins
    } catch {
      rmSync(tmp, { recursive: true, force: true });
    }
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  pruneOld(key);
  return out;
}

/** Keeps the cache to the newest few builds. */
function pruneOld(keep: string): void {
  try {
    const dirs = readdirSync(CACHE)
      .filter((n) => n !== keep)
      .map((n) => ({ n, t: statSync(join(CACHE, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const d of dirs.slice(3)) rmSync(join(CACHE, d.n), { recursive: true, force: true });
  } catch {
    /* another command may be pruning too */
  }
}

interface Waiting {
  onProgress?: (p: RunProgress) => void;
  done(m: FromHostProcess): void;
}

export class NodeExecutionHost {
  readonly limits: HostLimits;
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private stderr = "";

  constructor(private readonly opts: NodeHostOptions) {
    this.limits = { ...DEFAULT_HOST_LIMITS, ...opts.limits };
  }

  /** Runs one spec in the sandbox; any failure comes back as an error result. */
  async run(req: RunRequest, onProgress?: (p: RunProgress) => void): Promise<RunResult> {
    const spec = req.spec;
    let js: string;
    let map: string | undefined;
    try {
      const t = req.js ?? this.opts.transpile(spec.workload.source, spec.workload.file);
      js = typeof t === "string" ? t : t.js;
      if (typeof t !== "string") map = t.map;
    } catch (e) {
      const c = e as Error & { line?: number; column?: number; detail?: string };
      return errorResult(spec, { kind: c.line ? "compile" : "config", message: c.message, file: spec.workload.file, ...(c.line ? { line: c.line } : {}), ...(c.column ? { column: c.column } : {}) });
    }
    const m = await this.call({ type: "run", id: 0, req: { ...req, js } }, onProgress).catch((e: Error) => e);
    if (m instanceof Error) return errorResult(spec, { kind: "internal", message: `${spec.workload.file}: ${m.message}` });
    if (m.type !== "result") return errorResult(spec, { kind: "internal", message: `${spec.workload.file}: ${m.type === "inspected" && !m.ok ? m.error : "no result"}` });
    return map ? withSourceLine(m.result, map) : m.result;
  }

  /** A workload's name, description and default parameters (evaluated in the sandbox). */
  async inspect(file: string, source: string): Promise<WorkloadInfo> {
    const t = this.opts.transpile(source, file);
    const js = typeof t === "string" ? t : t.js;
    const m = (await this.call({ type: "inspect", id: 0, file, source, js })) as Extract<FromHostProcess, { type: "inspected" }>;
    if (!m.ok) throw new Error(m.error);
    return m.info;
  }

  /** Stops the host process (pending calls fail). */
  close(): void {
    const c = this.child;
    this.child = null;
    this.starting = null;
    if (c && c.exitCode === null) c.kill("SIGKILL");
    this.failAll("the execution host was stopped");
  }

  private async call(msg: ToHostProcess, onProgress?: (p: RunProgress) => void): Promise<FromHostProcess> {
    const child = await this.start();
    const id = this.nextId++;
    return new Promise<FromHostProcess>((resolve) => {
      const w: Waiting = { done: resolve };
      if (onProgress) w.onProgress = onProgress;
      this.waiting.set(id, w);
      child.send({ ...msg, id });
    });
  }

  private start(): Promise<ChildProcess> {
    if (this.child && this.child.exitCode === null && this.child.connected) return Promise.resolve(this.child);
    this.starting ??= this.spawn().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async spawn(): Promise<ChildProcess> {
    const b = await bundle(resolve(this.opts.workerEntry));
    // --single-threaded-gc: with --jobs N there are N hosts, one run each, on N cores; V8's parallel
    // GC helper threads would only compete with the other hosts' runs (a 2-core sweep: 5.9-7.4 ->
    // 6.9-8.4 runs/s with --jobs 2, --jobs 1 unchanged, in alternating `pnpm bench sweep` runs)
    const child = fork(b.child, [b.worker, JSON.stringify(this.limits)], {
      execPath: process.execPath,
      execArgv: ["--experimental-permission", `--allow-fs-read=${b.dir}${process.platform === "win32" ? "\\*" : "/*"}`, "--allow-worker", "--no-warnings", "--max-old-space-size=512", "--single-threaded-gc"],
      env: {},
      cwd: b.dir,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    this.child = child;
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (d: string) => {
      if (this.opts.verbose) process.stderr.write(d);
      else this.stderr = (this.stderr + d).slice(-4000);
    });
    child.on("message", (m: FromHostProcess) => {
      if (m.type === "ready") return;
      const w = this.waiting.get(m.id);
      if (!w) return;
      if (m.type === "progress") {
        w.onProgress?.(m.progress);
        return;
      }
      this.waiting.delete(m.id);
      w.done(m);
    });
    child.on("exit", (code, signal) => {
      if (this.child === child) this.child = null;
      this.failAll(`the execution host stopped (${signal ?? `exit code ${code}`})${this.opts.verbose ? "" : "; run with --verbose for its diagnostics"}`);
    });
    // the host process never outlives this one
    const onExit = () => child.kill("SIGKILL");
    process.once("exit", onExit);
    child.once("exit", () => process.off("exit", onExit));
    await new Promise<void>((ok, fail) => {
      const t = setTimeout(() => fail(new Error("the execution host did not start within 30 s")), 30_000);
      child.once("message", () => {
        clearTimeout(t);
        ok();
      });
      child.once("exit", (code) => {
        clearTimeout(t);
        fail(new Error(`the execution host failed to start (exit code ${code})${this.stderr ? `: ${lastLine(this.stderr)}` : ""}`));
      });
    });
    return child;
  }

  private failAll(reason: string): void {
    for (const [id, w] of this.waiting) {
      this.waiting.delete(id);
      w.done({ type: "inspected", id, ok: false, error: reason });
    }
  }
}

/** A workload error's position in the TypeScript source (the sandbox saw the transpiled lines). */
function withSourceLine(r: RunResult, map: string): RunResult {
  const e = r.error;
  if (!e || e.kind !== "workload" || !e.line) return r;
  const pos = originalPosition(map, e.line, e.column ?? 1);
  if (!pos) return r;
  const at = `${e.file}:${pos.line}:${pos.column}`;
  return { ...r, error: { ...e, line: pos.line, column: pos.column, message: e.message.startsWith(`${e.file}: `) ? `${at}: ${e.message.slice(e.file!.length + 2)}` : e.message } };
}

function lastLine(s: string): string {
  return s.trim().split("\n").filter(Boolean).pop() ?? "";
}
