/**
 * Per-address-space memory: page protections (present/write/user) and the structured objects that
 * live in user memory (signal frames). Data values of ordinary words are kept sparse. The machine
 * stores a frame as the kernel built it and never looks inside: `Frame` is the kernel's type
 * (SignalFrameK, arch/i386/sigframe.ts).
 */
export const PAGE_SIZE = 4096;
export const PAGE_SHIFT = 12;
export const PROT_READ = 1;
export const PROT_WRITE = 2;
export const PROT_EXEC = 4;

/** The i386 user layout the model uses (addresses as in a 2.4 process). */
export const USER_CODE_BASE = 0x08048000;
/**
 * the program's data segment (.got, .data, .bss): after its 16 pages of text, as ld lays out a small
 * ELF program. Like LIBC_TEXT_BASE, a TLB entry's address only: the address space does not map it
 * (fork copies no PTE for it; a workload's store there faults as on any unmapped page).
 */
export const USER_DATA_BASE = USER_CODE_BASE + 16 * PAGE_SIZE;
export const MMAP_BASE = 0x40000000;
/**
 * libc.so's syscall stubs. ld.so maps libraries from TASK_UNMAPPED_BASE (MMAP_BASE) up; the model
 * maps a workload's anonymous mmaps from there as if none were loaded, so libc's text is placed
 * just below, where no mapping of the model reaches (a TLB entry's address, never mapped).
 */
export const LIBC_TEXT_BASE = MMAP_BASE - 256 * PAGE_SIZE;
export const STACK_TOP = 0xc0000000;
export const STACK_PAGES = 32;

/**
 * The user pages a dynamically linked program touches on every pass of a loop of system calls:
 * the TLB entries it walks again after a CR3 write (kernel/sched.ts touchHotPages). Its text (the
 * loop, and the PLT in front of `.text` in the same R-X segment: i386 ELF ABI), the GOT each PLT
 * stub jumps through (`jmp *name@GOT`, in the data segment), libc.so's text (the syscall stub that
 * a blocked read() returns into: glibc's PSEUDO stubs touch no libc data on success), and the
 * stack page below `esp`. Globals beside the GOT share its page: a program's own layout (lmbench's
 * lat_ctx spreads 24 KB of .bss over more) is not modelled.
 */
export function loopPages(esp: number): number[] {
  return [USER_CODE_BASE >>> PAGE_SHIFT, USER_DATA_BASE >>> PAGE_SHIFT, LIBC_TEXT_BASE >>> PAGE_SHIFT, (esp - 4) >>> PAGE_SHIFT];
}

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

/**
 * A physical page frame (2.4's struct page): `count` is page_count, one reference per PTE that maps
 * it (get_page in copy_page_range, page_cache_release in zap_pte_range and do_wp_page).
 */
export class PageFrame {
  count = 1;
}

/** What exit_mmap tore down (mm/mmap.c, mm/memory.c): the charges follow these counts. */
export interface ExitMmapResult {
  /** PTEs zapped, per vma in list order (zap_page_range of each vma) */
  ptesPerVma: number[];
  /** frames whose count reached 0 (page_cache_release -> __free_pages_ok) */
  freed: number;
  /** page tables freed by clear_page_tables (one per 4 MB pgd slot that maps a page) */
  pageTables: number;
}

/** What do_wp_page did for a write to a copy-on-write PTE (mm/memory.c). */
export type WpResult = "reuse" | "copy";

export class AddressSpace<Frame extends object = object> {
  /** page number -> prot bits; absent = not mapped */
  readonly pages = new Map<number, number>();
  /** page number -> the frame its PTE maps (every mapped page is present in the model) */
  readonly pageFrames = new Map<number, PageFrame>();
  /**
   * Pages whose PTE copy_page_range write-protected (fork: private writable mappings, in parent and
   * child) although the vma allows writing: a write takes a page fault that do_wp_page resolves.
   */
  readonly cow = new Set<number>();
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
  private readonly frames = new Map<number, Frame | null>();
  private emptyFrames = 0;
  frameAt(address: number): Frame | undefined {
    return address & 7 ? undefined : (this.frames.get(address >>> 3) ?? undefined);
  }
  putFrame(address: number, f: Frame): void {
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
    for (let p = first; p < first + n; p++) {
      this.pages.set(p, prot);
      this.releaseFrame(p);
      this.pageFrames.set(p, new PageFrame());
    }
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
    for (let p = start >>> PAGE_SHIFT; p < end >>> PAGE_SHIFT; p++) {
      this.pages.set(p, prot);
      // 2.4 gives a private writable mapping PAGE_COPY PTEs (read-only): a frame another mm still
      // maps stays copy-on-write. (An unshared one is modelled writable at once, as before.)
      if (prot & PROT_WRITE && (this.pageFrames.get(p)?.count ?? 1) > 1) this.cow.add(p);
    }
    return out;
  }

