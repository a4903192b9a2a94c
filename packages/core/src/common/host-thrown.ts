/**
 * The simulator's own thrown values (SimError, PluginError, TaskExit, ...), recognisable without
 * touching the value: `instanceof` or getPrototypeOf on a thrown Proxy would run foreign code's
 * traps inside host code. Each of those classes adds its instances here as it constructs them.
 */
const HOST_THROWN = new WeakSet<object>();

export function markHostThrown(e: object): void {
  HOST_THROWN.add(e);
}

export function isHostThrown(e: unknown): boolean {
  return typeof e === "object" && e !== null && HOST_THROWN.has(e);
}
