/**
 * Linux 6.1–6.5's mprotect(2) and the SIGSEGV branch of the x86-64 page fault, op by op, in place
 * of the core's 2.4 paths (mm/mprotect.c's sys_mprotect with mprotect_fixup_start/_end/_middle,
 * the rb-tree VMA code of mm/mmap.c, flush_tlb_range's CR3 reload, arch/i386/mm/fault.c's
 * bad_area). The core's mechanism stays (core mm/ and arch/i386/mm/fault.ts: which VMAs are split
 * or merged, how many PTEs change, the simulated TLB flush, when the fault happens and the signal
 * it sends); what changes is what each of its paths runs:
 *
 * - `sys_mprotect`: __x64_sys_mprotect -> do_mprotect_pkey up to its VMA loop: the argument checks,
 *   mmap_write_lock_killable (down_write_killable), vma_iter_init + vma_find (a maple-tree walk,
 *   mas_find), vma_prev (mas_prev), tlb_gather_mmu.
 * - `mprotect_fixup` (once per VMA in the range): the loop body of do_mprotect_pkey
 *   (for_each_vma_range's vma_find, calc_vm_prot_bits, map_deny_write_exec, the LSM hook
 *   security_file_mprotect) and mprotect_fixup up to vma_merge's test of prev and next, plus
 *   mprotect_fixup's tail after the merge or split (vma_start_write, vm_flags_reset,
 *   vma_set_page_prot, vm_stat_account twice, perf_event_mmap): 6.x runs that tail once per VMA
 *   whichever case it took, so it sits here and not in the per-case paths.
 * - `mprotect_fixup_all` / `mprotect_fixup_all.merge` / `mprotect_fixup_start.merge` /
 *   `mprotect_fixup.split`: what vma_merge commits (vma_prepare, vma_iter_store into the maple
 *   tree, vma_complete, the removed VMA freed through call_rcu) or what __split_vma does
 *   (vm_area_dup, anon_vma_clone, mas_preallocate, vma_iter_store of the new VMA).
 * - `sys_mprotect.merge_next`: 2.4 merged the last VMA with the next one after the loop; 6.x's
 *   vma_merge does it in the same call that merges prev (prev, the VMA and next become one): this
 *   path holds the part of that merge that concerns next (its write lock, the wider maple-tree
 *   store, the second removal).
 * - `change_protection` (once per mprotect in the core; per VMA in 6.x): change_protection ->
 *   change_protection_range -> the p4d/pud/pmd walk -> change_pte_range's setup
 *   (pte_offset_map_lock) and, ahead of the core's per-page path, its teardown (pte_unmap_unlock,
 *   cond_resched, mmu_notifier_invalidate_range_end).
 * - `change_pte_range` (once per page): the loop body (ptep_modify_prot_start's xchg, pte_modify,
 *   the writable upgrade, ptep_modify_prot_commit, tlb_flush_pte_range) and the page's INVLPG of
 *   flush_tlb_func's partial flush (flush_tlb_one_user; with PTI also the user PCID's entry), which
 *   6.x runs later, in the flush: it is charged here because only this path runs once per page.
 * - `flush_tlb_range` (after the PTEs; munmap runs it too): tlb_end_vma -> tlb_flush_mmu_tlbonly
 *   -> tlb_flush -> flush_tlb_mm_range (the tlb_single_page_flush_ceiling = 33 test, inc_mm_tlb_gen,
 *   the local flush_tlb_func with IRQs off) — 6.x flushes at the VMA's end (x86 does not select
 *   CONFIG_MMU_GATHER_MERGE_VMAS), not at tlb_finish_mmu.
 * - `up_write`: for_each_vma_range's last vma_find, tlb_finish_mmu (nothing left to flush), then
 *   mmap_write_unlock.
 * - `bad_area`: do_user_addr_fault's access_error -> bad_area_access_error -> __bad_area
 *   (mmap_read_unlock) -> __bad_area_nosemaphore (is_prefetch's read of the faulting instruction,
 *   set_signal_archinfo) -> force_sig_fault -> force_sig_info_to_task up to send_signal_locked
 *   (the siglock and the send are linux6's send_sig_info path, run next by the core).
 *
 * The simulated TLB follows flush_tlb_mm_range: linux6 sets the core's single-page flush ceiling
 * to tlb_single_page_flush_ceiling (TLB_SINGLE_PAGE_FLUSH_CEILING, 33; k.mm.setTlbFlushCeiling at
 * kernel setup), so an mprotect of up to 33 pages evicts only those pages' entries (the next
 * touch of each misses; the task's other hot pages stay), and a larger one flushes the whole TLB.
 *
 * Not modelled: ranges above tlb_single_page_flush_ceiling are still charged one INVLPG per page
 * in change_pte_range and no CR3 write (6.x: flush_tlb_local's full flush; the TLB state itself is
 * flushed whole, only the ops charged are the partial flush's); the "same" case (flags
 * unchanged) is charged the vma_merge test and the tail, which 6.x skips; the fault's lock and
 * VMA lookup (lock_vma_under_rcu in 6.4+, mmap_read_trylock + find_vma) are the core's
 * `page_fault` path, which linux6 only prefixes with the 6.x entry.
 *
 * Sources read: mm/mprotect.c of a 6.6-era tree (do_mprotect_pkey with vma_iter_init/vma_find/
 * vma_prev and for_each_vma_range, mprotect_fixup with vma_merge/split_vma, vma_start_write,
 * vm_flags_reset, change_protection_range -> change_pte_range with pte_offset_map_lock and
 * ptep_modify_prot_start/commit, tlb_finish_mmu), the 2023 maple-tree patches of
 * do_mprotect_pkey (mas_find -> vma_find), and arch/x86/mm/tlb.c's flush_tlb_mm_range and
 * tlb_single_page_flush_ceiling = 33. From memory of 6.1–6.5: vma_merge/__split_vma/vma_prepare/
 * vma_complete (mm/mmap.c), the maple tree's walk and store (lib/maple_tree.c), tlb_end_vma and
 * tlb_flush (include/asm-generic/tlb.h, arch/x86/include/asm/tlb.h), flush_tlb_func's partial
 * flush, arch/x86/mm/fault.c, kernel/signal.c's force_sig_info_to_task. Counts marked "estimated"
 * are instruction counts not read off the source.
 */
