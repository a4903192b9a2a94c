/**
 * Typed state a plugin keeps on kernel objects (per run, per task, per signal frame), in place of
 * untyped string-keyed bags: a key is an object only its plugin holds, so two plugins cannot
 * collide and the value has one type everywhere.
 *
 *   const LAZY = stateKey("lazy-fpu-frame.records", (): LazyRecord[] => []);
 *   task.slot(LAZY).push(rec);
 */
export interface StateKey<T> {
  /** for messages and debugging, e.g. "lazy-fpu-frame.records" */
  readonly name: string;
  /** the initial value, made on first use */
  create(): T;
}

export function stateKey<T>(name: string, create: () => T): StateKey<T> {
  return Object.freeze({ name, create });
}

/** Something that holds plugin state. */
export interface StateHolder {
  /** the value for `key`, created on first use */
  slot<T>(key: StateKey<T>): T;
  /** the value for `key` if it was ever created or set */
  peekSlot<T>(key: StateKey<T>): T | undefined;
  /** set the value for `key` */
  setSlot<T>(key: StateKey<T>, value: T): void;
  /** forget the value (the next slot() call creates a fresh one) */
  dropSlot(key: StateKey<unknown>): void;
}
