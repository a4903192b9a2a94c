/**
 * Linux 6.x's pipe read and write, op by op, in place of the core's 2.4 paths (fs/pipe.c's
 * pipe_read/pipe_write under PIPE_SEM, add/remove_wait_queue, __wake_up). The core's mechanism
 * stays (core fs/read-write.ts: who blocks, who is woken, how many bytes move, one wake-up per
 * wakeAll, the try_to_wake_up path per woken task); what changes is what each of its paths runs:
 *
 * - `pipe_read` / `pipe_write`: __x64_sys_read/write -> ksys_read/write (fdget_pos) -> vfs_read/write
 *   (access_ok, rw_verify_area with the LSM hook and fsnotify_perm) -> new_sync_read/write (the
 *   kiocb and the ITER_UBUF iov_iter) -> f_op->read_iter/write_iter -> pipe_read/pipe_write up to
 *   the ring's head/tail test under pipe->mutex.
 * - `copy.pipe.io.setup` / `copy.pipe.io`: copy_page_to_iter / copy_page_from_iter -> _copy_to_iter /
 *   _copy_from_iter -> copyout / copyin -> copy_user_generic (STAC, REP MOVSB, CLAC).
 * - `pipe_read.done` / `pipe_write.done`: the ring update (tail++ / a new slot at head under
 *   rd_wait.lock), __pipe_unlock, the wake-up test and kill_fasync, file_accessed /
 *   file_update_time, then vfs_read/write's fsnotify_access/modify and I/O accounting, fdput_pos.
 * - `add_wait_queue`: the sleep of pipe_read/pipe_write: __pipe_unlock, kill_fasync,
 *   wait_event_interruptible_exclusive -> init_wait_entry + prepare_to_wait_event (the entry is
 *   queued and the task state set there) + the condition, before schedule().
 * - `remove_wait_queue`: after schedule() returns: ___wait_event's loop runs prepare_to_wait_event
 *   again (autoremove_wake_function took the entry off the queue, so it is queued again), the
 *   condition holds, finish_wait takes it off, then __pipe_lock again.
 * - `__wake_up`: wake_up_interruptible_sync_poll -> __wake_up_sync_key -> __wake_up_common_lock ->
 *   __wake_up_common -> autoremove_wake_function -> default_wake_function; try_to_wake_up itself is
 *   the core's separate path (linux6's with CFS), run once per woken task as before.
 *
 * Sources read: fs/pipe.c (a 6.6 tree), lib/iov_iter.c (6.1), kernel/sched/wait.c
 * (prepare_to_wait_event of 6.6); fs/read_write.c, the LSM and fsnotify glue from memory of
 * 6.1–6.5. Counts marked "estimated" are instruction counts not read off the source.
 */
import { op, type OpLine, type PathTransform } from "@siglab/plugin-api";
import { replace } from "./defs.js";
import type { Mitigations } from "./mitigations.js";

/** The core paths this file replaces (core fs/ runs them). */
export const PIPE_PATH_NAMES = ["pipe_read", "pipe_read.done", "pipe_write", "pipe_write.done", "copy.pipe.io", "copy.pipe.io.setup", "add_wait_queue", "remove_wait_queue", "__wake_up"] as const;

const STAC = "STAC/CLAC have no op class: alu stands in (a write of EFLAGS.AC; estimated)";

// ---- locks ------------------------------------------------------------------------------------

/** __pipe_lock: mutex_lock_nested without lockdep is mutex_lock; uncontended (the holder never sleeps with it). */
function pipeLock(fn: string): OpLine[] {
  return [
    op(fn, "call", 1, "__pipe_lock(pipe) -> mutex_lock(&pipe->mutex) (mutex_lock_nested without lockdep)"),
    op("mutex_lock", "call", 1, "might_sleep(): with PREEMPT_DYNAMIC in voluntary mode (Debian's default) might_resched() is a static call of __cond_resched"),
    op("__cond_resched", "alu", 2, "should_resched(0): preempt_count() == 0 && need_resched? (no)"),
    op("__mutex_trylock_fast", "locked_op", 1, "atomic_long_try_cmpxchg_acquire(&lock->owner, 0, current): the uncontended fast path"),
  ];
}

/** __pipe_unlock: mutex_unlock's fast path (no waiter flag). */
function pipeUnlock(fn: string): OpLine[] {
  return [
    op(fn, "call", 1, "__pipe_unlock(pipe) -> mutex_unlock(&pipe->mutex)"),
    op("__mutex_unlock_fast", "locked_op", 1, "atomic_long_try_cmpxchg_release(&lock->owner, current, 0): no MUTEX_FLAG_WAITERS"),
  ];
}