import { op, type OpLine, type PathTransform } from "@siglab/plugin-api";
import { replace } from "./defs.js";
import type { Mitigations } from "./mitigations.js";

/** arch/x86/mm/tlb.c: flush_tlb_mm_range invalidates page by page up to this many pages, else flushes all. */
export const TLB_SINGLE_PAGE_FLUSH_CEILING = 33;

/** The core paths this file replaces (core mm/ and arch/i386/mm/fault.ts run them). */
export const MM_PATH_NAMES = [
  "sys_mprotect",
  "mprotect_fixup",
  "mprotect_fixup_all",
  "mprotect_fixup_all.merge",
  "mprotect_fixup_start.merge",
  "mprotect_fixup.split",
  "sys_mprotect.merge_next",
  "change_protection",
  "change_pte_range",
  "flush_tlb_range",
  "up_write",
  "bad_area",
] as const;
export type MmPathName = (typeof MM_PATH_NAMES)[number];

const EST = "(estimated)";

/** A maple-tree walk from the root to the leaf holding an address (a process has a few dozen VMAs: height 2). */
function mapleWalk(fn: string, what: string): OpLine[] {
  return [
    op(fn, "call", 1, `${what}: mas_walk -> mas_start (mt->ma_root) -> mtree_range_walk`),
    op("mtree_range_walk", "load", 8, "per level: the node's type and pivots, then the slot (two levels) (estimated)"),
    op("mtree_range_walk", "alu", 14, "the pivot scan: index > pivot[i]? down the levels, then the entry's range (estimated)"),
  ];
}

/** vma_start_write (6.4+, CONFIG_PER_VMA_LOCK): take and release vma->vm_lock once per write-locked VMA and mmap_lock hold. */
function vmaStartWrite(what: string): OpLine[] {
  return [
    op("vma_start_write", "load", 2, `${what}: __is_vma_write_locked: vma->vm_lock_seq == mm->mm_lock_seq? (no: first write this hold)`),
    op("vma_start_write", "locked_op", 2, "down_write(&vma->vm_lock->lock); WRITE_ONCE(vma->vm_lock_seq, mm_lock_seq); up_write (6.4+; 6.1–6.3 have no per-VMA lock; from memory)"),
    op("vma_start_write", "store", 1, "vma->vm_lock_seq = mm_lock_seq"),
  ];
}

/** mas_store_prealloc of one VMA's range: the leaf node rewritten from the preallocated nodes (estimated). */
function mapleStore(what: string): OpLine[] {
  return [
    op("vma_iter_store", "call", 1, `${what}: vma_iter_store -> mas_store_prealloc -> mas_wr_store_entry`),
    op("mas_wr_store_entry", "alu", 10, "mas_wr_walk to the slot; which store: slot store, node store or a new node (estimated)"),
    op("mas_wr_node_store", "load", 12, "the leaf's pivots and slots copied into the new node (maple_range_64: 16 slots) (estimated)"),
    op("mas_wr_node_store", "store", 14, "the new node's pivots and slots, the parent's slot (rcu_assign_pointer), the old node to mas_free (estimated)"),
  ];
}

/** mas_preallocate before a tree change, mas_destroy of the unused nodes after it. */
function mapleprealloc(): OpLine[] {
  return [
    op("vma_iter_prealloc", "alu", 6, "mas_preallocate: mas_wr_store_type / the node count the worst case needs (height * 3 + 1) (estimated)"),
    op("mas_alloc_nodes", "slab_alloc", 2, "kmem_cache_alloc_bulk(maple_node_cache, ...): the nodes at once (two slab events: estimated)"),
    op("mas_destroy", "slab_alloc", 2, "the unused preallocated nodes back with kmem_cache_free_bulk (estimated)"),
  ];
}

/** vma_prepare / vma_complete around a change of an anonymous VMA (its anon_vma locked, its interval-tree node moved). */
function vmaPrepareComplete(): OpLine[] {
  return [
    op("init_vma_prep", "store", 6, "vp: vma, anon_vma = vma->anon_vma, file, remove, remove2, insert"),
    op("vma_prepare", "locked_op", 1, "anon_vma_lock_write(vp->anon_vma): down_write(&anon_vma->root->rwsem)"),
    op("anon_vma_interval_tree_pre_update_vma", "alu", 10, "each anon_vma_chain of the VMA (one): anon_vma_interval_tree_remove (estimated)"),
    op("vma_adjust_trans_huge", "alu", 2, "no THP in range (4 KiB pages)"),
    op("anon_vma_interval_tree_post_update_vma", "alu", 10, "anon_vma_interval_tree_insert of the chain again (estimated)"),
    op("vma_complete", "locked_op", 1, "anon_vma_unlock_write: up_write(&anon_vma->root->rwsem)"),
    op("vma_complete", "alu", 4, "vp->file? vp->remove? vp->insert? khugepaged_enter_vma (estimated)"),
  ];
}

