/**
 * Signal generation, dequeue and the small system-call bodies of Linux 6.1–6.5 x86-64, op by op:
 * kill(2) (kernel/signal.c: __x64_sys_kill → prepare_kill_siginfo → kill_something_info →
 * kill_proc_info → kill_pid_info → group_send_sig_info → check_kill_permission → do_send_sig_info
 * → lock_task_sighand → send_signal_locked → __send_signal_locked), get_signal's dequeue
 * (dequeue_signal → __dequeue_signal → collect_signal, recalc_sigpending), signal_delivered's
 * mask, rt_sigprocmask, rt_sigaction (do_sigaction), getpid/getppid (kernel/sys.c,
 * kernel/pid.c: task_tgid_vnr), and the signal waits: rt_sigtimedwait (do_sigtimedwait: a signal
 * pending at entry dequeued at once, else dequeue_signal before and after its sleep, each part a
 * path the core runs only when the call takes it), copy_siginfo_to_user (copy_to_user of the 48-byte
 * kernel_siginfo, clear_user of the siginfo_t's other 80 bytes) and rt_sigsuspend (sigsuspend).
 *
 * The core's 2.4 paths keep their names and the simulator keeps its mechanism (who gets the
 * signal, when it is delivered); each replaced path holds the 6.x ops that run at that point.
 * Where 2.4's split does not map onto 6.x, the note of the first op says where the ops went.
 *
 * Sources read: kernel/signal.c of a 6.13+ tree (the same functions as 6.1–6.5 except where a
 * note says otherwise; do_sigtimedwait, copy_siginfo_to_user and sigsuspend read there, with 6.1's
 * freezer diff of do_sigtimedwait: TASK_FREEZABLE and schedule_hrtimeout_range since 6.1), and
 * 6.x diffs of __sigqueue_alloc/inc_rlimit_get_ucounts (kernel/ucount.c), kernel/sys.c's getppid, kernel/pid.c's __task_pid_nr_ns, include/linux/sched/signal.h's
 * clear_notify_signal and x86's irqflags.h (arch_local_irq_restore: a conditional sti). Counts
 * of the instructions inside a C statement are estimates throughout (the real code is compiled;
 * each op's count is what the statement needs at least: its loads, compares and stores).
 *
 * Locks: a distribution 6.x kernel is built with CONFIG_SMP, so every siglock acquisition and
 * atomic is a `lock`-prefixed op here already. The notes of the other ops do not name a lock
 * primitive, so the core's CONFIG_SMP pass (which adds a locked_op per named lock) leaves these
 * paths as they are.
 */
import { op, type OpLine, type PathTransform } from "@siglab/plugin-api";
import { replace } from "./defs.js";

const RCU_LOCK = "rcu_read_lock(): ++current->rcu_read_lock_nesting (CONFIG_PREEMPT_RCU, as the PREEMPT_DYNAMIC distribution kernels build it; estimated)";
const RCU_UNLOCK = "rcu_read_unlock(): --rcu_read_lock_nesting; rcu_read_unlock_special? (no)";

/** task_tgid_vnr(tsk) → __task_pid_nr_ns(tsk, PIDTYPE_TGID, NULL) (kernel/pid.c). */
function taskTgidVnr(caller: string): OpLine[] {
  return [
    op(caller, "alu", 1, "task_tgid_vnr(tsk): __task_pid_nr_ns(tsk, PIDTYPE_TGID, NULL) (inlined)"),
    op("__task_pid_nr_ns", "alu", 2, `${RCU_LOCK}; ns == NULL`),
    op("task_active_pid_ns", "load", 3, "ns_of_pid(task_pid(current)): current->thread_pid, pid->level, pid->numbers[level].ns"),
    op("task_pid_ptr", "load", 2, "rcu_dereference(*task_pid_ptr(tsk, PIDTYPE_TGID)): tsk->signal, signal->pids[PIDTYPE_TGID]"),
    op("pid_nr_ns", "load", 4, "ns->level, pid->level, upid = &pid->numbers[ns->level]: upid->ns, upid->nr"),
    op("pid_nr_ns", "alu", 3, "pid && ns->level <= pid->level; upid->ns == ns"),
    op("__task_pid_nr_ns", "alu", 2, RCU_UNLOCK),
  ];
}

/** check_kill_permission(sig, info, t) for a signal to one's own thread group (kernel/signal.c). */
const CHECK_KILL_PERMISSION: OpLine[] = [
  op("check_kill_permission", "alu", 4, "valid_signal(sig); si_fromuser(info): info > SEND_SIG_PRIV && SI_FROMUSER (si_code <= 0)"),
  op("audit_signal_info", "call", 1, "audit_signal_info(sig, t) (kernel/audit.c, CONFIG_AUDIT)"),
  op("audit_signal_info", "load", 3, "current_uid(); auditd_test_task(t): rcu_dereference(auditd_conn) (no audit daemon: NULL); audit_signals? (estimated from memory)"),
  op("audit_signal_info", "alu", 4, "the tests and the return (estimated)"),
  op("check_kill_permission", "load", 2, "same_thread_group(current, t): current->signal == t->signal (a signal to one's own process needs no kill_ok_by_cred)"),
  op("check_kill_permission", "alu", 1),
  op("security_task_kill", "call_indirect", 1, "call_int_hook(task_kill, ...): the LSMs' task_kill hooks, one indirect call each; charged as one hook returning early for an unconfined task (estimated: SELinux's avc_has_perm or AppArmor's label checks cost more and are not modelled)"),
  op("security_task_kill", "load", 3, "hook list head, the hook's credential/label loads (estimated)"),
  op("security_task_kill", "alu", 4, "(estimated)"),
];

