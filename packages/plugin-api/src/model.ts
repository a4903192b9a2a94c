/**
 * The simulated machine, kernel and user space of one run as plugins see them, with the
 * mechanisms the kernel holds: one declaration unit, because each part refers to the others — a
 * Kernel holds its mechanisms (k.policies) and each mechanism is called with the Kernel; a Task
 * runs on a Cpu that records whose FPU state it holds; the kernel maps a Vdso and offers the
 * user-space mask service, both called with a RuntimeThread, which in turn knows its Kernel and
 * Task. Plain data (signals, the machine's registers, results) and what only refers to this unit
 * (the extension points plugins add, the tokens, the manifest) are in files of their own.
 */
import type { AddressSpace, FpuRegs, Tlb, UserRegs } from "./machine.js";
import type { ResolvedProfile } from "./profile-types.js";
import type { Finding } from "./results.js";
import type { FrameFpState, PendingSignal, SigAction, SigInfo, SignalFrame } from "./signals.js";
import type { Sigset } from "./sigset.js";
import type { StateHolder } from "./state.js";

// ---- the machine --------------------------------------------------------------------------

/**
 * One CPU of the simulated machine: its privilege level, flags, control registers, FPU and TLB.
 * @category Machine
 */
export interface Cpu {
  /** API 2.2: smp_processor_id() of this CPU (0 on the UP kernel): its index in Kernel.cpus */
  readonly id?: number;
  /** API 2.2: this CPU's idle task (idle_task(cpu)); the CPU is idle when Kernel.currentOf(cpu) is it */
  readonly idle?: Task;
  /** The current privilege level: 0 in the kernel, 3 in user mode. */
  cpl: number;
  /** EFLAGS.IF: 1 when interrupts are enabled (an interrupt then lands at the next op boundary), 0 after cli. */
  IF: number;
  /** CR0.TS */
  TS: boolean;
  /** The address space loaded (its AddressSpace.asid): what switch_mm writes to CR3. */
  cr3: number;
  /** whose FPU state is live in the registers */
  fpuOwner: Task | null;
  /** The live FPU/SSE registers. */
  readonly fpu: FpuRegs;
  /** The data TLB. */
  readonly tlb: Tlb;
}

// ---- the kernel ---------------------------------------------------------------------------

/**
 * A task's state: "running" (on the run queue: running or runnable), "interruptible" (asleep until
 * woken: by a signal, a timeout, the event it waits for), "zombie" (exited, not yet reaped by its
 * parent's wait4), "dead" (gone).
 * @category Kernel
 */
export type TaskState = "running" | "interruptible" | "zombie" | "dead";

/**
 * task_struct: what a plugin may read and change (its own state goes in slot()).
 *
 * Sleeping in a blocking system call (SyscallContribution.blocking): set `state` to
 * "interruptible", `wakeReason` to "", `waitingOn` to what you wait for and, for a timeout,
 * `timeoutAt` to `k.sched.roundUpToTick(deadline)`; then `yield* k.sched.schedule()`. It returns
 * when the task runs again; `wakeReason` then says why (see there). Whoever makes the awaited
 * event happen sets `wakeReason` and calls `k.sched.wake_up(task)`.
 * @category Kernel
 */
export interface Task extends StateHolder {
  /** The task's id (each thread of a LinuxThreads process has its own). */
  readonly pid: number;
  /** The thread group id: the pid of the process's first task (what getpid returns). */
  readonly tgid: number;
  /** The parent's pid (1 once the parent exited). */
  ppid: number;
  /** The task's name (the workload's name for the first task). */
  readonly name: string;
  /** Running, asleep, or exited (see TaskState). */
  state: TaskState;
  /** ticks left in this timeslice */
  counter: number;
  /** need_resched: schedule() runs on the way back to user mode (set by the timer tick or a wake-up that preempts). */
  needResched: boolean;
  /** sigpending: an unblocked signal is pending (do_signal runs on the way back to user mode). */
  sigpending: boolean;
  /** 2.4 used_math */
  usedMath: boolean;
  /** 2.4 PF_USEDFPU: the registers hold this task's live FPU state */
  usedFpu: boolean;
  /** thread.i387 */
  readonly fpu: FpuRegs;
  /** The user registers saved on kernel entry (pt_regs). */
  readonly regs: UserRegs;
  /** The blocked mask (task->blocked). Assign a new set (after dropUnblockable) rather than changing it, then recalc_sigpending. */
  blocked: Sigset;
  /** The signals pending for the task (bits), whether blocked or not. */
  readonly pending: Sigset;
  /** The queued instances of pending signals with their siginfo, oldest first. */
  readonly queue: PendingSignal[];
  /** The address space (shared by the threads of a process). */
  mm: AddressSpace;
  /** Its child tasks (forked or cloned), while they exist. */
  readonly children: Task[];
  /** depth of signal handlers running in this task */
  handlerDepth: number;
  /** What the task sleeps on, for deadlock messages ("wait4", a plugin's own description); null when runnable. */
  waitingOn: unknown;
  /**
   * Why a sleeping task was woken, set by whoever woke it: "signal" (send_sig_info), "timeout"
   * (timeoutAt passed), "data" (a pipe), "child" (wait4), or what a plugin's waker sets; "" while
   * asleep (the sleeper clears it before it sleeps).
   */
  wakeReason: string;
  /**
   * The cycle at which a sleeping task times out (a timer tick at or after it wakes it, with
   * wakeReason "timeout", and sets this back to -1); -1: no timeout. Set it with
   * k.sched.roundUpToTick; a sleeper that wakes otherwise should set it back to -1.
   */
  timeoutAt: number;
  /**
   * The mask the program means when a library keeps it in user space (an M:N library's intended
   * mask, a user-sigmask page): the blocked-signal checker honours it. null: task->blocked.
   */
  userMask: {
    /** Whether the program means `sig` to be blocked. */
    has(sig: number): boolean;
  } | null;
}

