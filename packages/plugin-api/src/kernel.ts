/**
 * The simulated kernel of one run, as plugins see it: tasks, the kernel's functions (named after
 * Linux's: send_sig_info, unlazy_fpu, schedule, ...), events to observe, counters and findings,
 * and typed per-run state.
 */
import type { CpuProfileFile, ResolvedProfile } from "./profile-types.js";
import type { BlockDevice, BlockDeviceConfig, EntryMechanism, Scheduler, SignalFpuPolicy, SignalMaskStore, SwitchFpuPolicy, UserSigmaskService } from "./extension-points.js";
import type { AddressSpace, Cpu, FpuRegs, UserRegs } from "./machine.js";
import type { FrameFpState, PendingSignal, SigInfo, SignalFrame } from "./signals.js";
import type { Sigset } from "./sigset.js";
import type { StateHolder } from "./state.js";
import type { Finding } from "./results.js";
import type { Gen, Vdso } from "./threads.js";

export type { CpuProfileFile, ResolvedProfile };

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

/** The simulated kernel of one run (one CPU). Per-run plugin state goes in slot(). */
/** A kernel path resolved once per run (Kernel.pathHandle): opaque, made only by the kernel. */
export interface PathHandle {
  readonly name: string;
  readonly id: number;
}

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
   * delivery): run, runN and RuntimeThread.runUser/runUserNow/runUserRest take it in place of the
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
