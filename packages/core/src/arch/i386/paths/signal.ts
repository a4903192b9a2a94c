/**
 * Linux 2.4 i386 signal generation, delivery and return (kernel/signal.c, arch/i386/kernel/signal.c,
 * arch/i386/kernel/i387.c). Data-dependent parts (bytes copied, registers converted) are one-op
 * paths run n times: copy_user_line, fxsr_convert_reg.
 */
import { op, type PathDef } from "../../../exec/path.js";

export const SIGNAL_PATHS: PathDef[] = [
  {
    name: "send_sig_info",
    phase: "signal.send",
    ops: [
      op("kill_proc_info", "alu", 6, "find_task_by_pid: pidhash lookup"),
      op("send_sig_info", "alu", 8, "bad_signal permission check (uid/euid/session)"),
      op("spin_lock_irqsave", "pushf", 1, "&t->sigmask_lock (UP: save flags + cli)"),
      op("spin_lock_irqsave", "cli", 1),
      op("handle_stop_signal", "alu", 3),
      op("ignored_signal", "alu", 5, "handler SIG_IGN and not blocked and not traced?"),
      op("send_signal", "alu", 3, "non-RT already pending: drop; nr_queued_signals < max_queued_signals"),
    ],
  },
  {
    // kill(pid, 0): kill_proc_info and send_sig_info's checks, then "The null signal is a
    // permissions and process existence probe. No signal is actually delivered."
    name: "send_sig_info.probe",
    phase: "signal.send",
    ops: [
      op("kill_proc_info", "alu", 6, "find_task_by_pid: pidhash lookup"),
      op("send_sig_info", "alu", 8, "bad_signal permission check (uid/euid/session)"),
      op("send_sig_info", "alu", 1, "if (!sig || !t->sig) goto out_nolock"),
    ],
  },
  {
    name: "sigqueue_alloc",
    phase: "signal.send",
    ops: [
      op("send_signal", "slab_alloc", 1, "kmem_cache_alloc(sigqueue_cachep, GFP_ATOMIC)"),
      op("send_signal", "store", 8, "copy siginfo (or SI_USER fields) into the queue entry; list append"),
    ],
  },
  {
    name: "signal_wake_up",
    phase: "signal.send",
    ops: [
      op("deliver_signal", "store", 1, "sigaddset(&t->pending.signal, sig)"),
      op("signal_wake_up", "store", 1, "t->sigpending = 1"),
      op("spin_unlock_irqrestore", "popf", 1),
    ],
  },
  {
    name: "do_signal",
    phase: "signal.frame",
    ops: [op("do_signal", "alu", 3, "if ((regs->xcs & 3) != 3) return 1; oldset = &current->blocked")],
  },
  {
    // once per turn of do_signal's loop (an ignored signal is followed by another dequeue)
    name: "dequeue_signal",
    phase: "signal.frame",
    ops: [op("dequeue_signal", "cli", 1, "spin_lock_irq(&current->sigmask_lock)"), op("dequeue_signal", "alu", 6, "next_signal: first bit of pending & ~blocked")],
  },
  {
    name: "dequeue_signal.collect",
    phase: "signal.frame",
    ops: [
      op("dequeue_signal", "store", 3, "collect_signal: unlink the sigqueue entry, copy siginfo out"),
      op("dequeue_signal", "slab_alloc", 1, "kmem_cache_free(sigqueue_cachep)"),
      op("recalc_sigpending", "alu", 4),
    ],
  },
  {
    name: "dequeue_signal.unlock",
    phase: "signal.frame",
    ops: [op("dequeue_signal", "sti", 1, "spin_unlock_irq")],
  },
  {
    name: "do_signal.action",
    phase: "signal.frame",
    ops: [op("do_signal", "alu", 6, "ka = &current->sig->action[signr-1]; SIG_IGN/SIG_DFL tests")],
  },
  {
    // only for a signal with a handler, after the SIG_IGN/SIG_DFL tests
    name: "do_signal.deliver",
    phase: "signal.frame",
    ops: [
      op("do_signal", "mov_dr", 1, "__asm__(\"movl %0,%%db7\" : : \"r\" (current->thread.debugreg[7])): re-enable watchpoints"),
      op("handle_signal", "alu", 4, "orig_eax >= 0: restart rules"),
    ],
  },
  {
    name: "setup_frame",
    phase: "signal.frame",
    ops: [
      op("get_sigframe", "alu", 5, "esp = regs->esp; SA_ONSTACK; (esp - sizeof(*frame)) & -8"),
      op("setup_frame", "alu", 2, "access_ok(VERIFY_WRITE, frame, sizeof(*frame))"),
      op("setup_frame", "put_user", 2, "__put_user(sig, &frame->sig); exec_domain map"),
      op("setup_sigcontext", "mov_from_sreg", 2, "movl %%gs,%0; movl %%fs,%0"),
      op("setup_sigcontext", "put_user", 19, "gs fs es ds edi esi ebp esp ebx edx ecx eax trapno err eip cs eflags esp_at_signal ss"),
    ],
  },
  {
    // setup_sigcontext after tmp = save_i387(fpstate) (the FP save runs between the two paths)
    name: "setup_frame.tail",
    phase: "signal.frame",
    ops: [
      op("setup_sigcontext", "put_user", 3, "fpstate pointer (or NULL), oldmask, cr2"),
      op("setup_frame", "copy_user_setup", 1, "__copy_to_user(&frame->extramask, &set->sig[1], 4): a constant size is __constant_copy_user, a rep movsl of one word (2.4 include/asm-i386/uaccess.h)"),
      op("setup_frame", "put_user", 1, "pretcode = ka->sa.sa_restorer (SA_RESTORER) or &frame->retcode"),
    ],
  },
  {
    name: "setup_frame.regs",
    phase: "signal.frame",
    ops: [op("setup_frame", "store", 6, "regs->esp = frame; regs->eip = handler; ds = es = ss = __USER_DS; cs = __USER_CS; eflags &= ~TF")],
  },
  {
    name: "setup_frame_retcode",
    phase: "signal.frame",
    ops: [op("setup_frame", "put_user", 3, "retcode: popl %eax; movl $__NR_sigreturn,%eax; int $0x80 (no SA_RESTORER)")],
  },
  {
    name: "setup_rt_frame",
    phase: "signal.frame",
    ops: [
      op("get_sigframe", "alu", 5),
      op("setup_rt_frame", "alu", 2, "access_ok"),
      op("setup_rt_frame", "put_user", 3, "sig, &frame->info, &frame->uc"),
      op("copy_siginfo_to_user", "put_user", 6, "si_signo, si_errno, (short)si_code, union word, uid/pid"),
      op("setup_rt_frame", "put_user", 5, "uc_flags, uc_link, uc_stack.ss_sp/ss_flags/ss_size"),
      op("setup_sigcontext", "mov_from_sreg", 2),
      op("setup_sigcontext", "put_user", 19),
    ],
  },
  {
    name: "setup_rt_frame.tail",
    phase: "signal.frame",
    ops: [
      op("setup_sigcontext", "put_user", 3, "fpstate pointer (or NULL), oldmask, cr2"),
      op("setup_rt_frame", "copy_user_setup", 1, "__copy_to_user(&frame->uc.uc_sigmask, set, 8): __constant_copy_user, a rep movsl of two words"),
      op("setup_rt_frame", "put_user", 1, "pretcode"),
    ],
  },
  {
    name: "setup_rt_frame.regs",
    phase: "signal.frame",
    ops: [op("setup_rt_frame", "store", 6, "regs->esp/eip/segments/eflags")],
  },
  {
    name: "handle_signal_mask",
    phase: "signal.frame",
    ops: [
      op("handle_signal", "alu", 2, "SA_ONESHOT -> SIG_DFL"),
      op("handle_signal", "cli", 1, "spin_lock_irq(&current->sigmask_lock)"),
      op("handle_signal", "alu", 4, "sigorsets(&blocked, &blocked, &sa_mask); sigaddset(&blocked, sig)"),
      op("recalc_sigpending", "alu", 4),
      op("handle_signal", "sti", 1),
    ],
  },
  {
    name: "handler_call",
    phase: "signal.handler",
    ops: [op("user handler", "call", 1, "the handler is entered by iret; its ret pops pretcode")],
  },
  {
    name: "sigreturn_trampoline",
    phase: "signal.sigreturn",
    ops: [op("retcode / __restore", "alu", 2, "popl %eax; movl $__NR_sigreturn,%eax (then int $0x80)")],
  },
  {
    name: "sys_sigreturn",
    phase: "signal.sigreturn",
    ops: [
      op("sys_sigreturn", "alu", 3, "frame = (struct sigframe *)(regs.esp - 8); verify_area(VERIFY_READ)"),
      op("sys_sigreturn", "put_user", 1, "__get_user(set.sig[0], &frame->sc.oldmask)"),
      op("sys_sigreturn", "copy_user_setup", 1, "__copy_from_user(&set.sig[1], &frame->extramask, 4): __constant_copy_user, a rep movsl of one word"),
      op("sys_sigreturn", "cli", 1, "spin_lock_irq(&current->sigmask_lock)"),
      op("sys_sigreturn", "store", 2, "current->blocked = set"),
      op("recalc_sigpending", "alu", 4),
      op("sys_sigreturn", "sti", 1),
      op("restore_sigcontext", "mov_sreg", 2, "loadsegment(gs); loadsegment(fs)"),
      op("restore_sigcontext", "put_user", 17, "__get_user of es ds edi esi ebp esp ebx edx ecx cs(|3) eflags ss(|3) eax, fpstate"),
      op("restore_sigcontext", "alu", 4, "eflags = (regs->eflags & ~0x40DD5) | (tmpflags & 0x40DD5); orig_eax = -1"),
    ],
  },
  {
    name: "sys_rt_sigreturn",
    phase: "signal.sigreturn",
    ops: [
      op("sys_rt_sigreturn", "alu", 3, "frame = (struct rt_sigframe *)(regs.esp - 4); verify_area"),
      op("sys_rt_sigreturn", "copy_user_setup", 1, "__copy_from_user(&set, &frame->uc.uc_sigmask, 8): __constant_copy_user, a rep movsl of two words"),
      op("sys_rt_sigreturn", "cli", 1),
      op("sys_rt_sigreturn", "store", 2),
      op("recalc_sigpending", "alu", 4),
      op("sys_rt_sigreturn", "sti", 1),
      op("restore_sigcontext", "mov_sreg", 2),
      op("restore_sigcontext", "put_user", 17),
      op("restore_sigcontext", "alu", 4),
      op("sys_rt_sigreturn", "put_user", 3, "__copy_from_user(&st, &frame->uc.uc_stack); do_sigaltstack"),
    ],
  },
  {
    name: "sys_sigaction",
    phase: "syscall.body",
    ops: [
      op("sys_rt_sigaction", "put_user", 4, "copy_from_user(&new_sa.sa, act, sizeof(new_sa.sa))"),
      op("do_sigaction", "cli", 1, "spin_lock_irq"),
      op("do_sigaction", "alu", 8, "store k->sa; POSIX 3.3.1.3 discard pending if SIG_IGN/SIG_DFL-ignored"),
      op("do_sigaction", "sti", 1),
      op("sys_rt_sigaction", "put_user", 4, "copy_to_user(oact)"),
    ],
  },
  {
    name: "sys_rt_sigprocmask",
    phase: "syscall.body",
    ops: [
      op("sys_rt_sigprocmask", "put_user", 2, "copy_from_user(&new_set, set, sizeof(*set))"),
      op("sys_rt_sigprocmask", "alu", 2, "sigdelsetmask(&new_set, sigmask(SIGKILL)|sigmask(SIGSTOP))"),
      op("sys_rt_sigprocmask", "cli", 1, "spin_lock_irq(&current->sigmask_lock)"),
      op("sys_rt_sigprocmask", "alu", 4, "SIG_BLOCK / SIG_UNBLOCK / SIG_SETMASK"),
      op("recalc_sigpending", "alu", 4),
      op("sys_rt_sigprocmask", "sti", 1),
      op("sys_rt_sigprocmask", "put_user", 2, "copy_to_user(oset, &old_set)"),
    ],
  },
  // sys_rt_sigtimedwait (kernel/signal.c) runs as what the call does: the entry and the lock, a
  // dequeue_signal (.none: nothing; .take: a signal), and only when nothing was pending and the
  // timeout is not zero the sleep (.sleep) and, woken, the mask restored (.woken) and a second
  // dequeue_signal; then the unlock (.done). A signal pending at entry: entry, .take, .done.
  {
    name: "sys_rt_sigtimedwait",
    phase: "syscall.body",
    ops: [
      op("sys_rt_sigtimedwait", "put_user", 2, "copy_from_user(&these, uthese)"),
      op("sys_rt_sigtimedwait", "alu", 4, "sigdelsetmask; signotset(&these)"),
      op("sys_rt_sigtimedwait", "cli", 1, "spin_lock_irq"),
    ],
  },
  {
    name: "sys_rt_sigtimedwait.none",
    phase: "syscall.body",
    ops: [op("dequeue_signal", "alu", 6, "dequeue_signal(&these, &info): next_signal finds none of them (sig = 0)")],
  },
  {
    name: "sys_rt_sigtimedwait.take",
    phase: "syscall.body",
    ops: [op("dequeue_signal", "alu", 6, "dequeue_signal(&these, &info): next_signal, collect_signal")],
  },
  {
    name: "sys_rt_sigtimedwait.sleep",
    phase: "syscall.body",
    ops: [
      op("sys_rt_sigtimedwait", "alu", 2, "!sig: timeout = MAX_SCHEDULE_TIMEOUT (uts: timespec_to_jiffies); if (timeout)"),
      op("sys_rt_sigtimedwait", "load", 1, "current->real_blocked = current->blocked"),
      op("sys_rt_sigtimedwait", "store", 2, "sigandsets(&current->blocked, &current->blocked, &these): the waited-for signals unblocked for the sleep"),
      op("recalc_sigpending", "alu", 4),
      op("sys_rt_sigtimedwait", "sti", 1, "spin_unlock_irq(&current->sigmask_lock)"),
      op("sys_rt_sigtimedwait", "store", 1, "current->state = TASK_INTERRUPTIBLE"),
      op("schedule_timeout", "call", 1, "timeout = schedule_timeout(timeout): MAX_SCHEDULE_TIMEOUT calls schedule() (the core's sleep and switch); with a timeout its add_timer/del_timer_sync are not charged"),
      op("schedule_timeout", "alu", 2),
    ],
  },
  {
    name: "sys_rt_sigtimedwait.woken",
    phase: "syscall.body",
    ops: [
      op("sys_rt_sigtimedwait", "cli", 1, "woken: spin_lock_irq(&current->sigmask_lock); then the second dequeue_signal (its own path, charged after this one)"),
      op("sys_rt_sigtimedwait", "load", 1, "current->blocked = current->real_blocked"),
      op("sys_rt_sigtimedwait", "store", 2, "siginitset(&current->real_blocked, 0)"),
      op("recalc_sigpending", "alu", 4),
    ],
  },
  {
    name: "sys_rt_sigtimedwait.done",
    phase: "syscall.body",
    ops: [op("sys_rt_sigtimedwait", "sti", 1)],
  },
  {
    name: "copy_siginfo_to_user",
    phase: "syscall.body",
    ops: [op("copy_siginfo_to_user", "put_user", 6, "si_signo, si_errno, si_code, union fields")],
  },
  {
    name: "sys_sigsuspend",
    phase: "syscall.body",
    ops: [
      op("sys_rt_sigsuspend", "put_user", 2, "copy_from_user(&newset)"),
      op("sys_rt_sigsuspend", "cli", 1),
      op("sys_rt_sigsuspend", "store", 3, "saveset = current->blocked; current->blocked = newset"),
      op("recalc_sigpending", "alu", 4),
      op("sys_rt_sigsuspend", "sti", 1),
      op("sys_rt_sigsuspend", "store", 2, "regs->eax = -EINTR; current->state = TASK_INTERRUPTIBLE"),
    ],
  },
];
