/**
 * Page faults (arch/i386/mm/fault.c do_page_fault): a user access that misses the TLB refills it;
 * one the page's protection refuses traps (#PF). A write to a copy-on-write page is mm/memory.c's
 * do_wp_page; a plugin's PageFaultHook may take the fault; anything else is bad_area: SIGSEGV with
 * si_addr and the error code the CPU pushed.
 */
import { PAGE_SHIFT, PROT_WRITE } from "../../../machine/memory.js";
import { Tlb } from "../../../machine/tlb.js";
import type { KernelCore } from "../../../kernel/core.js";
import { force_sig_info, SEGV_ACCERR } from "../../../kernel/signal.js";
import type { Task } from "../../../kernel/task.js";
import { handle_mm_fault_wp } from "../../../mm/memory.js";

export const SEGV_MAPERR = 1;

/**
 * A user access to `addr`. Returns true if it completed; false if it faulted: either the kernel
 * resolved the fault (a write to a copy-on-write page) or a signal is now pending; the runtime
 * makes the exception return (which delivers a SIGSEGV) and then retries the access.
 */
export function user_access(k: KernelCore, t: Task, addr: number, write: boolean): boolean {
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
export function do_page_fault(k: KernelCore, t: Task, addr: number, write: boolean, code: number): void {
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