/** The removal of a merged-away VMA in vma_complete. */
function vmaRemove(what: string): OpLine[] {
  return [
    op("vma_complete", "call", 1, `${what}: anon_vma_merge(vp->vma, vp->remove) -> unlink_anon_vmas(vp->remove)`),
    op("unlink_anon_vmas", "alu", 10, "the chain's anon_vma_interval_tree_remove, list_del (estimated)"),
    op("anon_vma_chain_free", "slab_alloc", 1, "kmem_cache_free(anon_vma_chain_cachep, avc)"),
    op("vma_complete", "store", 1, "mm->map_count--"),
    op("vm_area_free", "alu", 6, "mpol_put(vma_policy(remove)); vm_area_free -> call_rcu(&vma->vm_rcu, vm_area_free_rcu_cb) (6.4+ with CONFIG_PER_VMA_LOCK) (estimated)"),
    op("vm_area_free_rcu_cb", "slab_alloc", 1, "after the grace period: kmem_cache_free(vm_area_cachep, vma) (and its vm_lock)"),
  ];
}

function sysMprotect(): OpLine[] {
  return [
    op("__x64_sys_mprotect", "alu", 3, "do_mprotect_pkey(regs->di, regs->si, regs->dx, -1)"),
    op("do_mprotect_pkey", "alu", 12, "untagged_addr(start); grows; start & ~PAGE_MASK; !len; len = PAGE_ALIGN(len); end <= start; arch_validate_prot; reqprot = prot (estimated)"),
    op("mmap_write_lock_killable", "call", 1, "__mmap_lock_trace_start_locking (tracepoint off); down_write_killable(&mm->mmap_lock)"),
    op("down_write_killable", "alu", 2, "might_sleep(): __cond_resched: should_resched(0)? (no)"),
    op("__down_write_trylock", "locked_op", 1, "atomic_long_try_cmpxchg_acquire(&sem->count, &tmp, RWSEM_WRITER_LOCKED): uncontended"),
    op("rwsem_set_owner", "store", 1, "sem->owner = current"),
    op("do_mprotect_pkey", "alu", 2, "pkey != -1? (mprotect: no)"),
    op("vma_iter_init", "store", 4, "the ma_state: tree = &mm->mm_mt, index = last = start, node = MAS_START"),
    ...mapleWalk("vma_find", "vma_find(&vmi, end) -> mas_find"),
    op("do_mprotect_pkey", "alu", 4, "!vma; grows & PROT_GROWSDOWN?; vma->vm_start > start?; PROT_GROWSUP?"),
    op("vma_prev", "load", 4, "mas_prev: the previous slot of the same leaf"),
    op("vma_prev", "alu", 6, "mas_prev_slot: the slot index back, its entry (estimated)"),
    op("do_mprotect_pkey", "alu", 1, "start > vma->vm_start: prev = vma"),
    op("__tlb_gather_mmu", "store", 10, "tlb->mm, fullmm = 0, need_flush_all, local.next/nr/max, active = &local, batch_count; __tlb_reset_range: start = TASK_SIZE, end = 0, freed_tables, cleared_* (estimated)"),
    op("inc_tlb_flush_pending", "locked_op", 1, "atomic_inc(&mm->tlb_flush_pending)"),
    op("do_mprotect_pkey", "alu", 2, "nstart = start; tmp = vma->vm_start"),
  ];
}

