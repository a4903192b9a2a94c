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

/** One CPU of the simulated machine: its privilege level, flags, control registers, FPU and TLB. */
export interface Cpu {
  /** API 2.2: smp_processor_id() of this CPU (0 on the UP kernel): its index in Kernel.cpus */
  readonly id?: number;
  /** API 2.2: this CPU's idle task (idle_task(cpu)); the CPU is idle when Kernel.currentOf(cpu) is it */
  readonly idle?: Task;
  cpl: number;
  IF: number;
  /** CR0.TS */
  TS: boolean;
  cr3: number;
  /** whose FPU state is live in the registers */
  fpuOwner: Task | null;
  readonly fpu: FpuRegs;
  readonly tlb: Tlb;
}

// ---- the kernel ---------------------------------------------------------------------------

export type TaskState = "running" | "interruptible" | "zombie" | "dead";

/** task_struct: what a plugin may read and change (its own state goes in slot()). */
export interface Task extends StateHolder {
  readonly pid: number;
  readonly tgid: number;
  ppid: number;
  readonly name: string;
  state: TaskState;
  /** ticks left in this timeslice */
  counter: number;
  needResched: boolean;
  sigpending: boolean;
  /** 2.4 used_math */
  usedMath: boolean;
  /** 2.4 PF_USEDFPU: the registers hold this task's live FPU state */
  usedFpu: boolean;
  /** thread.i387 */
  readonly fpu: FpuRegs;
  readonly regs: UserRegs;
  blocked: Sigset;
  readonly pending: Sigset;
  readonly queue: PendingSignal[];
  mm: AddressSpace;
  readonly children: Task[];
  /** depth of signal handlers running in this task */
  handlerDepth: number;
  waitingOn: unknown;
  wakeReason: string;
  timeoutAt: number;
  /**
   * The mask the program means when a library keeps it in user space (an M:N library's intended
   * mask, a user-sigmask page): the blocked-signal checker honours it. null: task->blocked.
   */
  userMask: { has(sig: number): boolean } | null;
}

/** The kernel events checkers and plugins observe (and plugins may emit their own). */
export interface KernelEventMap {
  tick: [task: Task];
  /** a frame was built and the handler is about to run (before any FPU save) */
  "signal.deliver": [task: Task, frame: SignalFrame];
  /** state at interruption, before setup_frame touches anything */
  "signal.interrupt": [task: Task, frame: SignalFrame];
  /** sigreturn finished restoring the interrupted context */
  "signal.return": [task: Task, frame: SignalFrame];
  /** about to dequeue `sig` for delivery */
  "signal.dequeue": [task: Task, sig: number];
  "signal.queued": [task: Task, sig: number, queued: boolean];
  "switch.out": [task: Task];
  "switch.in": [task: Task];
  /** returning to user mode (subscribing slows every syscall: prefer the other events) */
  "return.user": [task: Task, intoHandler: boolean];
  /** a user-mode store completed */
  "user.store": [task: Task, addr: number];
  "run.end": [];
}

type Arg<T extends unknown[], I extends number> = I extends keyof T ? T[I] : undefined;

export interface KernelEvents {
  on<K extends keyof KernelEventMap>(ev: K, h: (...args: KernelEventMap[K]) => void): void;
  has(ev: keyof KernelEventMap): boolean;
  emit<K extends keyof KernelEventMap>(ev: K, a?: Arg<KernelEventMap[K], 0>, b?: Arg<KernelEventMap[K], 1>, c?: Arg<KernelEventMap[K], 2>): void;
}

export interface KernelConfig {
  /** timer interrupts per second */
  hz: number;
  timesliceTicks: number;
  maxCycles: number;
  maxSteps: number;
  seed: number;
  timeline: boolean;
  /** API 2.2: the number of CPUs (absent in older hosts: 1) */
  cpus?: number;
}

/** kernel/signal.c */
export interface SignalFunctions {
  /** queue `sig` for `t` and wake it if unblocked; 0 or -errno */
  send_sig_info(sig: number, info: SigInfo, t: Task): number;
  /** a synchronous signal (a fault): unblocked and un-ignored first */
  force_sig_info(sig: number, info: SigInfo, t: Task): number;
  dequeue_signal(t: Task, mask: Sigset): { sig: number; info: SigInfo } | null;
  recalc_sigpending(t: Task): void;
  /** the mask delivery must honour (task->blocked, or the SignalMaskStore's) */
  blockedOf(t: Task): Sigset;
}

