/**
 * Bodies of the simple system calls and of the mm, pipe and fcntl paths (kernel/*.c, mm/*.c,
 * fs/pipe.c, fs/fcntl.c, fs/select.c). Data-dependent copies are charged separately per line.
 */
import { op, type PathDef } from "../../../exec/path.js";

export const SYSCALL_PATHS: PathDef[] = [
  { name: "sys_getpid", phase: "syscall.body", ops: [op("sys_getpid", "load", 1, "return current->tgid")] },
  {
    // sys_sched_setaffinity as 2.5.8 added it: copy the mask, find the task, set_cpus_allowed
    name: "sys_sched_setaffinity",
    phase: "syscall.body",
    ops: [
      op("sys_sched_setaffinity", "put_user", 1, "copy_from_user(&new_mask, user_mask_ptr, sizeof(new_mask))"),
      op("sys_sched_setaffinity", "alu", 6, "read_lock(&tasklist_lock); find_process_by_pid; permission checks; read_unlock"),
      op("set_cpus_allowed", "alu", 4, "p->cpus_allowed = new_mask; if the current CPU is no longer allowed: need_resched"),
    ],
  },
  {
    name: "sys_sched_getaffinity",
    phase: "syscall.body",
    ops: [
      op("sys_sched_getaffinity", "alu", 6, "read_lock(&tasklist_lock); find_process_by_pid; mask = p->cpus_allowed & cpu_online_map; read_unlock"),
      op("sys_sched_getaffinity", "put_user", 1, "copy_to_user(user_mask_ptr, &mask, sizeof(mask))"),
    ],
  },
  {
    name: "sys_getppid",
    phase: "syscall.body",
    ops: [op("sys_getppid", "load", 2, "parent = me->p_opptr; pid = parent->tgid"), op("sys_getppid", "alu", 2)],
  },
  {
    name: "sys_gettimeofday",
    phase: "syscall.body",
    ops: [
      op("do_gettimeofday", "pushf", 1, "read_lock_irqsave(&xtime_lock)"),
      op("do_gettimeofday", "cli", 1),
      op("do_gettimeoffset", "rdtsc", 1, "do_fast_gettimeoffset: rdtsc"),
      op("do_gettimeoffset", "alu", 8, "mull fast_gettimeoffset_quotient; lost ticks; usec normalisation"),
      op("do_gettimeofday", "popf", 1),
      op("sys_gettimeofday", "copy_user_setup", 1, "copy_to_user(tv, &ktv, sizeof(ktv))"),
      op("sys_gettimeofday", "copy_user_line", 1),
    ],
  },
  { name: "sys_ni_syscall", phase: "syscall.body", ops: [op("sys_ni_syscall", "alu", 1, "return -ENOSYS")] },
  {
    name: "sys_mmap",
    phase: "syscall.body",
    ops: [
      op("old_mmap", "put_user", 6, "copy_from_user(&a, arg, sizeof(a))"),
      op("do_mmap_pgoff", "alu", 40, "get_unmapped_area, vma checks, vm_area_cachep alloc, insert_vm_struct"),
      op("do_mmap_pgoff", "slab_alloc", 1),
    ],
  },
  {
    name: "sys_mprotect",
    phase: "mm.mprotect",
    ops: [
      op("sys_mprotect", "alu", 4, "start & ~PAGE_MASK; len = PAGE_ALIGN(len); end < start; prot bits"),
      op("down_write", "alu", 3, "&current->mm->mmap_sem"),
      op("find_vma_prev", "load", 4, "mm->mmap_cache, then the rb tree"),
      op("find_vma_prev", "alu", 6),
    ],
  },
  {
    // once per vma in the range (the estimates below count the instructions of 2.4.22's mm/mprotect.c and mm/mmap.c)
    name: "mprotect_fixup",
    phase: "mm.mprotect",
    ops: [op("sys_mprotect", "alu", 3, "newflags = prot | (vm_flags & ~(PROT_READ|PROT_WRITE|PROT_EXEC)); VM_MAY* check"), op("mprotect_fixup", "alu", 4, "newflags == vm_flags? protection_map[newflags & 0xf]; which case")],
  },
  {
    name: "mprotect_fixup_all",
    phase: "mm.mprotect",
    ops: [op("mprotect_fixup_all", "alu", 3, "prev adjacent and can_vma_merge(prev, newflags)?"), op("mprotect_fixup_all", "store", 2, "vma->vm_flags = newflags; vma->vm_page_prot = prot")],
  },
  {
    // the whole vma joins prev: __vma_unlink, kmem_cache_free
    name: "mprotect_fixup_all.merge",
    phase: "mm.mprotect",
    ops: [
      op("mprotect_fixup_all", "alu", 3, "prev->vm_end == vma->vm_start && can_vma_merge(prev, newflags)"),
      op("mprotect_fixup_all", "store", 1, "prev->vm_end = vma->vm_end"),
      op("__vma_unlink", "alu", 20, "prev->vm_next = vma->vm_next; rb_erase(&vma->vm_rb, &mm->mm_rb); mmap_cache"),
      op("mprotect_fixup_all", "slab_alloc", 1, "kmem_cache_free(vm_area_cachep, vma)"),
      op("mprotect_fixup_all", "store", 1, "mm->map_count--"),
    ],
  },
  {
    // one new vma: *n = *vma, then __insert_vm_struct (mprotect_fixup_start and _end)
    name: "mprotect_fixup.split",
    phase: "mm.mprotect",
    ops: [
      op("mprotect_fixup_start", "slab_alloc", 1, "n = kmem_cache_alloc(vm_area_cachep, SLAB_KERNEL)"),
      op("mprotect_fixup_start", "load", 11, "*n = *vma (struct vm_area_struct, 22 words)"),
      op("mprotect_fixup_start", "store", 11),
      op("mprotect_fixup_start", "store", 5, "n->vm_end/vm_start, vm_flags, vm_raend, vm_page_prot; vma->vm_pgoff"),
      op("lock_vma_mappings", "alu", 2, "if (vma->vm_file) spin_lock(&mapping->i_shared_lock)"),
      op("find_vma_prepare", "load", 6, "walk mm->mm_rb down to the insertion point"),
      op("find_vma_prepare", "alu", 8),
      op("__vma_link", "store", 4, "__vma_link_list: prev->vm_next, n->vm_next"),
      op("__vma_link_rb", "alu", 16, "rb_link_node; rb_insert_color (recolour/rotate)"),
      op("__insert_vm_struct", "store", 1, "mm->map_count++"),
    ],
  },
  {
    // mprotect_fixup_start when the head can join prev: no allocation
    name: "mprotect_fixup_start.merge",
    phase: "mm.mprotect",
    ops: [op("mprotect_fixup_start", "alu", 3, "prev adjacent and can_vma_merge(prev, newflags)"), op("mprotect_fixup_start", "store", 2, "prev->vm_end = end; vma->vm_start = end")],
  },
  {
    // sys_mprotect's tail: the last vma joins next
    name: "sys_mprotect.merge_next",
    phase: "mm.mprotect",
    ops: [
      op("sys_mprotect", "alu", 3, "next && prev->vm_end == next->vm_start && can_vma_merge(next, prev->vm_flags)"),
      op("sys_mprotect", "store", 1, "prev->vm_end = next->vm_end"),
      op("__vma_unlink", "alu", 20, "rb_erase(&next->vm_rb, &mm->mm_rb); list unlink"),
      op("sys_mprotect", "slab_alloc", 1, "kmem_cache_free(vm_area_cachep, next)"),
      op("sys_mprotect", "store", 1, "mm->map_count--"),
    ],
  },
  {
    name: "change_protection",
    phase: "mm.mprotect",
    ops: [op("change_protection", "alu", 4, "dir = pgd_offset(current->mm, start); flush_cache_range; spin_lock(&mm->page_table_lock)"), op("change_pmd_range", "alu", 3, "pmd walk; pte_offset")],
  },
  {
    name: "change_pte_range",
    phase: "mm.mprotect",
    ops: [
      op("change_pte_range", "load", 1, "if (pte_present(*pte))"),
      op("ptep_get_and_clear", "locked_op", 1, "xchg(&pte->pte_low, 0): an xchg with memory is locked even on UP (pgtable-2level.h)"),
      op("change_pte_range", "store", 1, "set_pte(pte, pte_modify(entry, newprot))"),
    ],
  },
  {
    name: "sys_munmap",
    phase: "mm.mprotect",
    ops: [
      op("do_munmap", "alu", 4, "len = PAGE_ALIGN(len); addr/len checks"),
      op("down_write", "alu", 3, "&current->mm->mmap_sem"),
      op("find_vma_prev", "load", 4),
      op("find_vma_prev", "alu", 6),
      op("do_munmap", "alu", 8, "unlink the vmas in range (free list); spin_lock(&mm->page_table_lock)"),
      op("unmap_fixup", "alu", 12, "area wholly or partly unmapped: adjust or split the vma"),
      op("unmap_fixup", "slab_alloc", 1, "kmem_cache_free(vm_area_cachep, area)"),
      op("zap_page_range", "alu", 4, "tlb_gather_mmu; pgd/pmd walk"),
    ],
  },
  {
    // once per PTE zapped (munmap, exit_mmap; the simulator's pages are all present)
    name: "zap_pte_range",
    phase: "mm.mprotect",
    ops: [
      op("zap_pte_range", "load", 1, "pte = *ptep"),
      op("zap_pte_range", "alu", 3, "pte_none; pte_present; VALID_PAGE && !PageReserved"),
      op("tlb_remove_page", "store", 1, "pte_clear(ptep)"),
      op("page_cache_release", "alu", 1, "__free_pte -> page_cache_release -> put_page_testzero: atomic_dec_and_test(&page->count)"),
    ],
  },
  {
    // once per frame whose count reached 0 in zap_pte_range (a frame another mm still maps only loses a reference)
    name: "__free_pages_ok",
    phase: "mm.mprotect",
    ops: [op("__free_pages_ok", "alu", 19, "spin_lock_irqsave(&zone->lock), buddy merge, zone->free_pages++ (estimate: with the dec above, the 20 the old single zap op charged)")],
  },
  {
    name: "flush_tlb_range",
    phase: "mm.mprotect",
    ops: [
      op("flush_tlb_range", "alu", 2, "if (mm == current->active_mm) __flush_tlb()"),
      op("__flush_tlb", "mov_cr3", 1, "movl %cr3,%0; movl %0,%cr3 — the whole non-global TLB"),
    ],
  },
  {
    name: "up_write",
    phase: "mm.mprotect",
    ops: [op("up_write", "alu", 2, "&current->mm->mmap_sem")],
  },
  {
    name: "page_fault",
    phase: "fault.page_fault",
    ops: [
      op("#PF", "exception_entry", 1, "interrupt gate, vector 14: IF=0, error code pushed, CR2 set"),
      op("page_fault", "push", 1, "pushl $do_page_fault"),
      op("error_code", "push", 8, "the pt_regs order"),
      op("error_code", "mov_sreg", 2, "__KERNEL_DS"),
      op("error_code", "alu", 4, "swap in the error code; call *%edi"),
      op("do_page_fault", "read_cr2", 1, "__asm__(\"movl %%cr2,%0\":\"=r\" (address))"),
      op("do_page_fault", "sti", 1, "if (regs->eflags & X86_EFLAGS_IF) local_irq_enable()"),
      op("down_read", "alu", 3, "&mm->mmap_sem"),
      op("find_vma", "load", 3),
      op("find_vma", "alu", 6),
      op("do_page_fault", "alu", 4, "good_area: write access check against VM_WRITE"),
    ],
  },
  {
    // do_page_fault's good_area for a write to a present read-only PTE in a writable vma (mm/memory.c 2.4)
    name: "handle_mm_fault",
    phase: "fault.page_fault",
    ops: [
      op("handle_mm_fault", "alu", 2, "current->state = TASK_RUNNING; pgd = pgd_offset(mm, address)"),
      op("handle_mm_fault", "alu", 1, "spin_lock(&mm->page_table_lock)"),
      op("handle_mm_fault", "alu", 3, "pmd_alloc (2-level: the pgd entry itself); pte_alloc: pmd present -> pte_offset"),
      op("handle_pte_fault", "load", 1, "entry = *pte"),
      op("handle_pte_fault", "alu", 3, "pte_present(entry); write_access; !pte_write(entry) -> do_wp_page"),
    ],
  },
  {
    name: "do_wp_page",
    phase: "fault.page_fault",
    ops: [
      op("do_wp_page", "alu", 2, "old_page = pte_page(pte); VALID_PAGE(old_page)"),
      op("do_wp_page", "alu", 1, "TryLockPage(old_page): test_and_set_bit(PG_locked, &page->flags)"),
      op("can_share_swap_page", "load", 1, "page_count(page)"),
      op("can_share_swap_page", "alu", 3, "switch (page_count(page)): 1 -> !PageReserved; 2 -> PageSwapCache (anonymous: no)"),
      op("do_wp_page", "alu", 2, "unlock_page: clear_bit(PG_locked, &page->flags); waitqueue_active"),
    ],
  },
  {
    // can_share_swap_page said yes (page_count 1): the PTE is made writable in place
    name: "do_wp_page.reuse",
    phase: "fault.page_fault",
    ops: [
      op("establish_pte", "alu", 3, "pte_mkyoung(pte_mkdirty(pte_mkwrite(pte)))"),
      op("establish_pte", "store", 1, "set_pte(page_table, entry)"),
      op("flush_tlb_page", "invlpg", 1, "__flush_tlb_one(address): vma->vm_mm == current->active_mm"),
      op("do_wp_page", "alu", 1, "spin_unlock(&mm->page_table_lock); return 1 (minor fault)"),
    ],
  },
  {
    // another mm maps the frame: copy it (the 4 KB copy itself is copy.cow_page, per cache line)
    name: "do_wp_page.copy",
    phase: "fault.page_fault",
    ops: [
      op("do_wp_page", "alu", 1, "page_cache_get(old_page): atomic_inc(&page->count)"),
      op("do_wp_page", "alu", 1, "spin_unlock(&mm->page_table_lock)"),
      op("alloc_page", "alu", 20, "alloc_page(GFP_HIGHUSER) -> __alloc_pages -> rmqueue: spin_lock_irqsave(&zone->lock), buddy split (estimate: as __free_pages_ok)"),
      op("copy_user_highpage", "alu", 4, "kmap_atomic(from, KM_USER0), kmap_atomic(to, KM_USER1) (lowmem: page_address); kunmap_atomic ×2"),
      op("copy_page", "copy_user_setup", 1, "copy_user_page -> copy_page: memcpy(to, from, PAGE_SIZE), the rep movsl setup"),
    ],
  },
  {
    name: "do_wp_page.break_cow",
    phase: "fault.page_fault",
    ops: [
      op("do_wp_page", "alu", 1, "spin_lock(&mm->page_table_lock): re-check the pte, the lock was dropped"),
      op("do_wp_page", "load", 1, "pte_same(*page_table, pte)"),
      op("do_wp_page", "alu", 2, "pte_same compare; PageReserved(old_page)"),
      op("break_cow", "alu", 3, "mk_pte(new_page, vma->vm_page_prot); pte_mkdirty; pte_mkwrite"),
      op("establish_pte", "store", 1, "set_pte(page_table, entry)"),
      op("flush_tlb_page", "invlpg", 1, "__flush_tlb_one(address)"),
      op("lru_cache_add", "alu", 4, "spin_lock(&pagemap_lru_lock); add_page_to_inactive_list; spin_unlock"),
      op("do_wp_page", "alu", 1, "spin_unlock(&mm->page_table_lock)"),
      op("page_cache_release", "alu", 1, "page_cache_release(old_page), the get above: atomic_dec_and_test(&page->count)"),
      op("page_cache_release", "alu", 1, "page_cache_release(old_page), the old PTE's reference: atomic_dec_and_test(&page->count) (another mm still maps it)"),
    ],
  },
  {
    // handle_mm_fault returned 1 (minor fault)
    name: "do_page_fault.done",
    phase: "fault.page_fault",
    ops: [op("do_page_fault", "alu", 2, "case 1: tsk->min_flt++; regs->eflags & VM_MASK"), op("do_page_fault", "alu", 2, "up_read(&mm->mmap_sem); return")],
  },
  {
    name: "bad_area",
    phase: "fault.page_fault",
    ops: [
      op("bad_area", "alu", 2, "up_read(&mm->mmap_sem)"),
      op("bad_area", "store", 3, "tsk->thread.cr2 = address; error_code; trap_no = 14"),
      op("bad_area", "store", 4, "info.si_signo = SIGSEGV; si_errno; si_code = SEGV_ACCERR; si_addr"),
      op("force_sig_info", "cli", 1, "spin_lock_irqsave"),
      op("force_sig_info", "alu", 4, "SIG_IGN -> SIG_DFL; sigdelset(&t->blocked, sig); recalc_sigpending"),
      op("force_sig_info", "sti", 1),
    ],
  },
  {
    name: "sys_pipe",
    phase: "syscall.body",
    ops: [
      op("do_pipe", "alu", 30, "get_pipe_inode, 2 × get_unused_fd + get_empty_filp, d_alloc"),
      op("do_pipe", "slab_alloc", 4),
      op("sys_pipe", "put_user", 2, "copy_to_user(fildes, fd, 2*sizeof(int))"),
    ],
  },
  {
    name: "pipe_read",
    phase: "pipe.io",
    ops: [
      op("sys_read", "alu", 4, "fget(fd); FMODE_READ; locks_verify_area"),
      op("sys_read", "call_indirect", 1, "file->f_op->read"),
      op("pipe_read", "alu", 3, "down_interruptible(PIPE_SEM(*inode))"),
      op("pipe_read", "alu", 6, "PIPE_EMPTY? O_NONBLOCK? chars = PIPE_LEN; PIPE_START wrap"),
    ],
  },
  {
    name: "pipe_read.done",
    phase: "pipe.io",
    ops: [
      op("pipe_read", "store", 3, "PIPE_START += chars; PIPE_LEN -= chars; PIPE_WAITING_WRITERS"),
      op("pipe_read", "alu", 2, "up(PIPE_SEM); UPDATE_ATIME"),
      op("sys_read", "alu", 2, "fput(file)"),
    ],
  },
  {
    name: "pipe_write",
    phase: "pipe.io",
    ops: [
      op("sys_write", "alu", 4, "fget(fd); FMODE_WRITE"),
      op("sys_write", "call_indirect", 1, "file->f_op->write"),
      op("pipe_write", "alu", 3, "down_interruptible(PIPE_SEM(*inode))"),
      op("pipe_write", "alu", 6, "PIPE_READERS? free = PIPE_FREE; PIPE_END"),
    ],
  },
  {
    name: "pipe_write.done",
    phase: "pipe.io",
    ops: [
      op("pipe_write", "store", 2, "PIPE_LEN += chars"),
      op("pipe_write", "alu", 4, "inode->i_ctime = inode->i_mtime = CURRENT_TIME; mark_inode_dirty; up"),
      op("sys_write", "alu", 2, "fput(file)"),
    ],
  },
  {
    name: "sys_open",
    phase: "syscall.body",
    ops: [op("sys_open", "alu", 60, "getname, path_walk of /dev/..., dentry_open, get_unused_fd"), op("sys_open", "slab_alloc", 2)],
  },
  {
    name: "dev_read",
    phase: "pipe.io",
    ops: [op("sys_read", "alu", 4, "fget(fd)"), op("sys_read", "call_indirect", 1, "file->f_op->read (read_zero / read_null)"), op("sys_read", "alu", 2, "fput")],
  },
  {
    name: "dev_write",
    phase: "pipe.io",
    ops: [op("sys_write", "alu", 4, "fget(fd)"), op("sys_write", "call_indirect", 1, "file->f_op->write (write_null: return count)"), op("sys_write", "alu", 2, "fput")],
  },
  {
    name: "sys_close",
    phase: "syscall.body",
    ops: [op("sys_close", "alu", 12, "files->fd[fd] = NULL; filp_close; fput; release pipe end"), op("sys_close", "slab_alloc", 1)],
  },
  {
    name: "sys_fcntl",
    phase: "syscall.body",
    ops: [op("sys_fcntl", "alu", 8, "fget; do_fcntl switch (F_GETFL/F_SETFL/F_SETOWN/F_SETSIG)"), op("sys_fcntl", "alu", 2, "fput")],
  },
  {
    name: "sys_select",
    phase: "syscall.body",
    ops: [
      op("sys_select", "put_user", 6, "copy the fd_sets in (get_fd_set ×3), the timeout"),
      op("do_select", "alu", 12, "poll_initwait; max_select_fd"),
    ],
  },
  {
    name: "select.poll_fd",
    phase: "syscall.body",
    ops: [op("do_select", "call_indirect", 1, "file->f_op->poll"), op("pipe_poll", "alu", 6, "poll_wait; PIPE_EMPTY/PIPE_FREE masks")],
  },
  {
    name: "select.done",
    phase: "syscall.body",
    ops: [op("do_select", "alu", 4, "poll_freewait"), op("sys_select", "put_user", 6, "set_fd_set ×3, the remaining timeout")],
  },
  {
    name: "send_sigio",
    phase: "irq.device",
    ops: [
      op("kill_fasync", "alu", 4, "fa->fa_file->f_owner"),
      op("send_sigio", "alu", 4, "read_lock(&tasklist_lock); owner pid or pgrp"),
      op("send_sigio_to_task", "alu", 6, "uid check; band_table; si_fd"),
    ],
  },
  {
    name: "sys_kill",
    phase: "signal.send",
    ops: [op("sys_kill", "alu", 4, "info.si_signo = sig; si_code = SI_USER; si_pid; si_uid")],
  },
  {
    name: "do_fork",
    phase: "syscall.body",
    ops: [
      op("do_fork", "slab_alloc", 2, "alloc_task_struct (8 KB); copy *p = *current"),
      op("do_fork", "alu", 200, "copy_files, copy_fs, copy_sighand, copy_thread, get_pid, hash the task"),
      op("do_fork", "store", 60),
    ],
  },
  {
    name: "copy_mm",
    phase: "syscall.body",
    ops: [op("copy_mm", "slab_alloc", 2, "mm_alloc; pgd_alloc"), op("dup_mmap", "alu", 150, "per-vma copy; copy_page_range")],
  },
  {
    // dup_mmap's last line: flush_tlb_mm(current->mm) -- the parent's PTEs were just write-protected
    name: "dup_mmap.flush_tlb_mm",
    phase: "syscall.body",
    ops: [op("flush_tlb_mm", "alu", 1, "mm == current->active_mm"), op("__flush_tlb", "mov_cr3", 1, "movl %cr3,%0; movl %0,%cr3")],
  },
  {
    name: "copy_page_range.pte",
    phase: "syscall.body",
    ops: [op("copy_page_range", "load", 1), op("copy_page_range", "store", 2, "ptep_set_wrprotect; set_pte")],
  },
  // ---- do_exit (kernel/exit.c 2.4), in its order: the head; __exit_mm (exit_mm, the mm teardown in
  // mm/mmap.ts exit_mm); __exit_files; __exit_fs, exit_namespace, exit_sighand, exit_thread;
  // exit_notify; schedule() (with __mmdrop when the mm's last reference goes)
  {
    name: "do_exit",
    phase: "syscall.body",
    ops: [
      op("do_exit", "alu", 4, "in_interrupt(); !tsk->pid; tsk->pid == 1; tsk->flags |= PF_EXITING"),
      op("del_timer_sync", "alu", 3, "del_timer_sync(&tsk->real_timer): not pending"),
    ],
  },
  {
    name: "exit_mm",
    phase: "syscall.body",
    ops: [
      op("mm_release", "alu", 2, "tsk->vfork_done? (not a vfork child)"),
      op("__exit_mm", "alu", 1, "atomic_inc(&mm->mm_count)"),
      op("__exit_mm", "store", 1, "task_lock(tsk); tsk->mm = NULL; task_unlock"),
      op("enter_lazy_tlb", "alu", 1, "UP: empty; SMP: cpu_tlbstate[cpu].state = TLBSTATE_LAZY"),
      op("mmput", "alu", 2, "atomic_dec_and_lock(&mm->mm_users, &mmlist_lock)"),
    ],
  },
  {
    // mmput dropped the last mm_users reference
    name: "exit_mmap",
    phase: "syscall.body",
    ops: [
      op("mmput", "store", 2, "list_del(&mm->mmlist); mmlist_nr--; spin_unlock(&mmlist_lock)"),
      op("exit_mmap", "alu", 2, "release_segments(mm) (no LDT); spin_lock(&mm->page_table_lock)"),
      op("exit_mmap", "store", 6, "mm->mmap = mm->mmap_cache = NULL; mm->mm_rb = RB_ROOT; mm->rss = 0; total_vm = locked_vm = 0"),
    ],
  },
  {
    // exit_mmap's loop, once per vma: zap_page_range(mm, start, size) around zap_pte_range per PTE,
    // then tlb_finish_mmu (its own path)
    name: "exit_mmap.vma",
    phase: "syscall.body",
    ops: [
      op("exit_mmap", "alu", 3, "mpnt->vm_ops && ->close (anonymous: none); mm->map_count--"),
      op("remove_shared_vm_struct", "alu", 2, "vma->vm_file? (none: the model's mappings are anonymous)"),
      op("zap_page_range", "alu", 5, "spin_lock(&mm->page_table_lock); flush_cache_range; tlb_gather_mmu; pgd/pmd walk; mm->rss -= freed"),
      op("exit_mmap", "slab_alloc", 1, "kmem_cache_free(vm_area_cachep, mpnt)"),
    ],
  },
  {
    // zap_page_range's end, once per vma: tlb_finish_mmu -> flush_tlb_range -> flush_tlb_mm, a CR3
    // reload while the exiting task's mm is still the active one (asm-generic/tlb.h, pgalloc.h)
    name: "tlb_finish_mmu",
    phase: "syscall.body",
    ops: [
      op("tlb_finish_mmu", "alu", 1, "UP: flush_tlb_range(tlb, start, end)"),
      op("flush_tlb_range", "alu", 2, "flush_tlb_mm(mm): mm == current->active_mm"),
      op("__flush_tlb", "mov_cr3", 1, "movl %cr3,%0; movl %0,%cr3"),
      op("zap_page_range", "alu", 1, "spin_unlock(&mm->page_table_lock)"),
    ],
  },
  {
    // clear_page_tables(mm, FIRST_USER_PGD_NR, USER_PTRS_PER_PGD): every user pgd slot
    name: "clear_page_tables",
    phase: "syscall.body",
    ops: [
      op("clear_page_tables", "alu", 1, "spin_lock(&mm->page_table_lock)"),
      op("free_one_pmd", "load", 768, "pmd_none(*dir) in each of USER_PTRS_PER_PGD = TASK_SIZE / PGDIR_SIZE = 768 slots (pgd_none is 0 on 2-level paging)"),
      op("free_one_pgd", "alu", 2304, "per slot, 3: pmd_offset + pgd_clear (2-level: nothing), the j < PTRS_PER_PMD (1) loop with its prefetchw, page_dir++ / --nr"),
      op("check_pgt_cache", "alu", 3, "do_check_pgt_cache(25, 50): pgtable_cache_size within the watermarks"),
    ],
  },
  {
    // free_one_pmd for a slot that has a page table
    name: "clear_page_tables.pte",
    phase: "syscall.body",
    ops: [
      op("free_one_pmd", "alu", 2, "pmd_bad(*dir); pte = pte_offset(dir, 0)"),
      op("free_one_pmd", "store", 1, "pmd_clear(dir)"),
      op("pte_free", "store", 2, "pte_free_fast: *(unsigned long *)pte = pte_quicklist; pte_quicklist = pte"),
      op("pte_free", "alu", 1, "pgtable_cache_size++"),
    ],
  },
  {
    name: "exit_mmap.flush_tlb_mm",
    phase: "syscall.body",
    ops: [
      op("flush_tlb_mm", "alu", 1, "mm == current->active_mm (the exiting task keeps its mm as the lazy active_mm)"),
      op("__flush_tlb", "mov_cr3", 1, "movl %cr3,%0; movl %0,%cr3"),
      op("mmput", "alu", 1, "mmdrop: atomic_dec_and_test(&mm->mm_count): the active_mm reference remains"),
    ],
  },
  {
    name: "exit_files",
    phase: "syscall.body",
    ops: [
      op("__exit_files", "store", 1, "task_lock(tsk); tsk->files = NULL; task_unlock"),
      op("put_files_struct", "alu", 1, "atomic_dec_and_test(&files->count): fork's copy_files gave the child its own"),
      op("close_files", "alu", 4, "the open_fds words (NR_OPEN_DEFAULT = 32 fds: one)"),
      op("put_files_struct", "slab_alloc", 1, "kmem_cache_free(files_cachep, files) (the embedded fd arrays: max_fds == NR_OPEN_DEFAULT)"),
    ],
  },
  {
    // close_files, once per open descriptor
    name: "exit_files.fd",
    phase: "syscall.body",
    ops: [
      op("close_files", "locked_op", 1, "file = xchg(&files->fd[i], NULL): an xchg with memory is locked even on UP"),
      op("filp_close", "alu", 6, "file_count; f_op->flush (none for pipes and devices); dnotify_flush; locks_remove_posix"),
      op("fput", "alu", 1, "atomic_dec_and_test(&file->f_count)"),
    ],
  },
  {
    name: "exit_sighand",
    phase: "syscall.body",
    ops: [
      op("do_exit", "alu", 1, "lock_kernel()"),
      op("sem_exit", "alu", 2, "current->semundo: none"),
      op("__exit_fs", "store", 1, "task_lock(tsk); tsk->fs = NULL; task_unlock"),
      op("put_fs_struct", "alu", 1, "atomic_dec_and_test(&fs->count): fork's copy_fs gave the child its own"),
      op("__put_fs_struct", "alu", 4, "dput(root): atomic_dec_and_lock; dput(pwd): atomic_dec_and_lock; mntput(rootmnt): atomic_dec; mntput(pwdmnt): atomic_dec"),
      op("__put_fs_struct", "slab_alloc", 1, "kmem_cache_free(fs_cachep, fs)"),
      op("exit_namespace", "alu", 2, "put_namespace: atomic_dec_and_test(&namespace->count)"),
      op("exit_sighand", "cli", 1, "spin_lock_irq(&tsk->sigmask_lock)"),
      op("exit_sighand", "alu", 2, "tsk->sig = NULL; atomic_dec_and_test(&sig->count)"),
      op("exit_sighand", "slab_alloc", 1, "kmem_cache_free(sigact_cachep, sig): fork's copy_sighand gave the child its own"),
      op("flush_signals", "alu", 4, "tsk->sigpending = 0; flush_sigqueue(&tsk->pending); sigemptyset"),
      op("exit_sighand", "sti", 1, "spin_unlock_irq(&tsk->sigmask_lock)"),
      op("exit_thread", "alu", 2, "i386: no LDT to free"),
      op("do_exit", "alu", 4, "current->leader? disassociate_ctty; put_exec_domain; binfmt module; tsk->exit_code = code"),
    ],
  },
  {
    // exit_notify up to do_notify_parent (whose send_sig_info and wake-up are their own paths)
    name: "exit_notify",
    phase: "syscall.body",
    ops: [
      op("forget_original_parent", "alu", 2, "read_lock(&tasklist_lock); then per task: exit_notify.task"),
      op("exit_notify", "alu", 8, "read_unlock; will_become_orphaned_pgrp (pgrp/session checks); write_lock_irq(&tasklist_lock)"),
      op("exit_notify", "store", 2, "current->state = TASK_ZOMBIE; exit_signal"),
      op("do_notify_parent", "alu", 6, "info.si_signo = SIGCHLD; si_pid; si_uid; si_status; si_utime/si_stime"),
      op("exit_notify", "alu", 3, "the children loop (reparent to child_reaper); write_unlock_irq"),
    ],
  },
  {
    // forget_original_parent's for_each_task(p) (kernel/exit.c 2.4): every task in the system
    name: "exit_notify.task",
    phase: "syscall.body",
    ops: [op("forget_original_parent", "load", 1, "p->p_opptr"), op("forget_original_parent", "alu", 2, "== father?; p = p->next_task")],
  },
  {
    // the exiting task's schedule(): "if (!prev->mm) { prev->active_mm = NULL; mmdrop(oldmm); }" —
    // the mm_count goes to 0 (charged before the switch; 2.4 runs it just after switch_mm)
    name: "__mmdrop",
    phase: "syscall.body",
    ops: [
      op("mmdrop", "alu", 1, "atomic_dec_and_test(&mm->mm_count)"),
      op("__mmdrop", "alu", 2, "mm == &init_mm?; destroy_context (no LDT)"),
      op("pgd_free", "store", 2, "free_pgd_fast: push the pgd on pgd_quicklist; pgtable_cache_size++"),
      op("free_mm", "slab_alloc", 1, "kmem_cache_free(mm_cachep, mm)"),
    ],
  },
  {
    name: "sys_wait4",
    phase: "syscall.body",
    ops: [op("sys_wait4", "alu", 20, "scan children for TASK_ZOMBIE (estimate)"), op("sys_wait4", "put_user", 2)],
  },
  {
    // sys_wait4 reaped a zombie: release_task (kernel/exit.c 2.4)
    name: "release_task",
    phase: "syscall.body",
    ops: [
      op("release_task", "alu", 2, "atomic_dec(&p->user->processes)"),
      op("free_uid", "alu", 2, "atomic_dec_and_lock(&up->__count, &uidhash_lock): the parent still holds the user_struct"),
      op("unhash_process", "alu", 4, "write_lock_irq(&tasklist_lock); nr_threads--; unhash_pid(p)"),
      op("unhash_process", "store", 8, "REMOVE_LINKS(p): the task list and the parent's child list; list_del(&p->thread_group); write_unlock_irq"),
      op("release_task", "alu", 8, "release_thread (no LDT); cmin_flt/cmaj_flt/cnswap sums; current->counter += p->counter, MAX_COUNTER; p->pid = 0"),
      op("free_task_struct", "slab_alloc", 1, "free_pages(p, 1): the 8 KB task_struct and kernel stack (charged as do_fork charges alloc_task_struct)"),
    ],
  },
  {
    name: "sys_nanosleep",
    phase: "syscall.body",
    ops: [op("sys_nanosleep", "put_user", 2, "copy_from_user(&t, rqtp)"), op("schedule_timeout", "alu", 12, "add_timer")],
  },
  {
    name: "sys_sigaltstack",
    phase: "syscall.body",
    ops: [op("do_sigaltstack", "put_user", 3), op("do_sigaltstack", "alu", 8)],
  },
];