function mprotectFixup(): OpLine[] {
  return [
    // do_mprotect_pkey's loop body
    op("vma_find", "load", 4, "for_each_vma_range(vmi, vma, end): mas_find from prev's slot to this VMA's (estimated)"),
    op("vma_find", "alu", 6, "the next slot's range below end? (estimated)"),
    op("do_mprotect_pkey", "load", 2, "vma->vm_start, vma->vm_flags"),
    op("do_mprotect_pkey", "alu", 6, "vma->vm_start != tmp?; rier && VM_MAYEXEC?; mask_off_old_flags = VM_ACCESS_FLAGS | VM_FLAGS_CLEAR"),
    op("arch_override_mprotect_pkey", "alu", 4, "pkey == -1: vma_pkey(vma) unless PROT_EXEC-only (x86 pkeys) (estimated)"),
    op("calc_vm_prot_bits", "alu", 5, "PROT_READ/WRITE/EXEC -> VM_READ/WRITE/EXEC, arch_calc_vm_prot_bits (the pkey bits); newflags |= vm_flags & ~mask_off_old_flags"),
    op("do_mprotect_pkey", "alu", 3, "(newflags & ~(newflags >> 4)) & VM_ACCESS_FLAGS: asking beyond VM_MAY*? (-EACCES)"),
    op("map_deny_write_exec", "alu", 2, "MMF_HAS_MDWE? (6.3+; off) (from memory)"),
    op("do_mprotect_pkey", "alu", 1, "arch_validate_flags(newflags)"),
    op("security_file_mprotect", "load", 2, "call_int_hook(file_mprotect, 0, vma, reqprot, prot): security_hook_heads.file_mprotect (AppArmor's entry)"),
    op("security_file_mprotect", "call_indirect", 1, "apparmor_file_mprotect(vma, reqprot, prot) -> common_mmap(OP_FMPROT, vma->vm_file, prot, MAP_PRIVATE)"),
    op("common_mmap", "alu", 2, "!file: return 0 (an anonymous VMA)"),
    op("ima_file_mprotect", "alu", 3, "!vma->vm_file || !(prot & PROT_EXEC): return 0 (called by security_file_mprotect before 6.9) (from memory)"),
    op("do_mprotect_pkey", "alu", 4, "tmp = vma->vm_end, clamped to end; vma->vm_ops && vma->vm_ops->mprotect? (anonymous: no vm_ops)"),
    // mprotect_fixup up to vma_merge's verdict
    op("do_mprotect_pkey", "call", 1, "mprotect_fixup(&vmi, &tlb, vma, &prev, nstart, tmp, newflags)"),
    op("mprotect_fixup", "alu", 4, "nrpages = (end - start) >> PAGE_SHIFT; newflags == oldflags?; arch_has_pfn_modify_check() && VM_PFNMAP|VM_MIXEDMAP?"),
    op("may_expand_vm", "alu", 5, "newflags & VM_WRITE: may_expand_vm(mm, newflags, nrpages) (the RW call; the RO one skips it: charged on both, estimated); oldflags has VM_ACCOUNT: nothing charged"),
    op("mprotect_fixup", "alu", 3, "pgoff = vma->vm_pgoff + ((start - vma->vm_start) >> PAGE_SHIFT)"),
    op("mprotect_fixup", "call", 1, "vma_merge(vmi, mm, *pprev, start, end, newflags, vma->anon_vma, vma->vm_file, pgoff, vma_policy(vma), vma->vm_userfaultfd_ctx, anon_vma_name(vma))"),
    op("vma_merge", "alu", 4, "VM_SPECIAL?; curr = find_vma_intersection(mm, prev ? prev->vm_end : 0, end) (from memory)"),
    ...mapleWalk("vma_lookup", "curr->vm_end == end: next = vma_lookup(mm, end)"),
    op("can_vma_merge_after", "load", 6, "prev: vm_end == addr, vm_flags, vm_file, vm_ops, vm_userfaultfd_ctx, anon_vma_name; its anon_vma and pgoff"),
    op("is_mergeable_vma", "alu", 10, "(vm_flags ^ newflags) & ~VM_SOFTDIRTY; file; vm_ops->close; userfaultfd ctx; anon_vma_name; is_mergeable_anon_vma; pgoff adjacency (estimated)"),
    op("can_vma_merge_before", "load", 6, "next: vm_start == end, the same fields"),
    op("is_mergeable_vma", "alu", 10, "the same tests against next (estimated)"),
    // mprotect_fixup's tail (after vma_merge or split_vma)
    ...vmaStartWrite("mprotect_fixup: vma_start_write(vma)"),
    op("vm_flags_reset", "store", 1, "vma_assert_write_locked; ACCESS_PRIVATE(vma, __vm_flags) = newflags"),
    op("vma_wants_manual_pte_write_upgrade", "alu", 2, "VM_SHARED? (no): !!(vm_flags & VM_WRITE): MM_CP_TRY_CHANGE_WRITABLE on the RW call"),
    op("vma_set_page_prot", "load", 1, "vm_get_page_prot(vm_flags): protection_map[vm_flags & 0xf]"),
    op("vma_set_page_prot", "alu", 5, "pgprot_modify with arch_vm_get_page_prot; vma_wants_writenotify(vma, vm_page_prot): !VM_SHARED: no"),
    op("vma_set_page_prot", "store", 1, "WRITE_ONCE(vma->vm_page_prot, vm_page_prot)"),
    op("mprotect_fixup", "call", 1, "change_protection(tlb, vma, start, end, mm_cp_flags): the core's change_protection path, run after the VMA loop"),
    op("mprotect_fixup", "alu", 2, "(oldflags & (VM_WRITE | VM_SHARED | VM_LOCKED)) == VM_LOCKED? (no populate)"),
    op("vm_stat_account", "load", 2, "vm_stat_account(mm, oldflags, -nrpages), then (mm, newflags, nrpages): mm->total_vm, mm->data_vm"),
    op("vm_stat_account", "alu", 8, "is_exec_mapping? is_stack_mapping? is_data_mapping? twice"),
    op("vm_stat_account", "store", 4, "WRITE_ONCE(mm->total_vm, ...); mm->data_vm += ..., twice"),
    op("perf_event_mmap", "load", 1, "atomic_read(&nr_mmap_events)"),
    op("perf_event_mmap", "alu", 1, "no perf mmap listeners: return"),
    op("do_mprotect_pkey", "alu", 3, "error?; tmp = vma_iter_end(&vmi); nstart = tmp; prot = reqprot"),
  ];
}

function fixupAll(): OpLine[] {
  return [op("mprotect_fixup", "alu", 3, "vma_merge found nothing: *pprev = vma; start != vma->vm_start? end != vma->vm_end? (neither: no split)")];
}

function fixupAllMerge(): OpLine[] {
  return [
    op("vma_merge", "alu", 4, "merge_prev: prev->vm_end == addr and can_vma_merge_after; the VMA is removed (vp.remove = curr), prev grows to end"),
    ...vmaStartWrite("vma_start_write(prev)"),
    ...vmaStartWrite("vma_start_write(curr)"),
    ...mapleprealloc(),
    ...vmaPrepareComplete(),
    op("vma_merge", "store", 2, "prev->vm_end = end (vma_expand's range); vma_iter_set"),
    ...mapleStore("vma_iter_store(vmi, prev) over the removed VMA's range"),
    ...vmaRemove("the merged VMA"),
    op("vma_merge", "alu", 3, "validate_mm (CONFIG_DEBUG_VM_MAPLE_TREE off); khugepaged_enter_vma(res, vm_flags); return prev (estimated)"),
    op("mprotect_fixup", "alu", 2, "*pprev: vma = *pprev; goto success"),
  ];
}

