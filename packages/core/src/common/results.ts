/**
 * What a run produces: the result types are the plugin API's (the test harness returns them too),
 * and the core's RunResult adds what the plugin API does not describe: the workload's named loops
 * (optional, present only when the workload named one).
 */
import type { RunResult as ApiRunResult } from "@siglab/plugin-api";
import type { LoopStat } from "./loops.js";

export type { Metric, Severity, Finding, PathOpStat, PathStat, TimelineEvent, RunError, RunProgress } from "@siglab/plugin-api";
export type { LoopFigure, LoopStat } from "./loops.js";
export { netPerIteration, perIteration } from "./loops.js";

/** The result of one run (the plugin API's RunResult, plus the workload's named loops). */
export interface RunResult extends ApiRunResult {
  /** The loops the workload timed with t.loopBegin / t.loopEnd, in the order they began (absent: none). */
  loops?: LoopStat[];
}