/**
 * __set_current_blocked(newset) (kernel/signal.c): the unchanged-mask test, then under the siglock
 * __set_task_blocked and recalc_sigpending. `unchanged` and `retarget` say what the caller's case
 * does at the two tests.
 */
function setCurrentBlocked(unchanged: string, retarget: string): OpLine[] {
  return [
    op("__set_current_blocked", "load", 1, `sigequalsets(&tsk->blocked, newset): ${unchanged}`),
    op("__set_current_blocked", "alu", 1),
    ...SIGLOCK_IRQ,
    op("__set_task_blocked", "load", 2, `task_sigpending(tsk) && !thread_group_empty(tsk)? (${retarget})`),
    op("__set_task_blocked", "alu", 2),
    op("__set_task_blocked", "store", 1, "tsk->blocked = *newset"),
    ...RECALC_SIGPENDING,
    ...SIGUNLOCK_IRQ,
  ];
}

/** copy_from_user/copy_to_user of `words` 8-byte words (arch/x86/include/asm/uaccess_64.h). */
function userCopy(fn: string, what: string, words: number): OpLine[] {
  return [
    op(fn, "call", 1, `${what}: _copy_from_user/_copy_to_user (out of line)`),
    op(fn, "alu", 3, "might_fault(); access_ok(ptr, size); stac (STAC/CLAC have no op class: alu stands in, estimated)"),
    op(fn, "put_user", words, `the ${words * 8} bytes: below 64 bytes copy_user_generic moves quadwords (rep movsb only with FSRM), each with an exception-table fixup like __get_user/__put_user (estimated)`),
    op(fn, "alu", 1, "clac; return 0 (bytes not copied)"),
  ];
}

/** recalc_sigpending() of current (kernel/signal.c). */
const RECALC_SIGPENDING: OpLine[] = [
  op("recalc_sigpending_tsk", "load", 5, "t->jobctl & (JOBCTL_PENDING_MASK | JOBCTL_TRAP_FREEZE); PENDING(&t->pending, &t->blocked); PENDING(&t->signal->shared_pending, &t->blocked) (_NSIG_WORDS == 1)"),
  op("recalc_sigpending_tsk", "alu", 5, "the and-nots and tests; cgroup_task_frozen(t); !freezing(current)"),
  op("recalc_sigpending", "locked_op", 1, "clear_thread_flag(TIF_SIGPENDING) (or set_tsk_thread_flag when one is still pending): a lock-prefixed and/or on the thread flags"),
];

/** spin_lock_irq(&current->sighand->siglock) and its unlock (x86-64, CONFIG_SMP). */
const SIGLOCK_IRQ: OpLine[] = [
  op("local_irq_disable", "cli", 1, "the siglock, IRQs off: cli"),
  op("preempt_disable", "alu", 1, "preempt_count_inc (a %gs-relative incl)"),
  op("raw_spin_lock", "locked_op", 1, "spin_lock_irq(&sighand->siglock): queued_spin_lock's lock cmpxchg"),
];
const SIGUNLOCK_IRQ: OpLine[] = [
  op("raw_spin_unlock", "store", 1, "the siglock released: smp_store_release(&lock->locked, 0), a plain movb"),
  op("local_irq_enable", "sti", 1, "IRQs back on: sti"),
  op("preempt_enable", "alu", 2, "preempt_count_dec_and_test(); __preempt_schedule? (no)"),
];

/**
 * collect_signal and __sigqueue_free (kernel/signal.c, kernel/ucount.c): the first queued instance
 * of the found signal taken off the list, its siginfo copied out, the sigqueue freed.
 */
const COLLECT_SIGNAL: OpLine[] = [
  op("collect_signal", "load", 3, "list_for_each_entry(q, &list->list, list): q->info.si_signo == sig; the next entry (the list's end)"),
  op("collect_signal", "alu", 4, "first? another instance queued (still_pending)?"),
  op("collect_signal", "store", 1, "sigdelset(&list->signal, sig)"),
  op("collect_signal", "store", 4, "list_del_init(&first->list)"),
  op("copy_siginfo", "load", 6, "copy_siginfo(info, &first->info): 48 bytes"),
  op("copy_siginfo", "store", 6),
  op("collect_signal", "alu", 3, "*resched_timer = SIGQUEUE_PREALLOC && si_code == SI_TIMER && si_sys_private"),
  op("__sigqueue_free", "alu", 2, "q->flags & SIGQUEUE_PREALLOC? q->ucounts?"),
  op("dec_rlimit_put_ucounts", "locked_op", 1, "do_dec_rlimit_put_ucounts: atomic_long_sub_return(1, &iter->ucount[UCOUNT_RLIMIT_SIGPENDING])"),
  op("dec_rlimit_put_ucounts", "load", 2, "next = iter->ns->ucounts (NULL: init_user_ns)"),
  op("dec_rlimit_put_ucounts", "alu", 2, "dec == 0: the last pending signal of this user: put_ucounts"),
  op("put_ucounts", "locked_op", 1, "put_ucounts: the reference __sigqueue_alloc took, an atomic decrement of ucounts->count that leaves it above zero (the cred holds one; from memory, estimated)"),
  op("__sigqueue_free", "store", 1, "q->ucounts = NULL"),
  op("kmem_cache_free", "slab_alloc", 1, "kmem_cache_free(sigqueue_cachep, q): the SLUB fast path"),
];

/**
 * The core paths linux6 gives the 6.x ops of signal generation, dequeue and the small system
 * calls (the core's names; 2.4's split, 6.x's code).
 */
