/**
 * The sandbox process: started by sandbox.ts under Node's permission model (no file writes, no
 * child processes) and receives run requests over IPC. Workload code runs here in a V8 context.
 */
import { runWorkload, type RunSpec } from "@siglab/core";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { createNodeEnvironment } from "./node-env.js";

interface RunRequest {
  type: "run";
  id: number;
  spec: RunSpec;
  pluginDirs?: string[];
  profiles?: CpuProfileFile[];
}

// Capabilities untrusted code could reach through an escaped context: take them away.
const p = process as unknown as Record<string, unknown>;
for (const key of ["getBuiltinModule", "binding", "_linkedBinding", "dlopen"]) {
  try {
    Object.defineProperty(process, key, { value: undefined, configurable: false, writable: false });
  } catch {
    p[key] = undefined;
  }
}

process.on("message", async (msg: RunRequest) => {
  if (msg?.type !== "run") return;
  try {
    const env = await createNodeEnvironment({ pluginDirs: msg.pluginDirs ?? [], profiles: msg.profiles ?? [] });
    let last = 0;
    env.onProgress = (pr) => {
      const now = Date.now();
      if (now - last > 200) {
        last = now;
        process.send?.({ type: "progress", id: msg.id, progress: pr });
      }
    };
    const result = runWorkload(msg.spec, env);
    process.send?.({ type: "result", id: msg.id, result });
  } catch (e) {
    process.send?.({ type: "error", id: msg.id, message: (e as Error).message, file: (e as { file?: string }).file, line: (e as { line?: number }).line, column: (e as { column?: number }).column });
  }
});
process.send?.({ type: "ready" });
