/**
 * An iterator already stepped once, to `yield*` from there: its first next() gives back the result
 * the caller already took, later calls (and return/throw) go to the iterator itself — what
 * `yield* it` would have done had it started it. Gate.work_pendingNow (arch/i386/entry.ts) runs a
 * handler's first step without a generator and hands a handler that yielded to one through this.
 * (lib/ holds helpers that know no simulator, as Linux's lib/ does.)
 */
export class StartedIterator<T, R> implements Iterator<T, R, unknown> {
  readonly #it: Iterator<T, R, unknown>;
  #first: IteratorResult<T, R> | null;

  constructor(it: Iterator<T, R, unknown>, first: IteratorResult<T, R>) {
    this.#it = it;
    this.#first = first;
  }

  next(v?: unknown): IteratorResult<T, R> {
    const f = this.#first;
    if (f !== null) {
      this.#first = null;
      return f;
    }
    return this.#it.next(v);
  }

  return(v?: R): IteratorResult<T, R> {
    this.#first = null;
    const r = this.#it.return;
    // an iterator without return(): yield* completes the outer generator with the value
    return typeof r === "function" ? r.call(this.#it, v) : { value: v as R, done: true };
  }

  throw(e?: unknown): IteratorResult<T, R> {
    this.#first = null;
    const t = this.#it.throw;
    if (typeof t === "function") return t.call(this.#it, e);
    throw e;
  }

  [Symbol.iterator](): this {
    return this;
  }
}