export function signalGenTransforms(): PathTransform[] {
  return [
    // ---- getpid / getppid (kernel/sys.c) ----
    replace("sys_getpid", [
      op("__x64_sys_getpid", "load", 1, "SYSCALL_DEFINE0(getpid): task_tgid_vnr(current); current = %gs:current_task"),
      ...taskTgidVnr("__x64_sys_getpid"),
    ]),
    replace("sys_getppid", [
      op("__x64_sys_getppid", "alu", 1, `SYSCALL_DEFINE0(getppid): ${RCU_LOCK}`),
      op("__x64_sys_getppid", "load", 2, "rcu_dereference(current->real_parent): current (%gs:current_task), ->real_parent (no re-read loop as 2.4 had: the parent is read under RCU)"),
      ...taskTgidVnr("__x64_sys_getppid"),
      op("__x64_sys_getppid", "alu", 2, RCU_UNLOCK),
    ]),
    // ---- kill(2): up to group_send_sig_info ----
    replace("sys_kill", [
      op("__x64_sys_kill", "load", 2, "SYSCALL_DEFINE2(kill) wrapper: pid = regs->di, sig = regs->si. The core runs this path for tkill and rt_sigqueueinfo too: their do_send_specific / __copy_siginfo_from_user differ, kill's ops stand in (estimated)"),
      op("prepare_kill_siginfo", "store", 6, "clear_siginfo(info): memset of the 48-byte kernel_siginfo"),
      op("prepare_kill_siginfo", "store", 3, "si_signo = sig; si_errno = 0; si_code = SI_USER"),
      ...taskTgidVnr("prepare_kill_siginfo"),
      op("from_kuid_munged", "load", 3, "si_uid = from_kuid_munged(current_user_ns(), current_uid()): current->cred, cred->user_ns, cred->uid; map_id_up: the namespace's extent count"),
      op("from_kuid_munged", "alu", 4, "map_id_up_base over init_user_ns's one extent (first <= id <= first + count - 1; estimated)"),
      op("prepare_kill_siginfo", "store", 2, "si_pid, si_uid"),
      op("kill_something_info", "alu", 2, "pid > 0: kill_proc_info(sig, info, pid)"),
      op("kill_proc_info", "alu", 1, RCU_LOCK),
      op("find_vpid", "load", 3, "find_pid_ns(nr, task_active_pid_ns(current)): current->thread_pid, level, numbers[level].ns"),
      op("find_pid_ns", "load", 4, "idr_find(&ns->idr, nr): the xarray's head and the slot (a small pid sits in the first node; estimated)"),
      op("find_pid_ns", "alu", 4, "xa_is_node / index checks (estimated)"),
      op("kill_pid_info", "alu", 1, `${RCU_LOCK} (6.1–6.5: kill_pid_info loops itself; later kernels moved the loop to kill_pid_info_type)`),
      op("pid_task", "load", 2, "hlist_first_rcu(&pid->tasks[PIDTYPE_PID]) -> the task"),
      op("kill_pid_info", "call", 1, "group_send_sig_info(sig, info, p, PIDTYPE_TGID)"),
      op("group_send_sig_info", "alu", 1, RCU_LOCK),
    ]),
    // kill(pid, 0): the permission check only
    replace("send_sig_info.probe", [
      ...CHECK_KILL_PERMISSION,
      op("group_send_sig_info", "alu", 3, `${RCU_UNLOCK}; if (!ret && sig): sig == 0, the null signal is a permission and existence probe: nothing is sent`),
      op("kill_pid_info", "alu", 3, `${RCU_UNLOCK}; !p || error != -ESRCH: return`),
      op("kill_proc_info", "alu", 2, RCU_UNLOCK),
    ]),
    // a signal sent: the permission check, the siglock, send_signal_locked up to legacy_queue
    replace("send_sig_info", [
      op("group_send_sig_info", "alu", 1, "the core also runs this path for a fault's force_sig_info (SIGSEGV), which takes the siglock without check_kill_permission (overcharged by it there)"),
      ...CHECK_KILL_PERMISSION,
      op("group_send_sig_info", "alu", 3, `${RCU_UNLOCK}; !ret && sig: do_send_sig_info(sig, info, p, type)`),
      op("do_send_sig_info", "call", 1, "lock_task_sighand(p, &flags) -> __lock_task_sighand"),
      op("__lock_task_sighand", "alu", 1, RCU_LOCK),
      op("__lock_task_sighand", "load", 1, "sighand = rcu_dereference(tsk->sighand)"),
      op("local_irq_save", "pushf", 1, "the target's siglock with IRQs saved: pushf; pop (arch_local_save_flags)"),
      op("local_irq_save", "cli", 1, "cli"),
      op("preempt_disable", "alu", 1, "preempt_count_inc"),
      op("raw_spin_lock_irqsave", "locked_op", 1, "spin_lock_irqsave(&sighand->siglock, *flags): lock cmpxchg"),
      op("__lock_task_sighand", "load", 1, "sighand == rcu_access_pointer(tsk->sighand)? (re-check after the lock)"),
      op("__lock_task_sighand", "alu", 3, `likely: break; ${RCU_UNLOCK}`),
      op("send_signal_locked", "alu", 3, "info == SEND_SIG_NOINFO? SEND_SIG_PRIV? has_si_pid_and_uid(info)"),
      op("siginfo_layout", "alu", 5, "si_code > SI_USER? SI_TIMER? SI_SIGIO? si_code < 0? -> SIL_KILL"),
      op("send_signal_locked", "alu", 1, RCU_LOCK),
      op("send_signal_locked", "load", 4, "task_cred_xxx(t, user_ns) (t->real_cred->user_ns) against current_user_ns() (current->cred->user_ns)"),
      op("send_signal_locked", "alu", 4, `same namespace: si_uid kept; ${RCU_UNLOCK}; force = (si_code == SI_KERNEL)`),
      op("task_pid_nr_ns", "load", 5, "!task_pid_nr_ns(current, task_active_pid_ns(t)): from an ancestor pid namespace? t->thread_pid, its level and namespace; current's pid at that level"),
      op("task_pid_nr_ns", "alu", 5, "pid_nr_ns's level and namespace tests, with its own rcu_read_lock/unlock (estimated)"),
      op("__send_signal_locked", "call", 1, "__send_signal_locked(sig, info, t, type, force)"),
      op("prepare_signal", "load", 1, "signal->flags"),
      op("prepare_signal", "alu", 4, "SIGNAL_GROUP_EXIT? sig_kernel_stop(sig)? sig == SIGCONT?"),
      op("sig_ignored", "load", 3, "sigismember(&t->blocked, sig), sigismember(&t->real_blocked, sig); t->ptrace"),
      op("sig_ignored", "alu", 4),
      op("sig_task_ignored", "load", 4, "handler = t->sighand->action[sig-1].sa.sa_handler; is_global_init(t) (t->thread_pid, level, nr); t->flags (PF_KTHREAD)"),
      op("sig_task_ignored", "alu", 6, "is_global_init && sig_kernel_only; SIGNAL_UNKILLABLE && SIG_DFL; PF_KTHREAD && SIG_KTHREAD_KERNEL; sig_handler_ignored: SIG_IGN, or SIG_DFL && sig_kernel_ignore"),
      op("__send_signal_locked", "alu", 2, "pending = (type != PIDTYPE_PID) ? &t->signal->shared_pending : &t->pending (kill() queues on the process-wide set)"),
      op("legacy_queue", "load", 1, "sig < SIGRTMIN && sigismember(&pending->signal, sig)"),
      op("legacy_queue", "alu", 2, "already pending: goto ret (the unlock is in signal_wake_up)"),
    ]),
    // queued: __sigqueue_alloc ... complete_signal (the core runs this path only when it queues)
    replace("sigqueue_alloc", [
      op("__send_signal_locked", "alu", 5, "6.x's queueing and complete_signal: charged here, since the core runs this path exactly when a signal is queued (its signal_wake_up path also runs for ignored and already-pending signals, which 6.x only unlocks). sig == SIGKILL || PF_KTHREAD? override_rlimit = sig < SIGRTMIN && (is_si_special(info) || si_code >= 0)"),
      op("__sigqueue_alloc", "alu", 1, RCU_LOCK),
      op("__sigqueue_alloc", "load", 2, "ucounts = task_ucounts(t): t->real_cred->ucounts"),
      op("inc_rlimit_get_ucounts", "locked_op", 1, "atomic_long_add_return(1, &iter->ucount[UCOUNT_RLIMIT_SIGPENDING]) (kernel/ucount.c; 6.1–6.5 without the override_rlimit argument later kernels added)"),
      op("inc_rlimit_get_ucounts", "load", 3, "iter->ns->ucount_max[type]; get_userns_rlimit_max; iter->ns->ucounts (NULL: init_user_ns ends the walk)"),
      op("inc_rlimit_get_ucounts", "alu", 5, "new < 0 || new > max; iter == ucounts: ret = new; new != 1?"),
      op("get_ucounts", "locked_op", 1, "new == 1 (no signal of this user was pending): get_ucounts(iter), an atomic add on ucounts->count (from memory; estimated)"),
      op("__sigqueue_alloc", "alu", 4, `${RCU_UNLOCK}; !sigpending?; override_rlimit || sigpending <= task_rlimit(t, RLIMIT_SIGPENDING)`),
      op("kmem_cache_alloc", "slab_alloc", 1, "kmem_cache_alloc(sigqueue_cachep, GFP_ATOMIC): the SLUB fast path"),
      op("__sigqueue_alloc", "store", 4, "INIT_LIST_HEAD(&q->list) (2 words); q->flags = sigqueue_flags; q->ucounts = ucounts"),
      op("list_add_tail", "load", 1, "pending->list.prev"),
      op("list_add_tail", "store", 4, "q->list into pending->list (next, prev and the neighbours' links)"),
      op("copy_siginfo", "load", 6, "switch (info): a real siginfo -> copy_siginfo(&q->info, info): the 48-byte kernel_siginfo"),
      op("copy_siginfo", "store", 6),
      op("signalfd_notify", "load", 2, "waitqueue_active(&tsk->sighand->signalfd_wqh)? (no signalfd)"),
      op("signalfd_notify", "alu", 1),
      op("sigaddset", "load", 1, "sigaddset(&pending->signal, sig): a plain or (the siglock is held)"),
      op("sigaddset", "alu", 2, "or; type > PIDTYPE_TGID? (multiprocess signals: no)"),
      op("sigaddset", "store", 1),
      op("complete_signal", "call", 1, "complete_signal(sig, t, type)"),
      op("wants_signal", "load", 5, "p->blocked, p->flags (PF_EXITING), task_is_stopped_or_traced (p->jobctl), task_curr(p) (cpu_curr(task_cpu(p))), task_sigpending(p)"),
      op("wants_signal", "alu", 6, "the tests: t = p"),
      op("complete_signal", "load", 2, "sig_fatal(p, sig): the handler (SIG_DFL?)"),
      op("complete_signal", "alu", 3, "not fatal (a handler is installed); signal_wake_up(t, sig == SIGKILL)"),
      op("signal_wake_up_state", "locked_op", 1, "set_tsk_thread_flag(t, TIF_SIGPENDING): lock orb on the thread flags"),
      op("signal_wake_up_state", "call", 1, "wake_up_state(t, TASK_INTERRUPTIBLE) -> try_to_wake_up"),
      op("try_to_wake_up", "alu", 2, "preempt_disable(); p == current (a signal to oneself, as lat_sig)"),
      op("ttwu_state_match", "load", 1, "READ_ONCE(p->__state) & state: TASK_RUNNING, no match: return 0 (a sleeping target takes the full wake-up instead: the core charges try_to_wake_up then, whose first op repeats this test)"),
      op("try_to_wake_up", "alu", 2, "preempt_enable(); return success (0)"),
      op("kick_process", "call", 1, "!wake_up_state(): kick_process(t)"),
      op("kick_process", "load", 2, "cpu = task_cpu(p); smp_processor_id() (%gs)"),
      op("kick_process", "alu", 4, "preempt_disable; cpu != smp_processor_id() && task_curr(p)? (the IPI itself is the core's SMP mechanism); preempt_enable"),
    ]),
    // every send's end: ret: the unlock and the unwinding (the queueing is in sigqueue_alloc)
    replace("signal_wake_up", [
      op("__send_signal_locked", "alu", 2, "ret: trace_signal_generate (a static-key nop); return ret. 6.x's sigaddset/complete_signal/signal_wake_up are in the sigqueue_alloc path (they run only for a queued signal; an ignored or already-pending one comes straight here). A signal the queue had no room for (the core's 2.4 max_queued_signals) loses its sigaddset/complete_signal here (6.x's TRACE_SIGNAL_LOSE_INFO sets the bit: not charged)"),
      op("unlock_task_sighand", "store", 1, "spin_unlock_irqrestore(&sighand->siglock): smp_store_release(&lock->locked, 0)"),
      op("local_irq_restore", "alu", 1, "arch_local_irq_restore(flags): !arch_irqs_disabled_flags(flags)?"),
      op("local_irq_restore", "sti", 1, "IF was set: sti"),
      op("preempt_enable", "alu", 2, "preempt_count_dec_and_test(); no resched"),
      op("kill_pid_info", "alu", 3, `${RCU_UNLOCK} (group_send_sig_info's rcu section ended before the lock); !p || error != -ESRCH: return`),
      op("kill_proc_info", "alu", 2, RCU_UNLOCK),
    ]),
    // ---- get_signal (kernel/signal.c), from arch_do_signal_or_restart ----
    replace("do_signal", [
      op("arch_do_signal_or_restart", "call", 1, "get_signal(&ksig)"),
      op("clear_notify_signal", "locked_op", 1, "clear_thread_flag(TIF_NOTIFY_SIGNAL): a lock-prefixed and; smp_mb__after_atomic() (a compiler barrier on x86)"),
      op("get_signal", "load", 4, "task_work_pending(current); task_sigpending(current); uprobe_deny_signal(): current->utask; try_to_freeze(): freezing(current)"),
      op("get_signal", "alu", 5, "the tests"),
      op("get_signal", "alu", 3, "after the loop: ksig->sig = signr; !(sa_flags & SA_EXPOSE_TAGBITS): hide_si_addr_tag_bits (SIL_KILL: nothing); return signr > 0"),
    ]),
    // one turn of get_signal's loop, up to a signal number
    replace("dequeue_signal", [
      op("get_signal", "cli", 1, "relock: the siglock with IRQs off: cli. 6.x takes it once before the loop and keeps it across the turns; the core's split locks and unlocks per turn, so this path and dequeue_signal.unlock carry the lock and its release (a loop passing over ignored signals is overcharged by one lock and release per extra turn)"),
      op("get_signal", "alu", 1, "preempt_count_inc"),
      op("raw_spin_lock", "locked_op", 1, "spin_lock_irq(&sighand->siglock): lock cmpxchg"),
      op("get_signal", "load", 1, "signal->flags & SIGNAL_CLD_MASK (a stopped thread notifying its parent: no)"),
      op("get_signal", "load", 3, "signal->flags & SIGNAL_GROUP_EXIT || signal->group_exec_task; current->jobctl (JOBCTL_STOP_PENDING, JOBCTL_TRAP_MASK | JOBCTL_TRAP_FREEZE)"),
      op("get_signal", "alu", 6, "the tests; cgroup_task_frozen(current); type = PIDTYPE_PID"),
      op("dequeue_synchronous_signal", "load", 2, "pending->signal.sig[0] & ~tsk->blocked.sig[0]"),
      op("dequeue_synchronous_signal", "alu", 2, "& SYNCHRONOUS_MASK: none (a kill()ed signal is not synchronous)"),
      op("dequeue_signal", "alu", 1, "dequeue_signal(current, &current->blocked, &ksig->info, &type): *type = PIDTYPE_PID (6.1–6.5 signature; later kernels dropped tsk)"),
      op("next_signal", "load", 2, "__dequeue_signal(&tsk->pending): x = *s & ~*m"),
      op("next_signal", "alu", 2, "x == 0: nothing thread-private (kill() queued it process-wide)"),
      op("next_signal", "load", 3, "*type = PIDTYPE_TGID; __dequeue_signal(&tsk->signal->shared_pending): tsk->signal, x = *s & ~*m"),
      op("next_signal", "alu", 4, "x & SYNCHRONOUS_MASK?; sig = ffz(~x) + 1 (bsf); _NSIG_WORDS == 1 on x86-64"),
      op("dequeue_signal", "alu", 1, "CONFIG_POSIX_TIMERS: signr == SIGALRM (itimer rearm)?"),
    ]),
    replace("dequeue_signal.collect", COLLECT_SIGNAL),
    // the end of dequeue_signal (every turn): recalc_sigpending, then the siglock's release
    replace("dequeue_signal.unlock", [
      ...RECALC_SIGPENDING,
      op("dequeue_signal", "alu", 3, "if (!signr) return 0; sig_kernel_stop(signr)? resched_timer?"),
      op("raw_spin_unlock", "store", 1, "the siglock's release (6.x: once, after get_signal's loop; see dequeue_signal): smp_store_release"),
      op("get_signal", "sti", 1, "IRQs back on: sti"),
      op("preempt_enable", "alu", 2, "preempt_count_dec_and_test(); no resched"),
    ]),
    replace("do_signal.action", [
      op("get_signal", "load", 2, "current->ptrace (a traced task stops in ptrace_signal: the core's do_signal.ptrace_stop); ka = &sighand->action[signr-1]"),
      op("get_signal", "alu", 4, "trace_signal_deliver (static-key nop); SIG_IGN? SIG_DFL?"),
      op("get_signal", "load", 4, "a handler: ksig->ka = *ka (the 32-byte k_sigaction; charged for every dequeued signal, though an ignored or default-action one does not copy it)"),
      op("get_signal", "store", 4),
      op("get_signal", "alu", 2, "SA_ONESHOT: ka->sa.sa_handler = SIG_DFL? break"),
    ]),
    // handle_signal → signal_setup_done → signal_delivered (after the frame)
    replace("handle_signal_mask", [
      op("handle_signal", "alu", 3, "failed = setup_rt_frame() < 0? regs->flags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF); signal_setup_done(failed, ksig, stepping)"),
      op("signal_delivered", "store", 1, "clear_restore_sigmask(): current->restore_sigmask = false"),
      op("signal_delivered", "load", 2, "sigorsets(&blocked, &current->blocked, &ksig->ka.sa.sa_mask)"),
      op("signal_delivered", "alu", 3, "or; !(sa_flags & SA_NODEFER): sigaddset(&blocked, ksig->sig)"),
      op("set_current_blocked", "alu", 1, "sigdelsetmask(newset, sigmask(SIGKILL) | sigmask(SIGSTOP))"),
      ...setCurrentBlocked("unchanged returns here (with SA_NODEFER and an empty sa_mask it would: not distinguished, the lock is charged)", "one thread: no retarget_shared_pending"),
      op("signal_delivered", "load", 1, "current->sas_ss_flags & SS_AUTODISARM"),
      op("signal_delivered", "alu", 2, "SS_AUTODISARM? stepping (ptrace single-step)?"),
    ]),
    // ---- rt_sigprocmask (kernel/signal.c) ----
    replace("sys_rt_sigprocmask", [
      op("__x64_sys_rt_sigprocmask", "load", 4, "SYSCALL_DEFINE4 wrapper: how, nset, oset, sigsetsize from pt_regs"),
      op("sys_rt_sigprocmask", "alu", 2, "sigsetsize != sizeof(sigset_t)? nset?"),
      op("sys_rt_sigprocmask", "load", 1, "old_set = current->blocked"),
      ...userCopy("sys_rt_sigprocmask", "copy_from_user(&new_set, nset, sizeof(sigset_t))", 1),
      op("sys_rt_sigprocmask", "alu", 1, "sigdelsetmask(&new_set, sigmask(SIGKILL) | sigmask(SIGSTOP))"),
      op("sigprocmask", "call", 1, "sigprocmask(how, &new_set, NULL): lockless, only current changes ->blocked"),
      op("sigprocmask", "load", 1, "tsk->blocked"),
      op("sigprocmask", "alu", 3, "switch (how): SIG_BLOCK sigorsets, SIG_UNBLOCK sigandnsets, SIG_SETMASK newset = *set"),
      ...setCurrentBlocked("an unchanged mask returns here without the siglock (not distinguished: the changed mask's lock is charged; a query with nset == NULL also skips this)", "retarget_shared_pending for a multi-threaded process: not modelled"),
      op("sys_rt_sigprocmask", "alu", 1, "oset?"),
      ...userCopy("sys_rt_sigprocmask", "copy_to_user(oset, &old_set, sizeof(sigset_t))", 1),
    ]),
    // ---- rt_sigaction: x86-64 has no old sigaction(2); the core's sys_sigaction is rt_sigaction ----
    replace("sys_sigaction", [
      op("__x64_sys_rt_sigaction", "load", 4, "SYSCALL_DEFINE4(rt_sigaction) wrapper: sig, act, oact, sigsetsize from pt_regs (x86-64 has no sigaction(2): the core's sys_sigaction path is rt_sigaction's)"),
      op("sys_rt_sigaction", "alu", 2, "sigsetsize != sizeof(sigset_t)? act?"),
      ...userCopy("sys_rt_sigaction", "copy_from_user(&new_sa.sa, act, sizeof(new_sa.sa))", 4),
      op("do_sigaction", "alu", 4, "valid_signal(sig) && sig >= 1; act && sig_kernel_only(sig)?"),
      op("do_sigaction", "load", 1, "k = &p->sighand->action[sig-1]"),
      ...SIGLOCK_IRQ,
      op("do_sigaction", "load", 1, "k->sa.sa_flags & SA_IMMUTABLE?"),
      op("do_sigaction", "alu", 1),
      op("do_sigaction", "load", 4, "oact: *oact = *k (the 32-byte k_sigaction)"),
      op("do_sigaction", "store", 4),
      op("do_sigaction", "alu", 5, "act->sa.sa_flags &= UAPI_SA_FLAGS; oact->sa.sa_flags &= UAPI_SA_FLAGS; sigaction_compat_abi (x86: ia32/x32 only); was_ignored = (k->sa.sa_handler == SIG_IGN); sigdelsetmask(&act->sa.sa_mask, SIGKILL | SIGSTOP)"),
      op("do_sigaction", "load", 4, "*k = *act"),
      op("do_sigaction", "store", 4),
      op("do_sigaction", "alu", 3, "sig_handler_ignored(sig_handler(p, sig), sig)? (SIG_IGN or an ignored SIG_DFL: flush_sigqueue_mask of the shared and every thread's pending set, not charged: the core discards them without a path)"),
      ...SIGUNLOCK_IRQ,
      op("sys_rt_sigaction", "alu", 1, "ret? oact?"),
      ...userCopy("sys_rt_sigaction", "copy_to_user(oact, &old_sa.sa, sizeof(old_sa.sa))", 4),
    ]),
    // rt_sigtimedwait, copy_siginfo_to_user, rt_sigsuspend
    ...signalWaitTransforms(),
  ];
}

