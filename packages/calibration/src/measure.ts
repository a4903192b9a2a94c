/** Simulating a calibration target on a set of (candidate) profiles. */
import { median, type RunResult } from "@siglab/core";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import { runExample, metricOf } from "./env.js";
import type { Target } from "./targets.js";
import { whatIfProfiles } from "./what-if.js";

export interface TargetEval {
  simulated: number;
  /** simulated − measured, in the target's unit */
  error: number;
  /** error / measured */
  relError: number;
  /** each run's metric value, in run order */
  parts: number[];
  results: RunResult[];
}

export function withWhatIfs(profiles: CpuProfileFile[]): CpuProfileFile[] {
  return [...profiles, ...whatIfProfiles(profiles)];
}

/** Runs the target's runs one after another in the execution host; `available`: see runExample. */
export async function evaluateTarget(t: Target, profiles: CpuProfileFile[], available?: readonly string[]): Promise<TargetEval> {
  const all = withWhatIfs(profiles);
  const results: RunResult[] = [];
  const parts: number[] = [];
  for (const m of t.runs) {
    const n = m.repeat?.n ?? 1;
    const values: number[] = [];
    for (let seed = 1; seed <= n; seed++) {
      const r = await runExample(m, all, available, seed);
      if (seed === 1) results.push(r);
      values.push(metricOf(r, m.metric, m));
    }
    parts.push(combine(values, m.repeat?.combine ?? "median"));
  }
  const simulated = t.how === "value" ? parts[0]! : t.how === "difference" ? parts[0]! - parts[1]! : parts[0]! / parts[1]!;
  const error = simulated - t.measured;
  return { simulated, error, relError: error / t.measured, parts, results };
}

/** How a source combined its repetitions: lmbench's save_median, or Seaman's plain mean. */
export function combine(values: readonly number[], how: "median" | "mean"): number {
  return how === "mean" ? values.reduce((a, b) => a + b, 0) / values.length : median(values);
}

/** Whether the simulated value is within the target's tolerance (undefined: qualitative). */
export function withinTolerance(t: Target, e: Pick<TargetEval, "error">): boolean | undefined {
  if (!t.tolerance) return undefined;
  const { relative, absolute } = t.tolerance;
  if (relative !== undefined && Math.abs(e.error) > relative * Math.abs(t.measured)) return false;
  if (absolute !== undefined && Math.abs(e.error) > absolute) return false;
  return true;
}

export function toleranceText(t: Target): string {
  if (!t.tolerance) return "qualitative";
  const parts: string[] = [];
  if (t.tolerance.relative !== undefined) parts.push(`±${+(t.tolerance.relative * 100).toFixed(2)}%`);
  if (t.tolerance.absolute !== undefined) parts.push(`±${t.tolerance.absolute} ${t.unit}`);
  return parts.join(" and ");
}
