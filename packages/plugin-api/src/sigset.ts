/** A 64-signal sigset_t as two 32-bit words (signal n is bit n-1). */

/**
 * The number of signals (1..64): 1-31 are the classic ones, 32-64 the real-time ones.
 * @category Signals
 */
export const NSIG = 64;
/**
 * SIGKILL: cannot be caught, blocked or ignored.
 * @category Signals
 */
export const SIGKILL = 9;
/**
 * SIGSTOP: stops the task; cannot be caught, blocked or ignored.
 * @category Signals
 */
export const SIGSTOP = 19;
/**
 * The first real-time signal: from here on every send is queued (with its siginfo), where a
 * classic signal already pending is only coalesced.
 * @category Signals
 */
export const SIGRTMIN = 32;

/**
 * A sigset_t of 64 signals as two 32-bit words (signal n is bit n-1 of `lo` for n <= 32, of `hi`
 * above). Mutable: the in-place operations change this set; copy with clone() before changing a
 * set you do not own (a task's blocked mask, a frame's saved mask).
 * @category Signals
 */
export class Sigset {
  /** Signals 1-32 as bits (bit 0 is signal 1). */
  lo: number;
  /** Signals 33-64 as bits (bit 0 is signal 33). */
  hi: number;

  /** A set with the given words (both 0: the empty set). */
  constructor(lo = 0, hi = 0) {
    this.lo = lo;
    this.hi = hi;
  }

  /** Whether `sig` (1-64) is in the set. */
  has(sig: number): boolean {
    return sig <= 32 ? ((this.lo >>> (sig - 1)) & 1) === 1 : ((this.hi >>> (sig - 33)) & 1) === 1;
  }
  /** Adds `sig` (1-64) to this set. */
  add(sig: number): void {
    if (sig <= 32) this.lo = (this.lo | (1 << (sig - 1))) >>> 0;
    else this.hi = (this.hi | (1 << (sig - 33))) >>> 0;
  }
  /** Removes `sig` from this set. */
  del(sig: number): void {
    if (sig <= 32) this.lo = (this.lo & ~(1 << (sig - 1))) >>> 0;
    else this.hi = (this.hi & ~(1 << (sig - 33))) >>> 0;
  }
  /** Adds every signal of `o` to this set (sigorsets into this). */
  or(o: Sigset): void {
    this.lo = (this.lo | o.lo) >>> 0;
    this.hi = (this.hi | o.hi) >>> 0;
  }
  /** Keeps only the signals that are also in `o` (sigandsets into this). */
  and(o: Sigset): void {
    this.lo = (this.lo & o.lo) >>> 0;
    this.hi = (this.hi & o.hi) >>> 0;
  }
  /** Removes every signal of `o` from this set. */
  andNot(o: Sigset): void {
    this.lo = (this.lo & ~o.lo) >>> 0;
    this.hi = (this.hi & ~o.hi) >>> 0;
  }
  /** Makes this set equal to `o` (a copy of its bits). */
  set(o: Sigset): void {
    this.lo = o.lo;
    this.hi = o.hi;
  }
  /** A new set with the same signals. */
  clone(): Sigset {
    return new Sigset(this.lo, this.hi);
  }
  /** Whether no signal is in the set. */
  isEmpty(): boolean {
    return this.lo === 0 && this.hi === 0;
  }
  /** The lowest signal in this set that is not in `blocked`, or 0 (next_signal's choice). */
  firstUnblocked(blocked: Sigset): number {
    const lo = (this.lo & ~blocked.lo) >>> 0;
    if (lo) return 32 - Math.clz32(lo & -lo);
    const hi = (this.hi & ~blocked.hi) >>> 0;
    if (hi) return 64 - Math.clz32(hi & -hi);
    return 0;
  }
  /** Whether any signal of this set is not in `blocked` (what sets sigpending). */
  anyUnblocked(blocked: Sigset): boolean {
    return ((this.lo & ~blocked.lo) | (this.hi & ~blocked.hi)) !== 0;
  }
  /** The signals in the set, ascending. */
  toList(): number[] {
    const out: number[] = [];
    for (let s = 1; s <= NSIG; s++) if (this.has(s)) out.push(s);
    return out;
  }
  /** A set of the signals in `list` (numbers outside 1-64 are left out). */
  static of(list: readonly number[]): Sigset {
    const s = new Sigset();
    for (const n of list) if (n >= 1 && n <= NSIG) s.add(n);
    return s;
  }
  /** Removes SIGKILL and SIGSTOP, which can never be blocked (what the kernel does to every new mask). */
  dropUnblockable(): void {
    this.del(SIGKILL);
    this.del(SIGSTOP);
  }
}
