/**
 * When a command's runs should spread over one more execution host (--jobs): only when it pays.
 * A host costs S ms to start (its process and sandbox worker, measured: run/host.ts), during which
 * it runs nothing, on a machine whose cores the running hosts already use. With k lanes and W ms
 * of runs waiting, the runs take about W/k more; one more lane, ready after S, about (W + S)/(k+1):
 * it pays when W > k·S. A margin of 2 covers what the estimate misses (the new host's start slows
 * the running ones on a small machine; runs differ in size).
 *
 * A waiting run is expected to take as long as the mean of the finished ones; before any has
 * finished, as long as the longest one in flight has taken so far (a run preempted on a busy
 * machine would otherwise pass for a long one).
 */
const MARGIN = 2;

/** What the lanes run on, as the policy sees it (run/host.ts's pool of execution hosts). */
export interface LanePool {
  /** what starting another lane costs now, ms: 0 while an idle host is there; Infinity while a host is still starting (nothing is known of the runs yet, and two hosts starting at once slow each other) */
  costMs(): number;
  /** what starting a host takes, ms: the part of a lane's first run spent waiting for its host */
  startMs(): number;
}

export interface LaneState {
  /** lanes running now */
  lanes: number;
  /** runs not started yet */
  waiting: number;
  /** how long each finished run took, ms */
  finishedMs: readonly number[];
  /** how long each run in flight has taken so far, ms */
  runningMs: readonly number[];
  /** what starting another lane costs now, ms (0: an idle host is there) */
  laneCostMs: number;
}

export function anotherLanePays(s: LaneState): boolean {
  if (s.waiting <= 0) return false;
  if (s.lanes <= 0 || s.laneCostMs <= 0) return true;
  const perRun = s.finishedMs.length ? s.finishedMs.reduce((a, b) => a + b, 0) / s.finishedMs.length : Math.max(0, ...s.runningMs);
  return s.waiting * perRun > MARGIN * s.lanes * s.laneCostMs;
}
