/**
 * NGPT's user-mode work, as op lists attributed to the NGPT 2.2.1 / glibc 2.2 function each op
 * comes from. Op counts are read off the sources statement by statement (NGPT `pth_sched.c`
 * `pth_scheduler`, `pth_lib.c` `pth_yield`, `pqueue.h`, `spinlock.h`, `pth_p.h` `_pth_acquire_lock`,
 * `sysdeps/i386/bitops.h`, `pth_mctx.c`; glibc i386 `setjmp.S`, `__longjmp.S`, `sigjmp.c`,
 * `longjmp.c`, linux `sigprocmask.c`); cycles per op come from the CPU profile. The system calls
 * themselves (gettimeofday, rt_sigprocmask) are the kernel's paths, not listed here.
 */
import { op, type OpLine, type PathDef } from "@siglab/plugin-api";

const SW = "uthread.switch";
const LIB = "uthread.lib";

/** spin_lock (spinlock.h, SPINLOCK_NON_FUTEX): test_and_set is `lock; xchgl` — a locked op even on one CPU. */
const spinLock = (what: string): OpLine[] => [op("spin_lock", "locked_op", 1, `test_and_set(&${what}): lock; xchgl`), op("spin_lock", "alu", 1, "uncontended: the loop exits")];
/** spin_unlock: a plain store of 0. */
const spinUnlock = (what: string): OpLine[] => [op("spin_unlock", "store", 1, `${what} = 0`)];
/** _pth_acquire_lock (pth_p.h): owner check for recursion, spin_lock, count = 1, owner = tid. */
const qlockAcquire = (what: string): OpLine[] => [
  op("_pth_acquire_lock", "load", 2, `tid, ${what}.owner`),
  op("_pth_acquire_lock", "alu", 1, "already the owner?"),
  ...spinLock(`${what}.spinlock`),
  op("_pth_acquire_lock", "store", 2, "count = 1; owner = tid"),
];
/** _pth_release_lock: owner check, --count, at zero owner = 0 and spin_unlock. */
const qlockRelease = (what: string): OpLine[] => [
  op("_pth_release_lock", "load", 2, `${what}.owner, count`),
  op("_pth_release_lock", "alu", 3, "owner == tid; --count; count == 0"),
  op("_pth_release_lock", "store", 2, "count; owner = 0"),
  ...spinUnlock(`${what}.spinlock`),
];
/** pth_time_sub + pth_time_add on struct timeval (two fields each, carry/borrow test). */
const timeSubAdd = (fn: string, what: string): OpLine[] => [op(fn, "load", 6, what), op(fn, "alu", 6, "tv_sec/tv_usec sub, borrow test; add, carry test"), op(fn, "store", 4)];
/** The thread-specific-signal check under current->lock, done once before and once after the switch. */
const sigpendCheck = (fn: string): OpLine[] => [...qlockAcquire("current->lock"), op(fn, "load", 1, "current->sigpendcnt"), op(fn, "alu", 1, "> 0? (no: no sigpending/kill)"), ...qlockRelease("current->lock")];
/** glibc 2.2 __sigprocmask (PIC C wrapper around INLINE_SYSCALL(rt_sigprocmask)) up to the int $0x80 stub. */
const sigprocmaskWrapper = (fn: string): OpLine[] => [
  op(fn, "call", 1, "__sigprocmask"),
  op("__sigprocmask", "push", 2, "ebx (PIC register), esi"),
  op("__sigprocmask", "alu", 4, "GOT setup; how/set/oset/_NSIG/8 into registers"),
  op("__sigprocmask", "pop", 2),
];

