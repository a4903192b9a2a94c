/** Copy-on-write (mm/memory.c handle_mm_fault -> handle_pte_fault -> do_wp_page). */
import { PAGE_SHIFT, PAGE_SIZE } from "../machine/memory.js";
import type { KernelCore } from "../kernel/core.js";
import { flush_tlb_page } from "../kernel/smp.js";
import type { Task } from "../kernel/task.js";

/**
 * do_page_fault's good_area for a write to a present, write-protected PTE in a writable vma
 * (arch/i386/mm/fault.c, mm/memory.c 2.4): handle_mm_fault -> handle_pte_fault -> do_wp_page. The
 * frame is reused when this mm is its only user (establish_pte: set_pte + flush_tlb_page), otherwise
 * copied: alloc_page, copy_user_highpage (4 KB, per cache line, as the kernel's other copies are
 * charged), break_cow's establish_pte, lru_cache_add, page_cache_release of the old frame. Then
 * min_flt++ and up_read; the caller returns from the exception and the store is re-executed.
 */
export function handle_mm_fault_wp(k: KernelCore, t: Task, addr: number): void {
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
