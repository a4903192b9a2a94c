/**
 * Per-address-space memory: page protections (present/write/user) and the structured objects that
 * live in user memory (signal frames). Data values of ordinary words are kept sparse.
 */
export const PAGE_SIZE = 4096;
export const PAGE_SHIFT = 12;
export const PROT_READ = 1;
export const PROT_WRITE = 2;
export const PROT_EXEC = 4;

/** The i386 user layout the model uses (addresses as in a 2.4 process). */
export const USER_CODE_BASE = 0x08048000;
export const MMAP_BASE = 0x40000000;
export const STACK_TOP = 0xc0000000;
export const STACK_PAGES = 32;

export interface Vma {
  start: number;
  end: number;
  prot: number;
}

export class AddressSpace {
  /** page number -> prot bits; absent = not mapped */
  readonly pages = new Map<number, number>();
  readonly vmas: Vma[] = [];
  /** sparse word values written by user stores */
  readonly words = new Map<number, number>();
  /** signal frames living on user stacks, by address (structured contents of the frame bytes) */
  readonly frames = new Map<number, import("../kernel/task.js").SignalFrameK>();
  /** number of tasks sharing this mm (threads) */
  users = 1;
  private mmapNext = MMAP_BASE;

  constructor(readonly asid: number) {
    this.map(USER_CODE_BASE, 16 * PAGE_SIZE, PROT_READ | PROT_EXEC);
    this.map(STACK_TOP - STACK_PAGES * PAGE_SIZE, STACK_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC);
  }

  map(start: number, len: number, prot: number): void {
    const first = start >>> PAGE_SHIFT;
    const n = Math.ceil(len / PAGE_SIZE);
    for (let p = first; p < first + n; p++) this.pages.set(p, prot);
    this.vmas.push({ start, end: start + n * PAGE_SIZE, prot });
  }

  /** mmap(NULL, len, prot, MAP_ANONYMOUS|MAP_PRIVATE): returns the address. */
  mmapAnon(len: number, prot: number): number {
    const addr = this.mmapNext;
    const n = Math.max(1, Math.ceil(len / PAGE_SIZE));
    this.mmapNext += n * PAGE_SIZE;
    this.map(addr, n * PAGE_SIZE, prot);
    return addr;
  }

  /** Changes protections of whole pages; returns the number of PTEs rewritten, or -1 if unmapped. */
  protect(start: number, len: number, prot: number): number {
    const first = start >>> PAGE_SHIFT;
    const n = Math.max(1, Math.ceil(len / PAGE_SIZE));
    for (let p = first; p < first + n; p++) if (!this.pages.has(p)) return -1;
    for (let p = first; p < first + n; p++) this.pages.set(p, prot);
    for (const v of this.vmas) if (v.start <= start && start < v.end) v.prot = prot; // VMA split not modelled
    return n;
  }

  unmap(start: number, len: number): number {
    const first = start >>> PAGE_SHIFT;
    const n = Math.max(1, Math.ceil(len / PAGE_SIZE));
    for (let p = first; p < first + n; p++) this.pages.delete(p);
    return n;
  }

  protOf(addr: number): number | undefined {
    return this.pages.get(addr >>> PAGE_SHIFT);
  }

  /** fork(): a copy of the mappings and data (copy-on-write is not modelled: the copy is eager). */
  cloneInto(asid: number): AddressSpace {
    const c = new AddressSpace(asid);
    c.pages.clear();
    c.vmas.length = 0;
    for (const [p, prot] of this.pages) c.pages.set(p, prot);
    for (const v of this.vmas) c.vmas.push({ ...v });
    for (const [a, w] of this.words) c.words.set(a, w);
    c.mmapNext = this.mmapNext;
    return c;
  }
}