/** spin_lock_irq / spin_unlock_irq of pipe->rd_wait.lock (process context: IRQs were on). */
function spinLockIrq(fn: string, what: string): OpLine[] {
  return [op(fn, "cli", 1, `spin_lock_irq(${what}): local_irq_disable()`), op("queued_spin_lock", "locked_op", 1, "lock cmpxchg of the lock word (uncontended: one CPU)")];
}
function spinUnlockIrq(fn: string, what: string): OpLine[] {
  return [op("queued_spin_unlock", "store", 1, `spin_unlock_irq(${what}): smp_store_release of the locked byte`), op(fn, "sti", 1, "local_irq_enable()")];
}

/** spin_lock_irqsave of a wait-queue head (kernel/sched/wait.c). */
function spinLockIrqsave(fn: string): OpLine[] {
  return [
    op(fn, "pushf", 1, "spin_lock_irqsave(&wq_head->lock, flags): arch_local_irq_save: pushf"),
    op(fn, "pop", 1, "pop %reg (the saved flags)"),
    op(fn, "cli", 1, "cli"),
    op("queued_spin_lock", "locked_op", 1, "lock cmpxchg of the lock word (uncontended: one CPU)"),
  ];
}
/** spin_unlock_irqrestore where the caller had IRQs on (prepare_to_wait_event, finish_wait: process context). */
function spinUnlockIrqrestore(fn: string): OpLine[] {
  return [
    op("queued_spin_unlock", "store", 1, "smp_store_release of the locked byte"),
    op(fn, "alu", 1, "arch_local_irq_restore(flags): flags & X86_EFLAGS_IF? (6.x tests and uses sti, no popf)"),
    op(fn, "sti", 1, "IRQs were on: sti"),
  ];
}

// ---- fs/read_write.c, the LSM hook, fsnotify --------------------------------------------------

/** __x64_sys_read/write -> ksys_read/write -> fdget_pos -> __fget_light; file_ppos. */
function ksys(dir: "read" | "write"): OpLine[] {
  return [
    op(`__x64_sys_${dir}`, "alu", 3, `ksys_${dir}(regs->di, regs->si, regs->dx)`),
    op("__fget_light", "load", 4, "current->files; atomic_read(&files->count) == 1 (not shared: no reference taken, no fput); files->fdt; fdt->fd[fd]"),
    op("__fget_light", "alu", 5, "fd < fdt->max_fds; array_index_nospec(fd, max_fds); file && !(file->f_mode & FMODE_PATH)"),
    op("__fdget_pos", "alu", 2, "file->f_mode & FMODE_ATOMIC_POS? (no: stream_open cleared it for pipes: no f_pos_lock)"),
    op("file_ppos", "alu", 1, "FMODE_STREAM: ppos = NULL (a pipe has no position)"),
    op(`ksys_${dir}`, "call", 1, `vfs_${dir}(f.file, buf, count, NULL)`),
  ];
}

/** fsnotify_file(file, mask) with nothing watching: the event is tested and dropped (estimated counts). */
function fsnotifyFile(fn: string, mask: string): OpLine[] {
  return [
    op(fn, "alu", 2, `fsnotify_file(file, ${mask}): file->f_mode & FMODE_NONOTIFY? (no: pipes send events before 6.14)`),
    op("fsnotify_parent", "alu", 2, "dentry->d_flags & DCACHE_FSNOTIFY_PARENT_WATCHED? (no)"),
    op("fsnotify", "call", 1, "fsnotify(mask, &file->f_path, FSNOTIFY_EVENT_PATH, NULL, NULL, inode, 0)"),
    op("fsnotify", "load", 4, "inode->i_sb; sb->s_fsnotify_marks; real_mount(path->mnt)->mnt_fsnotify_marks; inode->i_fsnotify_marks (estimated)"),
    op("fsnotify", "alu", 5, "no marks on the inode, the pipefs mount or its superblock: return 0 (estimated count)"),
  ];
}

/**
 * rw_verify_area -> security_file_permission: the LSM hook list (an hlist walk in 6.1–6.7, static
 * calls only from 6.8) with AppArmor's apparmor_file_permission on its cached fast path. Debian
 * kernel with AppArmor; the hook's instruction counts are estimated.
 */
