/**
 * libc_r's user-mode work as op lists attributed to the FreeBSD libc_r function each op comes
 * from (uthread_kern.c, uthread_create.c, i386 _setjmp.S). Op counts are estimates; cycles per op
 * come from the CPU profile.
 */
import { op, type PathDef } from "@siglab/plugin-api";

const SW = "uthread.switch";
const LIB = "uthread.lib";

const DEFS: PathDef[] = [
  {
    name: "libc_r.yield",
    phase: SW,
    ops: [op("sched_yield", "call", 1, "_thread_kern_sched(NULL)"), op("sched_yield", "alu", 4, "curthread->slice_usec = -1")],
  },
  {
    name: "libc_r._setjmp",
    phase: SW,
    ops: [op("_thread_kern_sched", "call", 1, "_setjmp(curthread->ctx.jb)"), op("_setjmp", "store", 6, "return address, ebx, esp, ebp, esi, edi -> jmp_buf"), op("_setjmp", "alu", 1)],
  },
  {
    name: "libc_r.longjmp",
    phase: SW,
    ops: [op("___longjmp", "load", 6, "ebx, esp, ebp, esi, edi, return address <- jmp_buf"), op("___longjmp", "alu", 2, "movl $1,%eax; jmp *%edx")],
  },
  {
    name: "libc_r.kern_sched",
    phase: SW,
    ops: [
      op("_thread_kern_scheduler", "load", 3, "GET_CURRENT_TOD: _sched_tod, _sched_ticks; curthread->last_active"),
      op("_thread_kern_scheduler", "alu", 10, "_thread_kern_in_sched = 1; time slice accounting; state PS_RUNNING"),
      op("_thread_kern_scheduler", "alu", 4, "PTHREAD_PRIOQ_INSERT_TAIL(curthread)"),
      op("_thread_kern_scheduler", "store", 3),
    ],
  },
  {
    name: "libc_r.kern_poll",
    phase: SW,
    ops: [op("_thread_kern_poll", "call", 1), op("_thread_kern_poll", "alu", 10, "build the poll set from the work queue (PS_FDR_WAIT / PS_FDW_WAIT threads)")],
  },
  {
    name: "libc_r.pick",
    phase: SW,
    ops: [
      op("_thread_kern_scheduler", "load", 3, "PTHREAD_PRIOQ_FIRST()"),
      op("_thread_kern_scheduler", "alu", 8, "PTHREAD_PRIOQ_REMOVE; _thread_run = pthread_h; _thread_kern_in_sched = 0; pending-signal check"),
    ],
  },
  {
    name: "libc_r.pthread_create",
    phase: LIB,
    ops: [
      op("pthread_create", "call", 2),
      op("pthread_create", "alu", 40, "malloc the struct pthread; _thread_stack_alloc; attributes; add to _thread_list"),
      op("_thread_machdep", "store", 8, "set up the new thread's jmp_buf: stack and _thread_start"),
    ],
  },
  {
    name: "libc_r.pthread_exit",
    phase: LIB,
    ops: [op("pthread_exit", "call", 1), op("pthread_exit", "alu", 12, "cleanup handlers; PS_DEAD; wake joiner; _thread_kern_sched")],
  },
  {
    name: "libc_r.pthread_join",
    phase: LIB,
    ops: [op("pthread_join", "call", 1), op("pthread_join", "alu", 8, "find thread; if not dead: joiner = curthread, PS_JOIN")],
  },
  {
    name: "libc_r.io_wrapper",
    phase: LIB,
    ops: [op("_FD_LOCK/_FD_UNLOCK", "alu", 8, "per-fd lock in user memory (no syscall)")],
  },
  {
    name: "libc_r.sigmask",
    phase: LIB,
    ops: [op("pthread_sigmask", "load", 2, "curthread->sigmask"), op("pthread_sigmask", "alu", 4, "SIG_BLOCK / SIG_UNBLOCK / SIG_SETMASK"), op("pthread_sigmask", "store", 2)],
  },
];

/** Shown in the path inspector as contributed by this plugin. */
export const LIBC_R_PATHS: PathDef[] = DEFS.map((d) => ({ ...d, origin: "libc-r" }));