/** arch/i386/kernel/i387.c */
export interface FpuFunctions {
  /** save the task's live FPU state to thread.i387 (runs pathFxsr or pathFsave) and set TS */
  unlazy_fpu(t: Task, pathFxsr: string, pathFsave: string): void;
  /** restore_i387 from the frame being returned from (the 2.4 code) */
  restore_i387(t: Task, frame: SignalFrame): void;
  /** #NM: math_state_restore through the run's SwitchFpuPolicy */
  do_device_not_available(t: Task): void;
  /** the FPU state the task sees in user mode (live registers or thread.i387) */
  userFpuView(t: Task): FpuRegs;
  fpstateFromRegs(f: FpuRegs): FrameFpState;
  regsFromFpstate(s: FrameFpState, into: FpuRegs): void;
  cloneFpstate(s: FrameFpState | null): FrameFpState | null;
  /** a copy of `src` from the run's pool of register files (give() it back when done) */
  take(src: FpuRegs): FpuRegs;
  /** a register file from the pool in the state fninit (+ the MXCSR reset value) leaves */
  blank(): FpuRegs;
  give(f: FpuRegs | null | undefined): void;
}

/** kernel/sched.c */
export interface SchedFunctions {
  /** sleep or give up the CPU: `yield* k.sched.schedule()` in a blocking syscall's generator */
  schedule(): Gen<void>;
  /** try_to_wake_up */
  wake_up(t: Task): void;
  add_to_runqueue(t: Task): void;
  del_from_runqueue(t: Task): void;
  /** the first timer tick at or after `cycle` (timeouts expire on ticks) */
  roundUpToTick(cycle: number): number;
}

/** arch/i386/mm/fault.c */
export interface MmFunctions {
  /** #PF: a hook may handle it, else SIGSEGV/SIGBUS with si_addr = addr */
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

/** An open file as the file table holds it (a pipe end, or a character device). */
export interface OpenFile {
  /** the character device behind it; null for a pipe end */
  readonly dev: "null" | "zero" | "disk" | null;
  readonly mode: "r" | "w" | "rw";
  /** O_NONBLOCK, O_ASYNC, ... */
  flags: number;
}

/** /dev/siglab-disk as drivers use it: requests go to the run's BlockDevice and complete by interrupt. */
export interface LatencyDevice {
  /** start a request of `bytes`; `done` runs in the completion interrupt with the result */
  submit(k: Kernel, bytes: number, done: (result: number) => void): void;
}

/** fs/ and drivers/ */
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
 */
export interface KernelPolicies {
  readonly entry: EntryMechanism;
  readonly signalFpu: SignalFpuPolicy;
  readonly switchFpu: SwitchFpuPolicy;
  readonly maskStore: SignalMaskStore;
  /** since 2.1 */
  readonly scheduler?: Scheduler;
  /** since 2.1 */
  readonly blockDevice?: BlockDevice;
}

/** A kernel path resolved once per run (Kernel.pathHandle): opaque, made only by the kernel. */
export interface PathHandle {
  readonly name: string;
  readonly id: number;
}

/** The simulated kernel of one run. Per-run plugin state goes in slot(). */
export interface Kernel extends StateHolder {
  readonly profile: ResolvedProfile;
  readonly config: KernelConfig;
  readonly cpu: Cpu;
  /** API 2.2: every CPU of the machine, by id (cpus[0] alone on the UP kernel) */
  readonly cpus?: readonly Cpu[];
  readonly events: KernelEvents;
  readonly tasks: ReadonlyMap<number, Task>;
  readonly runqueue: readonly Task[];
  readonly idle: Task;
  readonly current: Task;
  /** the ids of the plugins in this run's variant stack */
  readonly variantIds: readonly string[];
  /** simulated cycles so far */
  readonly cycles: number;

  readonly signal: SignalFunctions;
  readonly fpu: FpuFunctions;
  readonly sched: SchedFunctions;
  readonly mm: MmFunctions;
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