function rwVerifyArea(dir: "read" | "write"): OpLine[] {
  return [
    op("rw_verify_area", "alu", 2, "(ssize_t)count < 0?; ppos == NULL: no range checks"),
    op("rw_verify_area", "call", 1, `security_file_permission(file, ${dir === "read" ? "MAY_READ" : "MAY_WRITE"})`),
    op("security_file_permission", "load", 2, "call_int_hook(file_permission, 0, file, mask): hlist_for_each_entry over security_hook_heads.file_permission (AppArmor's entry)"),
    op("security_file_permission", "call_indirect", 1, "P->hook.file_permission(file, mask): apparmor_file_permission -> common_file_perm(OP_FPERM, file, mask, false)"),
    op("common_file_perm", "load", 7, "file->f_path.dentry == aa_null.dentry?; __begin_current_label_crit_section: current->cred's label, label->flags & FLAG_STALE; aa_file_perm: file_ctx(file), rcu_dereference(fctx->label), fctx->allow (estimated count)"),
    op("aa_file_perm", "alu", 8, "denied = request & ~fctx->allow; unconfined(label) || unconfined(flabel) || (!denied && __aa_subj_label_is_cached(label, flabel)): the cached fast path, no permission walk, no audit (estimated count)"),
    op("aa_file_perm", "store", 2, "rcu_read_lock/rcu_read_unlock: current->rcu_read_lock_nesting++/-- (PREEMPT_RCU)"),
    op("common_file_perm", "call", 1, "aa_file_perm(op, label, file, mask, in_atomic)"),
    op("security_file_permission", "alu", 1, "ret != 0? then fsnotify_perm(file, mask)"),
    ...(dir === "read"
      ? fsnotifyFile("fsnotify_perm", "FS_ACCESS_PERM")
      : [op("fsnotify_perm", "alu", 2, "!(mask & (MAY_READ | MAY_OPEN)): return 0")]),
  ];
}

/** vfs_read/vfs_write up to ->read_iter/->write_iter through new_sync_read/new_sync_write. */
function vfs(dir: "read" | "write"): OpLine[] {
  const R = dir === "read";
  return [
    op(`vfs_${dir}`, "load", 1, "file->f_mode"),
    op(`vfs_${dir}`, "alu", 2, R ? "FMODE_READ? FMODE_CAN_READ?" : "FMODE_WRITE? FMODE_CAN_WRITE?"),
    op(`vfs_${dir}`, "alu", 3, "access_ok(buf, count): buf + count within TASK_SIZE_MAX, no carry"),
    ...rwVerifyArea(dir),
    op(`vfs_${dir}`, "alu", 1, "count > MAX_RW_COUNT?"),
    ...(R ? [] : [op("file_start_write", "alu", 2, "!S_ISREG(file_inode(file)->i_mode): no sb_start_write for a FIFO")]),
    op(`vfs_${dir}`, "load", 2, `file->f_op->${dir} (NULL for pipefifo_fops), file->f_op->${dir}_iter`),
    op(`vfs_${dir}`, "call", 1, `new_sync_${dir}(file, buf, count, pos)`),
    op(`new_sync_${dir}`, "load", 2, "init_sync_kiocb: filp->f_iocb_flags; get_current_ioprio(): current->io_context (none)"),
    op("get_current_ioprio", "alu", 3, "IOPRIO_DEFAULT: the class from task_nice_ioclass (estimated count)"),
    op(`new_sync_${dir}`, "store", 5, "the kiocb on the stack: ki_filp, ki_flags, ki_ioprio, ki_pos = 0 (ppos NULL), the rest zeroed"),
    op("iov_iter_ubuf", "store", 5, `an ITER_UBUF iterator: iter_type, data_source = ${R ? "ITER_DEST" : "ITER_SOURCE"}, user_backed, ubuf = buf, count = len (iov_offset 0)`),
    op(`new_sync_${dir}`, "call_indirect", 1, `call_${dir}_iter: filp->f_op->${dir}_iter(&kiocb, &iter): pipe_${dir}`),
  ];
}

/** vfs_read/vfs_write after ->read_iter/->write_iter returned, then ksys_read/write's fdput_pos. */
function vfsDone(dir: "read" | "write"): OpLine[] {
  const R = dir === "read";
  return [
    op(`new_sync_${dir}`, "alu", 2, "BUG_ON(ret == -EIOCBQUEUED); ppos == NULL"),
    op(`vfs_${dir}`, "alu", 1, "ret > 0?"),
    ...fsnotifyFile(R ? "fsnotify_access" : "fsnotify_modify", R ? "FS_ACCESS" : "FS_MODIFY"),
    op(R ? "add_rchar" : "add_wchar", "load", 2, R ? "current->ioac.rchar, current->ioac.syscr" : "current->ioac.wchar, current->ioac.syscw"),
    op(R ? "add_rchar" : "add_wchar", "store", 2, R ? "rchar += ret; inc_syscr(current)" : "wchar += ret; inc_syscw(current)"),
    ...(R ? [] : [op("file_end_write", "alu", 2, "!S_ISREG: nothing")]),
    op(`ksys_${dir}`, "alu", 3, "ret >= 0 && ppos (no); fdput_pos(f): FDPUT_POS_UNLOCK? FDPUT_FPUT? (neither)"),
  ];
}

