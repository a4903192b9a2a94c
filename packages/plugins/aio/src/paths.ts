/**
 * The kernel paths of Ben LaHaise's AIO, op by op, named after fs/aio.c (2.5 series; the code as
 * in 2.6.11). Per-iocb, per-event and per-page work is a one-op path run n times.
 */
import { op, type PathDef } from "@siglab/plugin-api";

const O = "aio";

export const AIO_PATHS: PathDef[] = [
  // ---- io_setup ---------------------------------------------------------------------------
  {
    name: "sys_io_setup",
    phase: "aio.setup",
    origin: O,
    ops: [op("sys_io_setup", "put_user", 1, "get_user(ctx, ctxp): must be 0"), op("sys_io_setup", "alu", 4, "nr_events == 0, > aio_max_nr?")],
  },
  {
    name: "ioctx_alloc",
    phase: "aio.setup",
    origin: O,
    ops: [
      op("ioctx_alloc", "slab_alloc", 1, "kmem_cache_alloc(kioctx_cachep)"),
      op("ioctx_alloc", "alu", 20, "memset; max_reqs; ctx->mm; spin_lock_init; init_waitqueue_head; lists"),
      op("aio_setup_ring", "alu", 8, "nr_events += 2; size = sizeof(aio_ring) + nr_events * sizeof(io_event); nr_pages"),
      op("do_mmap", "alu", 40, "down_write(mmap_sem); anonymous PROT_READ|PROT_WRITE mapping in the caller's mm"),
      op("do_mmap", "slab_alloc", 1, "vm_area_struct"),
    ],
  },
  {
    name: "aio_setup_ring.page",
    phase: "aio.setup",
    origin: O,
    ops: [
      op("get_user_pages", "alu", 12, "fault the ring page in and pin it"),
      op("get_user_pages", "tlb_miss", 1, "follow_page walk"),
    ],
  },
  {
    name: "aio_setup_ring.header",
    phase: "aio.setup",
    origin: O,
    ops: [
      op("aio_setup_ring", "store", 8, "kmap_atomic(ring_pages[0]): id, nr, head, tail, magic, compat/incompat features, header_length"),
      op("ioctx_alloc", "alu", 6, "aio_nr += max_reqs; link into mm->ioctx_list"),
      op("sys_io_setup", "put_user", 1, "put_user(ctx->user_id, ctxp): the ring address is the context id"),
    ],
  },
  // ---- lookup (every io_* call) -----------------------------------------------------------
  {
    name: "lookup_ioctx",
    phase: "aio.submit",
    origin: O,
    ops: [op("lookup_ioctx", "alu", 4, "read_lock(&mm->ioctx_list_lock); walk mm->ioctx_list"), op("get_ioctx", "locked_op", 1, "atomic_inc(&ctx->users)")],
  },
  // ---- io_submit ----------------------------------------------------------------------------
  {
    name: "sys_io_submit",
    phase: "aio.submit",
    origin: O,
    ops: [op("sys_io_submit", "alu", 4, "nr < 0? access_ok(VERIFY_READ, iocbpp, nr * sizeof(*iocbpp))")],
  },
  {
    name: "io_submit_one",
    phase: "aio.submit",
    origin: O,
    ops: [
      op("sys_io_submit", "put_user", 1, "__get_user(user_iocb, iocbpp + i)"),
      op("sys_io_submit", "copy_user_setup", 1, "copy_from_user(&tmp, user_iocb, 64): the iocb"),
      op("sys_io_submit", "copy_user_line", 1),
      op("io_submit_one", "alu", 6, "aio_reserved1/2 must be 0 (no sigevent); overflow checks"),
      op("fget", "alu", 3, "files->fd[iocb->aio_fildes]; f_count++"),
      op("aio_get_req", "cli", 1, "spin_lock_irq(&ctx->ctx_lock)"),
      op("aio_get_req", "slab_alloc", 1, "kmem_cache_alloc(kiocb_cachep); reqs_active < aio_ring_avail?"),
      op("aio_get_req", "sti", 1),
      op("io_submit_one", "put_user", 1, "put_user(KIOCB_KEY, &user_iocb->aio_key)"),
      op("io_submit_one", "store", 8, "ki_obj.user, ki_user_data, ki_pos, ki_buf, ki_left, ki_opcode"),
      op("aio_setup_iocb", "alu", 6, "FMODE check; access_ok(buf); file->f_op->aio_read/aio_write present?"),
      op("aio_run_iocb", "call_indirect", 1, "ki_retry -> f_op->aio_read: the driver starts the request, -EIOCBQUEUED"),
    ],
  },
  {
    name: "io_submit_one.einval",
    phase: "aio.submit",
    origin: O,
    ops: [op("aio_put_req", "slab_alloc", 1, "no aio op for this file/opcode: -EINVAL, the kiocb is freed")],
  },
  {
    name: "sys_io_submit.done",
    phase: "aio.submit",
    origin: O,
    ops: [op("put_ioctx", "locked_op", 1, "atomic_dec_and_test(&ctx->users)")],
  },
  // ---- completion (device interrupt) ----------------------------------------------------------
  {
    name: "aio_complete",
    phase: "aio.complete",
    origin: O,
    ops: [
      op("aio_complete", "pushf", 1, "spin_lock_irqsave(&ctx->ctx_lock, flags)"),
      op("aio_complete", "cli", 1),
      op("aio_complete", "alu", 4, "kmap_atomic(ring_pages[0], KM_IRQ1); tail = info->tail; aio_ring_event(info, tail, KM_IRQ0)"),
      op("aio_complete", "store", 8, "event->obj, data, res, res2: one 32-byte io_event"),
      op("aio_complete", "store", 2, "wmb(); info->tail = ring->tail = (tail + 1) % nr"),
      op("put_aio_ring_event", "alu", 2, "kunmap_atomic x2"),
      op("__aio_put_req", "slab_alloc", 1, "fput; kmem_cache_free(kiocb_cachep)"),
      op("aio_complete", "popf", 1, "spin_unlock_irqrestore"),
      op("aio_complete", "alu", 2, "if (waitqueue_active(&ctx->wait)) wake_up(&ctx->wait)"),
    ],
  },
  // ---- io_getevents -------------------------------------------------------------------------
  {
    name: "sys_io_getevents",
    phase: "aio.getevents",
    origin: O,
    ops: [op("sys_io_getevents", "alu", 4, "min_nr <= nr, nr >= 0, access_ok(VERIFY_WRITE, events, nr * sizeof(io_event))")],
  },
  {
    name: "aio_read_evt",
    phase: "aio.getevents",
    origin: O,
    ops: [
      op("aio_read_evt", "alu", 3, "kmap_atomic(ring_pages[0]); ring->head == ring->tail?"),
      op("aio_read_evt", "locked_op", 1, "spin_lock(&info->ring_lock)"),
      op("aio_read_evt", "load", 8, "*ent = *evp: one 32-byte io_event"),
      op("aio_read_evt", "store", 1, "mb(); ring->head = (head + 1) % nr"),
      op("aio_read_evt", "alu", 2, "spin_unlock; kunmap_atomic"),
      op("read_events", "copy_user_setup", 1, "copy_to_user(event, &ent, sizeof(ent))"),
      op("read_events", "copy_user_line", 1, "32 bytes"),
    ],
  },
  {
    name: "aio_read_evt.empty",
    phase: "aio.getevents",
    origin: O,
    ops: [op("aio_read_evt", "alu", 3, "kmap_atomic; ring->head == ring->tail: nothing")],
  },
  {
    name: "read_events.sleep",
    phase: "aio.getevents",
    origin: O,
    ops: [
      op("read_events", "alu", 6, "init_timeout; copy_from_user(&ts); set_timeout (add_timer)"),
      op("read_events", "alu", 4, "add_wait_queue_exclusive(&ctx->wait); set_task_state(TASK_INTERRUPTIBLE)"),
    ],
  },
  {
    name: "read_events.wake",
    phase: "aio.getevents",
    origin: O,
    ops: [op("read_events", "alu", 4, "set_task_state(TASK_RUNNING); remove_wait_queue; clear_timeout")],
  },
  // ---- io_destroy / io_cancel -------------------------------------------------------------------
  {
    name: "sys_io_destroy",
    phase: "aio.setup",
    origin: O,
    ops: [
      op("io_destroy", "alu", 8, "ctx->dead = 1; unlink from mm->ioctx_list"),
      op("aio_cancel_all", "alu", 4, "cancel the active kiocbs that have a ki_cancel method"),
      op("wait_for_all_aios", "alu", 2, "reqs_active == 0?"),
    ],
  },
  {
    name: "aio_free_ring",
    phase: "aio.setup",
    origin: O,
    ops: [
      op("aio_free_ring", "alu", 30, "put_page each ring page; do_munmap(mmap_base, mmap_size)"),
      op("__put_ioctx", "slab_alloc", 1, "kmem_cache_free(kioctx_cachep); aio_nr -= max_reqs"),
    ],
  },
  {
    name: "sys_io_cancel",
    phase: "aio.submit",
    origin: O,
    ops: [
      op("sys_io_cancel", "put_user", 1, "get_user(key, &iocb->aio_key)"),
      op("lookup_kiocb", "alu", 6, "walk ctx->active_reqs for the iocb"),
      op("sys_io_cancel", "alu", 2, "no ki_cancel method: -EAGAIN"),
    ],
  },
];
