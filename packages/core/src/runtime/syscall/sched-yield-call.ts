/**
 * sched_yield handed out as an iterator, as QuickCall hands out getpid: the system call, its
 * reschedule turn of ret_from_sys_call and the switch back run in next() calls of this one small
 * object, without a generator, while nothing else happens (no interrupt due, not traced, no exit
 * work but the reschedule). Anything else goes to the generator that finishes the call from where
 * this stopped (ThreadImpl.schedYieldGen, Gate.work_pending, an interrupt's return). Seaman's
 * LinuxThreads side makes a million of these per thread, each a switch away and back.
 *
 * Like a generator it is lazy (nothing before the first next()) and follows the protocol yield*
 * uses: return() or throw() while switched out runs what the generator's `finally` would
 * (switchedBack(false): a task resumed out of turn stops the run). Its state is private.
 */
import type { Gen } from "../../kernel/yields.js";
import { HandedOver } from "./handed-over.js";
import { SWITCH } from "../../kernel/yields.js";

/** what a step of the call left: yield SWITCH, finished (the result), or a generator to finish it */
export const YIELD_SWITCHED = 0, YIELD_DONE = 1, YIELD_REST = 2;

/** The thread side (ThreadImpl). */
export interface SchedYieldRunner {
  /** the call up to its first switch; YIELD_REST: take yieldRest() at once */
  yieldStart(): number;
  /** back on the CPU after a switch (resumed false: closed instead, nothing more runs), then the work loop again */
  yieldBack(resumed: boolean, r: number): number;
  /** the result once YIELD_DONE (eax), the system call's return value after yieldStart */
  readonly yieldValue: number;
  /** the generator that finishes the call, after YIELD_REST */
  takeYieldRest(): Gen<number>;
}

const NOT_STARTED = 0, SWITCHED_OUT = 1, RUNNING_REST = 2, FINISHED = 3;

export class SchedYieldCall implements Iterator<unknown, number, unknown> {
  readonly #th: SchedYieldRunner;
  #state = NOT_STARTED;
  /** sys_sched_yield's return value (what the exit work loop hands on) */
  #r = 0;
  #rest: HandedOver<number> | null = null;

  constructor(th: SchedYieldRunner) {
    this.#th = th;
  }

  next(v?: unknown): IteratorResult<unknown, number> {
    switch (this.#state) {
      case NOT_STARTED: {
        const code = this.#th.yieldStart();
        this.#r = this.#th.yieldValue;
        return this.#after(code);
      }
      case SWITCHED_OUT: {
        let code: number;
        try {
          code = this.#th.yieldBack(true, this.#r);
        } catch (e) {
          this.#state = FINISHED;
          throw e;
        }
        return this.#after(code);
      }
      case RUNNING_REST:
        return this.#rest!.next(v);
      default:
        return { value: undefined as unknown as number, done: true };
    }
  }

  return(v?: number): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#rest!.return(v);
    this.#close();
    return { value: v as number, done: true };
  }

  throw(e?: unknown): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#rest!.throw(e);
    this.#close();
    throw e;
  }

  /** Finished by return()/throw(): while switched out, what the generator's `finally` would run. */
  #close(): void {
    const wasOut = this.#state === SWITCHED_OUT;
    this.#state = FINISHED;
    if (wasOut) this.#th.yieldBack(false, this.#r);
  }

  [Symbol.iterator](): this {
    return this;
  }

  #after(code: number): IteratorResult<unknown, number> {
    if (code === YIELD_SWITCHED) {
      this.#state = SWITCHED_OUT;
      return { value: SWITCH, done: false };
    }
    if (code === YIELD_DONE) {
      this.#state = FINISHED;
      return { value: this.#th.yieldValue, done: true };
    }
    this.#rest = new HandedOver(this.#th.takeYieldRest());
    this.#state = RUNNING_REST;
    return this.#rest.next();
  }
}
