/**
 * The run's deterministic pseudo-random numbers (where Linux keeps lib/random32.c; the generator
 * is Marsaglia's xorshift32, not Linux's prandom): seeded from the experiment, so a run repeats.
 */
export class Random32 {
  private x: number;

  constructor(seed: number) {
    this.x = (seed >>> 0) || 0x9e3779b9;
  }

  /** The next number in [0, 1). */
  next(): number {
    let x = this.x;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    this.x = x;
    return x / 4294967296;
  }
}
