/**
 * NGPT's user-mode work, as op lists attributed to the GNU Pth / glibc function each op comes
 * from. Op counts are estimates read off the sources (pth_sched.c, pth_lib.c, glibc i386
 * swapcontext.S); cycles per op come from the CPU profile.
 */
import { op, type PathDef } from "@siglab/core";

const SW = "uthread.switch";
const LIB = "uthread.lib";

const DEFS: PathDef[] = [
  {
    name: "ngpt.pth_yield",
    phase: SW,
    ops: [op("pth_yield", "call", 1), op("pth_yield", "alu", 6, "state = PTH_STATE_READY; pth_pqueue_insert(&pth_RQ, prio, current)")],
  },
  {
    name: "ngpt.swapcontext.save",
    phase: SW,
    ops: [
      op("pth_mctx_switch", "call", 1, "swapcontext(&from->uc, &to->uc)"),
      op("swapcontext", "store", 8, "eax, ebx, ecx, edx, esi, edi, ebp, esp/eip -> oucp->uc_mcontext"),
      op("swapcontext", "mov_from_sreg", 1, "movw %fs, oFS(%eax)"),
      op("swapcontext", "fnstenv", 1, "fnstenv oucp->__fpregs_mem; fldenv ucp's (the pair)"),
      op("swapcontext", "alu", 4, "leal oSIGMASK(%eax); SIG_SETMASK; ENTER_KERNEL arguments"),
    ],
  },
  {
    name: "ngpt.swapcontext.restore",
    phase: SW,
    ops: [
      op("swapcontext", "load", 8, "ucp->uc_mcontext: esp, ebx, esi, edi, ebp, ecx, eip"),
      op("swapcontext", "mov_sreg", 1, "movw oFS(%eax), %fs"),
      op("swapcontext", "push", 1, "pushl new eip"),
      op("swapcontext", "alu", 2, "xorl %eax,%eax; ret into the new context"),
    ],
  },
  {
    name: "ngpt.scheduler.account",
    phase: SW,
    ops: [
      op("pth_scheduler", "alu", 10, "running = snapshot - lastran; pth_time_add(&current->running)"),
      op("pth_scheduler", "load", 4, "sigpendcnt, stackguard, state"),
      op("pth_scheduler", "alu", 6, "DEAD / WAITING checks; pth_pqueue_increase(&pth_RQ); re-insert"),
      op("pth_scheduler", "store", 4),
    ],
  },
  {
    name: "ngpt.eventmanager",
    phase: SW,
    ops: [op("pth_sched_eventmanager", "call", 1), op("pth_sched_eventmanager", "alu", 14, "sigfillset(&pth_sigblock); FD_ZERO x3; walk pth_WQ")],
  },
  {
    name: "ngpt.eventmanager.walk",
    phase: SW,
    ops: [op("pth_sched_eventmanager", "alu", 10, "one waiting thread: narrow pth_sigblock by its mask; check its event ring (FD, TID)")],
  },
  {
    name: "ngpt.scheduler.pick",
    phase: SW,
    ops: [
      op("pth_scheduler", "alu", 8, "move pth_NQ to pth_RQ; pth_scheduler_load(&snapshot)"),
      op("pth_pqueue_delmax", "load", 3),
      op("pth_pqueue_delmax", "alu", 6, "pth_current = pth_pqueue_delmax(&pth_RQ)"),
    ],
  },
  {
    name: "ngpt.scheduler.dispatch",
    phase: SW,
    ops: [op("pth_scheduler", "alu", 6, "running = lastran - snapshot; pth_sched->running += running; dispatches++")],
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
      op("pth_spawn", "alu", 30, "attributes, name, priority, join state, pth_pqueue_insert(&pth_NQ)"),
      op("pth_mctx_set", "store", 12, "makecontext: stack pointer, entry trampoline, uc_link"),
    ],
  },
  {
    name: "ngpt.pth_exit",
    phase: LIB,
    ops: [op("pth_exit", "call", 1), op("pth_exit", "alu", 12, "run cleanups; state = PTH_STATE_DEAD; join_arg")],
  },
  {
    name: "ngpt.pth_join",
    phase: LIB,
    ops: [op("pth_join", "call", 1), op("pth_join", "alu", 8, "find tid; if not dead: pth_event(PTH_EVENT_TID) + pth_wait")],
  },
  {
    name: "ngpt.pth_wait",
    phase: LIB,
    ops: [op("pth_wait", "call", 1), op("pth_wait", "alu", 8, "attach the event ring; state = PTH_STATE_WAITING")],
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
