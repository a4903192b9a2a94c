/**
 * Sharding (`--shard i/n`): which runs of an experiment slice i of n holds. The runs are numbered
 * in expansion order (expandExperiment: CPU, then stack, then sweep value) and dealt round robin:
 * run k (from 0) belongs to slice (k mod n) + 1. Round robin rather than contiguous blocks, so that
 * a sweep whose cost grows with its value spreads its expensive runs over every slice.
 */
import { countRuns, type ExperimentConfig } from "../common/experiment.js";
import type { ShardFile } from "./schema.js";

/** What shard.json records: slice `index` of `count`, and the run numbers (from 1) it holds. */
export type ShardInfo = ShardFile;

/** The 0-based indices (expansion order) of the runs slice `index` (1-based) of `count` holds. */
export function shardIndices(totalRuns: number, index: number, count: number): number[] {
  if (!(Number.isInteger(index) && Number.isInteger(count) && count >= 1 && index >= 1 && index <= count)) {
    throw new RangeError(`shard ${index}/${count}: expected 1 <= i <= n`);
  }
  const out: number[] = [];
  for (let k = index - 1; k < totalRuns; k += count) out.push(k);
  return out;
}

/** shard.json for slice `index` of `count` of an experiment. */
export function shardInfo(experiment: Pick<ExperimentConfig, "cpus" | "stacks" | "sweep">, index: number, count: number): ShardInfo {
  const totalRuns = countRuns(experiment);
  return { index, count, totalRuns, runs: shardIndices(totalRuns, index, count).map((k) => k + 1) };
}

/** "2, 6, 10" or "2, 6, 10, … (250 runs)" for messages. */
export function formatRunNumbers(runs: number[], max = 12): string {
  if (!runs.length) return "none";
  return runs.length <= max ? runs.join(", ") : `${runs.slice(0, max).join(", ")}, … (${runs.length} runs)`;
}
