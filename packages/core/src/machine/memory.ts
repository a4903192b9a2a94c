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
  /** a file or MAP_SHARED mapping: 2.4 never merges it with a neighbour (can_vma_merge needs !vm_file, !VM_SHARED) */
  noMerge?: boolean;
}

/** What mprotect_fixup did to one vma (its cost depends on it: mm/mprotect.c). */
export type MprotectFixup =
  | "same" // newflags == vm_flags: nothing to do, not even change_protection
  | "all" // the whole vma: flags rewritten in place
  | "all_merged" // the whole vma, merged into prev (kmem_cache_free)
  | "start" // split at the end of the range: one new vma (kmem_cache_alloc)
  | "start_merged" // the head moved into prev: no allocation
  | "end" // split at the start of the range: one new vma
  | "middle"; // split twice: two new vmas

export interface MprotectResult {
  fixups: MprotectFixup[];
  /** the last vma merged with the next one (sys_mprotect's tail: kmem_cache_free) */
  mergedNext: boolean;
  /** PTEs change_protection rewrote (pages of the vmas whose flags changed) */
  ptes: number;
  /** the page numbers of those PTEs, in order (what a per-page TLB flush invalidates) */
  pages: number[];
}

export class AddressSpace {
  /** page number -> prot bits; absent = not mapped */
  readonly pages = new Map<number, number>();
  readonly vmas: Vma[] = [];
  /** sparse word values written by user stores */
  readonly words = new Map<number, number>();
  /**
   * Signal frames living on user stacks (structured contents of the frame bytes), keyed by address
   * / 8: get_sigframe aligns frames to 8 bytes, and a user-stack address itself is above 2^30,
   * too large for a small integer, so every lookup would box a number. sigreturn empties a slot
   * rather than deleting it (a Map that goes from one entry to none and back reallocates its table
   * on every signal); empty slots are swept once there are many (frames at many addresses).
   */
  private readonly frames = new Map<number, import("../kernel/task.js").SignalFrameK | null>();
  private emptyFrames = 0;
  frameAt(address: number): import("../kernel/task.js").SignalFrameK | undefined {
    return address & 7 ? undefined : (this.frames.get(address >>> 3) ?? undefined);
  }
  putFrame(address: number, f: import("../kernel/task.js").SignalFrameK): void {
    if (address & 7) throw new Error(`signal frame at ${address.toString(16)}: not 8-byte aligned`);
    if (this.frames.get(address >>> 3) === null) this.emptyFrames--;
    this.frames.set(address >>> 3, f);
  }
  dropFrame(address: number): void {
    const key = address >>> 3;
    if (address & 7 || !this.frames.get(key)) return;
    this.frames.set(key, null);
    if (++this.emptyFrames > 256) {
      for (const [k, v] of this.frames) if (v === null) this.frames.delete(k);
      this.emptyFrames = 0;
    }
  }
  /** number of tasks sharing this mm (threads) */
  users = 1;
  private mmapNext = MMAP_BASE;

  constructor(readonly asid: number) {
    this.map(USER_CODE_BASE, 16 * PAGE_SIZE, PROT_READ | PROT_EXEC);
    this.map(STACK_TOP - STACK_PAGES * PAGE_SIZE, STACK_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC);
  }

  map(start: number, len: number, prot: number, noMerge = false): void {
    const first = start >>> PAGE_SHIFT;
    const n = Math.ceil(len / PAGE_SIZE);
    for (let p = first; p < first + n; p++) this.pages.set(p, prot);
    const v: Vma = { start, end: start + n * PAGE_SIZE, prot };
    if (noMerge) v.noMerge = true;
    // the vma list is sorted by address (find_vma walks it in order)
    let i = this.vmas.length;
    while (i > 0 && this.vmas[i - 1]!.start > start) i--;
    this.vmas.splice(i, 0, v);
  }

  /** mmap(NULL, len, prot, MAP_ANONYMOUS|MAP_PRIVATE): returns the address. */
  mmapAnon(len: number, prot: number): number {
    const addr = this.mmapNext;
    const n = Math.max(1, Math.ceil(len / PAGE_SIZE));
    this.mmapNext += n * PAGE_SIZE;
    this.map(addr, n * PAGE_SIZE, prot);
    return addr;
  }

