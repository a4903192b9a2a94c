/** Progress lines of long work in the app (no DOM: shared with tests). */
/**
 * The LMbench summary's progress line: the benchmark, the runs of it done and running, and the time
 * left estimated from the share of the whole summary done so far.
 */
export function summaryProgress(example: string, index: number, benchmarks: number, done: number, running: number, total: number, elapsedMs: number, fraction: number): string {
  const left = fraction > 0.02 ? ` · ~${Math.max(0, Math.round(elapsedMs / 1000 / fraction - elapsedMs / 1000))} s left` : "";
  return `Summary: ${example} (${index + 1}/${benchmarks}) · ${done}/${total} runs done${running ? `, ${running} running` : ""}${left}`;
}
