/** A 64-signal sigset_t as two 32-bit words (signal n is bit n-1). */
export const NSIG = 64;
export const SIGKILL = 9;
export const SIGSTOP = 19;
export const SIGRTMIN = 32;

export class Sigset {
  constructor(public lo = 0, public hi = 0) {}

  has(sig: number): boolean {
    return sig <= 32 ? ((this.lo >>> (sig - 1)) & 1) === 1 : ((this.hi >>> (sig - 33)) & 1) === 1;
  }
  add(sig: number): void {
    if (sig <= 32) this.lo = (this.lo | (1 << (sig - 1))) >>> 0;
    else this.hi = (this.hi | (1 << (sig - 33))) >>> 0;
  }
  del(sig: number): void {
    if (sig <= 32) this.lo = (this.lo & ~(1 << (sig - 1))) >>> 0;
    else this.hi = (this.hi & ~(1 << (sig - 33))) >>> 0;
  }
  or(o: Sigset): void {
    this.lo = (this.lo | o.lo) >>> 0;
    this.hi = (this.hi | o.hi) >>> 0;
  }
  and(o: Sigset): void {
    this.lo = (this.lo & o.lo) >>> 0;
    this.hi = (this.hi & o.hi) >>> 0;
  }
  andNot(o: Sigset): void {
    this.lo = (this.lo & ~o.lo) >>> 0;
    this.hi = (this.hi & ~o.hi) >>> 0;
  }
  set(o: Sigset): void {
    this.lo = o.lo;
    this.hi = o.hi;
  }
  clone(): Sigset {
    return new Sigset(this.lo, this.hi);
  }
  isEmpty(): boolean {
    return this.lo === 0 && this.hi === 0;
  }
  /** lowest signal in (this & ~blocked), or 0 */
  firstUnblocked(blocked: Sigset): number {
    const lo = (this.lo & ~blocked.lo) >>> 0;
    if (lo) return 32 - Math.clz32(lo & -lo);
    const hi = (this.hi & ~blocked.hi) >>> 0;
    if (hi) return 64 - Math.clz32(hi & -hi);
    return 0;
  }
  anyUnblocked(blocked: Sigset): boolean {
    return ((this.lo & ~blocked.lo) | (this.hi & ~blocked.hi)) !== 0;
  }
  toList(): number[] {
    const out: number[] = [];
    for (let s = 1; s <= NSIG; s++) if (this.has(s)) out.push(s);
    return out;
  }
  static of(list: readonly number[]): Sigset {
    const s = new Sigset();
    for (const n of list) if (n >= 1 && n <= NSIG) s.add(n);
    return s;
  }
  /** SIGKILL and SIGSTOP can never be blocked */
  dropUnblockable(): void {
    this.del(SIGKILL);
    this.del(SIGSTOP);
  }
}