/** One-op paths for data-dependent work, per phase: `${name}` charged once per unit. */
export const LINE_PATHS: PathDef[] = [
  { name: "copy.signal.frame", phase: "signal.frame", ops: [op("__copy_to_user", "copy_user_line", 1)] },
  { name: "copy.signal.fpu_save", phase: "signal.fpu_save", ops: [op("__copy_to_user", "copy_user_line", 1, "512-byte FXSR image")] },
  { name: "copy.signal.fpu_restore", phase: "signal.fpu_restore", ops: [op("__copy_from_user", "copy_user_line", 1, "512-byte FXSR image")] },
  { name: "copy.pipe.io", phase: "pipe.io", ops: [op("pipe_read/pipe_write", "copy_user_line", 1, "copy_to_user / copy_from_user of the data")] },
  { name: "copy.cow_page", phase: "fault.page_fault", ops: [op("copy_page", "copy_user_line", 1, "do_wp_page's copy_user_highpage: memcpy of the 4 KB frame, rep movsl, one cache line (the class the kernel's other copies use)")] },
  { name: "copy.pipe.io.setup", phase: "pipe.io", ops: [op("pipe_read/pipe_write", "copy_user_setup", 1)] },
  { name: "copy.syscall.body", phase: "syscall.body", ops: [op("copy_to_user", "copy_user_line", 1)] },
  { name: "libc.memcpy", phase: "libc", ops: [op("memcpy", "memcpy_line", 1, "rep movsl / integer loop")] },
  { name: "libc.sse_memcpy", phase: "libc", ops: [op("memcpy", "sse_memcpy_line", 1, "movaps xmm0-xmm3 loop")] },
  { name: "handler.memcpy", phase: "signal.handler", ops: [op("memcpy", "memcpy_line", 1)] },
  { name: "handler.sse_memcpy", phase: "signal.handler", ops: [op("memcpy", "sse_memcpy_line", 1, "movaps xmm0-xmm3 loop")] },
  { name: "handler.fp_op", phase: "signal.handler", ops: [op("handler code", "fp_op", 1)] },
  { name: "handler.tlb_refill", phase: "tlb.refill", ops: [op("page walk", "tlb_miss", 1, "a user page the handler touches, after the TLB lost it")] },
  { name: "user.store", phase: "user", ops: [op("user code", "store", 1)] },
  { name: "handler.store", phase: "signal.handler", ops: [op("handler code", "store", 1)] },
  { name: "user.rdtsc", phase: "user", ops: [op("user code", "rdtsc", 1)] },
  { name: "handler.rdtsc", phase: "signal.handler", ops: [op("handler code", "rdtsc", 1)] },
];