// ---- the signal waits: rt_sigtimedwait and rt_sigsuspend (kernel/signal.c) ----

/**
 * One search of dequeue_signal(tsk, &mask, info, &type) (6.1–6.5 signature; later kernels dropped
 * tsk): __dequeue_signal over the thread's private set, then the process-wide one. `found`: the
 * shared set has the signal (kill() queues process-wide), else both are empty.
 */
function dequeueSearch(found: boolean): OpLine[] {
  return [
    op("dequeue_signal", "alu", 1, "*type = PIDTYPE_PID; resched_timer = false"),
    op("next_signal", "load", 2, "__dequeue_signal(&tsk->pending, mask, ...): x = *s & ~*m"),
    op("next_signal", "alu", 2, "x == 0: nothing thread-private"),
    op("next_signal", "load", 3, "*type = PIDTYPE_TGID; __dequeue_signal(&tsk->signal->shared_pending, ...): tsk->signal, x = *s & ~*m"),
    found
      ? op("next_signal", "alu", 4, "x & SYNCHRONOUS_MASK?; sig = ffz(~x) + 1 (bsf); _NSIG_WORDS == 1 on x86-64")
      : op("next_signal", "alu", 2, "x == 0: nothing process-wide either (signr = 0)"),
    op("dequeue_signal", "alu", 1, "CONFIG_POSIX_TIMERS: signr == SIGALRM (itimer rearm)?"),
  ];
}

