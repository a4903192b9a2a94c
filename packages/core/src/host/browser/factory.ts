/**
 * The supervisor's side of the execution host in a browser: sandbox workers are dedicated Web
 * Workers (module workers whose entry imports host/lockdown.js first and then calls
 * startBrowserSandboxWorker, see worker.ts). The supervisor (host/supervisor.ts) enforces host time
 * by terminating them; this factory maps what a Worker object can tell about its worker — it failed
 * to load, threw outside any request, or sent something that cannot be deserialised — to `died`,
 * each with a one-line message. The worker is terminated first, so "died" always means "gone".
 *
 * It also closes a gap the supervisor cannot see: promise jobs that foreign code queued run after
 * the worker's message handler. The sandbox posts a run's result only after them (so an endless
 * one is that run's runaway), but an inspection's answer goes out from inside the handler; an
 * endless job (`(async () => { for (;;) await null; })()` at a workload's top level) would then
 * leave a worker that looks idle and never takes the next request. So a request's final message
 * ("result", "inspected") is held until the worker posts IDLE_MESSAGE from a macrotask
 * (worker.ts); a worker that does not within `idleGraceMs` is terminated and that request fails
 * with a budget error — the next request gets a fresh worker.
 */
import type { FromSandbox, ToSandbox } from "../protocol.js";
import type { SandboxWorker, SandboxWorkerFactory } from "../supervisor.js";
import { IDLE_MESSAGE, type IdleMessage } from "./messages.js";

export interface WebWorkerFactoryOptions {
  /**
   * Host milliseconds a worker may keep running foreign code (promise jobs) after it posted a
   * request's final message; then it is terminated and that request fails (default 1000).
   */
  idleGraceMs?: number;
}

/** What this factory uses of a DOM `Worker` (a real Worker satisfies it). */
export interface WebWorkerLike {
  postMessage(message: unknown): void;
  terminate(): void;
  addEventListener(type: "message", listener: (e: { data: unknown }) => void): void;
  addEventListener(type: "error", listener: (e: { message?: string; preventDefault(): void }) => void): void;
  addEventListener(type: "messageerror", listener: (e: { preventDefault(): void }) => void): void;
}

function fmtMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

/** First line of a message, trimmed to a length that fits one line of the UI. */
function oneLine(s: unknown, max = 300): string {
  const line = (typeof s === "string" ? s : "").split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A SandboxWorkerFactory over Web Workers. `create` makes a new dedicated worker running the
 * sandbox entry (e.g. a Vite `?worker` constructor: `() => new SimWorker({ name: "siglab-sim" })`).
 */
export function webWorkerFactory(create: () => WebWorkerLike, opts: WebWorkerFactoryOptions = {}): SandboxWorkerFactory {
  const graceMs = opts.idleGraceMs ?? 1_000;
  return (events): SandboxWorker => {
    let gone = false;
    let worker: WebWorkerLike | null = null;
    /** a request's final message, until the worker is idle */
    let held: FromSandbox | null = null;
    let idleTimer: unknown;
    const died = (reason: string, kind: "budget" | "internal" = "internal"): void => {
      if (gone) return;
      gone = true;
      clearTimeout(idleTimer);
      held = null;
      try {
        worker?.terminate();
      } catch {
        /* already gone */
      }
      events.died(reason, kind);
    };
    try {
      worker = create();
    } catch (e) {
      // reported asynchronously: the supervisor installs the worker it gets back before events arrive
      const reason = `the sandbox worker could not be created: ${oneLine((e as Error)?.message ?? String(e)) || "unknown error"}`;
      queueMicrotask(() => died(reason));
      return { post: () => undefined, terminate: () => void (gone = true) };
    }
    const w = worker;
    w.addEventListener("message", (e) => {
      if (gone) return;
      const m = e.data as FromSandbox | IdleMessage;
      if (m.type === IDLE_MESSAGE) {
        clearTimeout(idleTimer);
        const h = held;
        held = null;
        if (h) events.message(h);
        return;
      }
      if (m.type === "result" || m.type === "inspected") {
        held = m;
        const what = m.type === "result" ? "run" : "inspection";
        idleTimer = setTimeout(() => died(`code the ${what} left running (a promise job that never ends?) was stopped after ${fmtMs(graceMs)} of host time`, "budget"), graceMs);
        return;
      }
      events.message(m);
    });
    w.addEventListener("error", (e) => {
      // handled here: not reported again as an uncaught error of the page
      e.preventDefault();
      // A script that fails to load (network, CSP, a syntax error) or an exception outside any
      // request. Chromium gives no message for a load failure.
      const msg = oneLine(e.message);
      died(msg ? `the sandbox stopped: ${msg}` : "the sandbox worker failed to load or crashed");
    });
    w.addEventListener("messageerror", (e) => {
      e.preventDefault();
      died("the sandbox sent a message that could not be deserialised");
    });
    return {
      post: (m: ToSandbox) => {
        if (!gone) w.postMessage(m);
      },
      terminate: () => {
        gone = true;
        clearTimeout(idleTimer);
        held = null;
        w.terminate();
      },
    };
  };
}
