/**
 * Mappings (mm/mmap.c): sys_mmap of anonymous memory, sys_munmap (do_munmap), and the mm's teardown
 * when its last user exits (kernel/exit.c __exit_mm -> mmput -> exit_mmap).
 */
import { PAGE_SIZE } from "../machine/memory.js";
import type { KernelCore } from "../kernel/core.js";
import { flush_tlb_mm } from "../kernel/smp.js";
import { EINVAL } from "../kernel/signal.js";
import type { Task } from "../kernel/task.js";

/**
 * do_exit's __exit_mm -> mmput: the last user of the mm runs exit_mmap (mm/mmap.c, 2.4): per vma
 * zap_page_range (zap_pte_range per PTE; __free_pages_ok for each frame whose count reaches 0;
 * tlb_finish_mmu -> flush_tlb_range, a CR3 reload since the exiting task's mm is still active),
 * kmem_cache_free of the vma; clear_page_tables; flush_tlb_mm. Other users (threads): only the
 * mm_users decrement.
 */
export function exit_mm(k: KernelCore, t: Task): void {
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

export function sys_mmap(k: KernelCore, t: Task, len: number, prot: number): number {
  k.run("sys_mmap");
  if (!(len > 0) || len > 0x40000000) return -EINVAL;
  return t.mm.mmapAnon(len, prot);
}

/** sys_munmap -> do_munmap: unmap_fixup, zap_page_range (one zap_pte_range per page), flush_tlb_range. */
export function sys_munmap(k: KernelCore, t: Task, addr: number, len: number): number {
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
