/**
 * The plugin API's StateHolder as the core's objects implement it (a map from key to value): per-object
 * state of a plugin, as a 2.4 module would hang it off a pointer it owns (no common Linux file).
 */
import type { StateHolder, StateKey } from "@siglab/plugin-api";

/**
 * Plugin state of one kernel object: the base class of Kernel, Task, SignalFrameK and
 * UThreadScheduler. The map is a true private field: a plugin handed the object reaches the
 * slots only through the keys it holds, never another plugin's.
 */
export class StateMap implements StateHolder {
  /** created on first use: most holders (a signal frame per delivery) never get a slot */
  #values: Map<StateKey<unknown>, unknown> | null = null;
  slot<T>(key: StateKey<T>): T {
    const m = (this.#values ??= new Map());
    let v = m.get(key as StateKey<unknown>) as T | undefined;
    if (v === undefined && !m.has(key as StateKey<unknown>)) {
      v = key.create();
      m.set(key as StateKey<unknown>, v);
    }
    return v as T;
  }
  peekSlot<T>(key: StateKey<T>): T | undefined {
    return this.#values?.get(key as StateKey<unknown>) as T | undefined;
  }
  setSlot<T>(key: StateKey<T>, value: T): void {
    (this.#values ??= new Map()).set(key as StateKey<unknown>, value);
  }
  dropSlot(key: StateKey<unknown>): void {
    this.#values?.delete(key);
  }
}
