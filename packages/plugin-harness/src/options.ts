/**
 * The harness's options as the simulator takes them (a variant stack, a CPU and clock), and a
 * run's result for a run that never started: a refusal or an overrun is returned as the result's
 * error, as `siglab run --json` reports it, never thrown at the test.
 */
import type { HarnessOptions, ParamValue, RunError, RunResult, VariantSpec } from "@siglab/plugin-api";

/** A refusal of the options themselves (a variant written wrong, an unknown example). */
export class OptionsError extends Error {}

/** "id" or "id:key=value,..." as a VariantSpec. */
export function variantOf(v: string | VariantSpec): VariantSpec {
  if (typeof v !== "string") return v;
  const [id, opts] = v.split(/:(.*)/s) as [string, string | undefined];
  const options: Record<string, ParamValue> = {};
  for (const kv of opts ? opts.split(",") : []) {
    const [k, val] = kv.split("=");
    if (!k || val === undefined) throw new OptionsError(`variant ${v}: expected key=value, got '${kv}'`);
    options[k] = val;
  }
  return Object.keys(options).length ? { id, options } : { id };
}

/** The variant stack of the options, bottom first. */
export function variantsOf(o: Pick<HarnessOptions, "variant">): VariantSpec[] {
  return (typeof o.variant === "string" ? [o.variant] : o.variant ?? []).map(variantOf);
}

/** "id" or "id@MHz" (default p4-northwood@2200); mhz 0: the profile's default clock. */
export function cpuOf(o: Pick<HarnessOptions, "cpu">): { id: string; mhz: number } {
  const [id, mhz] = (o.cpu ?? "p4-northwood@2200").split("@") as [string, string | undefined];
  return { id, mhz: mhz ? Number(mhz) : 0 };
}

/** The id a run of `workload` reports (an example id, or the workload file's base name). */
export function workloadIdOf(workload: HarnessOptions["workload"]): string {
  return typeof workload === "string" ? workload : (workload.file ?? "workload.ts").replace(/^.*\//, "").replace(/\.ts$/, "");
}

/** The result of a run of `o` that did not run: nothing measured, `error` says why. */
export function failedRun(o: HarnessOptions, error: RunError): RunResult {
  let variants: VariantSpec[];
  try {
    variants = variantsOf(o);
  } catch {
    variants = [];
  }
  return {
    workload: workloadIdOf(o.workload),
    cpu: cpuOf(o),
    variants,
    params: { ...(o.params ?? {}) },
    seed: o.seed ?? 1,
    metrics: [],
    phases: {},
    counters: {},
    findings: [],
    totalCycles: 0,
    simSeconds: 0,
    paths: [],
    error,
  };
}
