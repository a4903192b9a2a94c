/**
 * The execution host's local limits from command-line options. They bound every run of the
 * command, whatever an experiment or a bundle asks for (a request above a limit is capped).
 */
import { DEFAULT_HOST_LIMITS, type HostLimits } from "@siglab/core/host";
import { UsageError } from "../catalog.js";
import { plainGrouped } from "../numbers.js";

/** A numeric option's range and what it counts (for the message). */
export interface NumberRange {
  min: number;
  max: number;
  integer?: boolean;
  /** "a number of seconds", "a whole number of MiB", ... */
  what: string;
  /** what the value is, after the range ("CPUs of the machine") */
  note?: string;
}

/**
 * A numeric option given once, as a number within its range; anything else (no value, a word,
 * the option twice, out of range) is a usage error that states the range.
 */
export function parseNumberOption(flag: string, v: unknown, r: NumberRange): number {
  const s = typeof v === "number" || typeof v === "string" ? String(v).trim() : "";
  const n = s === "" ? NaN : Number(s);
  const shown = Array.isArray(v) ? v.join(", ") : v === true ? "" : String(v);
  if (!(Number.isFinite(n) && n >= r.min && n <= r.max && (!r.integer || Number.isInteger(n)))) {
    throw new UsageError(`${flag}: expected ${r.what} from ${r.min.toLocaleString("en")} to ${r.max.toLocaleString("en")}${r.note ? ` (${r.note})` : ""}, got '${shown}'${Array.isArray(v) ? " (given more than once)" : ""}`);
  }
  return n;
}

/**
 * The local limits' options. The upper bounds keep each one meaningful: host time stays below
 * setTimeout's 24.8 days (a longer delay would fire at once), cycles below 2^53.
 */
const FLAGS: [option: string, flag: string, key: keyof HostLimits, scale: number, range: NumberRange][] = [
  ["maxSeconds", "--max-seconds", "runMs", 1000, { min: 0.001, max: 2_000_000, what: "a number of seconds" }],
  ["maxMemory", "--max-memory", "memoryMb", 1, { min: 64, max: 262_144, integer: true, what: "a whole number of MiB" }],
  ["maxRuns", "--max-runs", "maxRuns", 1, { min: 1, max: 1_000_000, integer: true, what: "a whole number of runs" }],
  ["maxSteps", "--max-steps", "maxSteps", 1, { min: 1, max: 1e12, integer: true, what: "a whole number of steps" }],
  ["maxCycles", "--max-cycles", "maxCycles", 1, { min: 1, max: 1e15, what: "a number of cycles" }],
];

export function hostLimitsFrom(o: Record<string, unknown>): Partial<HostLimits> {
  const out: Partial<HostLimits> = {};
  for (const [opt, flag, key, scale, range] of FLAGS) {
    if (o[opt] === undefined) continue;
    out[key] = parseNumberOption(flag, o[opt], range) * scale;
  }
  return out;
}

/** --max-total-seconds: a bundle re-run's total host time (bundle verify|run). */
export function parseMaxTotalSeconds(v: unknown): number | undefined {
  return v === undefined ? undefined : parseNumberOption("--max-total-seconds", v, { min: 1, max: 2_000_000, what: "a number of seconds" });
}

const HELP: Record<string, { arg: string; text: string }> = {
  runMs: { arg: "s", text: "stop a run after s seconds of host time" },
  memoryMb: { arg: "MiB", text: "memory of the sandbox" },
  maxRuns: { arg: "n", text: "refuse experiments that expand to more runs" },
  maxSteps: { arg: "n", text: "stop a workload after n API steps" },
  maxCycles: { arg: "n", text: "stop a workload after n simulated cycles" },
};

/** The options every command that runs simulations accepts (for --help). */
export const LIMIT_OPTIONS: [flag: string, help: string][] = FLAGS.map(([, flag, key, scale, r]) => [`${flag} <${HELP[key].arg}>`, `${HELP[key].text} (${plainGrouped(r.min)} to ${plainGrouped(r.max)}; default ${plainGrouped(DEFAULT_HOST_LIMITS[key] / scale)})`] as [string, string]).concat([["--verbose", "print the execution host's diagnostics and stack traces"]]);

/** An unsigned 32-bit integer seed, or a usage error. */
export function parseSeed(v: unknown): number {
  if (v === undefined) return 1;
  const s = String(v).trim();
  const n = /^(0|[1-9]\d*|0x[0-9a-f]+)$/i.test(s) ? Number(s) : NaN;
  if (!(Number.isInteger(n) && n >= 0 && n <= 0xffffffff)) throw new UsageError(`--seed: expected an unsigned 32-bit integer (0..4294967295), got '${s}'`);
  return n;
}