  /** run a kernel path once: charge its ops (an interrupt may land between them) */
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
  /** one workload step: enforces the run's step and cycle budgets */
  step(): void;
  /** add to a counter shown with the results */
  count(name: string, n?: number): void;
  /** deterministic random number in [0, 1) from the experiment's seed */
  random(): number;
  /** record a finding; repeats are folded into one with a count */
  report(f: Finding): void;
  /** queue a timer or device event at an absolute cycle */
  scheduleEvent(at: number, kind: "timer" | "device", fire: () => void): void;
}

// ---- the mechanisms the kernel holds (single-valued extension points: rebind to replace) ----

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

/**
 * The user-space signal mask (a service the user-sigmask plugin provides, thread libraries use):
 * sigprocmask through a page the kernel reads at delivery, instead of a system call.
 */
export interface UserSigmaskService {
  sigprocmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
}

// ---- user space ---------------------------------------------------------------------------

/** A simulated operation: call it with `yield*`. */
export type Gen<T> = Generator<unknown, T, unknown>;

/** A thread's code, as the runtime calls it. */
export type ThreadBody = (t: RuntimeThread) => Gen<unknown>;

/**
 * The runtime thread a thread library or libc model works on: one task's user-mode context with
 * its system calls (each charges the entry, the syscall body and the exit work) and user work.
 */
export interface RuntimeThread {
  readonly kernel: Kernel;
  readonly task: Task;
  readonly pid: number;
  readonly tid: number;
  /** the run's libc model */
  readonly libc: LibcModel;

  // system calls (results: >= 0 or -errno)
  getpid(): Gen<number>;
  gettimeofday(): Gen<{ sec: number; usec: number }>;
  sched_yield(): Gen<number>;
  read(fd: number, bytes: number): Gen<number>;
  write(fd: number, bytes: number): Gen<number>;
  pipe(): Gen<[number, number]>;
  fcntl(fd: number, cmd: number, arg?: number): Gen<number>;
  select(readFds: number[], writeFds: number[], timeoutNs?: number): Gen<{ readable: number[]; writable: number[] } | number>;
  mmap(bytes: number, prot: number): Gen<number>;
  sigprocmask(how: 0 | 1 | 2, set: number[]): Gen<number[] | number>;
  /** rt_sigprocmask with bit sets (for libraries that switch masks on every switch) */
  sigprocmaskSet(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number>;
  sigpending(): Gen<number[]>;
  /** clone(CLONE_VM|...): a kernel thread running `body`; returns its tid */
  clone(body: ThreadBody): Gen<number>;
  /** wait4(pid or -1): the reaped pid or -errno */
  waitFor(pid: number): Gen<number>;
  /** any system call by number (the table includes plugins' syscalls) */
  syscall(nr: number, ...args: unknown[]): Gen<unknown>;

  // user mode
  load(addr: number): Gen<number>;
  store(addr: number, value?: number): Gen<void>;
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

/** A libc model, selected by a workload's `libc` id. Multi-valued: add with bind; ids are unique. */
export interface LibcModel {
  readonly id: string;
  readonly sseMemcpy: boolean;
  readonly sseThreshold: number;
  memcpy(t: RuntimeThread, bytes: number): Gen<void>;
  gettimeofday(t: RuntimeThread): Gen<{ sec: number; usec: number }>;
}

/**
 * API 2.2: the functions of a vDSO (see MmFunctions.map_vdso): user-mode code the kernel maps into
 * every process, which libc calls instead of the system call. Each runs on the calling thread in
 * user mode and charges its own paths (th.runUser); a timer tick may land between them.
 */
export interface Vdso {
  readonly id: string;
  /** __vdso_gettimeofday: the time of day from the simulated clock, without entering the kernel */
  gettimeofday(th: RuntimeThread): Gen<{ sec: number; usec: number }>;
}

export type UThreadState = "ready" | "running" | "waiting" | "done";

/** A user-level thread of an M:N or N:1 library. */
export interface UThread {
  readonly id: number;
  state: UThreadState;
  /** why it waits ("join", "fd", ...), for deadlock messages */
  waitingOn: string;
  result: number;
  readonly joiners: UThread[];
  /** the runtime thread its code runs with (the same kernel task as every other user thread) */
  readonly th: RuntimeThread;
  /** the library's per-thread data */
  mask: Sigset | null;
}

/** The library's side of a user-level switch, run in the scheduler's context. */
export interface UThreadHooks {
  /** `prev` just switched to the scheduler (it is ready, waiting or done) */
  returned(s: UserThreadScheduler, prev: UThread): Gen<void>;
  /** nothing is ready: wait for an event; false if nothing can ever wake a thread */
  idle(s: UserThreadScheduler): Gen<boolean>;
  /** switch from the scheduler into `next` (time stamps, mask install, register restore) */
  enter(s: UserThreadScheduler, next: UThread): Gen<void>;
}

export interface FdWait {
  ut: UThread;
  fd: number;
  write: boolean;
}

/** The user-level threads of one kernel task, multiplexed by a library (its own state: slot()). */
export interface UserThreadScheduler extends StateHolder {
  readonly task: Task;
  readonly library: string;
  readonly root: UThread;
  current: UThread;
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