/**
 * The kernel events checkers and plugins observe (and plugins may emit their own), with each
 * handler's arguments. A handler runs synchronously where the kernel fires the event; a checker
 * must only look and report, never change the simulation.
 * @category Kernel
 */
export interface KernelEventMap {
  /**
   * A timer interrupt (IRQ0; on SMP each CPU's local APIC timer) interrupted `task`, the CPU's
   * current task (its idle task when the CPU was idle): fired in do_timer after the sleepers whose
   * timeout expired were woken and after the Scheduler's update_process_times, once per tick.
   */
  tick: [task: Task];
  /**
   * setup_frame (or setup_rt_frame) finished building `frame` on the user stack: the interrupted
   * registers, the old mask and the FPU state (the SignalFpuPolicy's save) are in it, and eip
   * points at the handler. The handler has not run yet; "return.user" with `intoHandler` true
   * follows. Fired once per handler delivered, after "signal.interrupt" for the same frame.
   */
  "signal.deliver": [task: Task, frame: SignalFrame];
  /**
   * do_signal chose a handler for a dequeued signal and setup_frame is about to build `frame`: the
   * frame holds the interrupted registers (its sigcontext) and mask, and nothing of setup_frame
   * has been charged or written yet (no FPU save, no stores to the user stack). Fired once per
   * handler delivered, before "signal.deliver".
   */
  "signal.interrupt": [task: Task, frame: SignalFrame];
  /**
   * sys_sigreturn (or sys_rt_sigreturn) restored the interrupted context from `frame`: the mask,
   * the general registers and the FPU state (the SignalFpuPolicy's restore) are back in `task`;
   * the return to user mode has not happened yet. Not fired for a bad frame (the task gets
   * SIGSEGV instead).
   */
  "signal.return": [task: Task, frame: SignalFrame];
  /**
   * dequeue_signal found `sig`, the lowest pending signal outside the mask it was given, and is
   * about to take it off `task`'s pending signals. Fired for every dequeue, whoever asked: do_signal
   * on the way to user mode (which then runs a handler, takes the default action, ignores it, or
   * stops a traced task), rt_sigtimedwait (which returns it to the caller instead), and a plugin
   * calling k.signal.dequeue_signal. Not fired when no signal was found.
   */
  "signal.dequeue": [task: Task, sig: number];
  /**
   * send_sig_info left `sig` pending for `task`: `queued` true when an instance was queued with
   * its siginfo, false when only the pending bit is set (a non-RT signal already pending is
   * coalesced; the queue was full). Not fired when send_sig_info refuses or discards the signal: an
   * invalid number, a zombie task, a signal the task ignores, a kernel-sent RT signal the full
   * queue refuses (-EAGAIN).
   */
  "signal.queued": [task: Task, sig: number, queued: boolean];
  /**
   * schedule() chose another task and is about to switch `task` out: it is still current, before
   * switch_mm and before switch_to's switch policy (SwitchFpuPolicy.switchOut). Not fired when
   * schedule() keeps the same task.
   */
  "switch.out": [task: Task];
  /**
   * switch_to switched `task` in: it is current, after the switch policy's switchIn; it has not
   * returned to user mode yet. Fired once for each "switch.out".
   */
  "switch.in": [task: Task];
  /**
   * `task` returns from the kernel to user mode: fired after the entry mechanism's leave (its
   * sysexit, sysret or iret) on every such return — a system call's exit, the plain (fast) one
   * included, a forked child's first return, the return into a signal handler (`intoHandler`
   * true, after "signal.deliver"), the return after sigreturn, and the return from an interrupt or
   * exception taken in user mode (a timer tick, a page fault, #NM). Firing it charges no simulated
   * cycles; a subscriber costs host time on every system call.
   */
  "return.user": [task: Task, intoHandler: boolean];
  /**
   * A user-mode store by `task` to `addr` completed (after its page was found writable; a store
   * that faults fires it when it is retried and completes).
   */
  "user.store": [task: Task, addr: number];
  /**
   * The run is over (finished, failed or stopped by a budget): the last event, fired once; no
   * simulation runs after it. k.tasks holds the tasks not reaped by then (those alive when the run
   * stopped, zombies nobody waited for): a task that exited and was reaped is gone. To read every
   * task's end, subscribe to "task.exit".
   */
  "run.end": [];
  /**
   * API 2.3: do_exit begins for `task` (exit(), the end of its main, or a fatal signal's default
   * action) with exit `code` (128 + the signal's number for a fatal signal): fired before anything
   * is torn down or charged, so the task's pending signals and queue, its mask, mm and open files
   * are still as they were. Fired once per task that exits; a task
   * still alive when the run stops does not fire it (sweep k.tasks at "run.end" for those).
   */
  "task.exit": [task: Task, code: number];
}

