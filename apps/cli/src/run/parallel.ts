/**
 * --jobs N and --shard i/n: the runs of one command run up to N at a time (each in an execution
 * host of its own, run/host.ts), and a command may run only the i-th of n slices of its expanded
 * experiment (round robin over the runs in expansion order; @siglab/core bundle/shard.ts). Results
 * come back, and are reported, in run order whatever order they finish in, so the output is the
 * same bytes as with --jobs 1. Progress goes to stderr (progress.ts).
 */
import { availableParallelism } from "node:os";
import type { RunResult } from "@siglab/core";
import { formatRunNumbers, shardIndices } from "@siglab/core/bundle";
import { UsageError } from "../catalog.js";
import { ProgressLine } from "./progress.js";
import { anotherLanePays, type LanePool, type LaneState, type RunTime } from "./widen.js";

export { ProgressLine } from "./progress.js";

/** More would only start more host processes than any machine has cores for. */
export const MAX_JOBS = 256;
/** A sanity bound: more slices than this many are a typo, not a cluster. */
export const MAX_SHARDS = 100_000;

export interface Shard {
  /** 1-based */
  index: number;
  count: number;
}

/** --jobs: a whole number 1..MAX_JOBS; default the machine's available parallelism. */
export function parseJobs(v: unknown): number {
  if (v === undefined) return Math.max(1, Math.min(MAX_JOBS, availableParallelism()));
  const s = typeof v === "string" || typeof v === "number" ? String(v).trim() : "";
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_JOBS)) {
    throw new UsageError(`--jobs: expected the number of runs to run at a time, a whole number from 1 to ${MAX_JOBS}, got '${Array.isArray(v) ? v.join(", ") : String(v)}'`);
  }
  return n;
}

/** --shard i/n: the i-th (1..n) of n slices, or undefined when not given. */
export function parseShard(v: unknown): Shard | undefined {
  if (v === undefined) return undefined;
  const s = typeof v === "string" || typeof v === "number" ? String(v).trim() : "";
  const m = /^(\d+)\/(\d+)$/.exec(s);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(count >= 1 && count <= MAX_SHARDS && index >= 1 && index <= count)) {
    throw new UsageError(`--shard: expected i/n, the i-th of n slices of the runs with 1 <= i <= n <= ${MAX_SHARDS.toLocaleString("en")} (e.g. --shard 2/4), got '${Array.isArray(v) ? v.join(", ") : String(v)}'`);
  }
  return { index, count };
}

/** The 0-based indices (expansion order) a command with --shard runs: all without it. */
export function selectShard(total: number, shard: Shard | undefined): number[] {
  return shard ? shardIndices(total, shard.index, shard.count) : Array.from({ length: total }, (_, k) => k);
}

/** The `shard` member of a --json document and its text line: which runs this output holds. */
export function shardDescription(total: number, shard: Shard) {
  const runs = shardIndices(total, shard.index, shard.count).map((k) => k + 1);
  return {
    json: { index: shard.index, count: shard.count, totalRuns: total, runs },
    text: `shard ${shard.index}/${shard.count}: runs ${formatRunNumbers(runs)} of ${total} (numbered from 1 in expansion order)`,
  };
}

export interface RunSpecsOptions {
  /** runs at a time (--jobs) */
  jobs: number;
  /** each result in run order, as soon as it and every run before it are done */
  onResult?(position: number, r: RunResult): void;
  progress?: ProgressLine;
  /** a run's name for the progress line (e.g. "lat_sig_catch p4-northwood@2200 [sa-nofp]") */
  label?(position: number): string;
  /** asked before each run starts: true stops starting runs (the runs started still finish) */
  stopStarting?(): boolean;
  /**
   * The execution hosts behind the lanes. Given, the lanes after the first start only when another
   * host pays (widen.ts); otherwise all start at once.
   */
  pool?: LanePool;
}