// ---- the paths ------------------------------------------------------------------------------

function pipeRead(): OpLine[] {
  return [
    ...ksys("read"),
    ...vfs("read"),
    op("pipe_read", "alu", 2, "total_len = iov_iter_count(to); total_len == 0?"),
    ...pipeLock("pipe_read"),
    op("pipe_read", "load", 3, "was_full = pipe_full(pipe->head, pipe->tail, pipe->max_usage)"),
    op("pipe_read", "alu", 2, "head - tail >= max_usage"),
    op("pipe_read", "load", 4, "for (;;): head = smp_load_acquire(&pipe->head); tail = pipe->tail; mask = pipe->ring_size - 1; pipe->note_loss (CONFIG_WATCH_QUEUE)"),
    op("pipe_read", "alu", 3, "pipe->note_loss?; pipe_empty(head, tail)? (empty: the wait, add_wait_queue)"),
  ];
}

function pipeReadDone(): OpLine[] {
  return [
    op("pipe_read", "load", 2, "buf = &pipe->bufs[tail & mask]; chars = buf->len"),
    op("pipe_read", "alu", 4, "chars > total_len? (PIPE_BUF_FLAG_WHOLE); pipe_buf_confirm: buf->ops->confirm == NULL for anon buffers"),
    op("pipe_read", "alu", 3, "written < chars?; ret += chars"),
    op("pipe_read", "store", 2, "buf->offset += chars; buf->len -= chars"),
    op("pipe_read", "alu", 2, "PIPE_BUF_FLAG_PACKET?; !buf->len"),
    op("pipe_buf_release", "store", 1, "buf->ops = NULL"),
    op("pipe_buf_release", "call_indirect", 1, "ops->release(pipe, buf): anon_pipe_buf_release"),
    op("anon_pipe_buf_release", "load", 3, "page_count(page) (compound_head, _refcount); pipe->tmp_page"),
    op("anon_pipe_buf_release", "alu", 2, "page_count == 1 && !pipe->tmp_page: keep the page as the one-deep cache"),
    op("anon_pipe_buf_release", "store", 1, "pipe->tmp_page = page (no put_page: the writer's next buffer reuses it)"),
    ...spinLockIrq("pipe_read", "&pipe->rd_wait.lock"),
    op("pipe_read", "alu", 2, "PIPE_BUF_FLAG_LOSS? (CONFIG_WATCH_QUEUE); tail++"),
    op("pipe_read", "store", 1, "pipe->tail = tail"),
    ...spinUnlockIrq("pipe_read", "&pipe->rd_wait.lock"),
    op("pipe_read", "alu", 2, "total_len -= chars; !total_len: break (the common path)"),
    op("pipe_read", "load", 2, "pipe_empty(pipe->head, pipe->tail): wake_next_reader = false"),
    op("pipe_read", "alu", 1, "head == tail"),
    ...pipeUnlock("pipe_read"),
    op("pipe_read", "alu", 2, "was_full? (a writer waits: the core's __wake_up follows, wake_up_interruptible_sync_poll(&pipe->wr_wait)); wake_next_reader?"),
    op("kill_fasync", "load", 1, "kill_fasync(&pipe->fasync_writers, SIGIO, POLL_OUT): *fp (NULL unless O_ASYNC: send_sigio is the core's path)"),
    op("kill_fasync", "alu", 1, "*fp == NULL: return"),
    op("pipe_read", "alu", 2, "ret > 0: file_accessed(filp): O_NOATIME?"),
    op("touch_atime", "call", 2, "touch_atime(&filp->f_path) -> atime_needs_update(path, inode)"),
    op("atime_needs_update", "load", 5, "inode->i_flags (S_NOATIME), i_uid/i_gid mapped (HAS_UNMAPPED_ID), sb->s_flags (IS_NOATIME, SB_NODIRATIME), mnt->mnt_flags (MNT_NOATIME, MNT_NODIRATIME)"),
    op("atime_needs_update", "alu", 7, "each flag test; S_ISDIR? (estimated count)"),
    op("current_time", "load", 5, "ktime_get_coarse_real_ts64: tk_core.seq read, xtime_sec, xtime_nsec >> shift, seq retry; sb->s_time_gran"),
    op("current_time", "alu", 6, "read_seqcount_retry; timestamp_truncate (gran 1: clamp to s_time_min/max) (estimated count)"),
    op("atime_needs_update", "load", 2, "inode->i_atime"),
    op("atime_needs_update", "alu", 3, "relatime_need_update (MNT_RELATIME not set on the internal pipefs mount); timespec64_equal(&inode->i_atime, &now): equal within the jiffy, no update (the once-a-jiffy update is not charged)"),
    ...vfsDone("read"),
  ];
}

