/** Page faults, mmap and mprotect (arch/i386/mm/fault.c, mm/mmap.c, mm/mprotect.c). */
import { PAGE_SHIFT, PAGE_SIZE, PROT_WRITE, type MprotectFixup } from "../machine/memory.js";
import { Tlb } from "../machine/tlb.js";
import type { Kernel } from "./kernel.js";
import { flush_tlb_mm, flush_tlb_page, flush_tlb_range } from "./smp.js";
import { force_sig_info, SEGV_ACCERR, EINVAL, ENOMEM } from "./signal.js";
import type { Task } from "./task.js";

export const SEGV_MAPERR = 1;

/**
 * A user access to `addr`. Returns true if it completed; false if it faulted: either the kernel
 * resolved the fault (a write to a copy-on-write page) or a signal is now pending; the runtime
 * makes the exception return (which delivers a SIGSEGV) and then retries the access.
 */
export function user_access(k: Kernel, t: Task, addr: number, write: boolean): boolean {
  const tlb = k.cpu.tlb;
  const prot = t.mm.protOf(addr);
  if (prot !== undefined && (!write || prot & PROT_WRITE) && !(write && t.mm.cow.has(addr >>> PAGE_SHIFT))) {
    if (tlb.touch(Tlb.key(t.mm.asid, addr >>> 12))) {
      k.run(t.handlerDepth > 0 ? "handler.tlb_refill" : "user_tlb_refill");
      k.count("tlb.misses");
    }
    return true;
  }
  do_page_fault(k, t, addr, write, prot === undefined ? SEGV_MAPERR : SEGV_ACCERR);
  return false;
}

/** #PF -> do_page_fault -> bad_area -> force_sig_info(SIGSEGV) with si_addr. */
export function do_page_fault(k: Kernel, t: Task, addr: number, write: boolean, code: number): void {
  k.count("faults.page");
  // the CPU drops the faulting page's translation (Intel SDM vol. 3A §4.10.4.1 in editions from
  // 2008: "a page-fault exception ... will invalidate any TLB entries that are for a page number
  // corresponding to that linear address"): the retried access walks the page tables again
  k.cpu.tlb.invalidate(Tlb.key(t.mm.asid, addr >>> 12));
  k.run("page_fault");
  // down_read(&mm->mmap_sem), find_vma: the mm_struct and the vma
  if (k.cpu.caches !== null) {
    const m = k.foot.mmOf(t.mm);
    k.touch(m.mm, true);
    k.touch(m.vma);
  }
  // good_area: a write the vma allows to a PTE fork write-protected
  if (write && code === SEGV_ACCERR && t.mm.cow.has(addr >>> PAGE_SHIFT)) {
    handle_mm_fault_wp(k, t, addr);
    return;
  }
  for (const h of k.deps.pageFaultHooks) {
    if (h.onPageFault(k, t, addr, write)) return;
  }
  k.run("bad_area");
  // the error code the CPU pushed: P (a protection fault on a present page; 0: no page), W/R, U/S
  const present = code === SEGV_ACCERR ? 1 : 0;
  t.fault = { trapno: 14, err: present | (write ? 2 : 0) | 4, cr2: addr };
  force_sig_info(k, 11, { signo: 11, errno: 0, code, addr }, t);
}

/**
 * do_page_fault's good_area for a write to a present, write-protected PTE in a writable vma
 * (arch/i386/mm/fault.c, mm/memory.c 2.4): handle_mm_fault -> handle_pte_fault -> do_wp_page. The
 * frame is reused when this mm is its only user (establish_pte: set_pte + flush_tlb_page), otherwise
 * copied: alloc_page, copy_user_highpage (4 KB, per cache line, as the kernel's other copies are
 * charged), break_cow's establish_pte, lru_cache_add, page_cache_release of the old frame. Then
 * min_flt++ and up_read; the caller returns from the exception and the store is re-executed.
 */
export function handle_mm_fault_wp(k: Kernel, t: Task, addr: number): void {
  k.run("handle_mm_fault");
  k.run("do_wp_page");
  const r = t.mm.breakCow(addr >>> PAGE_SHIFT);
  if (r === "reuse") {
    k.run("do_wp_page.reuse");
    k.count("mm.cow.reuse");
  } else {
    k.run("do_wp_page.copy");
    k.runN("copy.cow_page", Math.ceil(PAGE_SIZE / k.profile.cacheLineBytes));
    k.run("do_wp_page.break_cow");
    k.count("mm.cow.copy");
  }
  flush_tlb_page(k, t.mm, addr);
  k.run("do_page_fault.done");
}

