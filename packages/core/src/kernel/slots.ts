/** The plugin API's StateHolder as the core's objects implement it (a map from key to value). */
import type { StateHolder, StateKey } from "@siglab/plugin-api";

/** Plugin state of one kernel object (a task, a frame, the kernel, a user-level scheduler). */
export class StateMap implements StateHolder {
  private readonly values = new Map<StateKey<unknown>, unknown>();
  slot<T>(key: StateKey<T>): T {
    let v = this.values.get(key as StateKey<unknown>) as T | undefined;
    if (v === undefined && !this.values.has(key as StateKey<unknown>)) {
      v = key.create();
      this.values.set(key as StateKey<unknown>, v);
    }
    return v as T;
  }
  peekSlot<T>(key: StateKey<T>): T | undefined {
    return this.values.get(key as StateKey<unknown>) as T | undefined;
  }
  setSlot<T>(key: StateKey<T>, value: T): void {
    this.values.set(key as StateKey<unknown>, value);
  }
  dropSlot(key: StateKey<unknown>): void {
    this.values.delete(key);
  }
}