function pipeWrite(): OpLine[] {
  return [
    ...ksys("write"),
    ...vfs("write"),
    op("pipe_write", "alu", 2, "total_len = iov_iter_count(from); total_len == 0?"),
    ...pipeLock("pipe_write"),
    op("pipe_write", "load", 2, "pipe->readers; pipe_has_watch_queue (CONFIG_WATCH_QUEUE: pipe->watch_queue)"),
    op("pipe_write", "alu", 2, "!pipe->readers (SIGPIPE)?; a notification pipe (-EXDEV)?"),
    op("pipe_write", "load", 2, "head = pipe->head; pipe->tail"),
    op("pipe_write", "alu", 4, "was_empty = pipe_empty(head, tail); chars = total_len & (PAGE_SIZE-1); chars && !was_empty: merge into the last buffer? (the ping-pong finds the pipe empty: no)"),
  ];
}

function pipeWriteDone(): OpLine[] {
  return [
    // the slot is allocated before the copy in fs/pipe.c; the core runs this path once per chunk after it
    op("pipe_write", "load", 4, "for (;;): pipe->readers; head = pipe->head; pipe->tail, pipe->max_usage"),
    op("pipe_write", "alu", 3, "!pipe_full(head, tail, max_usage); page = pipe->tmp_page (set: the reader's anon_pipe_buf_release kept it; the first write's alloc_page is not charged)"),
    ...spinLockIrq("pipe_write", "&pipe->rd_wait.lock"),
    op("pipe_write", "load", 3, "head = pipe->head; pipe_full(head, pipe->tail, pipe->max_usage)? (re-checked under the lock)"),
    op("pipe_write", "alu", 2, "head - tail >= max_usage?"),
    op("pipe_write", "store", 1, "pipe->head = head + 1"),
    ...spinUnlockIrq("pipe_write", "&pipe->rd_wait.lock"),
    op("pipe_write", "alu", 3, "buf = &pipe->bufs[head & mask]; is_packetized(filp): O_DIRECT?"),
    op("pipe_write", "store", 6, "buf->page = page; buf->ops = &anon_pipe_buf_ops; buf->offset = 0; buf->len = 0; buf->flags = PIPE_BUF_FLAG_CAN_MERGE; pipe->tmp_page = NULL"),
    op("pipe_write", "alu", 3, "copied < PAGE_SIZE && iov_iter_count(from)? (no fault); ret += copied"),
    op("pipe_write", "store", 1, "buf->len = copied"),
    op("pipe_write", "alu", 1, "!iov_iter_count(from): break"),
    op("pipe_write", "load", 3, "out: pipe_full(pipe->head, pipe->tail, pipe->max_usage): wake_next_writer = false"),
    op("pipe_write", "alu", 2, "head - tail >= max_usage"),
    ...pipeUnlock("pipe_write"),
    op("pipe_write", "load", 1, "pipe->poll_usage"),
    op("pipe_write", "alu", 2, "was_empty || pipe->poll_usage: wake_up_interruptible_sync_poll(&pipe->rd_wait) (the core's __wake_up when a reader waits); wake_next_writer?"),
    op("kill_fasync", "load", 1, "kill_fasync(&pipe->fasync_readers, SIGIO, POLL_IN): *fp (NULL unless O_ASYNC: send_sigio is the core's path)"),
    op("kill_fasync", "alu", 1, "*fp == NULL: return"),
    op("sb_start_write_trylock", "call", 1, "ret > 0 && sb_start_write_trylock(file_inode(filp)->i_sb): percpu_down_read_trylock(&sb->s_writers.rw_sem[SB_FREEZE_WRITE-1])"),
    op("percpu_down_read_trylock", "alu", 4, "preempt_disable(); rcu_sync_is_idle(&sem->rss)?; this_cpu_inc(*sem->read_count); preempt_enable() (estimated count)"),
    op("file_update_time", "call", 1, "file_update_time(filp)"),
    op("current_time", "load", 5, "ktime_get_coarse_real_ts64: tk_core.seq read, xtime_sec, xtime_nsec >> shift, seq retry; sb->s_time_gran"),
    op("current_time", "alu", 6, "read_seqcount_retry; timestamp_truncate (estimated count)"),
    op("inode_needs_update_time", "load", 5, "inode->i_flags (S_NOCMTIME); i_mtime (sec, nsec); i_ctime; IS_I_VERSION"),
    op("inode_needs_update_time", "alu", 5, "timespec64_equal(&inode->i_mtime, &now) and i_ctime: equal within the jiffy: return 0 (the once-a-jiffy __file_update_time is not charged)"),
    op("sb_end_write", "call", 1, "sb_end_write -> percpu_up_read"),
    op("percpu_up_read", "alu", 4, "preempt_disable(); rcu_sync_is_idle?; this_cpu_dec(*sem->read_count); preempt_enable() (estimated count)"),
    ...vfsDone("write"),
  ];
}

