/**
 * The Node execution host's sandboxes: each one a process of its own (child.ts, with the sandbox
 * worker thread inside), so that nothing foreign code does to V8 — an allocation past the heap
 * limit aborts the whole process — can take the host down. This adapts such a process to the
 * supervisor's SandboxWorker: messages both ways, and one line for the user when it dies.
 *
 * A sandbox process starts with an empty environment and Node's permission model: read access to
 * the host's own bundle, one worker thread, no child processes, no file writes, no addons.
 */
import { fork, type ChildProcess } from "node:child_process";
import type { BlameQuery, ToSandbox } from "../protocol.js";
import type { SandboxWorker, SandboxWorkerEvents } from "../supervisor.js";
import type { FromSandboxProcess } from "./child.js";
import { fatalMemoryReason } from "./memory.js";

export interface HostBundle {
  dir: string;
  /** the sandbox process's main thread (child.ts) */
  child: string;
  /** the sandbox worker thread (the worker entry: lockdown, simulator, built-in plugins) */
  worker: string;
}

export interface SandboxProcessOptions {
  bundle(): Promise<HostBundle>;
  memoryMb: number;
  /** print the process's diagnostics (stderr) instead of keeping only their end */
  verbose: boolean;
}

const START_MS = 30_000;
/** how long a run over budget waits for the sandbox process to say which plugin code was running */
const BLAME_MS = 500;
/** the end of a process's stderr kept for the message when it dies (V8's last words) */
const STDERR_TAIL = 16_000;

/** every sandbox process of this process: none outlives it */
const live = new Set<ChildProcess>();
let exitHook = false;
function track(c: ChildProcess): void {
  live.add(c);
  c.once("exit", () => live.delete(c));
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const p of live) p.kill("SIGKILL");
  });
}

/**
 * One sandbox process. It starts at once; what it reports waits until `attach` names who hears it
 * (a spare started ahead of the run that will claim it).
 */
export class SandboxProcess implements SandboxWorker {
  private child: ChildProcess | null = null;
  /** terminated by the supervisor, or dead: nothing more is reported */
  private over = false;
  private stderr = "";
  private peakMb: number | undefined;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private events: SandboxWorkerEvents | null = null;
  private readonly waiting: ((e: SandboxWorkerEvents) => void)[] = [];

  constructor(private readonly opts: SandboxProcessOptions) {
    opts.bundle().then(
      (b) => this.spawn(b),
      (e: Error) => this.die(`the execution host could not build its sandbox: ${e.message}`, "internal"),
    );
  }

  /** Whether it died before anyone claimed it. */
  get dead(): boolean {
    return this.over;
  }

  /**
   * From now on `events` hears what the sandbox reports; what it reported before comes after this
   * returns (the supervisor holds the worker by then).
   */
  attach(events: SandboxWorkerEvents): this {
    const earlier = this.waiting.splice(0);
    queueMicrotask(() => {
      for (const f of earlier) f(events);
      this.events = events;
      for (const f of this.waiting.splice(0)) f(events);
    });
    return this;
  }

  post(m: ToSandbox): void {
    try {
      this.child?.send(m);
    } catch {
      /* the process is gone: its close event reports it */
    }
  }

  terminate(): void {
    this.over = true;
    this.kill();
  }

  /** who answers the blame query under way */
  private blamed: ((where: string | null) => void) | null = null;

  /**
   * Which plugin code the stuck worker is in ("plugin 'id' (Hook)"), or null (none, or no answer
   * within `waitMs`: the process's main thread relays it while the worker loops).
   */
  blame(waitMs = BLAME_MS): Promise<string | null> {
    const c = this.child;
    if (!c || this.over || this.blamed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => answer(null), waitMs);
      const answer = (where: string | null) => {
        clearTimeout(timer);
        this.blamed = null;
        resolve(where);
      };
      this.blamed = answer;
      try {
        c.send({ type: "blame" } satisfies BlameQuery);
      } catch {
        answer(null);
      }
    });
  }

  private tell(f: (e: SandboxWorkerEvents) => void): void {
    if (this.events) f(this.events);
    else this.waiting.push(f);
  }

  private kill(): void {
    clearTimeout(this.startTimer);
    const c = this.child;
    if (c && c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  }

  private die(reason: string, kind: "budget" | "internal"): void {
    if (this.over) return;
    this.over = true;
    this.kill();
    this.tell((e) => e.died(reason, kind));
  }

  private spawn(b: HostBundle): void {
    if (this.over) return;
    const opts = this.opts;
    const c = fork(b.child, [b.worker, String(opts.memoryMb)], {
      execPath: process.execPath,
      // --single-threaded-gc: with --jobs N there are N sandboxes, one run each, on N cores; V8's
      // parallel GC helper threads would only compete with the other runs (a 2-core sweep: 5.9-7.4
      // -> 6.9-8.4 runs/s with --jobs 2, --jobs 1 unchanged, in alternating `pnpm bench sweep` runs).
      // No --max-old-space-size: it would override the worker's own heap limit (resourceLimits).
      execArgv: ["--experimental-permission", `--allow-fs-read=${b.dir}${process.platform === "win32" ? "\\*" : "/*"}`, "--allow-worker", "--no-warnings", "--single-threaded-gc"],
      env: {},
      cwd: b.dir,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    this.child = c;
    track(c);
    this.startTimer = setTimeout(() => this.die(`the sandbox did not start within ${START_MS / 1000} s`, "internal"), START_MS);
    c.stderr?.setEncoding("utf8");
    c.stderr?.on("data", (d: string) => {
      if (opts.verbose) process.stderr.write(d);
      this.stderr = (this.stderr + d).slice(-STDERR_TAIL);
    });
    c.on("message", (m: FromSandboxProcess) => {
      if (m.type === "blame") this.blamed?.(m.where);
      else if (m.type === "peak") this.peakMb = m.mb;
      else if (m.type === "died") this.die(m.reason, m.kind);
      else if (!this.over) {
        if (m.type === "ready") clearTimeout(this.startTimer);
        this.tell((e) => e.message(m));
      }
    });
    c.on("error", (e) => this.die(`the sandbox process failed: ${e.message}`, "internal"));
    // "close": the process is gone and its stderr read to the end
    c.on("close", (code, signal) => {
      const memory = fatalMemoryReason(this.stderr, opts.memoryMb, this.peakMb);
      if (memory) this.die(memory, "budget");
      else this.die(`the sandbox process stopped (${signal ?? `exit code ${code}`})${opts.verbose ? "" : "; run with --verbose for its diagnostics"}`, "internal");
    });
  }
}

/**
 * The sandboxes of one host. A run with third-party plugin code gets a sandbox of its own, so
 * after one such start a spare is started at once, for the next such run (a sweep with a plugin
 * waits for no start but the first).
 */
export class SandboxProcesses {
  private spare: SandboxProcess | null = null;

  constructor(private readonly opts: SandboxProcessOptions) {}

  start(events: SandboxWorkerEvents, hint: { fresh?: boolean } = {}): SandboxWorker {
    const claimed = this.spare && !this.spare.dead ? this.spare : new SandboxProcess(this.opts);
    this.spare = hint.fresh ? new SandboxProcess(this.opts) : null;
    return claimed.attach(events);
  }

  /** Stops the spare (the supervisor stops the sandboxes it holds). */
  close(): void {
    this.spare?.terminate();
    this.spare = null;
  }
}
