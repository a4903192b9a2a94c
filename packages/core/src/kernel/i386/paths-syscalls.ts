/**
 * Bodies of the simple system calls and of the mm, pipe and fcntl paths (kernel/*.c, mm/*.c,
 * fs/pipe.c, fs/fcntl.c, fs/select.c). Data-dependent copies are charged separately per line.
 */
import { op, type PathDef } from "../../exec/path.js";

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
    // once per page in the range (the simulator's pages are all present)
    name: "zap_pte_range",
    phase: "mm.mprotect",
    ops: [
      op("zap_pte_range", "load", 1, "pte = *ptep"),
      op("zap_pte_range", "alu", 3, "pte_none; pte_present; VALID_PAGE && !PageReserved"),
      op("tlb_remove_page", "store", 1, "pte_clear(ptep)"),
      op("free_page_and_swap_cache", "alu", 20, "page_cache_release -> __free_pages_ok: zone lock, buddy merge (estimate)"),
    ],
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
    name: "copy_page_range.pte",
    phase: "syscall.body",
    ops: [op("copy_page_range", "load", 1), op("copy_page_range", "store", 2, "ptep_set_wrprotect; set_pte")],
  },
  {
    name: "do_exit",
    phase: "syscall.body",
    ops: [op("do_exit", "alu", 200, "__exit_mm, __exit_files, exit_sighand, exit_notify"), op("do_exit", "slab_alloc", 4)],
  },
  {
    name: "sys_wait4",
    phase: "syscall.body",
    ops: [op("sys_wait4", "alu", 20, "scan children for TASK_ZOMBIE; release_task"), op("sys_wait4", "put_user", 2)],
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
  { name: "copy.pipe.io.setup", phase: "pipe.io", ops: [op("pipe_read/pipe_write", "copy_user_setup", 1)] },
  { name: "copy.syscall.body", phase: "syscall.body", ops: [op("copy_to_user", "copy_user_line", 1)] },
  { name: "libc.memcpy", phase: "libc", ops: [op("memcpy", "memcpy_line", 1, "rep movsl / integer loop")] },
  { name: "libc.sse_memcpy", phase: "libc", ops: [op("memcpy", "sse_memcpy_line", 1, "movaps xmm0-xmm3 loop")] },
  { name: "handler.memcpy", phase: "signal.handler", ops: [op("memcpy", "memcpy_line", 1)] },
  { name: "handler.sse_memcpy", phase: "signal.handler", ops: [op("memcpy", "sse_memcpy_line", 1, "movaps xmm0-xmm3 loop")] },
  { name: "handler.fp_op", phase: "signal.handler", ops: [op("handler code", "fp_op", 1)] },
  { name: "handler.tlb_refill", phase: "signal.handler", ops: [op("page walk", "tlb_miss", 1)] },
  { name: "user.store", phase: "user", ops: [op("user code", "store", 1)] },
  { name: "handler.store", phase: "signal.handler", ops: [op("handler code", "store", 1)] },
  { name: "user.rdtsc", phase: "user", ops: [op("user code", "rdtsc", 1)] },
  { name: "handler.rdtsc", phase: "signal.handler", ops: [op("handler code", "rdtsc", 1)] },
];