/**
 * The type of argument `I` of a handler's argument list `T` (undefined past its end): how
 * KernelEvents.emit types its positional arguments.
 * @category Kernel
 */
export type Arg<T extends unknown[], I extends number> = I extends keyof T ? T[I] : undefined;

/**
 * The kernel's event bus (k.events): subscribe, and emit your own events.
 * @category Kernel
 */
export interface KernelEvents {
  /** Calls `h` with the event's arguments each time `ev` fires in this run (there is no unsubscribe: the bus lives as long as the run). */
  on<K extends keyof KernelEventMap>(ev: K, h: (...args: KernelEventMap[K]) => void): void;
  /** Whether anything subscribed to `ev` (skip work that only feeds an event nobody hears). */
  has(ev: keyof KernelEventMap): boolean;
  /** Fires `ev` with up to three arguments (a plugin may emit events of its own under other names). */
  emit<K extends keyof KernelEventMap>(ev: K, a?: Arg<KernelEventMap[K], 0>, b?: Arg<KernelEventMap[K], 1>, c?: Arg<KernelEventMap[K], 2>): void;
}

/**
 * The settings of one run's kernel (k.config), from the workload and the request.
 * @category Kernel
 */
export interface KernelConfig {
  /** timer interrupts per second (2.4 i386: 100; a workload may ask for another) */
  hz: number;
  /** Ticks in a fresh timeslice (2.4: NICE_TO_TICKS(0), 6 at HZ=100). */
  timesliceTicks: number;
  /** The run's cycle budget: it stops with a "budget" error beyond it. */
  maxCycles: number;
  /** The run's step budget (see Kernel.step). */
  maxSteps: number;
  /** The run's seed (k.random). */
  seed: number;
  /** Whether the run records a timeline. */
  timeline: boolean;
  /** API 2.2: the number of CPUs (absent in older hosts: 1) */
  cpus?: number;
}

/**
 * kernel/signal.c (k.signal): sending and dequeuing signals; each charges the kernel's paths.
 * @category Kernel
 */
export interface SignalFunctions {
  /** queue `sig` for `t` and wake it if unblocked; 0 or -errno */
  send_sig_info(sig: number, info: SigInfo, t: Task): number;
  /** a synchronous signal (a fault): unblocked and un-ignored first */
  force_sig_info(sig: number, info: SigInfo, t: Task): number;
  /**
   * The lowest pending signal of `t` not in `mask`, taken off the pending set (its first queued
   * instance), with its siginfo; null when there is none. Fires "signal.dequeue".
   */
  dequeue_signal(t: Task, mask: Sigset): {
    /** The signal taken. */
    sig: number;
    /** Its siginfo as sent (a signal whose instance was not queued gets signo, errno 0, code SI_USER). */
    info: SigInfo;
  } | null;
  /** Recomputes t.sigpending from its pending signals and blocked mask (after changing either). */
  recalc_sigpending(t: Task): void;
  /** the mask delivery must honour (task->blocked, or the SignalMaskStore's) */
  blockedOf(t: Task): Sigset;
}

/**
 * arch/i386/kernel/i387.c (k.fpu): saving and restoring FPU state, and FP views of frames.
 * @category Kernel
 */
