/** Simulating a calibration target on a set of (candidate) profiles. */
import type { RunResult } from "@siglab/core";
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
  for (const m of t.runs) results.push(await runExample(m, all, available));
  const parts = results.map((r, i) => metricOf(r, t.runs[i]!.metric, t.runs[i]!));
  const simulated = t.how === "value" ? parts[0]! : t.how === "difference" ? parts[0]! - parts[1]! : parts[0]! / parts[1]!;
  const error = simulated - t.measured;
  return { simulated, error, relError: error / t.measured, parts, results };
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
