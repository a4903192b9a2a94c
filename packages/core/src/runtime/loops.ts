/**
 * The workload's named loops (t.loopBegin / t.loopEnd): each section's cycles by phase, taken as
 * the difference of the run's per-phase cycles between its begin and its end, and the count it
 * ended with. Costs nothing simulated, like report(). Sections of one name add up.
 */
import { LOOP_LIMIT, type LoopStat } from "../common/loops.js";
import { OutputBudgetError } from "./collector.js";

/** The clock and per-phase cycles at an instant (the executor's). */
export interface LoopClock {
  readonly cycles: number;
  readonly phaseCycles: ArrayLike<number>;
}

interface Loop {
  count: number;
  cycles: number;
  phases: number[];
  overhead: string | undefined;
  /** ended at least once (only then may another loop name it as its overhead) */
  ended: boolean;
  /** the running section's start, or null */
  open: { cycles: number; phases: number[] } | null;
}

export class LoopRecorder {
  private readonly loops = new Map<string, Loop>();

  begin(name: string, at: LoopClock): void {
    let l = this.loops.get(name);
    if (l?.open) throw new TypeError(`loopBegin(${JSON.stringify(name)}): this loop is already running (end it with loopEnd first)`);
    if (!l) {
      if (this.loops.size >= LOOP_LIMIT) throw new OutputBudgetError(`output budget: more than ${LOOP_LIMIT} named loops in one run`);
      l = { count: 0, cycles: 0, phases: [], overhead: undefined, ended: false, open: null };
      this.loops.set(name, l);
    }
    l.open = { cycles: at.cycles, phases: Array.from(at.phaseCycles) };
  }

  end(name: string, count: number, overhead: string | undefined, at: LoopClock): void {
    const what = `loopEnd(${JSON.stringify(name)}, ${count})`;
    const l = this.loops.get(name);
    if (!l?.open) throw new TypeError(`${what}: no loop of that name is running (start it with loopBegin)`);
    if (!(count > 0) || !Number.isFinite(count)) throw new RangeError(`${what}: the count must be a finite number above 0`);
    if (overhead !== undefined) {
      if (overhead === name) throw new TypeError(`${what}: a loop cannot be its own overhead`);
      if (!this.loops.get(overhead)?.ended) throw new TypeError(`${what}: the overhead loop ${JSON.stringify(overhead)} has not been timed yet (end it before this one)`);
    }
    if (l.ended && overhead !== l.overhead) throw new TypeError(`${what}: its overhead loop was ${JSON.stringify(l.overhead ?? null)} when it last ended`);
    const start = l.open;
    l.open = null;
    for (let i = 0; i < at.phaseCycles.length; i++) l.phases[i] = (l.phases[i] ?? 0) + (at.phaseCycles[i]! - (start.phases[i] ?? 0));
    l.cycles += at.cycles - start.cycles;
    l.count += count;
    l.overhead = overhead;
    l.ended = true;
  }

  /** The loops that ended at least once, in the order they began (a section still running is left out). */
  stats(phaseNames: readonly string[]): LoopStat[] {
    const out: LoopStat[] = [];
    for (const [name, l] of this.loops) {
      if (!l.ended) continue;
      const phases: Record<string, number> = {};
      l.phases.forEach((c, i) => {
        if (c && phaseNames[i] !== undefined) phases[phaseNames[i]!] = c;
      });
      out.push({ name, count: l.count, cycles: l.cycles, phases, ...(l.overhead !== undefined ? { overhead: l.overhead } : {}) });
    }
    return out;
  }
}
