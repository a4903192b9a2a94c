/**
 * The execution host's process on Node: started by NodeExecutionHost (host.ts) with an empty
 * environment and Node's permission model (read access to its own bundle only, no child
 * processes, no file writes; worker threads for its sandboxes). Its main thread only supervises:
 * foreign code runs in worker threads (worker.ts) that it terminates on a budget. It exits when
 * its parent goes away.
 *
 * argv: <worker bundle file> <limits JSON>
 */
import { Worker } from "node:worker_threads";
import type { HostLimits } from "../limits.js";
import type { FromSandbox, ToSandbox, WorkloadInfo } from "../protocol.js";
import { Supervisor, type RunRequest, type SandboxWorker, type SandboxWorkerEvents } from "../supervisor.js";
import type { RunProgress, RunResult } from "../../common/results.js";

export type ToHostProcess =
  | { type: "run"; id: number; req: RunRequest }
  | { type: "inspect"; id: number; file: string; source: string; js?: string };

export type FromHostProcess =
  | { type: "ready" }
  | { type: "progress"; id: number; progress: RunProgress }
  | { type: "result"; id: number; result: RunResult }
  | { type: "inspected"; id: number; ok: true; info: WorkloadInfo }
  | { type: "inspected"; id: number; ok: false; error: string };

const workerFile = process.argv[2]!;
const limits = JSON.parse(process.argv[3] ?? "{}") as HostLimits;
const send = (m: FromHostProcess): void => {
  process.send?.(m);
};

// the host lives only as long as the command that started it
process.on("disconnect", () => process.exit(0));

/** kill switches of the running workers (for the memory backstop) */
const live = new Set<(reason: string) => void>();

function nodeWorker(events: SandboxWorkerEvents): SandboxWorker {
  const w = new Worker(workerFile, {
    workerData: { memoryMb: limits.memoryMb },
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, stackSizeMb: 8 },
    env: {},
    stdout: true,
    stderr: true,
  });
  const kill = (reason: string): void => {
    void w.terminate();
    died(reason, "budget");
  };
  live.add(kill);
  // nothing foreign code prints reaches the terminal (it has no console); host diagnostics are dropped
  w.stdout.resume();
  w.stderr.resume();
  let gone = false;
  const died = (reason: string, kind: "budget" | "internal") => {
    if (gone) return;
    gone = true;
    live.delete(kill);
    events.died(reason, kind);
  };
  w.on("message", (m: FromSandbox) => events.message(m));
  w.on("error", (e: Error & { code?: string }) => {
    if (e.code === "ERR_WORKER_OUT_OF_MEMORY") died(`memory budget exceeded: the sandbox's heap reached ${limits.memoryMb} MiB (--max-memory)`, "budget");
    else died(`the sandbox stopped: ${e.message.split("\n")[0]}`, "internal");
  });
  w.on("exit", (code) => died(`the sandbox exited (code ${code})`, "internal"));
  return {
    post: (m: ToSandbox) => w.postMessage(m),
    terminate: () => {
      gone = true;
      live.delete(kill);
      void w.terminate();
    },
  };
}

// A backstop for memory the workers' own checks cannot see in time: the whole process's RSS. A
// killed worker's memory goes back to the system only some time later: until the RSS is under the
// cap again the backstop waits, so that runs after the culprit are not blamed for its memory.
const rssCap = (limits.memoryMb * 1.5 + 512) * 1024 * 1024;
let armed = true;
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (!armed) {
    armed = rss <= rssCap;
    return;
  }
  if (rss <= rssCap) return;
  armed = false;
  for (const kill of [...live]) kill(`memory budget exceeded: the execution host uses more than ${Math.round(rssCap / 1048576)} MiB (--max-memory)`);
}, 100).unref();

const supervisor = new Supervisor(nodeWorker, limits);

process.on("message", (m: ToHostProcess) => {
  if (m.type === "run") {
    void supervisor.run(m.req, (progress) => send({ type: "progress", id: m.id, progress })).then((result) => send({ type: "result", id: m.id, result }));
  } else if (m.type === "inspect") {
    supervisor.inspect(m.file, m.source, m.js).then(
      (info) => send({ type: "inspected", id: m.id, ok: true, info }),
      (e: Error) => send({ type: "inspected", id: m.id, ok: false, error: e.message }),
    );
  }
});
send({ type: "ready" });
