/**
 * A data-TLB model: entries tagged by address space (and global for kernel pages). A CR3 write
 * drops every non-global entry (no PCID in the i386 baseline); capacity comes from the profile.
 * Replacement is FIFO, which is deterministic and close enough for the small working sets here.
 */
export class Tlb {
  private readonly entries = new Set<number>();
  private readonly order: number[] = [];
  private head = 0;
  flushes = 0;
  misses = 0;
  /**
   * Bumped whenever entries go other than by FIFO replacement (a full flush, or an invlpg that
   * evicted a present entry): the return to user mode re-touches the task's hot pages when it
   * changed, and only the entries that went miss (touch() of a present entry changes nothing).
   */
  epoch = 0;
  /**
   * The kernel's translations (its 4 MB direct-map pages, by large-page number) held now. With PGE
   * they are global and never go; without it (the Pentium) a CR3 write drops them with the rest
   * (2.4 include/asm-i386/pgtable.h: _PAGE_GLOBAL only `if (cpu_has_pge)`).
   */
  readonly kernelPages = new Set<number>();
  /** false once a flush dropped the kernel's translations, until every one is walked again */
  kernelValid = true;

  /** `pge`: the CPU keeps global (kernel) entries across CR3 writes */
  constructor(readonly capacity: number, readonly pge = true) {}

  /** key = asid * 2^20 + page number (user pages only; kernel pages are global and always hit). */
  static key(asid: number, page: number): number {
    return asid * 1048576 + (page & 0xfffff);
  }

  /** Touch a page; returns true on a miss (the caller charges a tlb_miss op). */
  touch(key: number): boolean {
    if (this.entries.has(key)) return false;
    this.misses++;
    if (this.entries.size >= this.capacity) {
      // FIFO eviction over the insertion order; skip keys already flushed.
      while (this.head < this.order.length) {
        const victim = this.order[this.head++]!;
        if (this.entries.delete(victim)) break;
      }
      if (this.head > 4096) { this.order.splice(0, this.head); this.head = 0; }
    }
    this.entries.add(key);
    this.order.push(key);
    return true;
  }

  /**
   * invlpg: one page's entry goes (its slot in the FIFO order is skipped when reached); its next
   * touch misses, and no other entry's does. Returns whether the entry was there.
   */
  invalidate(key: number): boolean {
    if (!this.entries.delete(key)) return false;
    this.epoch++;
    return true;
  }

  /** CR3 reload without PCID: all non-global (user) entries go. */
  flushAll(): void {
    this.flushes++;
    this.epoch++;
    this.entries.clear();
    this.order.length = 0;
    this.head = 0;
    if (!this.pge) {
      this.kernelPages.clear();
      this.kernelValid = false;
    }
  }

  /** A kernel access to large page `lp`: true when its translation had to be walked again (no PGE). */
  touchKernel(lp: number): boolean {
    if (this.kernelPages.has(lp)) return false;
    this.kernelPages.add(lp);
    this.misses++;
    return true;
  }

  get size(): number {
    return this.entries.size;
  }
}