function fixupStartMerge(): OpLine[] {
  return [
    op("vma_merge", "alu", 4, "merge_prev, the range ends inside curr: prev grows to end, curr starts at end (vma_merge's adjust case)"),
    ...vmaStartWrite("vma_start_write(prev)"),
    ...vmaStartWrite("vma_start_write(curr)"),
    ...mapleprealloc(),
    ...vmaPrepareComplete(),
    op("vma_merge", "store", 3, "prev->vm_end = end; curr->vm_start = end; curr->vm_pgoff += adj_start >> PAGE_SHIFT"),
    ...mapleStore("vma_iter_store(vmi, prev) over the head of curr"),
    op("mprotect_fixup", "alu", 2, "*pprev: vma = *pprev; goto success"),
  ];
}

function splitVma(): OpLine[] {
  return [
    op("mprotect_fixup", "call", 1, "split_vma(vmi, vma, start, 1) or split_vma(vmi, vma, end, 0) -> __split_vma"),
    op("__split_vma", "alu", 3, "vma->vm_ops && vma->vm_ops->may_split? (anonymous: no vm_ops)"),
    op("vm_area_dup", "slab_alloc", 1, "kmem_cache_alloc(vm_area_cachep, GFP_KERNEL)"),
    op("vm_area_dup", "load", 23, "data_race(memcpy(new, orig, sizeof(*new))): struct vm_area_struct, ~184 bytes (estimated)"),
    op("vm_area_dup", "store", 23),
    op("vma_lock_alloc", "slab_alloc", 1, "kmem_cache_alloc(vma_lock_cachep) and init_rwsem (6.4+ CONFIG_PER_VMA_LOCK) (from memory)"),
    op("vm_area_dup", "store", 5, "vma_lock's rwsem init; vm_lock_seq = -1; INIT_LIST_HEAD(&new->anon_vma_chain); vma_numab_state_init; dup_anon_vma_name"),
    ...mapleprealloc(),
    op("__split_vma", "store", 3, "new->vm_start = addr / new->vm_end = addr; new->vm_pgoff += ..."),
    op("vma_dup_policy", "alu", 2, "mpol_dup(vma_policy(src)): NULL policy"),
    op("anon_vma_clone", "alu", 4, "list_for_each_entry_reverse(pavc, &src->anon_vma_chain): one chain (estimated)"),
    op("anon_vma_chain_alloc", "slab_alloc", 1, "kmem_cache_alloc(anon_vma_chain_cachep, GFP_NOWAIT)"),
    op("lock_anon_vma_root", "locked_op", 1, "down_write(&root->rwsem)"),
    op("anon_vma_chain_link", "store", 4, "avc->vma, avc->anon_vma, list_add(&avc->same_vma, &vma->anon_vma_chain)"),
    op("anon_vma_interval_tree_insert", "load", 6, "the interval tree walk to the insertion point (estimated)"),
    op("anon_vma_interval_tree_insert", "alu", 12, "the augmented rb-tree insert and recolouring (estimated)"),
    op("unlock_anon_vma_root", "locked_op", 1, "up_write(&root->rwsem)"),
    op("anon_vma_clone", "alu", 3, "!dst->anon_vma && src->anon_vma && anon_vma->num_children < 2 ...: reuse check (estimated)"),
    op("__split_vma", "alu", 3, "new->vm_file? new->vm_ops->open? (no); init_vma_prep(&vp, vma); vp.insert = new"),
    ...vmaStartWrite("vma_start_write(vma)"),
    ...vmaPrepareComplete(),
    op("__split_vma", "store", 2, "vma->vm_start = addr, vm_pgoff (new_below) / vma->vm_end = addr"),
    ...mapleStore("vma_complete: vma_iter_store(vmi, vp->insert) (the new VMA's range)"),
    op("vma_complete", "store", 1, "mm->map_count++"),
    op("__split_vma", "alu", 3, "new_below? vma_next(vmi) to the part mprotect goes on with (estimated)"),
  ];
}

function mergeNext(): OpLine[] {
  return [
    op("vma_merge", "alu", 3, "the other half of vma_merge's prev + curr + next case (2.4 merged next after the loop, 6.x in the same vma_merge): merge_next too, vp.remove2 = next"),
    ...vmaStartWrite("vma_start_write(next)"),
    op("vma_merge", "store", 1, "prev->vm_end = next->vm_end"),
    op("mas_wr_node_store", "load", 4, "the wider store: next's slot folded into prev's (estimated)"),
    op("mas_wr_node_store", "store", 4, "(estimated)"),
    ...vmaRemove("next (vp->remove2)"),
  ];
}

