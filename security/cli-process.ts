/**
 * The real CLI as the security suite runs it: `node <siglabBin> <args>` (the CLI bundle built from
 * apps/cli/src for this test run; apps/cli/test/built-cli.setup.ts) or the workspace script
 * `pnpm -s siglab <args>`, from the workspace root, each in a process group of its own that
 * `killStarted()` kills (the CLI and its sandbox processes), a few at a time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { inject } from "vitest";
import { ROOT } from "./harness.js";

export interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
  ms: number;
}

/** the CLI bundle built from apps/cli/src for this test run */
export const BIN = inject("siglabBin");

/** CLI processes at a time (each costs a second or more of CPU to start) */
const PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function slot(): Promise<() => void> {
  if (running >= PARALLEL) await new Promise<void>((r) => waiting.push(r));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

const started: ChildProcess[] = [];

export interface SiglabOptions {
  via?: "bin" | "pnpm";
  env?: Record<string, string>;
  /** killed (SIGKILL, the whole group) after this long; the outcome then has signal SIGKILL */
  timeoutMs?: number;
}

export function siglab(args: string[], o: SiglabOptions = {}): { child: Promise<ChildProcess>; done: Promise<Outcome> } {
  let started_: (c: ChildProcess) => void;
  const child = new Promise<ChildProcess>((r) => (started_ = r));
  const done = (async () => {
    const release = await slot();
    try {
      const t0 = Date.now();
      const [cmd, argv] = o.via === "pnpm" ? ["pnpm", ["-s", "siglab", ...args]] : [process.execPath, [BIN, ...args]];
      const c = spawn(cmd, argv, { cwd: ROOT, detached: true, env: { ...process.env, FORCE_COLOR: "0", ...o.env }, stdio: ["ignore", "pipe", "pipe"] });
      started.push(c);
      started_!(c);
      const timer = o.timeoutMs ? setTimeout(() => killGroup(c), o.timeoutMs) : undefined;
      let out = "", err = "";
      c.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
      c.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
      return await new Promise<Outcome>((resolve) =>
        c.on("close", (code, signal) => {
          clearTimeout(timer);
          resolve({ code, signal, out, err, ms: Date.now() - t0 });
        }),
      );
    } finally {
      release();
    }
  })();
  return { child, done };
}

/** `siglab(args).done` */
export const runSiglab = (args: string[], o: SiglabOptions = {}): Promise<Outcome> => siglab(args, o).done;

function killGroup(c: ChildProcess): void {
  try {
    if (c.pid) process.kill(-c.pid, "SIGKILL");
  } catch {
    /* already gone */
  }
}

/** Kills whatever a test left running: each CLI's process group (afterAll). */
export function killStarted(): void {
  for (const c of started) killGroup(c);
}

/** A raw Node/V8 stack trace line. */
export const RAW_TRACE = /^\s+at .+(\(|:\d+:\d+)/m;
