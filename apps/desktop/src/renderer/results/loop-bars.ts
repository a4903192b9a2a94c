/**
 * The phase chart's "per iteration" bars for runs whose workload named its loops (t.loopBegin /
 * t.loopEnd): each loop divided by its own count, then each loop that names an overhead loop less
 * that loop's figure, phase by phase (lmbench's figure: lat_sig catch's catch loop less its send
 * loop is the "catch cycles" metric). A phase the subtraction leaves below zero is drawn below zero.
 */
import { netPerIteration, perIteration } from "@siglab/core/common";
import type { RunResult } from "../../common/contracts.js";

/** The phase chart's normalisation for "each loop ÷ its own count" (not a parameter's name: "@" starts none). */
export const LOOP_NORM = "@loops";

export interface LoopBar {
  /** the loop's name, or "<loop> − <overhead>" for its net figure */
  label: string;
  /** cycles per iteration, by phase */
  phases: Record<string, number>;
}

/** A run's loop bars: every named loop ÷ its count, then the net figure of each loop with an overhead. */
export function loopBars(r: RunResult): LoopBar[] {
  const loops = r.loops ?? [];
  const own = loops.map((l) => ({ label: l.name, phases: perIteration(l).phases }));
  const net = loops.flatMap((l) => {
    const f = l.overhead === undefined ? undefined : netPerIteration(loops, l.name);
    return f ? [{ label: `${l.name} − ${l.overhead}`, phases: f.phases }] : [];
  });
  return [...own, ...net];
}

/** Whether every run named its loops (only then does the chart offer the mode). */
export const allNameLoops = (results: readonly RunResult[]): boolean => results.length > 0 && results.every((r) => (r.loops?.length ?? 0) > 0);

/**
 * The phase chart's normalisation for the one asked for: it, when `choices` (the runs' choices)
 * hold it; "each loop ÷ its count" asked of runs that named no loops is ÷ iterations (the per
 * iteration of such runs); else per run.
 */
export function pickNorm(wanted: string, choices: readonly string[]): string {
  if (choices.includes(wanted)) return wanted;
  return wanted === LOOP_NORM && choices.includes("iterations") ? "iterations" : "run";
}