function changeProtection(): OpLine[] {
  return [
    op("change_protection", "load", 1, "newprot = vma->vm_page_prot"),
    op("change_protection", "alu", 3, "MM_CP_UFFD_WP_ALL?; MM_CP_PROT_NUMA?; is_vm_hugetlb_page(vma)?"),
    op("change_protection", "call", 1, "change_protection_range(tlb, vma, start, end, newprot, cp_flags)"),
    op("change_protection_range", "alu", 3, "BUG_ON(addr >= end); pgd = pgd_offset(mm, addr)"),
    op("tlb_start_vma", "alu", 2, "tlb->fullmm?; flush_cache_range is empty on x86"),
    op("tlb_update_vma_flags", "store", 3, "tlb->vma_huge, tlb->vma_exec, tlb->vma_pfn"),
    op("change_protection_range", "load", 1, "*pgd (p4d folded: 4-level paging)"),
    op("change_protection_range", "alu", 4, "pgd_addr_end; change_prepare (uffd: no); pgd_none_or_clear_bad"),
    op("change_pud_range", "load", 1, "*pud"),
    op("change_pud_range", "alu", 4, "pud_addr_end; change_prepare; pud_none_or_clear_bad"),
    op("change_pmd_range", "load", 1, "pmd = pmd_offset(pud, addr)"),
    op("change_pmd_range", "alu", 5, "pmd_addr_end; change_pmd_prepare; pmd_none(*pmd); !range.start"),
    op("mmu_notifier_range_init", "store", 6, "range: event MMU_NOTIFY_PROTECTION_VMA, flags, mm, start, end, owner"),
    op("mmu_notifier_invalidate_range_start", "load", 1, "mm_has_notifiers(range->mm): mm->notifier_subscriptions"),
    op("mmu_notifier_invalidate_range_start", "alu", 1, "none: nothing to call"),
    op("change_pmd_range", "load", 1, "_pmd = pmdp_get_lockless(pmd)"),
    op("change_pmd_range", "alu", 3, "is_swap_pmd? pmd_trans_huge? pmd_devmap? (a page table)"),
    op("change_pmd_range", "call", 1, "change_pte_range(tlb, vma, pmd, addr, next, newprot, cp_flags)"),
    op("tlb_change_page_size", "alu", 2, "tlb->page_size == PAGE_SIZE (CONFIG_MMU_GATHER_PAGE_SIZE: x86 does not select it; nothing)"),
    op("pte_offset_map_lock", "load", 3, "__pte_offset_map: pmdp_get_lockless, pmd_none/pmd_bad; the page table's struct ptdesc (ptlock_ptr)"),
    op("pte_offset_map_lock", "alu", 4, "pmd_trans_huge? pte_offset_kernel(pmd, addr); rcu_read_lock (6.5+)"),
    op("pte_offset_map_lock", "locked_op", 1, "spin_lock(ptl): the split page-table lock (USE_SPLIT_PTE_PTLOCKS)"),
    op("pte_offset_map_lock", "alu", 2, "pmd_same(pmdval, pmdp_get_lockless(pmd))? (6.5+ re-check)"),
    op("change_pte_range", "alu", 1, "prot_numa?"),
    op("flush_tlb_batched_pending", "load", 1, "atomic_read(&mm->tlb_flush_batched)"),
    op("flush_tlb_batched_pending", "alu", 2, "pending == flushed: nothing batched by reclaim"),
    // the walk's end: the core runs this path before the per-page ones
    op("pte_unmap_unlock", "store", 1, "after the pages (charged here: the core runs this path before them): spin_unlock(ptl), a release store"),
    op("pte_unmap_unlock", "alu", 1, "pte_unmap: rcu_read_unlock (6.5+)"),
    op("change_pmd_range", "alu", 3, "pages += ret; cond_resched(): should_resched(0)? (no)"),
    op("mmu_notifier_invalidate_range_end", "load", 1, "mm_has_notifiers"),
    op("mmu_notifier_invalidate_range_end", "alu", 1, "none"),
    op("change_protection_range", "alu", 6, "nr_huge_updates?; the pud/pgd loops end (addr == end) (estimated)"),
  ];
}

function changePteRange(m: Mitigations): OpLine[] {
  return [
    op("change_pte_range", "load", 1, "oldpte = ptep_get(pte)"),
    op("change_pte_range", "alu", 2, "pte_present(oldpte); prot_numa?"),
    op("ptep_modify_prot_start", "locked_op", 1, "__ptep_modify_prot_start -> ptep_get_and_clear -> native_ptep_get_and_clear: xchg(&ptep->pte, 0) (CONFIG_SMP: an xchg with memory is locked)"),
    op("pte_modify", "alu", 5, "val &= _PAGE_CHG_MASK; val |= check_pgprot(newprot) & ~_PAGE_CHG_MASK; flip_protnone_guard"),
    op("change_pte_range", "alu", 4, "uffd_wp? uffd_wp_resolve?; MM_CP_TRY_CHANGE_WRITABLE && !pte_write(ptent)?"),
    op("can_change_pte_writable", "load", 3, "the RW call (a private writable VMA maps read-only): vm_normal_page(vma, addr, pte): the struct page from the pfn; page->flags, page->mapping (charged on both calls: the RO one skips it; estimated)"),
    op("can_change_pte_writable", "alu", 8, "VM_WRITE; pte_protnone; vma_soft_dirty_enabled; userfaultfd_pte_wp; !VM_SHARED; PageAnon && PageAnonExclusive: pte_mkwrite (estimated)"),
    op("ptep_modify_prot_commit", "store", 1, "__ptep_modify_prot_commit -> set_pte_at: native_set_pte(ptep, ptent)"),
    op("pte_needs_flush", "alu", 5, "x86: oldpte present; the flags that differ outside _PAGE_ACCESSED|_PAGE_DIRTY...: a flush is needed"),
    op("tlb_flush_pte_range", "alu", 4, "__tlb_adjust_range(tlb, addr, PAGE_SIZE): min(start), max(end)"),
    op("tlb_flush_pte_range", "store", 3, "tlb->start, tlb->end, tlb->cleared_ptes = 1"),
    op("change_pte_range", "alu", 3, "pages++; pte++, addr += PAGE_SIZE, addr != end"),
    // the page's invalidation, run later by flush_tlb_func (only this path runs once per page)
    op("flush_tlb_func", "alu", 2, "the partial flush's loop (charged here, it runs in flush_tlb_range's flush_tlb_func): addr < f->end; addr += 1UL << f->stride_shift"),
    op("flush_tlb_one_user", "invlpg", 1, "native_flush_tlb_one_user: invlpg (addr) — one page: the range is under tlb_single_page_flush_ceiling (33) (the simulated TLB loses this page's entry only); larger ranges are charged the same (6.x: a full flush, which the simulated TLB does)"),
    ...(m.pti
      ? [
          op("flush_tlb_one_user", "alu", 2, "static_cpu_has(X86_FEATURE_PTI): the user page tables' PCID too; INVPCID_SINGLE?"),
          op("invpcid_flush_one", "invlpg", 1, "invpcid_flush_one(user_pcid(loaded_mm_asid), addr): INVPCID has no op class; invlpg, the single-address invalidation, stands in"),
        ]
      : [op("flush_tlb_one_user", "alu", 1, "no PTI: no user PCID to flush")]),
  ];
}

