/**
 * The kernel paths of io_uring, op by op, named after io_uring/io_uring.c, rw.c, sqpoll.c and
 * kernel/task_work.c of a 6.x kernel (read in torvalds/linux: io_uring_enter, io_submit_sqes,
 * io_submit_sqe, io_get_sqe, io_commit_sqring, io_cqring_wait, io_req_normal_work_add,
 * tctx_task_work_run, __io_submit_flush_completions, io_sq_thread, io_sq_offload_create). Per-SQE,
 * per-CQE and per-page work is a one-op-list path run n times. The op counts are estimates read
 * off the C (one `alu` per compare/branch/simple assignment, a `load`/`store` per READ_ONCE/
 * WRITE_ONCE of shared ring memory, a `locked_op` per atomic/cmpxchg/xchg or lock); the block layer
 * below f_op->write_iter is the core's /dev/siglab-disk driver, the same the aio plugin uses.
 */
import { op, type PathDef } from "@siglab/plugin-api";

const O = "io-uring";

export const URING_PATHS: PathDef[] = [
  // ---- io_uring_setup -------------------------------------------------------------------------
  {
    name: "sys_io_uring_setup",
    phase: "io_uring.setup",
    origin: O,
    ops: [
      op("io_uring_setup", "copy_user_setup", 1, "copy_from_user(&p, params, sizeof(p)): 120-byte io_uring_params"),
      op("io_uring_setup", "copy_user_line", 2),
      op("io_uring_setup", "alu", 6, "p.resv[] must be 0; p.flags against the known IORING_SETUP_* bits"),
      op("io_uring_fill_params", "alu", 24, "roundup_pow_of_two(entries); cq_entries = 2 x sq_entries; sq_off/cq_off offsets"),
    ],
  },
  {
    name: "io_create_region.page",
    phase: "io_uring.setup",
    origin: O,
    ops: [
      op("io_region_allocate_pages", "slab_alloc", 1, "alloc_pages_bulk_node: one zeroed page of the rings or SQEs"),
      op("io_region_allocate_pages", "alu", 12, "vmap into the kernel; mark the page for io_uring_mmap"),
    ],
  },
  {
    name: "io_uring_mmap",
    phase: "io_uring.setup",
    origin: O,
    ops: [
      op("do_mmap", "alu", 40, "the program's mmap(IORING_OFF_SQ_RING / IORING_OFF_SQES): mmap_lock, get_unmapped_area, vma set up"),
      op("do_mmap", "slab_alloc", 1, "vm_area_struct"),
      op("io_uring_mmap", "alu", 8, "io_uring_validate_mmap_request: which region; vm_insert_pages"),
    ],
  },
  {
    name: "io_uring_setup.done",
    phase: "io_uring.setup",
    origin: O,
    ops: [
      op("io_ring_ctx_alloc", "slab_alloc", 3, "kzalloc(io_ring_ctx); hash table; io_alloc_cache_init"),
      op("io_ring_ctx_alloc", "alu", 40, "percpu_ref_init; init_waitqueue_head(cq_wait, poll_wq); mutex_init; INIT_LIST_HEADs"),
      op("io_uring_create", "alu", 10, "notify_method = TWA_SIGNAL (TWA_SIGNAL_NO_IPI with SQPOLL); mmgrab(current->mm)"),
      op("rings_size", "alu", 8, "struct_size(rings, cqes, cq_entries); ALIGN(SMP_CACHE_BYTES); + sq_array"),
      op("io_allocate_scq_urings", "store", 4, "rings->sq_ring_mask, cq_ring_mask, sq_ring_entries, cq_ring_entries"),
      op("io_uring_get_file", "slab_alloc", 2, "anon_inode_create_getfile(\"[io_uring]\", &io_uring_fops): inode + file"),
      op("io_uring_get_file", "alu", 30),
      op("__io_uring_add_tctx_node", "slab_alloc", 2, "io_uring_alloc_task_context (first ring of the task): tctx, its xarray node"),
      op("__io_uring_add_tctx_node", "alu", 16),
      op("io_uring_install_fd", "alu", 10, "get_unused_fd_flags(O_RDWR | O_CLOEXEC); fd_install"),
      op("io_uring_create", "copy_user_setup", 1, "copy_to_user(params, p, sizeof(*p)): features, sq_off, cq_off"),
      op("io_uring_create", "copy_user_line", 2),
    ],
  },
  {
    name: "io_sq_offload_create",
    phase: "io_uring.setup",
    origin: O,
    ops: [
      op("io_get_sq_data", "slab_alloc", 1, "kzalloc(io_sq_data): the SQ thread's data"),
      op("io_sq_offload_create", "alu", 12, "sq_thread_idle = msecs_to_jiffies(p->sq_thread_idle) ?: HZ; IORING_SETUP_SQ_AFF: sq_cpu"),
      op("create_io_thread", "slab_alloc", 8, "copy_process(CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_IO): task_struct, stack, ... (estimated count)"),
      op("create_io_thread", "alu", 300, "copy_process's work for a thread that shares everything (estimated)"),
      op("wake_up_new_task", "alu", 20, "the SQ thread starts running io_sq_thread"),
    ],
  },
  // ---- io_uring_enter -----------------------------------------------------------------------------
  {
    name: "io_uring_enter",
    phase: "io_uring.submit",
    origin: O,
    ops: [
      op("io_uring_enter", "alu", 3, "flags & ~(IORING_ENTER_GETEVENTS | SQ_WAKEUP | SQ_WAIT | EXT_ARG | REGISTERED_RING ...)"),
      op("fget", "locked_op", 1, "file = fget(fd): atomic_long_inc_not_zero(&file->f_count)"),
      op("fget", "alu", 3, "files_lookup_fd_rcu"),
      op("io_uring_enter", "alu", 3, "io_is_uring_fops(file); ctx = file->private_data; IORING_SETUP_R_DISABLED?"),
    ],
  },
  {
    name: "io_uring_enter.done",
    phase: "io_uring.submit",
    origin: O,
    ops: [op("fput", "locked_op", 1, "fput(file): atomic_long_dec_and_test(&file->f_count)")],
  },
  {
    name: "io_uring_enter.sq_wakeup",
    phase: "io_uring.submit",
    origin: O,
    ops: [
      op("io_uring_enter", "alu", 2, "ctx->sq_data->thread == NULL? IORING_ENTER_SQ_WAKEUP"),
      op("__wake_up", "locked_op", 1, "spin_lock_irqsave(&sqd->wait.lock)"),
      op("try_to_wake_up", "alu", 20, "the SQ thread: TASK_INTERRUPTIBLE -> TASK_RUNNING, select_task_rq = its own CPU, ttwu_queue"),
      op("native_send_call_func_single_ipi", "wrmsr", 1, "x2APIC ICR write (MSR 0x830): the reschedule IPI to the SQ thread's idle CPU"),
      op("__wake_up", "alu", 2, "spin_unlock_irqrestore"),
    ],
  },
  // ---- io_submit_sqes -----------------------------------------------------------------------------
  {
    name: "io_submit_sqes",
    phase: "io_uring.submit",
    origin: O,
    ops: [
      op("io_uring_add_tctx_node", "alu", 3, "current->io_uring->last == ctx: the task already uses this ring"),
      op("io_submit_sqes", "locked_op", 1, "mutex_lock(&ctx->uring_lock)"),
      op("io_sqring_entries", "load", 1, "smp_load_acquire(&rings->sq.tail): the program's tail store"),
      op("io_sqring_entries", "alu", 2, "tail - ctx->cached_sq_head; min(nr, entries)"),
      op("io_get_task_refs", "alu", 3, "tctx->cached_refs -= left"),
      op("io_submit_state_start", "alu", 4, "plug_started = false; need_plug = max_ios > 2; link.head = NULL"),
    ],
  },
  {
    name: "io_submit_sqe",
    phase: "io_uring.submit",
    origin: O,
    ops: [
      op("io_alloc_req", "alu", 3, "io_req_cache_empty? wq_stack_extract(&ctx->submit_state.free_list)"),
      op("io_get_sqe", "alu", 2, "head = ctx->cached_sq_head++ & mask"),
      op("io_get_sqe", "load", 1, "READ_ONCE(ctx->sq_array[head]): the SQE index the program wrote"),
      op("io_get_sqe", "alu", 2, "head >= sq_entries? array_index_nospec"),
      op("io_init_req", "load", 5, "READ_ONCE sqe->opcode, flags, user_data, ioprio, personality"),
      op("io_init_req", "alu", 10, "opcode < IORING_OP_LAST; io_issue_defs[opcode]; SQE_VALID_FLAGS; restrictions; plug"),
      op("io_queue_sqe", "alu", 3, "io_issue_sqe: io_assign_file; creds; audit (off)"),
      op("io_issue_sqe", "call_indirect", 1, "def->issue: io_nop / io_read / io_write"),
    ],
  },
  {
    name: "io_rw_issue",
    phase: "io_uring.submit",
    origin: O,
    ops: [
      op("io_file_get_normal", "locked_op", 1, "fget(sqe->fd): atomic_long_inc_not_zero(&file->f_count)"),
      op("io_file_get_normal", "alu", 3, "io_file_get_flags: S_ISREG, FMODE_NOWAIT"),
      op("io_prep_rw", "load", 4, "READ_ONCE sqe->addr, len, off, rw_flags"),
      op("io_prep_rw", "alu", 8, "kiocb->ki_pos, ki_flags, ki_complete = io_complete_rw; rw->addr, rw->len"),
      op("io_rw_init_file", "alu", 8, "FMODE_READ/WRITE; kiocb_set_rw_flags; IOCB_NOWAIT; IOCB_DIRECT"),
      op("__io_import_rw_buffer", "alu", 5, "import_ubuf: access_ok(addr, len); iov_iter_ubuf"),
      op("rw_verify_area", "alu", 4),
      op("io_write", "call_indirect", 1, "call_write_iter -> f_op->write_iter (io_read: f_op->read_iter): the driver starts the request, -EIOCBQUEUED"),
      op("io_rw_done", "alu", 2, "ret == -EIOCBQUEUED: the completion comes later through ki_complete"),
    ],
  },
  {
    name: "io_submit_sqe.inline",
    phase: "io_uring.submit",
    origin: O,
    ops: [
      op("io_issue_sqe", "alu", 2, "IORING_OP_NOP (io_nop returns IOU_OK), or an SQE refused by io_init_req / the issue (io_init_fail_req, io_req_set_res)"),
      op("io_req_complete_defer", "alu", 3, "wq_list_add_tail(&req->comp_list, &state->compl_reqs): flushed at io_submit_state_end"),
    ],
  },
  {
    name: "io_submit_sqes.end",
    phase: "io_uring.submit",
    origin: O,
    ops: [
      op("io_submit_state_end", "alu", 4, "link.head? io_submit_flush_completions if compl_reqs; blk_finish_plug if plugged"),
      op("io_commit_sqring", "store", 1, "smp_store_release(&rings->sq.head, ctx->cached_sq_head): the program may reuse the SQEs"),
      op("io_submit_sqes", "locked_op", 1, "mutex_unlock(&ctx->uring_lock)"),
    ],
  },
  // ---- completion: the device interrupt and the task_work it queues ---------------------------------
  {
    name: "io_complete_rw",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("io_complete_rw", "alu", 4, "kiocb -> req; __io_complete_rw_common: res == req->cqe.res? io_req_set_res"),
      op("io_req_normal_work_add", "locked_op", 1, "llist_add(&req->io_task_work.node, &tctx->task_list): cmpxchg"),
      op("io_req_normal_work_add", "alu", 2, "was the list empty? IORING_SETUP_TASKRUN_FLAG? SQPOLL?"),
    ],
  },
  {
    name: "task_work_add",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("task_work_add", "locked_op", 1, "try_cmpxchg(&task->task_works, &head, work): tctx->task_work on the submitter"),
      op("set_notify_signal", "locked_op", 1, "TWA_SIGNAL: test_and_set_tsk_thread_flag(task, TIF_NOTIFY_SIGNAL)"),
      op("set_notify_signal", "alu", 3, "wake_up_state(task, TASK_INTERRUPTIBLE), else kick_process"),
    ],
  },
  {
    name: "__set_notify_signal",
    phase: "io_uring.complete",
    origin: O,
    ops: [op("__set_notify_signal", "locked_op", 1, "SQPOLL: TIF_NOTIFY_SIGNAL on the SQ thread; it runs the task_work itself")],
  },
  {
    name: "exit_to_user_mode_loop.task_work",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("exit_to_user_mode_loop", "alu", 2, "ti_work & _TIF_NOTIFY_SIGNAL"),
      op("arch_do_signal_or_restart", "call", 1, "-> get_signal"),
      op("get_signal", "locked_op", 1, "clear_notify_signal: clear_thread_flag(TIF_NOTIFY_SIGNAL)"),
      op("get_signal", "alu", 2, "task_work_pending(current) -> task_work_run; then no signal: return false"),
    ],
  },
  {
    name: "io_run_task_work",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("io_run_task_work", "alu", 3, "test_thread_flag(TIF_NOTIFY_SIGNAL); PF_IO_WORKER?; task_work_pending"),
      op("io_run_task_work", "locked_op", 1, "clear_notify_signal"),
    ],
  },
  {
    name: "tctx_task_work",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("task_work_run", "locked_op", 1, "xchg(&task->task_works, NULL / &work_exited)"),
      op("task_work_run", "call_indirect", 1, "work->func: tctx_task_work"),
      op("tctx_task_work_run", "locked_op", 1, "llist_del_all(&tctx->task_list): xchg"),
      op("io_handle_tw_list", "alu", 4, "llist_reverse_order; ctx changes? ctx_flush_and_put"),
      op("io_handle_tw_list", "locked_op", 1, "io_tw_lock: mutex_trylock(&ctx->uring_lock)"),
    ],
  },
  {
    name: "io_req_rw_complete",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("io_handle_tw_list", "alu", 3, "next node; INDIRECT_CALL_2(req->io_task_work.func, io_poll_task_func, io_req_rw_complete)"),
      op("io_req_rw_complete", "call", 1),
      op("io_req_io_end", "alu", 3, "kiocb_end_write (writes); fsnotify off"),
      op("io_req_task_complete", "alu", 3, "io_req_complete_defer: wq_list_add_tail(&req->comp_list, &state->compl_reqs)"),
    ],
  },
  {
    name: "__io_submit_flush_completions",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("__io_cq_lock", "locked_op", 1, "spin_lock(&ctx->completion_lock) (not lockless_cq: no DEFER_TASKRUN)"),
      op("__io_cq_unlock_post", "store", 1, "io_commit_cqring: smp_store_release(&rings->cq.tail, ctx->cached_cq_tail)"),
      op("__io_cq_unlock_post", "alu", 2, "spin_unlock(&ctx->completion_lock)"),
      op("io_cqring_wake", "locked_op", 1, "wq_has_sleeper(&ctx->cq_wait): smp_mb"),
      op("ctx_flush_and_put", "locked_op", 1, "mutex_unlock(&ctx->uring_lock); percpu_ref_put"),
    ],
  },
  {
    name: "io_fill_cqe_req",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("io_get_cqe", "alu", 3, "cached_cq_tail & mask; free = cq_entries - (cached_cq_tail - cq.head)"),
      op("io_fill_cqe_req", "store", 3, "cqe->user_data, res, flags: one 16-byte CQE in the shared ring"),
      op("io_free_batch_list", "locked_op", 1, "io_put_file: fput"),
      op("io_free_batch_list", "alu", 4, "io_put_task (cached_refs++); io_req_add_to_cache"),
    ],
  },
  {
    name: "io_cqring_overflow",
    phase: "io_uring.complete",
    origin: O,
    ops: [
      op("io_req_cqe_overflow", "slab_alloc", 1, "kmalloc(io_overflow_cqe): the CQ ring is full, the CQE waits on cq_overflow_list"),
      op("io_cqring_event_overflow", "alu", 6, "IO_CHECK_CQ_OVERFLOW_BIT; atomic_or(IORING_SQ_CQ_OVERFLOW, &rings->sq_flags)"),
    ],
  },
  {
    name: "io_cqring_overflow_flush",
    phase: "io_uring.wait",
    origin: O,
    ops: [op("__io_cqring_overflow_flush", "alu", 8, "move one overflowed CQE into the ring; kfree")],
  },
  // ---- io_cqring_wait (IORING_ENTER_GETEVENTS) --------------------------------------------------------
  {
    name: "io_cqring_wait",
    phase: "io_uring.wait",
    origin: O,
    ops: [
      op("io_get_ext_arg", "alu", 3, "no IORING_ENTER_EXT_ARG: argp is a sigset pointer (NULL)"),
      op("io_cqring_wait", "alu", 4, "io_allowed_run_tw; io_local_work_pending; check_cq overflow bit"),
      op("__io_cqring_events_user", "load", 2, "READ_ONCE(rings->cq.tail) - READ_ONCE(rings->cq.head) >= min_events?"),
    ],
  },
  {
    name: "io_cqring_wait.sleep",
    phase: "io_uring.wait",
    origin: O,
    ops: [
      op("io_cqring_wait", "alu", 12, "init_waitqueue_func_entry(io_wake_function); iowq.cq_tail = cq.head + min_events; io_get_time"),
      op("prepare_to_wait_exclusive", "locked_op", 1, "spin_lock_irqsave(&ctx->cq_wait.lock); set_current_state(TASK_INTERRUPTIBLE)"),
      op("prepare_to_wait_exclusive", "alu", 4),
      op("io_cqring_wait_schedule", "alu", 5, "check_cq, local work, task_work_pending, task_sigpending, io_should_wake"),
    ],
  },
  {
    name: "io_cqring_wait.wake",
    phase: "io_uring.wait",
    origin: O,
    ops: [
      op("io_cqring_wait", "alu", 2, "__set_current_state(TASK_RUNNING); atomic_set(&ctx->cq_wait_nr)"),
      op("io_should_wake", "load", 1, "READ_ONCE(ctx->rings->cq.tail)"),
      op("io_should_wake", "alu", 2),
    ],
  },
  {
    name: "io_cqring_wait.done",
    phase: "io_uring.wait",
    origin: O,
    ops: [
      op("finish_wait", "locked_op", 1, "spin_lock_irqsave(&ctx->cq_wait.lock): list_del_init"),
      op("finish_wait", "alu", 2),
      op("io_cqring_wait", "load", 2, "READ_ONCE(rings->cq.head) == READ_ONCE(rings->cq.tail) ? ret : 0"),
    ],
  },
  // ---- the SQPOLL thread (its own CPU: charged to its account, not to the program's CPU) --------------
  {
    name: "io_sq_thread",
    phase: "io_uring.sqpoll",
    origin: O,
    ops: [
      op("io_sq_thread", "alu", 4, "io_sqd_events_pending; signal_pending; cap_entries = !list_is_singular"),
      op("__io_sq_thread", "load", 1, "io_sqring_entries: smp_load_acquire(&rings->sq.tail)"),
      op("__io_sq_thread", "alu", 4, "to_submit = min(entries, IORING_SQPOLL_CAP_ENTRIES_VALUE); sq_creds == current_cred()?"),
      op("__io_sq_thread", "locked_op", 1, "wq_has_sleeper(&ctx->sqo_sq_wait)"),
      op("io_sq_thread", "alu", 3, "io_run_task_work(); sqt_spin; timeout = jiffies + sq_thread_idle"),
    ],
  },
  {
    name: "io_sq_thread.wake",
    phase: "io_uring.sqpoll",
    origin: O,
    ops: [
      op("schedule", "alu", 60, "the SQ thread is switched in on its CPU after the wake-up (estimated: a kernel-thread switch, no mm change)"),
      op("io_sq_thread", "locked_op", 1, "atomic_andnot(IORING_SQ_NEED_WAKEUP, &ctx->rings->sq_flags)"),
      op("finish_wait", "locked_op", 1),
    ],
  },
  {
    name: "io_sq_thread.sleep",
    phase: "io_uring.sqpoll",
    origin: O,
    ops: [
      op("prepare_to_wait", "locked_op", 1, "&sqd->wait, TASK_INTERRUPTIBLE"),
      op("io_sq_thread", "locked_op", 1, "atomic_or(IORING_SQ_NEED_WAKEUP, &ctx->rings->sq_flags)"),
      op("io_sq_thread", "locked_op", 1, "smp_mb__after_atomic: the flag store is not reordered with the load of the SQ tail"),
      op("io_sq_thread", "load", 1, "io_sqring_entries: nothing came in meanwhile"),
      op("schedule", "alu", 60, "the SQ thread's CPU goes idle (estimated)"),
    ],
  },
];
