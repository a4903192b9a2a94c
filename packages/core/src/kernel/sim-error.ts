/**
 * The simulator's own error (no Linux counterpart; a real kernel would oops or panic): a run stops
 * with it (a workload or plugin fault, a budget, a cancellation, an internal inconsistency). Thrown
 * by the host's code, never by foreign code.
 */
import { markHostThrown } from "../common/host-thrown.js";

export class SimError extends Error {
  constructor(readonly kind: string, message: string, readonly task?: number) {
    super(message);
    markHostThrown(this);
  }
}