export interface FpuFunctions {
  /** save the task's live FPU state to thread.i387 (runs pathFxsr or pathFsave) and set TS */
  unlazy_fpu(t: Task, pathFxsr: string, pathFsave: string): void;
  /** restore_i387 from the frame being returned from (the 2.4 code) */
  restore_i387(t: Task, frame: SignalFrame): void;
  /** #NM: math_state_restore through the run's SwitchFpuPolicy */
  do_device_not_available(t: Task): void;
  /** the FPU state the task sees in user mode (live registers or thread.i387) */
  userFpuView(t: Task): FpuRegs;
  /** The frame's i387 view (struct _fpstate) of `f`, in this CPU's layout (FXSR or fsave): what convert_fxsr_to_user writes. */
  fpstateFromRegs(f: FpuRegs): FrameFpState;
  /** Writes the frame view `s` into the register file `into` (convert_fxsr_from_user). */
  regsFromFpstate(s: FrameFpState, into: FpuRegs): void;
  /** A deep copy of `s` (null stays null). */
  cloneFpstate(s: FrameFpState | null): FrameFpState | null;
  /** a copy of `src` from the run's pool of register files (give() it back when done) */
  take(src: FpuRegs): FpuRegs;
  /** a register file from the pool in the state fninit (+ the MXCSR reset value) leaves */
  blank(): FpuRegs;
  /** Returns a register file from take() or blank() to the pool (null and undefined are ignored). */
  give(f: FpuRegs | null | undefined): void;
}

/**
 * kernel/sched.c (k.sched): sleeping, waking, the run queue, tick rounding.
 * @category Kernel
 */
export interface SchedFunctions {
  /** sleep or give up the CPU: `yield* k.sched.schedule()` in a blocking syscall's generator */
  schedule(): Gen<void>;
  /** try_to_wake_up */
  wake_up(t: Task): void;
  /** Puts `t` on the run queue (a Scheduler's own bookkeeping; wake_up does it for a sleeping task). */
  add_to_runqueue(t: Task): void;
  /** Takes `t` off the run queue. */
  del_from_runqueue(t: Task): void;
  /** the first timer tick at or after `cycle` (timeouts expire on ticks) */
  roundUpToTick(cycle: number): number;
}

/**
 * arch/i386/mm/fault.c and the TLB (k.mm).
 * @category Kernel
 */
export interface MmFunctions {
  /**
   * #PF on `t` at `addr` (`write`: a write access; `code`: SEGV_MAPERR for an unmapped page,
   * SEGV_ACCERR for a protection fault): a copy-on-write fault is handled, then the PageFaultHooks
   * may handle it, else SIGSEGV with si_addr = addr.
   */
  do_page_fault(t: Task, addr: number, write: boolean, code: number): void;
  /**
   * API 2.2: flush_tlb_page after a PTE of `t`'s address space changed: invlpg here if this CPU
   * runs it, and on SMP an INVALIDATE IPI to every other CPU in its cpu_vm_mask (a TLB shootdown,
   * the sender waiting for every ack). Returns how many other CPUs were sent the IPI.
   */
  flush_tlb_page?(t: Task, addr: number): number;
  /**
   * API 2.2: the kernel loads CR3 with PCIDs (NOFLUSH): TLB entries stay tagged with their address
   * space, so switch_mm keeps every address space's entries instead of flushing them. Call it at
   * kernel setup; refused on a CPU without PCID.
   */
  setPcid?(on: boolean): void;
  /**
   * API 2.2: flush_tlb_range (after mprotect changed PTEs) invalidates page by page (invlpg) when
   * the range has at most `pages` pages, so only those pages' TLB entries go, and flushes the
   * whole TLB above it (6.x's tlb_single_page_flush_ceiling, 33). 0, the default (i386 2.4): every
   * range flush is a full one. Call it at kernel setup.
   */
  setTlbFlushCeiling?(pages: number): void;
  /**
   * API 2.2: map_vdso: the kernel maps a vDSO into every process (arch/x86/entry/vdso/vma.c), so
   * libc's gettimeofday calls `vdso.gettimeofday` in user mode instead of making the system call.
   * Call it at kernel setup, once per run; without it (Linux 2.4) libc makes the system call.
   */
  map_vdso?(vdso: Vdso): void;
}

/**
 * An open file as the file table holds it (a pipe end, or a character device).
 * @category Kernel
 */
export interface OpenFile {
  /** the character device behind it; null for a pipe end */
  readonly dev: "null" | "zero" | "disk" | null;
  /** What it was opened for: read, write, or both. */
  readonly mode: "r" | "w" | "rw";
  /** O_NONBLOCK, O_ASYNC, ... */
  flags: number;
}

/**
 * /dev/siglab-disk as drivers use it: requests go to the run's BlockDevice and complete by interrupt.
 * @category Kernel
 */
export interface LatencyDevice {
  /** start a request of `bytes`; `done` runs in the completion interrupt with the result */
  submit(k: Kernel, bytes: number, done: (result: number) => void): void;
}