/** copy_page_to_iter / copy_page_from_iter around one user copy (lib/iov_iter.c of 6.1). */
function copySetup(): OpLine[] {
  return [
    op("copy_page_to_iter", "call", 1, "pipe_read: copy_page_to_iter(buf->page, buf->offset, chars, to); pipe_write: copy_page_from_iter(page, 0, PAGE_SIZE, from)"),
    op("page_copy_sane", "load", 1, "compound_head(page)'s order (page_size)"),
    op("page_copy_sane", "alu", 4, "v = n + offset; n <= v && v <= page_size(head)"),
    op("copy_page_to_iter", "alu", 3, "iov_iter_is_pipe(i)? (6.1); page += offset / PAGE_SIZE; offset %= PAGE_SIZE"),
    op("kmap_local_page", "alu", 3, "page_address(page): no HIGHMEM on x86-64, the direct map ((page - vmemmap_base) << PAGE_SHIFT) + PAGE_OFFSET; kunmap_local is empty"),
    op("copy_page_to_iter", "alu", 2, "n = min(bytes, PAGE_SIZE - offset)"),
    op("_copy_to_iter", "call", 1, "_copy_to_iter(kaddr + offset, n, i) / _copy_from_iter"),
    op("_copy_to_iter", "alu", 2, "iov_iter_is_pipe(i)?; user_backed_iter(i): might_fault() (empty without PROVE_LOCKING / DEBUG_ATOMIC_SLEEP)"),
    op("__iterate_and_advance", "load", 3, "i->count; i->iter_type; i->ubuf + i->iov_offset"),
    op("__iterate_and_advance", "alu", 4, "n = min(n, i->count); n != 0; iter_is_ubuf(i): iterate_buf"),
    op("copyout", "alu", 3, "copyout / copyin: should_fail_usercopy() (no fault injection); access_ok(to, n); instrument_copy_to_user (no KASAN/KCSAN)"),
    op("copy_user_generic", "call", 1, "raw_copy_to_user -> copy_user_generic: alternative_call_2 -> copy_user_enhanced_fast_string (ERMS; 6.4+ inlines STAC, REP MOVSB or rep_movs_alternative, CLAC)"),
    op("copy_user_enhanced_fast_string", "alu", 1, `ASM_STAC: user access opened under SMAP. ${STAC}`),
    op("copy_user_enhanced_fast_string", "copy_user_setup", 1, "cmpl $64,%edx: a short copy takes copy_user_short_string's qword/byte loop, a longer one movl %edx,%ecx; rep movsb: the fixed cost of one copy, the profile's copy_user_setup"),
    op("copy_user_enhanced_fast_string", "alu", 2, `xorl %eax,%eax; ASM_CLAC. ${STAC}`),
    op("iterate_buf", "alu", 2, "len -= left; n = len"),
    op("iterate_buf", "store", 2, "i->iov_offset += len; i->count -= n"),
    op("copy_page_to_iter", "alu", 3, "res += n; bytes -= n; !bytes: break"),
  ];
}

