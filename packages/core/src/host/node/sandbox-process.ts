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
import type { ToSandbox } from "../protocol.js";
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

export function startSandboxProcess(opts: SandboxProcessOptions, events: SandboxWorkerEvents): SandboxWorker {
  let child: ChildProcess | null = null;
  /** terminated by the supervisor, or dead: nothing more is reported */
  let over = false;
  let stderr = "";
  let peakMb: number | undefined;
  let startTimer: ReturnType<typeof setTimeout> | undefined;

  const kill = (): void => {
    clearTimeout(startTimer);
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const die = (reason: string, kind: "budget" | "internal"): void => {
    if (over) return;
    over = true;
    kill();
    events.died(reason, kind);
  };

  opts.bundle().then(
    (b) => {
      if (over) return;
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
      child = c;
      track(c);
      startTimer = setTimeout(() => die(`the sandbox did not start within ${START_MS / 1000} s`, "internal"), START_MS);
      c.stderr?.setEncoding("utf8");
      c.stderr?.on("data", (d: string) => {
        if (opts.verbose) process.stderr.write(d);
        stderr = (stderr + d).slice(-STDERR_TAIL);
      });
      c.on("message", (m: FromSandboxProcess) => {
        if (m.type === "peak") peakMb = m.mb;
        else if (m.type === "died") die(m.reason, m.kind);
        else if (!over) {
          if (m.type === "ready") clearTimeout(startTimer);
          events.message(m);
        }
      });
      c.on("error", (e) => die(`the sandbox process failed: ${e.message}`, "internal"));
      // "close": the process is gone and its stderr read to the end
      c.on("close", (code, signal) => {
        const memory = fatalMemoryReason(stderr, opts.memoryMb, peakMb);
        if (memory) die(memory, "budget");
        else die(`the sandbox process stopped (${signal ?? `exit code ${code}`})${opts.verbose ? "" : "; run with --verbose for its diagnostics"}`, "internal");
      });
    },
    (e: Error) => die(`the execution host could not build its sandbox: ${e.message}`, "internal"),
  );

  return {
    post(m: ToSandbox): void {
      try {
        child?.send(m);
      } catch {
        /* the process is gone: its close event reports it */
      }
    },
    terminate(): void {
      over = true;
      kill();
    },
  };
}