/**
 * fs/ and drivers/ (k.files): the file table and the run's disk.
 * @category Kernel
 */
export interface FileFunctions {
  /** the open file behind `fd` in `t` (undefined: not open) */
  file(t: Task, fd: number): OpenFile | undefined;
  /** the run's /dev/siglab-disk (its requests go to the run's BlockDevice) */
  disk(): LatencyDevice;
  /**
   * Set the disk's latency and interval (at kernel setup, before it is used): the values are
   * checked, then handed to the run's BlockDevice (its configure); `who` names the caller.
   */
  configureDisk(cfg: BlockDeviceConfig, who: string): void;
}

/**
 * The mechanisms of this run: the ones in force, and the 2.4 baseline ones (to delegate to). The
 * scheduler and the block device are always there; they are optional in the type only because
 * they came with plugin API 2.1 (a 2.0 type stays assignable).
 * @category Kernel
 */
export interface KernelPolicies {
  /** How system calls enter and leave the kernel. */
  readonly entry: EntryMechanism;
  /** What a signal frame does with the FPU state. */
  readonly signalFpu: SignalFpuPolicy;
  /** The FPU at a context switch and on #NM. */
  readonly switchFpu: SwitchFpuPolicy;
  /** Where the blocked mask lives. */
  readonly maskStore: SignalMaskStore;
  /** since 2.1 */
  readonly scheduler?: Scheduler;
  /** since 2.1 */
  readonly blockDevice?: BlockDevice;
}

/**
 * A kernel path resolved once per run (Kernel.pathHandle): opaque, made only by the kernel.
 * @category Kernel
 */
export interface PathHandle {
  /** The path's name. */
  readonly name: string;
  /** Its number in this run's path table. */
  readonly id: number;
}

/**
 * The simulated kernel of one run: what every extension point is called with. Per-run plugin
 * state goes in slot(). A plugin may read everything; it changes the simulation only through the
 * functions (k.signal, k.sched, ..., run, count, report) and the mechanisms it provides.
 * @category Kernel
 */
export interface Kernel extends StateHolder {
  /** The CPU profile, resolved at the run's clock: op costs, features, geometry. */
  readonly profile: ResolvedProfile;
  /** The run's settings. */
  readonly config: KernelConfig;
  /** The CPU this code runs on (on SMP: the one whose task is running now). */
  readonly cpu: Cpu;
  /** API 2.2: every CPU of the machine, by id (cpus[0] alone on the UP kernel) */
  readonly cpus?: readonly Cpu[];
  /** The event bus: subscribe in InvariantChecker.attach or KernelSetupContribution.setup. */
  readonly events: KernelEvents;
  /** Every task by pid, from its creation until it is reaped (a zombie stays until its parent's wait4). */
  readonly tasks: ReadonlyMap<number, Task>;
  /** The runnable tasks in run-queue order (a copy made when read after a change: changing it changes nothing). */
  readonly runqueue: readonly Task[];
  /** This CPU's idle task (pid 0): what runs when no task can. */
  readonly idle: Task;
  /** The task running on this CPU. */
  readonly current: Task;
  /** the ids of the plugins in this run's variant stack */
  readonly variantIds: readonly string[];
  /** simulated cycles so far */
  readonly cycles: number;

  /** kernel/signal.c's functions. */
  readonly signal: SignalFunctions;
  /** i387.c's functions. */
  readonly fpu: FpuFunctions;
  /** sched.c's functions. */
  readonly sched: SchedFunctions;
  /** The page fault and TLB functions. */
  readonly mm: MmFunctions;
  /** The file table and the disk. */
  readonly files: FileFunctions;
  /** the mechanisms in force in this run */
  readonly policies: KernelPolicies;
  /** Linux 2.4's own mechanisms (a variant delegates to them for the cases it does not change) */
  readonly baseline: KernelPolicies;
  /** the user-space signal mask service, when a plugin of the stack provides one */
  readonly userSigmask: UserSigmaskService | null;

  /** API 2.2: the task running on CPU `cpu` (cpu_curr(cpu)); its idle task when it is idle */
  currentOf?(cpu: Cpu): Task;
  /**
   * API 2.2: resched_curr(cpu_rq(cpu)): set need_resched on the task running on `cpu` (nothing when
   * it is set already) and, when `cpu` is not this CPU, send it the reschedule IPI.
   */
  resched_cpu?(cpu: Cpu): void;
  /** API 2.2: is_cpu_allowed(t, cpu): `cpu` is in the task's cpus_allowed (sched_setaffinity) */
  is_cpu_allowed?(t: Task, cpu: Cpu): boolean;