/** The pipe's sleep up to schedule(): wait_event_interruptible_exclusive's first pass. */
function waitPrologue(): OpLine[] {
  return [
    op("pipe_read", "load", 2, "!pipe->writers?; ret? (pipe_write: the same place after pipe_full: O_NONBLOCK, signal_pending)"),
    op("pipe_read", "alu", 4, "(filp->f_flags & O_NONBLOCK) || (iocb->ki_flags & IOCB_NOWAIT)?"),
    ...pipeUnlock("pipe_read"),
    op("pipe_read", "alu", 1, "unlikely(was_full)? (pipe_write: was_empty, the core's __wake_up)"),
    op("kill_fasync", "load", 1, "kill_fasync(&pipe->fasync_writers, SIGIO, POLL_OUT): *fp"),
    op("kill_fasync", "alu", 1, "*fp == NULL: return"),
    op("wait_event_interruptible_exclusive", "load", 3, "might_sleep() (no debug); the condition first: pipe_readable(pipe): READ_ONCE(head), tail, writers (pipe_write: pipe_writable)"),
    op("wait_event_interruptible_exclusive", "alu", 3, "!pipe_empty(head, tail) || !writers? (no: ___wait_event)"),
    op("init_wait_entry", "store", 5, "wq_entry->flags = WQ_FLAG_EXCLUSIVE; ->private = current; ->func = autoremove_wake_function; INIT_LIST_HEAD(&wq_entry->entry)"),
    ...prepareToWaitEvent(true),
    op("___wait_event", "load", 3, "the condition again after queueing: pipe_readable(pipe)"),
    op("___wait_event", "alu", 5, "still empty; ___wait_is_interruptible(state) && __int? (no signal)"),
    op("___wait_event", "call", 1, "cmd: schedule() (its paths follow)"),
  ];
}

/** prepare_to_wait_event (kernel/sched/wait.c): queue the entry (when not queued) and set the task state. */
function prepareToWaitEvent(first: boolean): OpLine[] {
  const when = first ? "" : " (again: autoremove_wake_function took the entry off the queue when it woke us)";
  return [
    op("prepare_to_wait_event", "call", 1, `prepare_to_wait_event(&pipe->rd_wait, &__wq_entry, TASK_INTERRUPTIBLE)${when}`),
    ...spinLockIrqsave("prepare_to_wait_event"),
    op("prepare_to_wait_event", "load", 2, "signal_pending_state(state, current): TIF_SIGPENDING; list_empty(&wq_entry->entry)"),
    op("prepare_to_wait_event", "alu", 4, "signal_pending_state (no); list_empty (yes); wq_entry->flags & WQ_FLAG_EXCLUSIVE"),
    op("__add_wait_queue_entry_tail", "load", 1, "wq_head->head.prev"),
    op("__add_wait_queue_entry_tail", "store", 4, "list_add_tail(&wq_entry->entry, &wq_head->head): the four pointers"),
    op("set_current_state", "locked_op", 1, "smp_store_mb(current->__state, TASK_INTERRUPTIBLE): xchg (implicitly locked)"),
    ...spinUnlockIrqrestore("prepare_to_wait_event"),
  ];
}

/** After schedule() returned: ___wait_event's next pass, finish_wait, __pipe_lock again. */
function waitEpilogue(): OpLine[] {
  return [
    ...prepareToWaitEvent(false),
    op("___wait_event", "load", 3, "the condition: pipe_readable(pipe) (pipe_write: pipe_writable)"),
    op("___wait_event", "alu", 3, "true: break out of the loop"),
    op("finish_wait", "call", 1, "finish_wait(&pipe->rd_wait, &__wq_entry)"),
    op("finish_wait", "store", 1, "__set_current_state(TASK_RUNNING)"),
    op("finish_wait", "load", 2, "list_empty_careful(&wq_entry->entry): next, prev"),
    op("finish_wait", "alu", 2, "queued again by the second prepare_to_wait_event: not empty"),
    ...spinLockIrqsave("finish_wait"),
    op("list_del_init", "load", 2, "entry->next, entry->prev"),
    op("list_del_init", "store", 4, "next->prev = prev; prev->next = next; INIT_LIST_HEAD(entry)"),
    ...spinUnlockIrqrestore("finish_wait"),
    ...pipeLock("pipe_read"),
    op("pipe_read", "load", 3, "was_full = pipe_full(pipe->head, pipe->tail, pipe->max_usage) (pipe_write: was_empty = pipe_empty)"),
    op("pipe_read", "alu", 3, "head - tail >= max_usage; wake_next_reader = true; back to the loop's head"),
  ];
}