  /**
   * sys_mprotect's vma work (mm/mprotect.c, 2.4): for each vma in [start, start+len), mprotect_fixup
   * splits it where the range starts or ends inside it, or rewrites it whole, merging with prev
   * where can_vma_merge allows; then the last one may merge with next. Returns what it did, or -1
   * when part of the range is not mapped (-ENOMEM).
   */
  protect(start: number, len: number, prot: number): MprotectResult | -1 {
    const n = Math.max(1, Math.ceil(len / PAGE_SIZE));
    const end = start + n * PAGE_SIZE;
    let i = this.vmas.findIndex((v) => v.end > start);
    if (i < 0 || this.vmas[i]!.start > start) return -1;
    // the range must be covered without holes
    for (let j = i, at = start; at < end; j++) {
      const v = this.vmas[j];
      if (!v || v.start !== at && j !== i) return -1;
      at = v.end;
    }
    const out: MprotectResult = { fixups: [], mergedNext: false, ptes: 0, pages: [] };
    const mergeable = (a: Vma | undefined, flags: number): a is Vma => !!a && !a.noMerge && a.prot === flags;
    let prev: Vma | undefined = this.vmas[i - 1];
    for (let nstart = start; nstart < end; ) {
      const vma = this.vmas[i]!;
      const fend = Math.min(vma.end, end);
      if (vma.prot === prot) {
        out.fixups.push("same");
        prev = vma;
        i++;
        nstart = fend;
        continue;
      }
      out.ptes += (fend - nstart) / PAGE_SIZE;
      for (let p = nstart >>> PAGE_SHIFT; p < fend >>> PAGE_SHIFT; p++) out.pages.push(p);
      const withPrev = prev !== undefined && prev.end === vma.start && mergeable(prev, prot) && !vma.noMerge;
      if (nstart === vma.start && fend === vma.end) {
        if (withPrev) {
          prev!.end = vma.end;
          this.vmas.splice(i, 1);
          out.fixups.push("all_merged");
        } else {
          vma.prot = prot;
          prev = vma;
          i++;
          out.fixups.push("all");
        }
      } else if (nstart === vma.start) {
        if (withPrev) {
          prev!.end = fend;
          vma.start = fend;
          out.fixups.push("start_merged");
        } else {
          const head: Vma = { ...vma, end: fend, prot };
          vma.start = fend;
          this.vmas.splice(i, 0, head);
          prev = head;
          i++;
          out.fixups.push("start");
        }
        // the rest of this vma is outside the range
      } else if (fend === vma.end) {
        const tail: Vma = { ...vma, start: nstart, prot };
        vma.end = nstart;
        this.vmas.splice(i + 1, 0, tail);
        prev = tail;
        i += 2;
        out.fixups.push("end");
      } else {
        const right: Vma = { ...vma, start: fend };
        const left: Vma = { ...vma, end: nstart };
        vma.start = nstart;
        vma.end = fend;
        vma.prot = prot;
        this.vmas.splice(i, 1, left, vma, right);
        prev = vma;
        i += 2;
        out.fixups.push("middle");
      }
      nstart = fend;
    }
    // "if (next && prev->vm_end == next->vm_start && can_vma_merge(next, prev->vm_flags) && ...)"
    const next = this.vmas[i];
    if (prev && next && prev.end === next.start && mergeable(next, prev.prot) && !prev.noMerge) {
      prev.end = next.end;
      this.vmas.splice(i, 1);
      out.mergedNext = true;
    }
    for (let p = start >>> PAGE_SHIFT; p < end >>> PAGE_SHIFT; p++) this.pages.set(p, prot);
    return out;
  }

  /** do_munmap: drop the pages and cut the range out of the vmas (unmap_fixup). Returns the pages unmapped. */
  unmap(start: number, len: number): number {
    const first = start >>> PAGE_SHIFT;
    const n = Math.max(1, Math.ceil(len / PAGE_SIZE));
    const end = start + n * PAGE_SIZE;
    let gone = 0;
    for (let p = first; p < first + n; p++) if (this.pages.delete(p)) gone++;
    for (let j = this.vmas.length - 1; j >= 0; j--) {
      const v = this.vmas[j]!;
      if (v.end <= start || v.start >= end) continue;
      const pieces: Vma[] = [];
      if (v.start < start) pieces.push({ ...v, end: start });
      if (v.end > end) pieces.push({ ...v, start: end });
      this.vmas.splice(j, 1, ...pieces);
    }
    return gone;
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
