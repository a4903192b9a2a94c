/**
 * The extension points a plugin adds to (bind: system calls, paths, path transforms, hooks,
 * checkers, CPU profiles, setup code) and the thread library it may replace (rebind). Each is
 * called with the kernel model (model.ts), which does not refer back to them: the core collects
 * them. The mechanisms the kernel holds (the entry, the FPU policies, the mask store, the
 * scheduler, the block device) are in model.ts. Tokens are in tokens.ts.
 */
import type { Gen, Kernel, RuntimeThread, Task, ThreadBody } from "./model.js";
import type { PathDef, PathTransform } from "./paths.js";
import type { CpuProfileFile } from "./profile-types.js";

/**
 * A system call added to the table; reached by a workload's `t.syscall(nr, ...args)`. The entry
 * and exit (the run's EntryMechanism, the exit work loop) are the kernel's; the plugin gives the
 * body.
 * @category Extension points
 */
export interface SyscallContribution {
  /**
   * Its number: a slot the core does not implement (NR lists the ones it does; the workload API's
   * typed calls, such as `t.getpid()`, always run the core's). Two plugins of a stack may not
   * take the same number.
   */
  nr: number;
  /** Its name, e.g. "gettid": the counter `syscalls.<name>` counts its calls. */
  name: string;
  /**
   * The body, called in kernel mode on the calling task. A plain function returns the result
   * (>= 0, or -errno, which becomes the workload's return value; any other plain data is returned
   * to the workload as is, with 0 in eax); with `blocking`, a generator function that may sleep
   * with `yield* k.sched.schedule()` and returns the result. `args` are plain data the workload
   * passed.
   */
  handler(k: Kernel, task: Task, args: unknown[]): unknown;
  /**
   * The handler is a generator that may sleep: set task.state to "interruptible" (and
   * task.waitingOn, task.timeoutAt), then `yield* k.sched.schedule()`; on return task.wakeReason
   * says why it woke. Woken by a signal, return -ERESTARTSYS to be restarted after the handler
   * when it has SA_RESTART (-EINTR otherwise), or -EINTR.
   */
  blocking?: boolean;
  /** the path charged as the syscall's body (default "sys_ni_syscall") */
  path?: string;
}

/**
 * New paths (kernel or user mode), defined when a run's paths are set up, before any transform;
 * a name that exists already replaces that path.
 * @category Extension points
 */
export interface PathContribution {
  /** The paths to define (called once per run). */
  paths(): PathDef[];
}

/**
 * Changes to existing paths (the core's or another plugin's), applied after every path is defined.
 * @category Extension points
 */
export interface PathTransformContribution {
  /** The transforms to apply (called once per run), in order. */
  transforms(): PathTransform[];
}

/**
 * Called on #NM (device not available: a task used the FPU while CR0.TS was set) before the
 * switch policy's math_state_restore (lazy FPU frame variants). Hooks run in stack order; the
 * first that returns true has handled the trap.
 * @category Extension points
 */
export interface FpuTrapHook {
  /** Handle #NM for `task` (charge what you do with k.run); true when handled, false to pass it on. */
  onDeviceNotAvailable(k: Kernel, task: Task): boolean;
}

/**
 * Called on #PF before the default handling (after a copy-on-write fault was handled), in stack
 * order. Return true if handled: the access is retried; false passes it on (in the end SIGSEGV).
 * @category Extension points
 */
export interface PageFaultHook {
  /** Handle a fault of `task` at `addr` (a write when `write`); true when handled. */
  onPageFault(k: Kernel, task: Task, addr: number, write: boolean): boolean;
}

/**
 * Subscribes to kernel events and reports findings; it must not change the simulation. Bind it
 * with toDynamicValue (a fresh checker per run) when it keeps state.
 * @category Extension points
 */
export interface InvariantChecker {
  /** The checker's id (findings name it), e.g. "getpid-cache.stale-pid". */
  readonly id: string;
  /**
   * Called once per run, when the kernel is made (before the first task exists): subscribe to
   * k.events here and report with k.report.
   */
  attach(k: Kernel): void;
}

/**
 * CPU profiles a plugin adds (a CPU its variant needs, e.g. one with SYSCALL); their ids must not
 * clash with the built-in ones.
 * @category Extension points
 */
export interface CpuProfileContribution {
  /** The profiles, as files (inheritance applied). */
  profiles(): CpuProfileFile[];
}

/**
 * Runs when a kernel is created for a run, before the first task exists (after the checkers are
 * attached): configure the kernel (k.mm.map_vdso, k.files.configureDisk, k.mm.setPcid) and get
 * path handles.
 * @category Extension points
 */
export interface KernelSetupContribution {
  /** Set up `k` for the run. */
  setup(k: Kernel): void;
}

/**
 * What pthread_create returns to the workload.
 * @category User space
 */
export interface PthreadHandle {
  /** The thread's id (a kernel task's pid for a 1:1 library, a user-level thread's id for M:N). */
  readonly tid: number;
}

/**
 * A thread library (LinuxThreads 1:1, NGPT M:N, libc_r N:1): what a workload's `t.pthread` calls
 * run. Single-valued: rebind it. Each call runs on the calling thread, in user mode, and charges
 * what the library does (its paths with t.runUser, its system calls through `t`).
 * @category User space
 */
export interface ThreadLibrary {
  /** The library's id, e.g. "ngpt". */
  readonly id: string;
  /** pthread_create: start a thread running `body`; returns its handle. */
  create(t: RuntimeThread, body: ThreadBody): Gen<PthreadHandle>;
  /** pthread_join: wait until the thread's body returned; returns its result (a number). */
  join(t: RuntimeThread, th: PthreadHandle): Gen<number>;
  /** sched_yield as the library does it (a system call, or a user-level switch). */
  yield(t: RuntimeThread): Gen<void>;
  /** read as the library wraps it (an M:N library waits in its scheduler instead of blocking the LWP). */
  read(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
  /** write as the library wraps it. */
  write(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
  /** pthread_sigmask: the calling thread's mask (how: 0 block, 1 unblock, 2 set); returns the old mask. */
  sigmask(t: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]>;
  /** pthread_self: the calling thread's id. */
  self(t: RuntimeThread): number;
}
