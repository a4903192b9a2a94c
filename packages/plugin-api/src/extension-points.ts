/**
 * Extension points: the interfaces a plugin implements. Single-valued points (an entry mechanism,
 * an FPU policy, the mask store, the thread library, the scheduler, the block device) are replaced
 * with `rebind` and must be listed in the manifest's `replaces`; multi-valued points (syscalls,
 * paths, checkers, ...) are added to with `bind` and collected by the core. Tokens are in tokens.ts.
 */
import type { CpuProfileFile, ResolvedProfile } from "./profile-types.js";
import type { Kernel, Task } from "./kernel.js";
import type { PathDef, PathTransform } from "./paths.js";
import type { SigAction, SignalFrame } from "./signals.js";
import type { Sigset } from "./sigset.js";
import type { Gen, RuntimeThread } from "./threads.js";

/** How user mode enters and leaves the kernel for a system call (int $0x80 / SYSENTER / SYSCALL). */
export interface EntryMechanism {
  readonly id: string;
  /** null if usable on this CPU, else the reason (e.g. "CPU has no SEP") */
  checkCpu(profile: ResolvedProfile): string | null;
  /** user -> kernel for system call `nr` (a mechanism may enter some calls differently, e.g. sigreturn) */
  enter(k: Kernel, task: Task, nr: number): void;
  /** test the work flags on the way out; true when there is work (reschedule or signal) */
  exitTest(k: Kernel, task: Task): boolean;
  /** kernel -> user; `mustIret` when pt_regs were changed (signal frame, sigreturn) */
  leave(k: Kernel, task: Task, mustIret: boolean): void;
}

/** What setup_frame does with the FPU state, and what sigreturn restores (save_i387/restore_i387). */
export interface SignalFpuPolicy {
  readonly id: string;
  saveToFrame(k: Kernel, task: Task, frame: SignalFrame, ka: SigAction): void;
  restoreFromFrame(k: Kernel, task: Task, frame: SignalFrame): void;
}

/** FPU handling at context switch and on #NM (lazy by default: TS set on switch, restore on trap). */
export interface SwitchFpuPolicy {
  readonly id: string;
  switchOut(k: Kernel, prev: Task): void;
  switchIn(k: Kernel, next: Task): void;
  /** #NM: math_state_restore */
  deviceNotAvailable(k: Kernel, task: Task): void;
}

/** Where the blocked mask lives (task->blocked by default; a user page with user-sigmask). */
export interface SignalMaskStore {
  readonly id: string;
  /** the mask the kernel must honour at delivery */
  effectiveBlocked(k: Kernel, task: Task): Sigset;
  /** the mask do_signal dequeues with (defaults to effectiveBlocked; a variant may read less) */
  deliveryBlocked?(k: Kernel, task: Task): Sigset;
}

/**
 * Which runnable task gets the CPU, and when a timeslice is used up (since plugin API 2.1).
 *
 * Why a point of its own: the choice is policy — 2.4's goodness() loop, 2.6's O(1) or CFS, a
 * round robin for a what-if — while the mechanics around it are the same for every policy and
 * stay the kernel's: schedule() takes prev off the run queue when it sleeps, falls back to prev
 * when only the idle task is left, and does switch_mm/switch_to; the timer interrupt re-arms
 * itself and expires timeouts; try_to_wake_up puts the task on the run queue. The baseline is
 * Linux 2.4's (kernel/sched.c; k.baseline.scheduler, to delegate to).
 */
export interface Scheduler {
  readonly id: string;
  /**
   * schedule()'s choice: a task of k.runqueue, or k.idle when none should run. `prev` is the task
   * that called schedule() (still on the run queue if it can run). Charges its own work (e.g.
   * k.runN("goodness", n)) and may refill timeslices (Task.counter). Anything else is refused.
   */
  pick_next_task(k: Kernel, prev: Task): Task;
  /**
   * The timer tick's accounting for the task it interrupted (`p` may be k.idle): 2.4's
   * update_process_times (--p->counter; need_resched when the slice is used up).
   */
  update_process_times(k: Kernel, p: Task): void;
  /**
   * try_to_wake_up's reschedule_idle: `p` was just made runnable; set k.current.needResched when
   * it should preempt the running task.
   */
  reschedule_idle(k: Kernel, p: Task): void;
  /**
   * API 2.2: what runs after a context switch, on the CPU that switched, once `next` is current
   * (`prev` was switched out; `yielded`: it called sched_yield). When present the core calls it on
   * every switch, on one CPU and on SMP, instead of its own tail: 2.4's __schedule_tail on SMP
   * (offering a still-runnable, non-yielding prev to another CPU with reschedule_idle). A policy
   * without that step (6.x's finish_task_switch has no reschedule_idle) provides its own, which
   * charges what its kernel runs there. Absent: the core's 2.4 tail.
   */
  schedule_tail?(k: Kernel, prev: Task, yielded: boolean): void;
}

