/**
 * The allocation meter's names, shared by the compile worker (which instruments foreign code,
 * meter-transform.ts), the sandbox worker (which counts, meter-runtime.ts) and the renderer (which
 * terminates a sandbox worker over its budget, sim-client.ts).
 */

/** The name every instrumented allocation calls (a parameter around each module); foreign source may not name it. */
export const METER_GLOBAL = "__siglab_meter";

/** What the sandbox worker posts the moment a request's code goes over its allocation budget. */
export const METER_MESSAGE = "siglab-allocation-budget";

export interface MeterOverMessage {
  type: typeof METER_MESSAGE;
  /** MiB the request's foreign code allocated, as the meter counted */
  allocatedMb: number;
  limitMb: number;
}

/**
 * The sandbox worker's allocation budget travels in its name (set when the renderer creates it):
 * "siglab-sim mem=<MiB>".
 */
export function workerNameWithBudget(limitMb: number): string {
  return `siglab-sim mem=${Math.max(1, Math.round(limitMb))}`;
}

export function budgetFromWorkerName(name: string | undefined, fallbackMb: number): number {
  const m = /\bmem=(\d+)\b/.exec(name ?? "");
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n > 0 ? n : fallbackMb;
}
