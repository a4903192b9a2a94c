/**
 * A system call handed out as an iterator that makes the whole call in its first next() when it
 * can finish synchronously (no interrupt due, not traced, no exit work), and otherwise runs the
 * generator that finishes it from where it stopped. It is lazy like the generator it stands for
 * (nothing happens before the first next()) and follows the iterator protocol `yield*` uses
 * (next, return, throw). One small object and no generator per call in the common case: the
 * null syscall's and kill's hottest path. The workload holds this object: its state is private.
 */
import type { Gen } from "./gate.js";

/** What a quick call runs (ThreadImpl.quickNow / quickRest). */
export const QUICK_GETPID = 0, QUICK_GETPPID = 1, QUICK_KILL = 2, QUICK_TKILL = 3;
export type QuickKind = typeof QUICK_GETPID | typeof QUICK_GETPPID | typeof QUICK_KILL | typeof QUICK_TKILL;

/** The thread side of a quick call. */
export interface QuickRunner {
  /** make the call synchronously: its result, or undefined when it could not finish (then quickRest at once) */
  quickNow(kind: QuickKind, a: number, b: number): number | undefined;
  /** the generator that finishes what quickNow left (all of the call when it did nothing) */
  quickRest(kind: QuickKind, a: number, b: number): Gen<number>;
}

const NOT_STARTED = 0, RUNNING_REST = 1, FINISHED = 2;

export class QuickCall implements Iterator<unknown, number, unknown> {
  readonly #th: QuickRunner;
  readonly #kind: QuickKind;
  readonly #a: number;
  readonly #b: number;
  #state = NOT_STARTED;
  #rest: Gen<number> | null = null;

  constructor(th: QuickRunner, kind: QuickKind, a = 0, b = 0) {
    this.#th = th;
    this.#kind = kind;
    this.#a = a;
    this.#b = b;
  }

  next(v?: unknown): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#step(0, v);
    if (this.#state === FINISHED) return { value: undefined as unknown as number, done: true };
    let r: number | undefined;
    try {
      // a signal handler may run inside (Gate.exitSlowNow): what it throws ends the call, as a generator's would
      r = this.#th.quickNow(this.#kind, this.#a, this.#b);
    } catch (e) {
      this.#state = FINISHED;
      throw e;
    }
    if (r !== undefined) {
      this.#state = FINISHED;
      return { value: r, done: true };
    }
    this.#rest = this.#th.quickRest(this.#kind, this.#a, this.#b);
    this.#state = RUNNING_REST;
    return this.#step(0, undefined);
  }

  return(v?: number): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#step(1, v);
    this.#state = FINISHED;
    return { value: v as number, done: true };
  }

  throw(e?: unknown): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#step(2, e);
    this.#state = FINISHED;
    throw e;
  }

  [Symbol.iterator](): this {
    return this;
  }

  /** Resume the rest generator (0 next, 1 return, 2 throw); finished once it is done or has thrown, as a generator is. */
  #step(how: 0 | 1 | 2, v: unknown): IteratorResult<unknown, number> {
    const g = this.#rest!;
    let res: IteratorResult<unknown, number>;
    try {
      res = how === 0 ? g.next(v) : how === 1 ? g.return(v as number) : g.throw(v);
    } catch (e) {
      this.#state = FINISHED;
      this.#rest = null;
      throw e;
    }
    if (res.done) {
      this.#state = FINISHED;
      this.#rest = null;
    }
    return res;
  }
}