/** The settings of /dev/siglab-disk that k.files.configureDisk takes (the core checks them). */
export interface BlockDeviceConfig {
  /** microseconds from the start of a request to its completion interrupt */
  latencyUs?: number;
  /** minimum microseconds between two completions (0: unlimited bandwidth) */
  intervalUs?: number;
  /** API 2.2: each completion comes up to this many microseconds later, drawn from the run's seed (0: none) */
  jitterUs?: number;
}

/**
 * The model of /dev/siglab-disk: when a request completes, and what the driver charges to start
 * and end it (since plugin API 2.1).
 *
 * Why a point of its own: what the experiments compare is how a completion reaches the program (a
 * record read(), SIGIO or an F_SETSIG signal, an AIO ring); the device behind it is a parameter of
 * the experiment (a fixed latency, a queue with bandwidth, a seek model). The file side — the
 * 32-byte records, wake-ups, kill_fasync, aio_complete — stays the kernel's, so every way of
 * learning of a completion sees the same device. The baseline is a latency with a minimum interval
 * between completions (k.baseline.blockDevice, to delegate to). A model that keeps state (its
 * queue) keeps it per run: bind it with toDynamicValue, or keep the state in k.slot().
 */
export interface BlockDevice {
  readonly id: string;
  /**
   * Start a request of `bytes` (the driver's make_request). The device queues its completion
   * interrupt (k.scheduleEvent(at, "device", ...)), whose handler calls `complete(result)` once.
   */
  submit(k: Kernel, bytes: number, complete: (result: number) => void): void;
  /**
   * Settings a KernelSetupContribution gave with k.files.configureDisk, before the device's first
   * use (keys and values already checked). Throw to refuse what the model cannot honour.
   */
  configure(k: Kernel, cfg: Readonly<BlockDeviceConfig>, who: string): void;
}

/** A system call added to the table; reached by a workload's `t.syscall(nr, ...args)`. */
export interface SyscallContribution {
  nr: number;
  name: string;
  /**
   * A plain function returns the result (>= 0 or -errno); with `blocking`, a generator function
   * that may sleep with `yield* k.sched.schedule()`. `args` are plain data the workload passed.
   */
  handler(k: Kernel, task: Task, args: unknown[]): unknown;
  blocking?: boolean;
  /** the path charged as the syscall's body (default "sys_ni_syscall") */
  path?: string;
}

export interface PathContribution {
  paths(): PathDef[];
}

export interface PathTransformContribution {
  transforms(): PathTransform[];
}

/** Called on #NM before the switch policy (lazy FPU frame variants). Return true if handled. */
export interface FpuTrapHook {
  onDeviceNotAvailable(k: Kernel, task: Task): boolean;
}

/** Called on #PF before the default handling. Return true if handled (the access is retried). */
export interface PageFaultHook {
  onPageFault(k: Kernel, task: Task, addr: number, write: boolean): boolean;
}

/** Subscribes to kernel events and reports findings; it must not change the simulation. */
export interface InvariantChecker {
  readonly id: string;
  attach(k: Kernel): void;
}

export interface CpuProfileContribution {
  profiles(): CpuProfileFile[];
}

/**
 * A workload shipped with a plugin (shown in `siglab list` and the app's example list). A
 * third-party plugin ships them as .ts files in its examples/ folder.
 */
export interface ExampleWorkload {
  id: string;
  title: string;
  file: string;
  /** the workload's TypeScript source */
  source: string;
  /** plugins this example needs to show its point (e.g. sa_nofp_hazard -> sa-nofp) */
  suggestedVariants?: { id: string; options?: Record<string, string | number | boolean> }[];
  /** API 2.2: the CPU the example is made for, when the suggested stack needs one (e.g. long mode); mhz 0 or absent: its default clock */
  suggestedCpu?: { id: string; mhz?: number };
}

/** A named variant stack (shown by `siglab list`, used with `--preset`); in plugin.json's "presets". */
export interface Preset {
  /** e.g. "linux-2.5.53" */
  id: string;
  /** e.g. "Linux 2.5.53 + SYSENTER" */
  name: string;
  description: string;
  stack: { id: string; options?: Record<string, string | number | boolean> }[];
}

/** Runs when a kernel is created for a run, before the first task exists. */
export interface KernelSetupContribution {
  setup(k: Kernel): void;
}

/**
 * The user-space signal mask (a service the user-sigmask plugin provides, thread libraries use):
 * sigprocmask through a page the kernel reads at delivery, instead of a system call.
 */
export interface UserSigmaskService {
  sigprocmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
}
