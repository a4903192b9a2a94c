/**
 * ptrace in Linux 2.4 i386: the traced-syscall path of entry.S (tracesys / tracesys_exit),
 * syscall_trace and the stop in do_signal (arch/i386/kernel/{entry.S,ptrace.c,signal.c}),
 * do_notify_parent (kernel/signal.c), sys_ptrace and its helpers (arch/i386/kernel/ptrace.c,
 * kernel/ptrace.c) and the stopped-child case of sys_wait4 (kernel/exit.c). Read in
 * github hooao/linux-2.4.22 @ aa17aeb1 (the [K24] tree of kernel-paths.md).
 */
import { op, type PathDef } from "../../../exec/path.js";

export const PTRACE_PATHS: PathDef[] = [
  // ---- the tracee: entry.S and syscall_trace ----------------------------------------------
  {
    // system_call's `testb $0x02,tsk_ptrace(%ebx); jne tracesys` is in its own path; the
    // bounds check and the indirect call through sys_call_table are charged there too
    name: "tracesys",
    phase: "ptrace.stop",
    ops: [op("tracesys", "store", 1, "movl $-ENOSYS,EAX(%esp)"), op("tracesys", "call", 1, "call SYMBOL_NAME(syscall_trace)")],
  },
  {
    name: "tracesys.dispatch",
    phase: "ptrace.stop",
    ops: [op("tracesys", "load", 1, "movl ORIG_EAX(%esp),%eax: the tracer may have rewritten it"), op("tracesys", "alu", 2, "cmpl $(NR_syscalls),%eax; jae tracesys_exit")],
  },
  {
    name: "tracesys_exit",
    phase: "ptrace.stop",
    ops: [op("tracesys_exit", "call", 1, "call SYMBOL_NAME(syscall_trace)"), op("tracesys_exit", "alu", 1, "jmp ret_from_sys_call")],
  },
  {
    name: "syscall_trace",
    phase: "ptrace.stop",
    ops: [op("syscall_trace", "load", 1, "current->ptrace"), op("syscall_trace", "alu", 2, "(ptrace & (PT_PTRACED|PT_TRACESYS)) != (PT_PTRACED|PT_TRACESYS): return")],
  },
  {
    name: "syscall_trace.stop",
    phase: "ptrace.stop",
    ops: [
      op("syscall_trace", "alu", 2, "SIGTRAP | (PT_TRACESYSGOOD ? 0x80 : 0)"),
      op("syscall_trace", "store", 2, "current->exit_code = ...; current->state = TASK_STOPPED"),
      op("syscall_trace", "call", 2, "notify_parent(current, SIGCHLD); schedule()"),
    ],
  },
  {
    name: "syscall_trace.resume",
    phase: "ptrace.stop",
    ops: [op("syscall_trace", "load", 1, "if (current->exit_code)"), op("syscall_trace", "alu", 1, "send_sig(current->exit_code, current, 1); exit_code = 0")],
  },
  {
    name: "do_signal.ptrace_stop",
    phase: "ptrace.stop",
    ops: [
      op("do_signal", "alu", 2, "(current->ptrace & PT_PTRACED) && signr != SIGKILL"),
      op("do_signal", "store", 2, "current->exit_code = signr; current->state = TASK_STOPPED"),
      op("do_signal", "call", 2, "notify_parent(current, SIGCHLD); schedule()"),
    ],
  },
  {
    name: "do_signal.ptrace_resume",
    phase: "ptrace.stop",
    ops: [
      op("do_signal", "load", 1, "signr = current->exit_code: did the debugger cancel the sig?"),
      op("do_signal", "alu", 4, "exit_code = 0; SIGSTOP ignored; new signal: fill info (SI_USER, p_pptr->pid); sigismember(&current->blocked, signr)"),
    ],
  },
  {
    name: "do_notify_parent",
    phase: "ptrace.stop",
    ops: [
      op("do_notify_parent", "store", 6, "info.si_signo, si_errno, si_pid, si_uid, si_utime, si_stime"),
      op("do_notify_parent", "alu", 6, "status = exit_code & 0x7f; switch (tsk->state): TASK_STOPPED + PT_PTRACED -> CLD_TRAPPED"),
      op("do_notify_parent", "call", 1, "send_sig_info(sig, &info, tsk->p_pptr)"),
    ],
  },
  {
    name: "wake_up_parent",
    phase: "ptrace.stop",
    ops: [op("wake_up_parent", "cli", 1, "wake_up_interruptible(&p->wait_chldexit): spin_lock_irqsave(&q->lock)"), op("__wake_up_common", "alu", 6, "walk the wait queue"), op("wake_up_parent", "sti", 1)],
  },

  // ---- the tracer: sys_ptrace -----------------------------------------------------------------
  {
    name: "sys_ptrace",
    phase: "ptrace.request",
    ops: [op("sys_ptrace", "alu", 3, "lock_kernel(): the big kernel lock"), op("sys_ptrace", "alu", 2, "request == PTRACE_TRACEME?")],
  },
  {
    name: "find_task_by_pid",
    phase: "ptrace.request",
    ops: [
      op("find_task_by_pid", "alu", 2, "read_lock(&tasklist_lock)"),
      op("find_task_by_pid", "load", 3, "pidhash[pid_hashfn(pid)]; p->pid == pid; p = p->pidhash_next"),
      op("find_task_by_pid", "alu", 4, "get_task_struct(child); read_unlock; pid == 1?"),
    ],
  },
  {
    name: "ptrace_check_attach",
    phase: "ptrace.request",
    ops: [op("ptrace_check_attach", "load", 3, "child->ptrace & PT_PTRACED; child->p_pptr == current; child->state == TASK_STOPPED"), op("ptrace_check_attach", "alu", 3)],
  },
  {
    name: "sys_ptrace.out",
    phase: "ptrace.request",
    ops: [op("sys_ptrace", "alu", 2, "free_task_struct(child)"), op("sys_ptrace", "alu", 2, "unlock_kernel()")],
  },
  {
    name: "ptrace_attach",
    phase: "ptrace.request",
    ops: [
      op("ptrace_attach", "alu", 24, "task_lock; pid > 1; task != current; task->mm; uid/gid/capability checks; is_dumpable"),
      op("ptrace_attach", "store", 1, "task->ptrace |= PT_PTRACED"),
      op("ptrace_attach", "cli", 1, "write_lock_irq(&tasklist_lock)"),
      op("ptrace_attach", "alu", 10, "REMOVE_LINKS(task); task->p_pptr = current; SET_LINKS(task)"),
      op("ptrace_attach", "sti", 1, "write_unlock_irq"),
      op("ptrace_attach", "call", 1, "send_sig(SIGSTOP, task, 1)"),
    ],
  },
  {
    name: "ptrace_detach",
    phase: "ptrace.request",
    ops: [
      op("ptrace_disable", "load", 1, "get_stack_long(child, EFL_OFFSET)"),
      op("ptrace_disable", "store", 1, "put_stack_long(child, EFL_OFFSET, tmp & ~TRAP_FLAG)"),
      op("ptrace_detach", "store", 2, "child->ptrace = 0; child->exit_code = data"),
      op("ptrace_detach", "cli", 1, "write_lock_irq(&tasklist_lock)"),
      op("ptrace_detach", "alu", 10, "REMOVE_LINKS(child); child->p_pptr = child->p_opptr; SET_LINKS(child)"),
      op("ptrace_detach", "sti", 1),
    ],
  },
  {
    name: "ptrace_resume",
    phase: "ptrace.request",
    ops: [
      op("PTRACE_CONT", "alu", 3, "(unsigned long) data > _NSIG; PT_TRACESYS set (PTRACE_SYSCALL) or cleared"),
      op("PTRACE_CONT", "store", 2, "child->ptrace; child->exit_code = data"),
      op("PTRACE_CONT", "load", 1, "get_stack_long(child, EFL_OFFSET)"),
      op("PTRACE_CONT", "store", 1, "put_stack_long(child, EFL_OFFSET, tmp & ~TRAP_FLAG)"),
      op("PTRACE_CONT", "call", 1, "wake_up_process(child)"),
    ],
  },
  {
    name: "getreg",
    phase: "ptrace.request",
    ops: [op("getreg", "alu", 3, "switch (regno >> 2): segment mask; regno -= 2*4 above GS"), op("get_stack_long", "load", 2, "stack = child->thread.esp0 + offset; *stack")],
  },
  {
    name: "putreg",
    phase: "ptrace.request",
    ops: [op("putreg", "alu", 4, "switch (regno >> 2): segment RPL check, EFLAGS & FLAG_MASK"), op("put_stack_long", "load", 1, "child->thread.esp0"), op("put_stack_long", "store", 1)],
  },
  {
    name: "ptrace.put_user",
    phase: "ptrace.request",
    ops: [op("sys_ptrace", "put_user", 1, "put_user(tmp, (unsigned long *) data)")],
  },
  {
    // PTRACE_GETREGS: one per word of user_regs_struct (FRAME_SIZE = 17)
    name: "ptrace.getregs_word",
    phase: "ptrace.request",
    ops: [
      op("getreg", "alu", 3, "switch (regno >> 2)"),
      op("get_stack_long", "load", 2, "child->thread.esp0 + offset"),
      op("PTRACE_GETREGS", "put_user", 1, "__put_user(getreg(child, i), (unsigned long *) data)"),
      op("PTRACE_GETREGS", "alu", 2, "data += sizeof(long); i += sizeof(long)"),
    ],
  },
  {
    // PTRACE_SETREGS: one per word of user_regs_struct
    name: "ptrace.setregs_word",
    phase: "ptrace.request",
    ops: [
      op("PTRACE_SETREGS", "put_user", 1, "__get_user(tmp, (unsigned long *) data)"),
      op("putreg", "alu", 4, "switch (regno >> 2): segment RPL check, EFLAGS & FLAG_MASK"),
      op("put_stack_long", "load", 1, "child->thread.esp0"),
      op("put_stack_long", "store", 1),
      op("PTRACE_SETREGS", "alu", 2, "data += sizeof(long); i += sizeof(long)"),
    ],
  },
  {
    name: "access_process_vm",
    phase: "ptrace.request",
    ops: [
      op("access_process_vm", "alu", 4, "task_lock(tsk); mm = tsk->mm; atomic_inc(&mm->mm_users); task_unlock"),
      op("down_read", "alu", 3, "&mm->mmap_sem"),
      op("get_user_pages", "alu", 12, "find_extend_vma; VM_READ/VM_WRITE checks (force); follow_page"),
      op("follow_page", "load", 3, "pgd_offset, pmd_offset, pte_offset"),
      op("get_user_pages", "alu", 4, "get_page(map); flush_dcache_page"),
      op("kmap", "alu", 2, "page_address (lowmem)"),
      op("access_process_vm", "load", 1, "memcpy(buf, maddr + offset, 4) / the other way"),
      op("access_process_vm", "store", 1),
      op("kunmap", "alu", 4, "kunmap; put_page; set_page_dirty on a write"),
      op("up_read", "alu", 2),
      op("mmput", "alu", 2, "atomic_dec_and_lock(&mm->mm_users)"),
    ],
  },

  // ---- the tracer's wait4 finds a stopped child -------------------------------------------------
  {
    name: "sys_wait4.stopped",
    phase: "syscall.body",
    ops: [
      op("sys_wait4", "load", 2, "TASK_STOPPED: p->exit_code; WUNTRACED or PT_PTRACED"),
      op("sys_wait4", "put_user", 1, "put_user((p->exit_code << 8) | 0x7f, stat_addr)"),
      op("sys_wait4", "store", 1, "p->exit_code = 0"),
    ],
  },
];