  /**
   * run a kernel path once: charge its ops (an interrupt may land between them). An unknown name
   * is an error that stops the run, naming the path.
   */
  run(path: string | PathHandle): void;
  /** run a one-op path n times (data-dependent work: lines copied, registers converted, ...) */
  runN(path: string | PathHandle, n: number): void;
  /**
   * API 2.2: a handle of path `name` for call sites that run it often (every switch, every
   * delivery): run, runN and RuntimeThread.runUser take it in place of the
   * name and skip the lookup by name. Valid in this run only (get handles at setup, or on first
   * use in a run); an unknown name is refused here, as run(name) would refuse it.
   */
  pathHandle?(name: string): PathHandle;
  /**
   * one workload step: enforces the run's step and cycle budgets (the run stops with a "budget"
   * error past either). The runtime counts one per system call and user-mode operation.
   */
  step(): void;
  /** add to a counter shown with the results (`n`, default 1); prefix your counters with your plugin id */
  count(name: string, n?: number): void;
  /** deterministic random number in [0, 1) from the experiment's seed */
  random(): number;
  /** record a finding; repeats are folded into one with a count */
  report(f: Finding): void;
  /**
   * Queues an interrupt at the absolute cycle `at` on this CPU: `fire` runs as the body of its
   * handler when the CPU reaches it (IRQ0's path for "timer", the device interrupt's for
   * "device"; a pending "device" event also keeps the run from being a deadlock while every task
   * sleeps). Events at the same cycle fire in the order they were queued.
   */
  scheduleEvent(at: number, kind: "timer" | "device", fire: () => void): void;
}

// ---- the mechanisms the kernel holds (single-valued extension points: rebind to replace) ----

/**
 * How user mode enters and leaves the kernel for a system call (int $0x80 / SYSENTER / SYSCALL).
 * Single-valued: rebind it (and list it in `replaces`); k.baseline.entry is 2.4's int $0x80.
 * @category Mechanisms
 */
export interface EntryMechanism {
  /** The mechanism's id, e.g. "int80" or "sysenter". */
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

/**
 * What setup_frame does with the FPU state, and what sigreturn restores (save_i387/restore_i387).
 * Single-valued: rebind it; k.baseline.signalFpu is 2.4's.
 * @category Mechanisms
 */
export interface SignalFpuPolicy {
  /** The policy's id. */
  readonly id: string;
  /**
   * setup_frame's save_i387: put the task's FPU state into `frame` (frame.fpImage, frame.fpstate)
   * for the handler of `ka`, charging the paths it runs, before the handler starts.
   */
  saveToFrame(k: Kernel, task: Task, frame: SignalFrame, ka: SigAction): void;
  /** sigreturn's restore_i387: give the task back the FPU state `frame` holds (edits of the handler included). */
  restoreFromFrame(k: Kernel, task: Task, frame: SignalFrame): void;
}

/**
 * FPU handling at context switch and on #NM (lazy by default: TS set on switch, restore on trap).
 * Single-valued: rebind it; k.baseline.switchFpu is 2.4's.
 * @category Mechanisms
 */
export interface SwitchFpuPolicy {
  /** The policy's id. */
  readonly id: string;
  /** __switch_to's unlazy_fpu(prev): save `prev`'s live FPU state if it has one, before the switch. */
  switchOut(k: Kernel, prev: Task): void;
  /** After switch_to made `next` current: what the FPU needs for it (2.4: set CR0.TS; an eager policy restores). */
  switchIn(k: Kernel, next: Task): void;
  /** #NM: math_state_restore */
  deviceNotAvailable(k: Kernel, task: Task): void;
}

/**
 * Where the blocked mask lives (task->blocked by default; a user page with user-sigmask).
 * Single-valued: rebind it.
 * @category Mechanisms
 */
export interface SignalMaskStore {
  /** The store's id. */
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
 * @category Mechanisms
 */
export interface Scheduler {
  /** The policy's id, e.g. "linux-2.4" or "cfs". */
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

/**
 * The settings of /dev/siglab-disk that k.files.configureDisk takes (the core checks them).
 * @category Mechanisms
 */
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
 * @category Mechanisms
 */
export interface BlockDevice {
  /** The model's id. */
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

/**
 * The user-space signal mask (a service the user-sigmask plugin provides, thread libraries use):
 * sigprocmask through a page the kernel reads at delivery, instead of a system call. Bound by at
 * most one plugin of a stack (TOKENS.UserSigmask); k.userSigmask is it.
 * @category Mechanisms
 */
export interface UserSigmaskService {
  /** The calling thread's mask changed (or with `set` null, read) through the page: returns the old mask. */
  sigprocmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
}

// ---- user space ---------------------------------------------------------------------------

/**
 * A simulated operation: call it with `yield*` (the runtime drives it, and switches tasks where it
 * yields); its return value is the operation's result.
 * @category User space
 */
export type Gen<T> = Generator<unknown, T, unknown>;

/**
 * A thread's code, as the runtime calls it.
 * @category User space
 */
export type ThreadBody = (t: RuntimeThread) => Gen<unknown>;

/**
 * The runtime thread a thread library or libc model works on: one task's user-mode context with
 * its system calls (each charges the entry, the syscall body and the exit work, and may run
 * signal handlers on its way out) and user work. System calls return >= 0, or -errno.
 * @category User space
 */
export interface RuntimeThread {
  /** The run's kernel. */
  readonly kernel: Kernel;
  /** The kernel task it runs on (several user-level threads of an M:N library share one). */
  readonly task: Task;
  /** The process id (getpid's answer). */
  readonly pid: number;
  /** The kernel task's id. */
  readonly tid: number;
  /** the run's libc model */
  readonly libc: LibcModel;

