/**
 * The execution host as a Node program uses it (the CLI, serve's tests, calibration, bench): the
 * supervisor (budgets of host time, one request at a time per sandbox) runs here, in the caller's
 * process, and every sandbox is a process of its own (sandbox-process.ts, child.ts) started with an
 * empty environment and Node's permission model. A sandbox that dies — even of a V8 abort — ends
 * its run with a one-line error; the host and the next run go on. This side bundles the sandbox's
 * code once (esbuild; cached by a fingerprint of the sources) and transpiles workloads
 * (TypeScript -> CommonJS) before they cross.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunProgress, RunResult } from "../../common/results.js";
import { DEFAULT_HOST_LIMITS, type HostLimits } from "../limits.js";
import type { WorkloadInfo } from "../protocol.js";
import { originalPosition } from "../source-map.js";
import { errorResult, Supervisor, type RunRequest } from "../supervisor.js";
import { SandboxProcesses, type HostBundle } from "./sandbox-process.js";

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

export class NodeExecutionHost {
  readonly limits: HostLimits;
  private supervisor: Supervisor | null = null;
  private processes: SandboxProcesses | null = null;

  constructor(private readonly opts: NodeHostOptions) {
    this.limits = { ...DEFAULT_HOST_LIMITS, ...opts.limits };
  }

  /** Runs one spec in a sandbox; any failure comes back as an error result. */
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
    const result = await this.sandboxes().run({ ...req, js }, onProgress);
    return map ? withSourceLine(result, map) : result;
  }

  /** A workload's name, description and default parameters (evaluated in a sandbox). */
  async inspect(file: string, source: string): Promise<WorkloadInfo> {
    const t = this.opts.transpile(source, file);
    return this.sandboxes().inspect(file, source, typeof t === "string" ? t : t.js);
  }

  /** Stops every sandbox process (pending calls end with an error); a later call starts new ones. */
  close(): void {
    this.supervisor?.close();
    this.processes?.close();
    this.supervisor = null;
    this.processes = null;
  }

  private sandboxes(): Supervisor {
    if (this.supervisor) return this.supervisor;
    const workerEntry = resolve(this.opts.workerEntry);
    const processes = (this.processes = new SandboxProcesses({ bundle: () => bundle(workerEntry), memoryMb: this.limits.memoryMb, verbose: this.opts.verbose === true }));
    return (this.supervisor = new Supervisor((events, hint) => processes.start(events, hint), this.limits));
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