function flushTlbRange(): OpLine[] {
  return [
    op("tlb_end_vma", "alu", 3, "tlb->fullmm?; tlb->vma_pfn || !IS_ENABLED(CONFIG_MMU_GATHER_MERGE_VMAS) (x86: not selected): flush at the VMA's end"),
    op("tlb_flush_mmu_tlbonly", "alu", 3, "tlb->end?; freed_tables || cleared_ptes || cleared_pmds ...: yes"),
    op("tlb_flush", "alu", 4, "x86 tlb_flush: end = tlb->end; fullmm || need_flush_all? (no); stride_shift = tlb_get_unmap_shift(tlb)"),
    op("tlb_flush", "call", 1, "flush_tlb_mm_range(tlb->mm, start, end, stride_shift, tlb->freed_tables)"),
    op("flush_tlb_mm_range", "alu", 1, "get_cpu(): preempt_disable"),
    op("flush_tlb_mm_range", "alu", 3, "(end - start) >> stride_shift > tlb_single_page_flush_ceiling (33)? (no: a partial flush)"),
    op("inc_mm_tlb_gen", "locked_op", 1, "atomic64_inc_return(&mm->context.tlb_gen)"),
    op("get_flush_tlb_info", "store", 7, "this CPU's flush_tlb_info: mm, start, end, stride_shift, freed_tables, new_tlb_gen, initiating_cpu"),
    op("flush_tlb_mm_range", "load", 2, "mm_cpumask(mm); cpumask_any_but(..., cpu)"),
    op("flush_tlb_mm_range", "alu", 3, "< nr_cpu_ids? (no other CPU runs the mm: no flush_tlb_multi)"),
    op("flush_tlb_mm_range", "load", 1, "this_cpu_read(cpu_tlbstate.loaded_mm) == mm"),
    op("flush_tlb_mm_range", "cli", 1, "local_irq_disable()"),
    op("flush_tlb_mm_range", "call", 1, "flush_tlb_func(info)"),
    op("flush_tlb_func", "load", 5, "cpu_tlbstate.loaded_mm, loaded_mm_asid, cpu_tlbinfo.is_lazy; ctxs[asid].tlb_gen (local); loaded_mm->context.tlb_gen (mm)"),
    op("flush_tlb_func", "alu", 8, "f->mm == loaded_mm?; is_lazy?; local_tlb_gen == mm_tlb_gen?; f->end != TLB_FLUSH_ALL && f->new_tlb_gen == local_tlb_gen + 1 && == mm_tlb_gen: partial (its per-page INVLPG is in change_pte_range)"),
    op("flush_tlb_func", "store", 1, "this_cpu_write(cpu_tlbstate.ctxs[loaded_mm_asid].tlb_gen, mm_tlb_gen)"),
    op("flush_tlb_mm_range", "sti", 1, "local_irq_enable()"),
    op("flush_tlb_mm_range", "alu", 3, "put_flush_tlb_info; put_cpu(): preempt_enable, preempt_count_dec_and_test"),
    op("__tlb_reset_range", "store", 4, "tlb->start = TASK_SIZE, end = 0, freed_tables = 0, cleared_* = 0"),
  ];
}

function upWrite(): OpLine[] {
  return [
    op("vma_find", "load", 3, "for_each_vma_range's last vma_find: mas_find past end (estimated)"),
    op("vma_find", "alu", 4, "none below end: the loop ends (estimated)"),
    op("tlb_finish_mmu", "load", 1, "mm_tlb_flush_nested(tlb->mm): atomic_read(&mm->tlb_flush_pending) > 1? (no)"),
    op("tlb_flush_mmu", "alu", 6, "tlb_flush_mmu_tlbonly: tlb->end == 0 (flushed at tlb_end_vma); tlb_flush_mmu_free: no tables, no pages batched (estimated)"),
    op("tlb_batch_list_free", "alu", 2, "tlb->local.next == NULL"),
    op("dec_tlb_flush_pending", "locked_op", 1, "atomic_dec(&mm->tlb_flush_pending)"),
    op("do_mprotect_pkey", "alu", 2, "!error && tmp < end?"),
    op("mmap_write_unlock", "store", 1, "up_write(&mm->mmap_lock): rwsem_clear_owner: sem->owner = NULL"),
    op("__up_write", "locked_op", 1, "atomic_long_fetch_add_release(-RWSEM_WRITER_LOCKED, &sem->count)"),
    op("__up_write", "alu", 2, "RWSEM_FLAG_WAITERS? (no: nobody waits)"),
  ];
}