/**
 * Runs `items` with up to `jobs` runs at a time, started in order; returns the results in order.
 * A rejected run (an internal failure: run errors are results) stops starting new runs and rejects.
 * With `stopStarting`, the results are those of the runs started (a prefix of `items`).
 */
export async function runSpecs<T>(items: readonly T[], run: (item: T, position: number) => Promise<RunResult>, o: RunSpecsOptions): Promise<RunResult[]> {
  const results: RunResult[] = new Array<RunResult>(items.length);
  const have: boolean[] = new Array<boolean>(items.length).fill(false);
  const progress = o.progress ?? new ProgressLine(items.length);
  let next = 0;
  let flushed = 0;
  let done = 0;
  let running = 0;
  let failed = false;
  const startedAt = new Map<number, number>();
  /** a lane's first run: the lane's index, which is its host's in the pool (it may wait for that host to start) */
  const laneOf = new Map<number, number>();
  const finished: RunTime[] = [];
  let firstRun: RunTime | undefined;
  /** a run's time on its host: net of waiting for its host to start */
  const runTime = (i: number, now: number): RunTime => {
    const k = laneOf.get(i);
    const from = k === undefined ? startedAt.get(i)! : Math.max(startedAt.get(i)!, o.pool?.readyAt(k) ?? now);
    return { ms: Math.max(0, now - from), first: k !== undefined };
  };
  const lanes: Promise<void>[] = [];
  let started = 0;
  const maxLanes = Math.max(1, Math.min(o.jobs, items.length));
  let fail!: (e: unknown) => void;
  const failure = new Promise<never>((_, reject) => (fail = reject));
  failure.catch(() => {}); // raced below
  const widen = (): void => {
    while (!failed && started < maxLanes && next < items.length && (started === 0 || !o.pool || anotherLanePays(laneState(o.pool)))) {
      laneOf.set(next, started);
      started++; // before lane(): it calls widen() again once its first run is under way
      const l = lane();
      l.catch(fail);
      lanes.push(l);
    }
  };
  const laneState = (pool: LanePool): LaneState => {
    const now = performance.now();
    const first = firstRun ?? (startedAt.has(0) ? runTime(0, now) : { ms: 0, first: true });
    return { lanes: started, waiting: items.length - next, finished, running: [...startedAt.keys()].map((i) => runTime(i, now)), spare: pool.spare(), startMs: pool.startMs(), firstRunMs: first.ms };
  };
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length && !o.stopStarting?.()) {
      const i = next++;
      running++;
      startedAt.set(i, performance.now());
      if (o.label) progress.started(o.label(i));
      progress.update(done, running);
      const pending = run(items[i]!, i);
      widen(); // now that this lane's host is busy again
      let r: RunResult;
      try {
        r = await pending;
      } catch (e) {
        failed = true;
        throw e;
      } finally {
        running--;
        const t = runTime(i, performance.now());
        finished.push(t);
        if (i === 0) firstRun = t;
        startedAt.delete(i);
      }
      if (failed) return; // the command is failing: nothing more is reported
      results[i] = r;
      have[i] = true;
      done++;
      while (flushed < items.length && have[flushed]) {
        if (o.onResult) {
          progress.clear();
          o.onResult(flushed, results[flushed]!);
        }
        flushed++;
      }
      progress.update(done, running, done === items.length);
    }
  };
  // a long run in flight can make another lane pay before any run finishes
  const watch = o.pool && maxLanes > 1 ? setInterval(widen, 50) : undefined;
  watch?.unref();
  // the ETA and the periodic line off a terminal move on while a long run is in flight
  const ticker = setInterval(() => progress.tick(), 1000);
  ticker.unref();
  try {
    widen();
    const all = (async () => {
      for (let k = 0; k < lanes.length; k++) await lanes[k]!.catch(() => {});
    })();
    await Promise.race([all, failure]);
  } finally {
    clearInterval(watch);
    clearInterval(ticker);
    progress.clear();
  }
  // every run started has finished: they are the first `next` (items start in order)
  results.length = next;
  return results;
}