const DEFS: PathDef[] = [
  {
    name: "ngpt.pth_yield",
    phase: SW,
    ops: [
      op("sched_yield", "call", 2, "NGPT's sched_yield/pthread_yield -> pth_yield"),
      op("pth_yield", "load", 3, "descr = NATIVE_SELF (%gs-relative); descr->current; to"),
      op("pth_yield", "alu", 4, "to == current? to != NULL?"),
      ...qlockAcquire("descr->sched_lock"),
    ],
  },
  {
    // pth_mctx_save (Pth sjlj/ssjlj on Linux): errno kept, then sigsetjmp(jb, 1)
    name: "ngpt.sigsetjmp",
    phase: SW,
    ops: [
      op("pth_mctx_save", "call", 1, "(mctx)->error = errno: __errno_location()"),
      op("pth_mctx_save", "store", 1),
      op("__sigsetjmp", "load", 2, "env; return address"),
      op("__sigsetjmp", "store", 6, "ebx, esi, edi, ebp, esp, eip -> env->__jmpbuf"),
      op("__sigsetjmp", "alu", 2, "jmp __sigjmp_save"),
      op("__sigjmp_save", "alu", 2, "savemask?"),
      ...sigprocmaskWrapper("__sigjmp_save"),
    ],
  },
  {
    // after sigsetjmp's mask query: __mask_was_saved, return 0, pth_mctx_switch's test, then siglongjmp(new)
    name: "ngpt.siglongjmp",
    phase: SW,
    ops: [
      op("__sigjmp_save", "store", 1, "env->__mask_was_saved = 1"),
      op("pth_mctx_switch", "alu", 1, "sigsetjmp() == 0: switch away"),
      op("pth_mctx_restore", "load", 1, "errno = (mctx)->error"),
      op("pth_mctx_restore", "call", 1, "__errno_location()"),
      op("pth_mctx_restore", "store", 1),
      op("__libc_siglongjmp", "call", 1, "_longjmp_unwind: weak __pthread_cleanup_upto test"),
      op("__libc_siglongjmp", "load", 1, "env->__mask_was_saved"),
      op("__libc_siglongjmp", "alu", 2),
      ...sigprocmaskWrapper("__libc_siglongjmp"),
    ],
  },
  {
    name: "ngpt.__longjmp",
    phase: SW,
    ops: [
      op("__longjmp", "load", 8, "env, val; ebx, esi, edi, ebp, esp, eip from env->__jmpbuf"),
      op("__longjmp", "alu", 2, "val == 0 ? 1 : val; jmp *%edx into the other context"),
      op("pth_mctx_switch", "alu", 1, "back from sigsetjmp with 1: pth_mctx_restored is a nop"),
    ],
  },
  {
    // pth_scheduler after its pth_mctx_switch returned (before pth_time_set_now(&snapshot))
    name: "ngpt.scheduler.cameback",
    phase: SW,
    ops: [op("pth_scheduler", "load", 3, "descr, this_sched, descr->is_running"), op("pth_scheduler", "store", 1, "descr->current = this_sched"), op("pth_scheduler", "alu", 1, "is_running == FALSE?")],
  },
  {
    // ... after the snapshot: account the thread's run, signals, stack guard, then re-queue it
    name: "ngpt.scheduler.requeue",
    phase: SW,
    ops: [
      op("pth_scheduler", "store", 2, "running = snapshot"),
      ...timeSubAdd("pth_scheduler", "running -= current->lastran; current->running += running"),
      ...sigpendCheck("pth_scheduler"),
      op("pth_scheduler", "load", 2, "current->stackguard, *stackguard"),
      op("pth_scheduler", "alu", 2, "!= NULL; != 0xDEAD"),
      op("pth_scheduler", "load", 4, "descr->is_bounded, current->state (DEAD, EXIT, WAITING), should_suspend"),
      op("pth_scheduler", "alu", 5),
      ...spinLock("RQ->lock"),
      op("pth_scheduler", "alu", 1, "current != NULL"),
      op("__pqueue_append_node", "load", 3, "node_lt_check; node->bp.pqueue (consistency); pqueue->total"),
      op("__pqueue_append_node", "alu", 3),
      op("__pqueue_append_node", "store", 1, "total++"),
      op("bitmap_set_bit", "locked_op", 1, "bit_set: lock; btsl priority, bitmap"),
      op("list_insert_tail", "load", 2),
      op("list_insert_tail", "store", 5, "4 list pointers; node_pqueue_set"),
      op("pth_scheduler", "load", 1, "rq_elements = pqueue_total(RQ)"),
      op("pth_scheduler", "store", 1),
      ...spinUnlock("RQ->lock"),
    ],
  },
  {
    // event_wait (after the second pth_time_set_now(&snapshot)) and the loop head up to the pick
    name: "ngpt.scheduler.pick",
    phase: SW,
    ops: [
      op("pth_scheduler", "load", 3, "rq_elements, NQ total, descr->do_yield"),
      op("pth_scheduler", "alu", 4, "== 0 && NQ empty: wait; == 1 || do_yield: poll"),
      op("pth_scheduler", "load", 1, "descr->is_bounded"),
      op("pth_scheduler", "alu", 1),
      ...spinLock("NQ->lock"),
      op("pth_scheduler", "load", 1, "pqueue_total(NQ): no new threads"),
      op("pth_scheduler", "alu", 1),
      ...spinUnlock("NQ->lock"),
      op("pth_scheduler_load", "load", 4, "pth_time_cmp(&snapshot, &pth_loadticknext)"),
      op("pth_scheduler_load", "alu", 4),
      ...spinLock("RQ->lock"),
      op("__pqueue_first_node", "load", 2, "total; bitmap"),
      op("bitmap_ffms_bit_set", "load", 4, "slots 4..1 are zero"),
      op("bitmap_ffms_bit_set", "alu", 6, "4 tests; bsrl"),
      op("__pqueue_first_node", "load", 1, "queue[prio].next"),
      op("__pqueue_first_node", "alu", 3, "consistency check; list_entry; thread_by_node"),
      op("__pqueue_delete_node", "load", 3, "bp.pqueue; node_lt_check; total"),
      op("__pqueue_delete_node", "alu", 3),
      op("__pqueue_delete_node", "store", 1, "total--"),
      op("list_del", "load", 2),
      op("list_del", "store", 3, "prev->next, next->prev; node_pqueue_set(NULL)"),
      op("__pqueue_delete_node", "load", 1, "list_empty(): other threads remain, no bit_reset"),
      op("__pqueue_delete_node", "alu", 1),
      op("pth_scheduler", "load", 1, "current->boundnative"),
      op("pth_scheduler", "alu", 1, "unbound: take it"),
      ...spinUnlock("RQ->lock"),
      ...sigpendCheck("pth_scheduler"),
    ],
  },
  {
    // after pth_time_set_now(&current->lastran), up to pth_mctx_switch into the thread
    name: "ngpt.scheduler.dispatch",
    phase: SW,
    ops: [
      op("pth_scheduler", "store", 2, "running = current->lastran"),
      ...timeSubAdd("pth_scheduler", "running -= snapshot; this_sched->running += running"),
      op("pth_scheduler", "store", 2, "current->lastrannative = tid; descr->current = current"),
      ...qlockRelease("descr->sched_lock"),
    ],
  },
  {
    name: "ngpt.eventmanager",
    phase: SW,
    ops: [
      op("pth_sched_eventmanager", "call", 1),
      op("pth_sched_eventmanager", "alu", 12, "FD_ZERO x3 (rep stos); fdmax = -1; nexttimer reset; group leader? m_to_n?"),
      op("pth_sched_eventmanager", "store", 4, "memset(sigraised); nexttimer"),
      ...qlockAcquire("pth_sig_lock"),
      op("pth_sched_eventmanager", "load", 2, "memcpy(&sigs_we_block, &pth_sigblock)"),
      op("pth_sched_eventmanager", "store", 2),
      ...qlockRelease("pth_sig_lock"),
      ...spinLock("wait_queue.lock"),
      ...spinUnlock("wait_queue.lock"),
      op("pth_sched_eventmanager", "alu", 8, "FD_SET(sigpipe); dopoll: timeout 0; sigaction loop skipped"),
    ],
  },
  {
    name: "ngpt.eventmanager.walk",
    phase: SW,
    ops: [op("pth_sched_eventmanager", "load", 4, "t->events, cancelreq, sigpendcnt, ev_type"), op("pth_sched_eventmanager", "alu", 8, "one waiting thread: check its event ring (FD into the fd sets, TID, ...)")],
  },
  {
    name: "ngpt.hp_timing",
    phase: SW,
    ops: [op("HP_TIMING_NOW", "rdtsc", 1, "NGPT 2.2.0 ENABLE_HP_TIMING: a TSC read instead of gettimeofday"), op("pth_time_set_now", "alu", 4)],
  },
  {
    name: "ngpt.pth_spawn",
    phase: LIB,
    ops: [
      op("pth_spawn", "call", 2, "pth_tcb_alloc; pth_mctx_set"),
      op("pth_tcb_alloc", "alu", 24, "malloc of the TCB and the stack (free-list fast path)"),
      op("pth_spawn", "alu", 30, "attributes, name, priority, join state, pqueue_append_node(NQ)"),
      op("pth_mctx_set", "store", 12, "jmp_buf: stack pointer, entry trampoline"),
    ],
  },
  {
    name: "ngpt.pth_exit",
    phase: LIB,
    ops: [op("pth_exit", "call", 1), op("pth_exit", "alu", 12, "run cleanups; state = PTH_STATE_EXIT; join_arg"), ...qlockAcquire("descr->sched_lock")],
  },
  {
    name: "ngpt.pth_join",
    phase: LIB,
    ops: [op("pth_join", "call", 1), op("pth_join", "alu", 8, "find tid; if not dead: pth_event(PTH_EVENT_TID) + pth_wait")],
  },
  {
    name: "ngpt.pth_wait",
    phase: LIB,
    ops: [op("pth_wait", "call", 1), op("pth_wait", "alu", 8, "attach the event ring; state = PTH_STATE_WAITING"), ...qlockAcquire("descr->sched_lock")],
  },
  {
    name: "ngpt.pth_sigmask",
    phase: LIB,
    ops: [op("pth_sigmask", "alu", 4, "pthread_sigmask -> sigprocmask on the LWP")],
  },
  {
    name: "ngpt.io_wrapper",
    phase: LIB,
    ops: [op("pth_read_ev/pth_write_ev", "call", 1), op("pth_read_ev/pth_write_ev", "alu", 6, "argument checks; pth_fdmode")],
  },
];

/** Shown in the path inspector as contributed by this plugin. */
export const NGPT_PATHS: PathDef[] = DEFS.map((d) => ({ ...d, origin: "ngpt" }));
