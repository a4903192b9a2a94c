/**
 * The generator a call's iterator (QuickCall, SchedYieldCall) handed the rest of the call to,
 * stepped as `yield*` steps it and finished once it is done or has thrown, as a generator is:
 * after that next() gives `done` with no value, return(v) gives v, throw(e) throws e. Only the
 * iterator that made it holds it (in a private field); workload code never sees it.
 */
import type { Gen } from "../../kernel/yields.js";

export class HandedOver<R> {
  #g: Gen<R> | null;

  constructor(g: Gen<R>) {
    this.#g = g;
  }

  next(v?: unknown): IteratorResult<unknown, R> {
    return this.#step(0, v);
  }

  return(v?: R): IteratorResult<unknown, R> {
    return this.#step(1, v);
  }

  throw(e?: unknown): IteratorResult<unknown, R> {
    return this.#step(2, e);
  }

  #step(how: 0 | 1 | 2, v: unknown): IteratorResult<unknown, R> {
    const g = this.#g;
    if (g === null) {
      if (how === 2) throw v;
      return { value: (how === 1 ? v : undefined) as R, done: true };
    }
    let res: IteratorResult<unknown, R>;
    try {
      res = how === 0 ? g.next(v) : how === 1 ? g.return(v as R) : g.throw(v);
    } catch (e) {
      this.#g = null;
      throw e;
    }
    if (res.done) this.#g = null;
    return res;
  }
}
