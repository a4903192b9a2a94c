/**
 * A sandbox process on Node: started by the execution host (host.ts, sandbox-process.ts) with an
 * empty environment and Node's permission model (read access to its own bundle only, no child
 * processes, no file writes; one worker thread). Its main thread only relays messages and watches
 * memory: foreign code runs in one worker thread (worker.ts) with the run's heap limit
 * (`resourceLimits`). A memory overrun that V8 cannot survive (one allocation past the heap limit
 * aborts the whole process) ends this process and nothing else: the host that started it reports
 * a budget error for the run and starts another sandbox for the next one.
 *
 * argv: <worker bundle file> <memory budget in MiB>
 */
import { Worker } from "node:worker_threads";
import type { BlameAnswer, BlameQuery, FromSandbox, ToSandbox } from "../protocol.js";
import { rssCapMb } from "./memory.js";

/** What this process tells its host besides the sandbox's own messages. */
export type FromSandboxProcess =
  | Exclude<FromSandbox, { type: "label" }>
  | BlameAnswer
  | { type: "died"; kind: "budget" | "internal"; reason: string }
  /** the process's peak resident memory so far (MiB), sent as it grows: the last figure a host has if the process is killed */
  | { type: "peak"; mb: number };

const workerFile = process.argv[2]!;
const memoryMb = Number(process.argv[3]);
const send = (m: FromSandboxProcess): void => {
  process.send?.(m);
};

// the sandbox lives only as long as the host that started it
process.on("disconnect", () => process.exit(0));

// which plugin code the worker runs (mark.ts): read here when the host asks, while the worker is stuck
const mark = new Int32Array(new SharedArrayBuffer(4));
const labels: string[] = [];

const worker = new Worker(workerFile, {
  workerData: { memoryMb, mark: mark.buffer },
  resourceLimits: { maxOldGenerationSizeMb: memoryMb, stackSizeMb: 8 },
  env: {},
  stdout: true,
  stderr: true,
});
// nothing foreign code prints reaches the terminal (it has no console); host diagnostics are dropped
worker.stdout.resume();
worker.stderr.resume();

const peakMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
let gone = false;
/** the sandbox is over: say why, and leave (the host starts another one) */
function died(kind: "budget" | "internal", reason: string): void {
  if (gone) return;
  gone = true;
  send({ type: "died", kind, reason });
  // the host kills this process once it has the reason; exit by ourselves if it does not
  setTimeout(() => process.exit(1), 2000).unref();
}

worker.on("message", (m: FromSandbox) => {
  if (m.type === "label") labels.push(m.text);
  else send(m);
});
worker.on("error", (e: Error & { code?: string }) => {
  if (e.code === "ERR_WORKER_OUT_OF_MEMORY") died("budget", `memory budget exceeded: the sandbox's heap reached its limit of ${memoryMb} MiB (--max-memory); the sandbox process's peak resident memory was ${peakMb()} MiB`);
  else died("internal", `the sandbox stopped: ${e.message.split("\n")[0]}`);
});
worker.on("exit", (code) => died("internal", `the sandbox exited (code ${code})`));
process.on("message", (m: ToSandbox | BlameQuery) => {
  if (m.type === "blame") {
    const running = Atomics.load(mark, 0);
    send({ type: "blame", where: running > 0 ? labels[running - 1] ?? "a plugin's code" : null });
  } else worker.postMessage(m);
});

// Memory the worker's own checks cannot see in time (ArrayBuffers filled at a module's top level,
// between two steps): this process's resident size, measured from this thread while the worker
// runs. The host kills the process when it hears of it.
const cap = rssCapMb(memoryMb);
let reported = 0;
setInterval(() => {
  const rss = Math.round(process.memoryUsage.rss() / 1048576);
  if (rss > cap) died("budget", `memory budget exceeded: the sandbox process's resident memory reached ${rss} MiB, over the ${cap} MiB allowed for a limit of ${memoryMb} MiB (--max-memory)`);
  const peak = peakMb();
  if (peak >= reported + 64) send({ type: "peak", mb: (reported = peak) });
}, 100).unref();