/** wake_up_interruptible_sync_poll of a pipe's wait queue, up to try_to_wake_up (the core's path). */
function wakeUp(): OpLine[] {
  return [
    op("__wake_up_sync_key", "call", 1, "wake_up_interruptible_sync_poll(&pipe->rd_wait or &pipe->wr_wait, EPOLLIN | EPOLLRDNORM or EPOLLOUT | EPOLLWRNORM) -> __wake_up_sync_key(wq_head, TASK_INTERRUPTIBLE, key)"),
    op("__wake_up_sync_key", "alu", 1, "!wq_head?"),
    op("__wake_up_common_lock", "call", 1, "__wake_up_common_lock(wq_head, mode, 1, WF_SYNC, key): nr_exclusive 1"),
    op("__wake_up_common_lock", "store", 4, "the on-stack bookmark: flags = 0, private = NULL, func = NULL, INIT_LIST_HEAD"),
    op("__wake_up_common_lock", "pushf", 1, "spin_lock_irqsave(&wq_head->lock, flags): pushf"),
    op("__wake_up_common_lock", "pop", 1, "pop %reg (the saved flags)"),
    op("__wake_up_common_lock", "cli", 1, "cli"),
    op("queued_spin_lock", "locked_op", 1, "lock cmpxchg of the lock word"),
    op("__wake_up_common", "call", 1, "__wake_up_common(wq_head, mode, nr_exclusive, wake_flags, key, &bookmark)"),
    op("__wake_up_common", "load", 3, "bookmark->flags; curr = list_first_entry(&wq_head->head); next; curr->flags"),
    op("__wake_up_common", "alu", 4, "WQ_FLAG_BOOKMARK?; &curr->entry == &wq_head->head?; flags & WQ_FLAG_BOOKMARK?"),
    op("__wake_up_common", "call_indirect", 1, "ret = curr->func(curr, mode, wake_flags, key): autoremove_wake_function (the entry init_wait_entry set)"),
    op("autoremove_wake_function", "call", 1, "default_wake_function(wq_entry, mode, sync, key) -> try_to_wake_up(curr->private, mode, wake_flags): the try_to_wake_up path, charged by the core once per woken task"),
    op("list_del_init_careful", "load", 2, "ret != 0: entry->next, entry->prev"),
    op("list_del_init_careful", "store", 4, "__list_del_entry; INIT_LIST_HEAD: entry->prev = entry; smp_store_release(&entry->next, entry)"),
    op("__wake_up_common", "alu", 3, "ret < 0?; ret && (flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive: break (one exclusive waiter woken)"),
    op("queued_spin_unlock", "store", 1, "spin_unlock_irqrestore: smp_store_release of the locked byte"),
    op("__wake_up_common_lock", "alu", 3, "arch_local_irq_restore: flags & X86_EFLAGS_IF? then sti — not charged as the sti class: the core also runs this path from the disk's completion interrupt, where the saved IF is off and the model's sti would turn IF on; IF stays as the cli left it, as under the core's 2.4 popf (an undercharge of one sti); bookmark.flags & WQ_FLAG_BOOKMARK? (no: one pass)"),
  ];
}

/** One line of the user copy: REP MOVSB (ERMS) moving a 64-byte line of the pipe page. */
const COPY_LINE: OpLine[] = [op("copy_user_enhanced_fast_string", "copy_user_line", 1, "rep movsb: one cache line between the pipe's page and the user buffer")];

/**
 * srso_return_thunk (SRSO safe-RET, retbleedUntrain): every kernel ret becomes
 * jmp __x86_return_thunk -> call srso_safe_ret; lea 8(%rsp),%rsp; ret — an extra call/ret pair for
 * each function these ops return from (one per call / call_indirect line occurrence).
 */
function withReturnThunk(m: Mitigations, ops: OpLine[]): OpLine[] {
  if (!m.retbleedUntrain) return ops;
  const rets = ops.reduce((n, l) => n + (l.op === "call" || l.op === "call_indirect" ? (l.n ?? 1) : 0), 0);
  return rets ? [...ops, op("srso_return_thunk", "call", rets, `SRSO safe-RET: the ${rets} function returns of this path each take jmp __x86_return_thunk -> call srso_safe_ret; lea 8(%rsp),%rsp; ret (an extra call/ret pair each)`)] : ops;
}

/** The core paths' 6.x ops, before the mitigation-dependent return thunks (exported for the tests). */
export function pipeOps(): Record<(typeof PIPE_PATH_NAMES)[number], OpLine[]> {
  return {
    pipe_read: pipeRead(),
    "pipe_read.done": pipeReadDone(),
    pipe_write: pipeWrite(),
    "pipe_write.done": pipeWriteDone(),
    "copy.pipe.io.setup": copySetup(),
    "copy.pipe.io": COPY_LINE,
    add_wait_queue: waitPrologue(),
    remove_wait_queue: waitEpilogue(),
    __wake_up: wakeUp(),
  };
}

/** The transforms that put 6.x's pipe path in place of the core's 2.4 one. */
export function pipeTransforms(m: Mitigations): PathTransform[] {
  const ops = pipeOps();
  return PIPE_PATH_NAMES.map((name) => replace(name, withReturnThunk(m, ops[name])));
}
