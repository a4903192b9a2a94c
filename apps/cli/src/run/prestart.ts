/**
 * The execution host, started at the very start of a command that will simulate whatever it
 * finds: `run` or `suite examples` without the result cache (--no-cache, SIGLAB_NO_CACHE=1).
 * main.ts imports this module before the rest of the CLI, so the host's process and sandbox worker
 * (~0.2 s) boot while the CLI loads and resolves its arguments; it imports only what starting a
 * host needs. A command with limits of its own (--max-*) or --verbose starts a host configured so
 * itself, and a command the cache may answer starts one once a run misses (cache/results.ts).
 */
import { createNodeHost, type NodeExecutionHost } from "@siglab/builtin-plugins/host/node";
import { transpileWorkloadWithMap } from "./compile.js";

export interface EarlyHost {
  host: NodeExecutionHost;
  /** performance.now() when it was started */
  startedAt: number;
  /** performance.now() when it was ready to run (its sandbox worker started), once it is */
  readyAt?: number;
}

/** Whether the command line is one that simulates every run, on a host of the default settings. */
export function simulatesAtOnce(args: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const command = args[0] === "run" || (args[0] === "suite" && args[1] === "examples");
  if (!command || args.some((a) => a === "--help" || a === "-h" || a === "--verbose" || a.startsWith("--max-"))) return false;
  return args.includes("--no-cache") || ["1", "true", "yes"].includes(env["SIGLAB_NO_CACHE"]?.trim().toLowerCase() ?? "");
}

const started: EarlyHost | undefined = simulatesAtOnce(process.argv.slice(2), process.env) ? { host: createNodeHost({ transpile: transpileWorkloadWithMap }), startedAt: performance.now() } : undefined;
void started?.host.warm().then(() => (started.readyAt = performance.now()));
let early = started;

/** The host started early, once (the pool adopts it, or closes it when its settings differ). */
export function takeEarlyHost(): EarlyHost | undefined {
  const e = early;
  early = undefined;
  return e;
}
