/**
 * When a command's runs should spread over one more execution host (--jobs): only when it pays.
 *
 * What another host costs, C = S + J: its start S (its process and sandbox worker, measured by the
 * pool: run/host.ts) and its warm-up J, the time its first runs take beyond the pace of a warm host
 * while V8 compiles the simulator's hot paths (measured, 10,000-iteration lat_sig_catch runs on
 * one host: 150, 117, 105, 66, 57, 49, 45, 45 ms, about 1.7 host starts of warm-up in all). J is
 * read off the first host's first run: that run's whole time (so far, while it is in flight), up
 * to WARMUP host starts (a long run is mostly simulation). A machine busy with other work makes S
 * and J longer alike.
 *
 * What the runs waiting will take, W: their number times the pace, the mean of the finished runs,
 * each host's first run counted net of J; before any run finished, the longest in flight counted
 * so. A warm-up not over yet (the runs just after a host's first) makes the pace too long, which
 * the first run's small net time offsets.
 *
 * With k lanes the waiting runs take about W/k more; one more lane, ready after C, about
 * (W + C)/(k+1): it pays when W > k·C. A margin of 2 covers what the estimate misses (the new host's
 * start slows the running ones on a small machine; runs differ in size). So a sweep of nine short
 * runs (each shorter than a host's start) stays on one host and `--jobs 2` does the work of
 * `--jobs 1`; a sweep of nine 1-second runs starts its second host while the first run is in flight
 * (once it has run 2.75 host starts).
 */
const MARGIN = 2;
const WARMUP = 2;

/** The hosts behind the lanes, as the policy sees them (run/host.ts's pool of execution hosts). */
export interface LanePool {
  /** what another lane would run on: a started host that is idle, one still starting (nothing is known yet, and two hosts starting at once slow each other), or none (a new host) */
  spare(): "idle" | "starting" | "none";
  /** what starting a host took, ms (the last one measured) */
  startMs(): number;
  /** performance.now() when the pool's k-th host (in the order they were started) was ready to run; undefined while it starts */
  readyAt(k: number): number | undefined;
}

/** One run's time on its host so far, ms: from when it started or its host was ready, whichever was later. */
export interface RunTime {
  ms: number;
  /** the first run of its host (it ran cold) */
  first: boolean;
}

export interface LaneState {
  /** lanes running now */
  lanes: number;
  /** runs not started yet */
  waiting: number;
  finished: readonly RunTime[];
  running: readonly RunTime[];
  spare: ReturnType<LanePool["spare"]>;
  /** a host's start, ms */
  startMs: number;
  /** the first lane's first run, ms (so far, while it is in flight): the warm-up's measure */
  firstRunMs: number;
}

export function anotherLanePays(s: LaneState): boolean {
  if (s.waiting <= 0) return false;
  if (s.lanes <= 0 || s.spare === "idle") return true;
  if (s.spare === "starting") return false;
  const warmup = Math.min(s.firstRunMs, WARMUP * s.startMs);
  const warm = (r: RunTime) => (r.first ? Math.max(0, r.ms - warmup) : r.ms);
  const pace = s.finished.length ? s.finished.reduce((a, r) => a + warm(r), 0) / s.finished.length : Math.max(0, ...s.running.map(warm));
  return s.waiting * pace > MARGIN * s.lanes * (s.startMs + warmup);
}