/**
 * do_exit's __exit_mm -> mmput: the last user of the mm runs exit_mmap (mm/mmap.c, 2.4): per vma
 * zap_page_range (zap_pte_range per PTE; __free_pages_ok for each frame whose count reaches 0;
 * tlb_finish_mmu -> flush_tlb_range, a CR3 reload since the exiting task's mm is still active),
 * kmem_cache_free of the vma; clear_page_tables; flush_tlb_mm. Other users (threads): only the
 * mm_users decrement.
 */
export function exit_mm(k: Kernel, t: Task): void {
  k.run("exit_mm");
  if (--t.mm.users > 0) return;
  k.run("exit_mmap");
  const r = t.mm.exitMmap();
  for (const n of r.ptesPerVma) {
    k.run("exit_mmap.vma");
    k.runN("zap_pte_range", n);
    // the CR3 reload is charged per vma; the TLB and the other CPUs' (IPI) flush are done once, at
    // the end: after 2.4's first flush_tlb_others waited for them, a lazy CPU has left the mm
    k.run("tlb_finish_mmu");
  }
  k.runN("__free_pages_ok", r.freed);
  k.count("mm.exit.ptes", r.ptesPerVma.reduce((a, b) => a + b, 0));
  k.count("mm.exit.freed", r.freed);
  k.run("clear_page_tables");
  k.runN("clear_page_tables.pte", r.pageTables);
  k.run("exit_mmap.flush_tlb_mm");
  flush_tlb_mm(k, t.mm);
}

export function sys_mmap(k: Kernel, t: Task, len: number, prot: number): number {
  k.run("sys_mmap");
  if (!(len > 0) || len > 0x40000000) return -EINVAL;
  return t.mm.mmapAnon(len, prot);
}

/** The cost of each mprotect_fixup case (mm/mprotect.c). */
const FIXUP_PATHS: Record<MprotectFixup, readonly string[]> = {
  same: [],
  all: ["mprotect_fixup_all"],
  all_merged: ["mprotect_fixup_all.merge"],
  start: ["mprotect_fixup.split"],
  start_merged: ["mprotect_fixup_start.merge"],
  end: ["mprotect_fixup.split"],
  middle: ["mprotect_fixup.split", "mprotect_fixup.split"],
};

/**
 * sys_mprotect: for each vma in the range mprotect_fixup (split, rewrite or merge) and
 * change_protection (the PTEs, then flush_tlb_range — a full CR3 reload on i386 2.4, whose
 * flush_tlb_range is flush_tlb_mm; a kernel with a single-page flush ceiling, 6.x, invalidates
 * only the changed pages when they are few enough); a vma whose flags do not change costs
 * neither. Then the merge with the next vma, and up_write.
 */
export function sys_mprotect(k: Kernel, t: Task, addr: number, len: number, prot: number): number {
  if (addr % PAGE_SIZE !== 0) {
    k.run("sys_mprotect");
    return -EINVAL;
  }
  k.run("sys_mprotect");
  const r = t.mm.protect(addr, len, prot);
  if (r === -1) {
    k.run("up_write");
    return -ENOMEM;
  }
  for (const f of r.fixups) {
    k.run("mprotect_fixup");
    for (const p of FIXUP_PATHS[f]) k.run(p);
    k.count(`mm.mprotect_fixup.${f}`);
  }
  if (r.ptes > 0) {
    k.run("change_protection");
    k.runN("change_pte_range", r.ptes);
    k.run("flush_tlb_range");
    flush_tlb_range(k, t.mm, r.pages);
  }
  if (r.mergedNext) {
    k.run("sys_mprotect.merge_next");
    k.count("mm.vma_merges");
  }
  k.run("up_write");
  return 0;
}

/** sys_munmap -> do_munmap: unmap_fixup, zap_page_range (one zap_pte_range per page), flush_tlb_range. */
export function sys_munmap(k: Kernel, t: Task, addr: number, len: number): number {
  k.run("sys_munmap");
  if (addr % PAGE_SIZE !== 0) return -EINVAL;
  const n = t.mm.unmapPages(addr, len);
  k.runN("zap_pte_range", n.ptes);
  k.runN("__free_pages_ok", n.freed);
  k.run("flush_tlb_range");
  k.run("up_write");
  if (k.ncpus === 1) {
    k.cpu.tlb.flushAll();
    k.count("tlb.flushes");
  } else flush_tlb_mm(k, t.mm);
  return 0;
}