/** set_current_blocked(newset) from a syscall: __set_current_blocked under the siglock (kernel/signal.c). */
const SET_CURRENT_BLOCKED: OpLine[] = [
  op("set_current_blocked", "alu", 1, "sigdelsetmask(newset, sigmask(SIGKILL) | sigmask(SIGSTOP))"),
  op("__set_current_blocked", "load", 1, "sigequalsets(&tsk->blocked, newset)? (an unchanged mask returns here: not distinguished, the lock is charged)"),
  op("__set_current_blocked", "alu", 1),
  ...SIGLOCK_IRQ,
  op("__set_task_blocked", "load", 2, "task_sigpending(tsk) && !thread_group_empty(tsk)? (one thread: no retarget_shared_pending)"),
  op("__set_task_blocked", "alu", 2),
  op("__set_task_blocked", "store", 1, "tsk->blocked = *newset"),
  ...RECALC_SIGPENDING,
  ...SIGUNLOCK_IRQ,
];

/**
 * The signal waits of 6.1–6.5. The core runs rt_sigtimedwait's paths as the call goes:
 * `sys_rt_sigtimedwait` (entry, siglock), `.none` / `.take` for each dequeue_signal, `.sleep` and
 * `.woken` only when nothing was pending and the timeout is not zero, `.done` (unlock, return),
 * and `copy_siginfo_to_user` when a signal was taken: a signal pending at entry is dequeued at once
 * with no wait ops. `sys_sigsuspend` runs once per call before its sleep loop. The sleep itself
 * (schedule(), the wake-up) stays the core's.
 */
