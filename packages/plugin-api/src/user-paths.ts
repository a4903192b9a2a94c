/** User-mode library code whose reads must see memory as it was when its path ran. */
import type { FastRuntimeThread } from "./internal.js";
import type { Gen, PathHandle, RuntimeThread } from "./model.js";

/**
 * Runs the user-mode path `path` on `t` (as `t.runUser(path)`) and returns what `read()` returns,
 * called after the path's ops and before a timer or device interrupt that fell due during them
 * lands: what the path's loads saw. An interrupt that was already due lands first, and `read()`
 * then follows the path. A seqlock reader (a vsyscall or vDSO gettimeofday) reads this way: the
 * interrupt that updates the data may land between its loads and its retry test, never inside
 * the loads. Same cycles and order as `yield* t.runUser(path)` with the read in its middle.
 * @since 2.3
 * @category User space
 */
export function* runUserAndRead<T>(t: RuntimeThread, path: string | PathHandle, read: () => T): Gen<T> {
  // the core's threads implement the fast protocol (see internal.ts); its synchronous form is
  // what separates "the path ran" from "the interrupt due at its end landed"
  const th = t as FastRuntimeThread;
  const r = th.runUserNow(path);
  if (r === 2) yield* th.runUserRest(path, 2); // an interrupt was due: it lands first, then the path runs
  const value = read();
  if (r === 1) yield* th.runUserRest(path, 1);
  return value;
}