function badArea(): OpLine[] {
  return [
    op("access_error", "alu", 4, "do_user_addr_fault: error_code & X86_PF_WRITE and !(vma->vm_flags & VM_WRITE): bad_area_access_error(regs, error_code, address, vma)"),
    op("bad_area_access_error", "alu", 3, "bad_area_access_from_pkeys: X86_PF_PK? (no); arch_vma_access_permitted: pkeys in use? (no): __bad_area(..., SEGV_ACCERR)"),
    op("__bad_area", "alu", 1, "the pkey of the VMA (only for SEGV_PKUERR)"),
    op("mmap_read_unlock", "locked_op", 1, "up_read(&mm->mmap_lock): atomic_long_add_return_release(-RWSEM_READER_BIAS, &sem->count)"),
    op("mmap_read_unlock", "alu", 2, "RWSEM_FLAG_WAITERS? (no)"),
    op("__bad_area_nosemaphore", "alu", 3, "user_mode(regs); error_code & X86_PF_USER"),
    op("__bad_area_nosemaphore", "sti", 1, "local_irq_enable(): a user-mode fault may have IRQs off here"),
    op("is_prefetch", "alu", 4, "error_code & X86_PF_INSTR? (no); convert_ip_to_linear: user_64bit_mode: ip; max_instr = instr + 15; pagefault_disable"),
    op("is_prefetch", "put_user", 2, "get_user(opcode, instr) for the store's REX prefix and its opcode (a mov: check_prefetch_opcode stops) (from memory)"),
    op("check_prefetch_opcode", "alu", 6, "instr_hi / instr_lo: 0x40 (REX, 64-bit mode): go on; 0x80: not a prefetch, stop; pagefault_enable (estimated)"),
    op("is_errata100", "alu", 2, "64-bit: (address >> 32) && regs->cs == __USER32_CS? (no)"),
    op("sanitize_error_code", "alu", 1, "address >= TASK_SIZE_MAX? (no)"),
    op("fixup_vdso_exception", "load", 2, "current->mm->context.vdso_image; regs->ip inside the vDSO's text? (no) (from memory)"),
    op("fixup_vdso_exception", "alu", 3),
    op("unhandled_signal", "load", 3, "show_unhandled_signals: is_global_init(tsk)?; tsk->sighand->action[SIGSEGV-1].sa.sa_handler (a handler: nothing printed)"),
    op("unhandled_signal", "alu", 3),
    op("set_signal_archinfo", "store", 3, "tsk->thread.trap_nr = X86_TRAP_PF; error_code | X86_PF_USER; cr2 = address"),
    op("force_sig_fault", "call", 1, "force_sig_fault(SIGSEGV, SEGV_ACCERR, address) -> force_sig_fault_to_task(sig, code, addr, current)"),
    op("clear_siginfo", "store", 6, "memset(info, 0, sizeof(struct kernel_siginfo)) (48 bytes)"),
    op("force_sig_fault_to_task", "store", 4, "info.si_signo, si_errno = 0, si_code, si_addr"),
    op("force_sig_info_to_task", "call", 1, "force_sig_info_to_task(&info, t, HANDLER_CURRENT): the siglock is taken in linux6's send_sig_info path that follows"),
    op("force_sig_info_to_task", "load", 3, "action = &t->sighand->action[sig-1]; sa_handler; sigismember(&t->blocked, sig)"),
    op("force_sig_info_to_task", "alu", 6, "ignored = SIG_IGN; blocked; handler == HANDLER_SIG_DFL?; neither: nothing reset; SIGNAL_UNKILLABLE for init only (estimated)"),
    op("force_sig_info_to_task", "call", 1, "send_signal_locked(sig, info, t, PIDTYPE_PID) (the core's send_sig_info path), then local_irq_disable on the way out"),
    op("__bad_area_nosemaphore", "cli", 1, "local_irq_disable() before the exception's exit"),
  ];
}

/**
 * srso_return_thunk (SRSO safe-RET, retbleedUntrain): every kernel ret becomes
 * jmp __x86_return_thunk -> call srso_safe_ret; lea 8(%rsp),%rsp; ret — an extra call/ret pair per
 * function return of the path (one per call / call_indirect line occurrence), as src/pipe.ts does.
 */
export function withMmReturnThunk(m: Mitigations, ops: OpLine[]): OpLine[] {
  if (!m.retbleedUntrain) return ops;
  const rets = ops.reduce((n, l) => n + (l.op === "call" || l.op === "call_indirect" ? (l.n ?? 1) : 0), 0);
  return rets ? [...ops, op("srso_return_thunk", "call", rets, `SRSO safe-RET: the ${rets} function returns of this path each take jmp __x86_return_thunk -> call srso_safe_ret; lea 8(%rsp),%rsp; ret (an extra call/ret pair each)`)] : ops;
}

/** The core paths' 6.x ops, before the SRSO return thunks (exported for the tests). */
export function mmOps(m: Mitigations): Record<MmPathName, OpLine[]> {
  return {
    sys_mprotect: sysMprotect(),
    mprotect_fixup: mprotectFixup(),
    mprotect_fixup_all: fixupAll(),
    "mprotect_fixup_all.merge": fixupAllMerge(),
    "mprotect_fixup_start.merge": fixupStartMerge(),
    "mprotect_fixup.split": splitVma(),
    "sys_mprotect.merge_next": mergeNext(),
    change_protection: changeProtection(),
    change_pte_range: changePteRange(m),
    flush_tlb_range: flushTlbRange(),
    up_write: upWrite(),
    bad_area: badArea(),
  };
}

/** The transforms that put 6.x's mprotect and SIGSEGV fault paths in place of the core's 2.4 ones. */
export function mmTransforms(m: Mitigations): PathTransform[] {
  const ops = mmOps(m);
  return MM_PATH_NAMES.map((name) => replace(name, withMmReturnThunk(m, ops[name])));
}
