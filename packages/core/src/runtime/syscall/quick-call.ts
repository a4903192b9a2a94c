/**
 * A system call handed out as an iterator that makes the whole call in its first next() when it
 * can finish synchronously (no interrupt due, not traced, no exit work), and otherwise runs the
 * generator that finishes it from where it stopped. It is lazy like the generator it stands for
 * (nothing happens before the first next()) and follows the iterator protocol `yield*` uses
 * (next, return, throw). One small object and no generator per call in the common case: the
 * null syscall's and kill's hottest path. The workload holds this object: its state is private.
 */
import type { Gen } from "../../kernel/yields.js";
import { HandedOver } from "./handed-over.js";

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
  #rest: HandedOver<number> | null = null;

  constructor(th: QuickRunner, kind: QuickKind, a = 0, b = 0) {
    this.#th = th;
    this.#kind = kind;
    this.#a = a;
    this.#b = b;
  }

  next(v?: unknown): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#rest!.next(v);
    if (this.#state === FINISHED) return { value: undefined as unknown as number, done: true };
    let r: number | undefined;
    try {
      // a signal handler may run inside (Gate.work_pendingNow): what it throws ends the call, as a generator's would
      r = this.#th.quickNow(this.#kind, this.#a, this.#b);
    } catch (e) {
      this.#state = FINISHED;
      throw e;
    }
    if (r !== undefined) {
      this.#state = FINISHED;
      return { value: r, done: true };
    }
    this.#rest = new HandedOver(this.#th.quickRest(this.#kind, this.#a, this.#b));
    this.#state = RUNNING_REST;
    return this.#rest.next();
  }

  return(v?: number): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#rest!.return(v);
    this.#state = FINISHED;
    return { value: v as number, done: true };
  }

  throw(e?: unknown): IteratorResult<unknown, number> {
    if (this.#state === RUNNING_REST) return this.#rest!.throw(e);
    this.#state = FINISHED;
    throw e;
  }

  [Symbol.iterator](): this {
    return this;
  }
}
