/**
 * A compartment's `Math`: the shared frozen Math, except that `random()` is xorshift32 seeded from
 * the run's seed (the one source of randomness foreign code gets; the same seed gives the same
 * sequence, so identical runs stay byte-identical).
 */
export function seededMath(seed: number): object {
  let x = (seed >>> 0) ^ 0x2545f491 || 0x9e3779b9;
  const random = (): number => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
  const m: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(Math)) m[key] = (Math as unknown as Record<string, unknown>)[key];
  Object.defineProperty(m, Symbol.toStringTag, { value: "Math" });
  m["random"] = random;
  const h = (globalThis as { harden?: <T>(v: T) => T }).harden;
  return h ? h(m) : Object.freeze(m);
}