  // system calls (results: >= 0 or -errno)
  /** getpid: the process id. */
  getpid(): Gen<number>;
  /** The gettimeofday system call (not libc's: see LibcModel): the simulated time of day. */
  gettimeofday(): Gen<Timeval>;
  /** sched_yield: 0. */
  sched_yield(): Gen<number>;
  /** read up to `bytes` from `fd` (may sleep on an empty pipe): the bytes read, 0 at end of file, or -errno. */
  read(fd: number, bytes: number): Gen<number>;
  /** write `bytes` to `fd` (may sleep on a full pipe): the bytes written, or -errno. */
  write(fd: number, bytes: number): Gen<number>;
  /** pipe: [read end, write end], or -errno. */
  pipe(): Gen<[number, number]>;
  /** fcntl(fd, cmd, arg) with F_GETFL, F_SETFL, F_SETOWN, F_SETSIG: the result, or -errno. */
  fcntl(fd: number, cmd: number, arg?: number): Gen<number>;
  /**
   * select on the fds to read and to write, sleeping until one is ready or `timeoutNs` passed
   * (undefined: no timeout; 0: poll): the ready fds, or -errno (-EINTR when a signal woke it).
   */
  select(readFds: number[], writeFds: number[], timeoutNs?: number): Gen<
    | {
        /** The fds of readFds that are readable. */
        readable: number[];
        /** The fds of writeFds that are writable. */
        writable: number[];
      }
    | number
  >;
  /** mmap of `bytes` of anonymous memory with `prot` (PROT_* bits): its address, or -errno. */
  mmap(bytes: number, prot: number): Gen<number>;
  /** rt_sigprocmask with `how` (0 SIG_BLOCK, 1 SIG_UNBLOCK, 2 SIG_SETMASK): the old mask, or -errno. */
  sigprocmask(how: 0 | 1 | 2, set: number[]): Gen<number[] | number>;
  /** rt_sigprocmask with bit sets (for libraries that switch masks on every switch) */
  sigprocmaskSet(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number>;
  /** rt_sigpending: the pending signals that are blocked. */
  sigpending(): Gen<number[]>;
  /** clone(CLONE_VM|...): a kernel thread running `body`; returns its tid */
  clone(body: ThreadBody): Gen<number>;
  /** wait4(pid or -1): the reaped pid or -errno */
  waitFor(pid: number): Gen<number>;
  /** any system call by number (the table includes plugins' syscalls) */
  syscall(nr: number, ...args: unknown[]): Gen<unknown>;

  // user mode
  /** A user-mode load of the word at `addr` (0 if never stored); an unmapped address faults (SIGSEGV) and the load is retried. */
  load(addr: number): Gen<number>;
  /** A user-mode store of `value` (default 0) at `addr` (fires "user.store"); faults as load does. */
  store(addr: number, value?: number): Gen<void>;
  /** `cycles` of user-mode computation (charged to the user phase, or signal.handler in a handler); interrupts land in it. */
  compute(cycles: number): Gen<void>;
  /** `n` user FPU instructions (#NM first if CR0.TS is set) */
  fpuInstruction(n: number): Gen<void>;
  /** libc memcpy of `bytes`; with SSE it uses (and clobbers) xmm0-xmm3 */
  userMemcpy(bytes: number, sse: boolean): Gen<void>;

  /** run a user-mode path (library code): charged to the user phase; a timer tick may land in it */
  runUser(path: string | PathHandle, n?: number): Gen<void>;

  /** the user-level thread scheduler `library` keeps in this task (made on first use) */
  userThreads(library: string, hooks: () => UThreadHooks): UserThreadScheduler;
}

/**
 * A libc model, selected by a workload's `libc` id. Multi-valued: add with bind; ids are unique.
 * A workload's `t.libc` calls run these on the calling thread.
 * @category User space
 */
export interface LibcModel {
  /** The id a workload selects it by (`libc: "glibc-2.2"`); the default is "glibc-2.2". */
  readonly id: string;
  /** Whether memcpy uses SSE registers (above sseThreshold): it may then trap #NM and clobbers xmm0-xmm3. */
  readonly sseMemcpy: boolean;
  /** The copy size in bytes from which memcpy uses SSE. */
  readonly sseThreshold: number;
  /** memcpy of `bytes` in user mode (charge it with t.userMemcpy). */
  memcpy(t: RuntimeThread, bytes: number): Gen<void>;
  /** libc's gettimeofday: the system call, or (with a vDSO, a vsyscall page) user-mode code. */
  gettimeofday(t: RuntimeThread): Gen<Timeval>;
}

/**
 * A time of day (struct timeval) from the simulated clock.
 * @category User space
 */
export interface Timeval {
  /** Seconds. */
  sec: number;
  /** Microseconds (0-999999). */
  usec: number;
}

/**
 * API 2.2: the functions of a vDSO (see MmFunctions.map_vdso): user-mode code the kernel maps into
 * every process, which libc calls instead of the system call. Each runs on the calling thread in
 * user mode and charges its own paths (th.runUser); a timer tick may land between them.
 * @category User space
 */
export interface Vdso {
  /** The vDSO's id (errors name it). */
  readonly id: string;
  /** __vdso_gettimeofday: the time of day from the simulated clock, without entering the kernel */
  gettimeofday(th: RuntimeThread): Gen<Timeval>;
}

/**
 * A user-level thread's state: "ready" (on the ready queue), "running", "waiting" (for a join,
 * an fd, ...: see waitingOn), "done" (its body returned).
 * @category User space
 */
export type UThreadState = "ready" | "running" | "waiting" | "done";

/**
 * A user-level thread of an M:N or N:1 library.
 * @category User space
 */
export interface UThread {
  /** Its id (what pthread_self returns; the root's is the task's pid). */
  readonly id: number;
  /** Its state; the library sets "waiting" before it parks a thread that waits. */
  state: UThreadState;
  /** why it waits ("join", "fd", ...), for deadlock messages */
  waitingOn: string;
  /** Its body's return value (a number) once it is done. */
  result: number;
  /** The threads waiting in pthread_join for it (the library wakes them when it is done). */
  readonly joiners: UThread[];
  /** the runtime thread its code runs with (the same kernel task as every other user thread) */
  readonly th: RuntimeThread;
  /** the library's per-thread data */
  mask: Sigset | null;
}

/**
 * The library's side of a user-level switch, run in the scheduler's context.
 * @category User space
 */
export interface UThreadHooks {
  /** `prev` just switched to the scheduler (it is ready, waiting or done) */
  returned(s: UserThreadScheduler, prev: UThread): Gen<void>;
  /** nothing is ready: wait for an event; false if nothing can ever wake a thread */
  idle(s: UserThreadScheduler): Gen<boolean>;
  /** switch from the scheduler into `next` (time stamps, mask install, register restore) */
  enter(s: UserThreadScheduler, next: UThread): Gen<void>;
}

/**
 * A user-level thread waiting for an fd (UserThreadScheduler.fdWaits).
 * @category User space
 */
export interface FdWait {
  /** The waiting thread. */
  ut: UThread;
  /** The fd it waits for. */
  fd: number;
  /** Whether it waits to write (else to read). */
  write: boolean;
}

/**
 * The user-level threads of one kernel task, multiplexed by a library (its own state: slot()).
 * @category User space
 */
export interface UserThreadScheduler extends StateHolder {
  /** The kernel task (the LWP) they run on. */
  readonly task: Task;
  /** The library's id. */
  readonly library: string;
  /** The LWP's own stack (the thread that first entered the library, e.g. main). */
  readonly root: UThread;
  /** The thread running now. */
  current: UThread;
  /** Every thread by id, done ones included. */
  readonly threads: ReadonlyMap<number, UThread>;
  /** the ready queue (the scheduler takes from its head) */
  readonly ready: readonly UThread[];
  /** threads waiting for an fd to become ready */
  readonly fdWaits: FdWait[];
  /** the scheduler's own runtime thread (its syscalls are the LWP's) */
  readonly sched: RuntimeThread;
  /** a new ready thread running `body` */
  create(body: ThreadBody): UThread;
  /** give up the CPU from `me`'s context; returns when the scheduler switched back into `me` */
  park(me: UThread): Gen<void>;
  /** mark a waiting thread ready */
  wake(ut: UThread): void;
  /** poll (or block in select on) the fds threads wait for, plus `alsoRead`; wakes the ready ones */
  pollFdWaits(block: boolean, alsoRead?: number[]): Gen<number>;
}