  /** do_munmap: drop the pages and cut the range out of the vmas (unmap_fixup). Returns the pages unmapped. */
  unmap(start: number, len: number): number {
    return this.unmapPages(start, len).ptes;
  }

  /** do_munmap's page work: the PTEs zapped, and how many frames that freed (the rest are still mapped by another mm). */
  unmapPages(start: number, len: number): { ptes: number; freed: number } {
    const first = start >>> PAGE_SHIFT;
    const n = Math.max(1, Math.ceil(len / PAGE_SIZE));
    const end = start + n * PAGE_SIZE;
    let gone = 0;
    let freed = 0;
    for (let p = first; p < first + n; p++) {
      if (this.pages.delete(p)) gone++;
      if (this.releaseFrame(p)) freed++;
    }
    for (let j = this.vmas.length - 1; j >= 0; j--) {
      const v = this.vmas[j]!;
      if (v.end <= start || v.start >= end) continue;
      const pieces: Vma[] = [];
      if (v.start < start) pieces.push({ ...v, end: start });
      if (v.end > end) pieces.push({ ...v, start: end });
      this.vmas.splice(j, 1, ...pieces);
    }
    return { ptes: gone, freed };
  }

  protOf(addr: number): number | undefined {
    return this.pages.get(addr >>> PAGE_SHIFT);
  }

  /** Drop this mm's reference to the frame of page `p` (page_cache_release); true if it was freed. */
  private releaseFrame(p: number): boolean {
    const f = this.pageFrames.get(p);
    this.cow.delete(p);
    if (!f) return false;
    this.pageFrames.delete(p);
    return --f.count === 0;
  }

  /**
   * fork's dup_mmap -> copy_page_range (mm/memory.c, 2.4): the child's PTEs map the parent's frames
   * (get_page: count + 1 each) and "if it's a COW mapping, write protect it both in the parent and
   * the child" — every writable private PTE (the model's mappings are all private). Word values are
   * copied as data (each mm reads its own); the frames are what is shared.
   */
  cloneInto(asid: number): AddressSpace<Frame> {
    const c = new AddressSpace<Frame>(asid);
    c.pages.clear();
    c.pageFrames.clear();
    c.vmas.length = 0;
    for (const [p, prot] of this.pages) {
      c.pages.set(p, prot);
      let f = this.pageFrames.get(p);
      if (!f) this.pageFrames.set(p, (f = new PageFrame()));
      f.count++;
      c.pageFrames.set(p, f);
      if (prot & PROT_WRITE || this.cow.has(p)) {
        this.cow.add(p);
        c.cow.add(p);
      }
    }
    for (const v of this.vmas) c.vmas.push({ ...v });
    for (const [a, w] of this.words) c.words.set(a, w);
    c.mmapNext = this.mmapNext;
    return c;
  }

  /**
   * do_wp_page for a write to the COW page `p`: "reuse" when this mm holds the frame's only
   * reference (can_share_swap_page: page_count == 1; the PTE is made writable again), else "copy":
   * a new frame for this mm, the old one loses this reference (page_cache_release).
   */
  breakCow(p: number): WpResult {
    const f = this.pageFrames.get(p);
    this.cow.delete(p);
    if (!f || f.count === 1) return "reuse";
    f.count--;
    this.pageFrames.set(p, new PageFrame());
    return "copy";
  }

  /**
   * exit_mmap (mm/mmap.c, 2.4): zap_page_range over each vma (every PTE: the model's pages are all
   * present), then clear_page_tables. The mm is left empty.
   */
  exitMmap(): ExitMmapResult {
    const pageTables = new Set<number>();
    for (const p of this.pages.keys()) pageTables.add(p >>> 10); // 1024 PTEs per page table (2-level i386)
    const ptesPerVma: number[] = [];
    let freed = 0;
    for (const v of this.vmas) {
      let n = 0;
      for (let p = v.start >>> PAGE_SHIFT; p < v.end >>> PAGE_SHIFT; p++) {
        if (!this.pages.delete(p)) continue;
        n++;
        if (this.releaseFrame(p)) freed++;
      }
      ptesPerVma.push(n);
    }
    // pages outside every vma (none in the model) still go
    for (const p of [...this.pages.keys()]) {
      this.pages.delete(p);
      if (this.releaseFrame(p)) freed++;
    }
    this.vmas.length = 0;
    this.words.clear();
    return { ptesPerVma, freed, pageTables: pageTables.size };
  }
}
