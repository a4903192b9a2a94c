/** mprotect (mm/mprotect.c sys_mprotect, mprotect_fixup, change_protection). */
import { PAGE_SIZE, type MprotectFixup } from "../machine/memory.js";
import type { KernelCore } from "../kernel/core.js";
import { flush_tlb_range } from "../kernel/smp.js";
import { EINVAL, ENOMEM } from "../kernel/signal.js";
import type { Task } from "../kernel/task.js";

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
export function sys_mprotect(k: KernelCore, t: Task, addr: number, len: number, prot: number): number {
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
