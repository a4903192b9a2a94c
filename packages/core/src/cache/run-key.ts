/**
 * The key of a run in the result cache: a SHA-256 of everything that decides its result, and
 * nothing else —
 *   the workload (id, file, source), the CPU reference (clock, CPUs), the variant stack with its
 *   options, the parameters, the seed, the timeline request;
 *   the CPU profile's content, every profile and third-party plugin the run is handed (content
 *   hashes of their files and manifests);
 *   the steps and cycles budgets as enforced (a run stopped by one reports so; host time and
 *   memory never shape a result that finished);
 *   the simulator's version (simulator-version.ts) and Node's.
 * Runs are deterministic, so a run with the same key has the same result.
 */
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import type { RunSpec } from "../common/experiment.js";
import { effectiveBudget, type HostLimits } from "../host/limits.js";
import type { PluginSource } from "../host/protocol.js";
import { canonicalJson } from "./canonical.js";
import { sha256Hex } from "./entry.js";

/** bumped when what a key covers, or how a result is stored, changes */
export const RUN_KEY_FORMAT = 2;

export interface RunKeyInput {
  /** the run as the host receives it */
  spec: RunSpec;
  /** third-party plugin code the run is handed (a built-in plugin is part of the simulator) */
  plugins: readonly PluginSource[];
  /** profiles the run is handed in place of the built-in ones with their ids (the user's, a bundle's) */
  profiles: readonly CpuProfileFile[];
  /** the profile spec.cpu names, when the caller resolves it (a plugin's own profile is in its code) */
  profile?: CpuProfileFile;
  /** the host's limits */
  limits: HostLimits;
  /** the simulator's version (simulatorVersion) */
  simulator: string;
}

const hashOf = (v: unknown): string => sha256Hex(canonicalJson(v));

/** a profile or plugin's hash, once per object: a sweep hands the same ones to every run */
const hashed = new WeakMap<object, string>();
const contentHash = (o: object): string => {
  let h = hashed.get(o);
  if (h === undefined) hashed.set(o, (h = hashOf(o)));
  return h;
};

export function runKey(i: RunKeyInput): string {
  const s = i.spec;
  const budget = effectiveBudget(s.budget, i.limits);
  const timeline = s.timeline === true;
  return hashOf({
    format: RUN_KEY_FORMAT,
    node: process.version,
    simulator: i.simulator,
    workload: { id: s.workload.id, file: s.workload.file, source: sha256Hex(s.workload.source) },
    cpu: s.cpu,
    variants: s.variants,
    params: s.params,
    seed: s.seed,
    timeline,
    timelineLimit: timeline ? (s.timelineLimit ?? null) : null,
    maxSteps: budget.maxSteps,
    maxCycles: budget.maxCycles,
    plugins: i.plugins.map((p) => ({ id: p.id, content: contentHash(p) })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    profiles: i.profiles.map(contentHash).sort(),
    profile: i.profile ? contentHash(i.profile) : null,
  });
}