export function signalWaitTransforms(): PathTransform[] {
  return [
    // rt_sigtimedwait → do_sigtimedwait, as the core runs it: the entry and the siglock, each
    // dequeue_signal (.none / .take), the sleep (.sleep) and, woken, the mask restored (.woken)
    // only when nothing was pending and the timeout is not zero, then the unlock (.done)
    replace("sys_rt_sigtimedwait", [
      op("__x64_sys_rt_sigtimedwait", "load", 4, "SYSCALL_DEFINE4(rt_sigtimedwait) wrapper: uthese, uinfo, uts, sigsetsize from pt_regs"),
      op("sys_rt_sigtimedwait", "alu", 1, "sigsetsize != sizeof(sigset_t)?"),
      ...userCopy("sys_rt_sigtimedwait", "copy_from_user(&these, uthese, sizeof(these))", 1),
      op("sys_rt_sigtimedwait", "alu", 1, "uts? (sigwaitinfo passes NULL: no get_timespec64)"),
      op("do_sigtimedwait", "call", 1, "do_sigtimedwait(&these, &info, uts ? &ts : NULL)"),
      op("do_sigtimedwait", "alu", 4, "to = NULL, timeout = KTIME_MAX; ts? (timespec64_valid, timespec64_to_ktime with a timeout); mask = *which"),
      op("do_sigtimedwait", "alu", 2, "sigdelsetmask(&mask, sigmask(SIGKILL) | sigmask(SIGSTOP)); signotset(&mask): the signals to leave alone"),
      ...SIGLOCK_IRQ,
    ]),
    replace("sys_rt_sigtimedwait.none", [
      ...dequeueSearch(false),
      ...RECALC_SIGPENDING,
      op("dequeue_signal", "alu", 1, "!signr: return 0"),
    ]),
    replace("sys_rt_sigtimedwait.take", [
      ...dequeueSearch(true),
      ...COLLECT_SIGNAL,
      ...RECALC_SIGPENDING,
      op("dequeue_signal", "alu", 3, "signr: sig_kernel_stop(signr)? resched_timer?"),
    ]),
    replace("sys_rt_sigtimedwait.sleep", [
      op("do_sigtimedwait", "alu", 1, "!sig && timeout: none ready, wait"),
      op("do_sigtimedwait", "load", 1, "tsk->real_blocked = tsk->blocked"),
      op("do_sigtimedwait", "store", 1),
      op("do_sigtimedwait", "alu", 1, "sigandsets(&tsk->blocked, &tsk->blocked, &mask): the waited-for signals unblocked for the sleep (no set_current_blocked: unblocking needs no retarget)"),
      op("do_sigtimedwait", "store", 1),
      ...RECALC_SIGPENDING,
      ...SIGUNLOCK_IRQ,
      op("do_sigtimedwait", "store", 1, "__set_current_state(TASK_INTERRUPTIBLE|TASK_FREEZABLE) (6.1's freezer rework: before it, freezable_schedule_hrtimeout_range)"),
      op("schedule_hrtimeout_range", "call", 1, "schedule_hrtimeout_range(to, tsk->timer_slack_ns, HRTIMER_MODE_REL) -> schedule_hrtimeout_range_clock"),
      op("schedule_hrtimeout_range_clock", "alu", 3, "expires && !*expires? !expires: schedule() (the core's sleep and switch), return -EINTR. With a timeout it arms an on-stack hrtimer_sleeper (hrtimer_setup_sleeper_on_stack, hrtimer_sleeper_start_expires, hrtimer_cancel, destroy_hrtimer_on_stack): not charged, the core's timeout is tick-rounded"),
    ]),
    replace("sys_rt_sigtimedwait.woken", [
      ...SIGLOCK_IRQ,
      op("__set_task_blocked", "load", 2, "woken: __set_task_blocked(tsk, &tsk->real_blocked): task_sigpending(tsk) && !thread_group_empty(tsk)? (one thread: no retarget_shared_pending)"),
      op("__set_task_blocked", "alu", 2),
      op("__set_task_blocked", "load", 1, "tsk->blocked = tsk->real_blocked"),
      op("__set_task_blocked", "store", 1),
      ...RECALC_SIGPENDING,
      op("do_sigtimedwait", "store", 1, "sigemptyset(&tsk->real_blocked); then the second dequeue_signal (.none / .take)"),
    ]),
    replace("sys_rt_sigtimedwait.done", [
      ...SIGUNLOCK_IRQ,
      op("do_sigtimedwait", "alu", 2, "if (sig) return sig; (else ret ? -EINTR : -EAGAIN)"),
      op("sys_rt_sigtimedwait", "alu", 2, "ret > 0 && uinfo: copy_siginfo_to_user (its own path)"),
    ]),
    // the siginfo to user space: the 48-byte kernel_siginfo, then the rest of the 128-byte siginfo_t cleared
    replace("copy_siginfo_to_user", [
      op("copy_siginfo_to_user", "alu", 1, "expansion = si_expansion(to): to + sizeof(struct kernel_siginfo)"),
      ...userCopy("copy_siginfo_to_user", "copy_to_user(to, from, sizeof(struct kernel_siginfo)): 48 bytes (2.4 copied the fields one by one)", 6),
      op("clear_user", "alu", 3, "clear_user(expansion, SI_EXPANSION_SIZE): might_fault(); access_ok(to, 80); stac (alu stands in, estimated)"),
      op("rep_stos_alternative", "put_user", 10, "the 80 bytes of the 128-byte siginfo_t past the kernel's 48 zeroed: without FSRS (skylake, zen4) 6.4–6.5's rep_stos_alternative stores quadwords, one 64-byte unrolled block and two more, each with an exception-table fixup (6.1's __clear_user used rep stosq, 6.2–6.3's clear_user_original; the versions and the missing FSRS are from memory, estimated the same)"),
      op("clear_user", "alu", 1, "clac; return 0 (bytes not cleared)"),
    ]),
    // rt_sigsuspend → sigsuspend
    replace("sys_sigsuspend", [
      op("__x64_sys_rt_sigsuspend", "load", 2, "SYSCALL_DEFINE2(rt_sigsuspend) wrapper: unewset, sigsetsize from pt_regs (x86-64 has only rt_sigsuspend: the core's sys_sigsuspend path is its body)"),
      op("sys_rt_sigsuspend", "alu", 1, "sigsetsize != sizeof(sigset_t)?"),
      ...userCopy("sys_rt_sigsuspend", "copy_from_user(&newset, unewset, sizeof(newset))", 1),
      op("sigsuspend", "call", 1, "sigsuspend(&newset)"),
      op("sigsuspend", "load", 1, "current->saved_sigmask = current->blocked (the mask the frame or the return restores)"),
      op("sigsuspend", "store", 1),
      ...SET_CURRENT_BLOCKED,
      op("sigsuspend", "load", 1, "while (!signal_pending(current)): test_thread_flag(TIF_SIGPENDING). The core runs this path once before its sleep loop: one turn is charged, for a call that sleeps once; a call whose signal is already pending (the new mask unblocks it) does not enter the loop (overcharged by its store and call: in sig_wake on one CPU, one call of the two per round trip)"),
      op("sigsuspend", "alu", 1),
      op("sigsuspend", "store", 1, "__set_current_state(TASK_INTERRUPTIBLE)"),
      op("sigsuspend", "call", 1, "schedule() (the core's sleep and switch)"),
      op("sigsuspend", "load", 1, "woken: signal_pending(current) again"),
      op("sigsuspend", "alu", 1),
      op("set_restore_sigmask", "store", 1, "set_restore_sigmask(): current->restore_sigmask = true (get_signal's frame saves saved_sigmask; without a handler restore_saved_sigmask puts it back)"),
      op("set_restore_sigmask", "alu", 1, "WARN_ON(!signal_pending(current)) (the flag was just read); return -ERESTARTNOHAND"),
    ]),
  ];
}

/** The core paths signalWaitTransforms replaces (for the README and the tests). */
export const SIGNAL_WAIT_TARGETS: readonly string[] = signalWaitTransforms().map((t) => t.target);

/** The core paths signalGenTransforms replaces (for the README and the tests). */
export const SIGNAL_GEN_TARGETS: readonly string[] = signalGenTransforms().map((t) => t.target);
