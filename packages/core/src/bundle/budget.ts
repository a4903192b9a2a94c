/**
 * The total host time a bundle's re-run (bundle verify, bundle run) may take. A bundle is
 * somebody else's file: a few KB can declare 10,000 runs, each stopped only by the per-run
 * budget (120 s: two weeks in all). The total scales with the runs the bundle declares, is never
 * above a configured maximum, and `--max-total-seconds` sets it outright; when it runs out the
 * re-run stops with the runs done so far.
 */

/** Host seconds granted per declared run (a run of the shipped examples takes well under one). */
export const BUNDLE_SECONDS_PER_RUN = 30;
/** The most a re-run gets without --max-total-seconds: one hour. */
export const BUNDLE_MAX_TOTAL_SECONDS = 3_600;

/**
 * Host seconds for re-running `runs` runs: `explicit` (--max-total-seconds) when given, else
 * BUNDLE_SECONDS_PER_RUN per run, at least one run's own limit (`perRunSeconds`), at most
 * `maxTotalSeconds`.
 */
export function bundleTotalSeconds(runs: number, perRunSeconds: number, explicit?: number, maxTotalSeconds = BUNDLE_MAX_TOTAL_SECONDS): number {
  if (explicit !== undefined) return explicit;
  return Math.min(maxTotalSeconds, Math.max(perRunSeconds, runs * BUNDLE_SECONDS_PER_RUN));
}
