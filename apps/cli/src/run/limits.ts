/**
 * The execution host's local limits from command-line options. They bound every run of the
 * command, whatever an experiment or a bundle asks for (a request above a limit is capped).
 */
import { DEFAULT_HOST_LIMITS, type HostLimits } from "@siglab/core/host";
import { UsageError } from "../catalog.js";

const FLAGS: [option: string, flag: string, key: keyof HostLimits, scale: number][] = [
  ["maxSeconds", "--max-seconds", "runMs", 1000],
  ["maxMemory", "--max-memory", "memoryMb", 1],
  ["maxRuns", "--max-runs", "maxRuns", 1],
  ["maxSteps", "--max-steps", "maxSteps", 1],
  ["maxCycles", "--max-cycles", "maxCycles", 1],
];

export function hostLimitsFrom(o: Record<string, unknown>): Partial<HostLimits> {
  const out: Partial<HostLimits> = {};
  for (const [opt, flag, key, scale] of FLAGS) {
    if (o[opt] === undefined) continue;
    const v = Number(o[opt]);
    if (!(Number.isFinite(v) && v > 0)) throw new UsageError(`${flag}: expected a positive number, got '${String(o[opt])}'`);
    out[key] = v * scale;
  }
  if (out.memoryMb !== undefined && out.memoryMb < 64) throw new UsageError(`--max-memory: at least 64 (MiB), got ${out.memoryMb}`);
  return out;
}

/** The options every command that runs simulations accepts (for --help). */
export const LIMIT_OPTIONS: [flag: string, help: string][] = [
  ["--max-seconds <s>", `stop a run after s seconds of host time (default ${DEFAULT_HOST_LIMITS.runMs / 1000})`],
  ["--max-memory <MiB>", `memory of the sandbox (default ${DEFAULT_HOST_LIMITS.memoryMb})`],
  ["--max-runs <n>", `refuse experiments that expand to more runs (default ${DEFAULT_HOST_LIMITS.maxRuns.toLocaleString("en")})`],
  ["--max-steps <n>", `stop a workload after n API steps (default ${DEFAULT_HOST_LIMITS.maxSteps.toLocaleString("en")})`],
  ["--max-cycles <n>", `stop a workload after n simulated cycles (default ${DEFAULT_HOST_LIMITS.maxCycles})`],
  ["--verbose", "print the execution host's diagnostics and stack traces"],
];

/** An unsigned 32-bit integer seed, or a usage error. */
export function parseSeed(v: unknown): number {
  if (v === undefined) return 1;
  const s = String(v).trim();
  const n = /^(0|[1-9]\d*|0x[0-9a-f]+)$/i.test(s) ? Number(s) : NaN;
  if (!(Number.isInteger(n) && n >= 0 && n <= 0xffffffff)) throw new UsageError(`--seed: expected an unsigned 32-bit integer (0..4294967295), got '${s}'`);
  return n;
}
