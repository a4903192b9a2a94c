/** State slots: typed plugin state on kernel objects, in place of untyped string-keyed bags. */
/**
 * The key of one piece of typed state a plugin keeps on kernel objects (the kernel of a run, a
 * task, a signal frame, a user-level thread scheduler): make it once with stateKey() at module
 * level, and use it with `slot(key)`. A key is an object only its plugin holds, so two plugins
 * cannot collide, and the value has one type everywhere.
 *
 * ```ts
 * const LAZY = stateKey("lazy-fpu-frame.records", (): LazyRecord[] => []);
 * task.slot(LAZY).push(rec);
 * ```
 * @category State
 */
export interface StateKey<T> {
  /** for messages and debugging, e.g. "lazy-fpu-frame.records" */
  readonly name: string;
  /** the initial value, made on first use */
  create(): T;
}

/**
 * Makes a state key: `name` for messages (prefix it with your plugin id), `create` makes the
 * initial value the first time a holder's slot(key) is read (once per holder: per run for the
 * kernel, per task for a task).
 * @category State
 */
export function stateKey<T>(name: string, create: () => T): StateKey<T> {
  return Object.freeze({ name, create });
}

/**
 * Something that holds plugin state by StateKey: the Kernel (per run), a Task, a SignalFrame, a
 * UserThreadScheduler. The state lives as long as its holder.
 * @category State
 */
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
