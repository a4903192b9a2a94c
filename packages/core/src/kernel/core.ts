/**
 * The kernel as its subsystems program against it (Linux 2.4 has no such file: its subsystems share
 * globals and include/linux/sched.h). KernelCore is the plugin API's Kernel with the core's own
 * types, plus the state and helpers the core's subsystems share; kernel.ts's Kernel implements it
 * and is the only file that knows every subsystem. A subsystem imports this file, never kernel.ts.
 */
import type { ResolvedProfile } from "@siglab/cpu-profiles";
import type { Kernel as ApiKernel, KernelPolicies, LatencyDevice, Vdso } from "@siglab/plugin-api";
import type { CompiledPath, Executor } from "../exec/executor.js";
import type { FpuPool } from "../machine/fpu.js";
import type { AddressSpace } from "../machine/memory.js";
import type {
  BlockDevice,
  EntryMechanism,
  FpuTrapHook,
  PageFaultHook,
  Scheduler,
  SignalFpuPolicy,
  SignalMaskStore,
  SwitchFpuPolicy,
  SyscallContribution,
  UserSigmaskService,
} from "../plugin-api/extension-points.js";
import type { Cpu, SimEvent } from "./cpu.js";
import type { KernelEvents } from "./events.js";
import type { PathRef } from "./path-refs.js";
import type { RunList } from "./run-list.js";
import type { SimError } from "./sim-error.js";
import type { Sigset } from "./sigset.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import type { Task } from "./task.js";

import type { Footprint } from "./footprint.js";
import type { Region } from "../machine/cache.js";
import type { PhaseTable } from "../exec/phases.js";
export interface KernelConfig {
  /** timer interrupts per second (2.4 i386: 100) */
  hz: number;
  /** ticks in a fresh timeslice (2.4: NICE_TO_TICKS(0) = 6 at HZ=100) */
  timesliceTicks: number;
  maxCycles: number;
  maxSteps: number;
  seed: number;
  timeline: boolean;
  /** CPUs of the machine (1: the UP kernel; more: the 2.4 SMP kernel, see smp.ts) */
  cpus: number;
}

/** The run's mechanisms, all of them (the plugin API's KernelPolicies lists the 2.1 ones as optional). */
export type CorePolicies = Required<KernelPolicies>;

export interface KernelDeps {
  entry: EntryMechanism;
  signalFpu: SignalFpuPolicy;
  switchFpu: SwitchFpuPolicy;
  maskStore: SignalMaskStore;
  scheduler: Scheduler;
  blockDevice: BlockDevice;
  syscalls: SyscallContribution[];
  fpuTrapHooks: FpuTrapHook[];
  pageFaultHooks: PageFaultHook[];
  /** Linux 2.4's own single-valued mechanisms */
  baseline: CorePolicies;
  userSigmask: UserSigmaskService | null;
}

/** The baseline entry/exit paths, resolved once per run (after plugins' transforms). */
export interface HotPaths {
  system_call: CompiledPath;
  ret_from_sys_call: CompiledPath;
  restore_all: CompiledPath;
  iret_sti: CompiledPath;
  sys_getpid: CompiledPath;
}

/** SMP: which CPU last wrote each piece of shared kernel data (smp.ts's LineOwners). */
export interface CacheLines {
  /** charge `lines` cache-line transfers when `obj` was last written on another CPU; this CPU owns it now */
  touch(k: KernelCore, obj: object, lines: number): void;
}

export interface KernelCore extends ApiKernel {
  readonly profile: ResolvedProfile;
  readonly config: KernelConfig;
  /** the mechanisms in force and the contributions (the container's) */
  readonly deps: KernelDeps;
  /** the executor: the cycle counter of this CPU and the paths it charges */
  readonly ex: Executor;
  /** the run's phases (their ids index the executor's per-phase cycles) */
  readonly phases: PhaseTable;

  // ---- CPUs (this CPU: smp_processor_id(); cpu.ts) ----
  readonly ncpus: number;
  cpu: Cpu;
  readonly cpus: Cpu[];
  current: Task;
  idle: Task;
  /** the task whose pages this CPU's TLB was last refilled for */
  lastUser: Task | null;
  currentOf(c: Cpu): Task;
  clockOf(c: Cpu): number;
  /** shared kernel data's cache lines (SMP) */
  readonly lines: CacheLines;

  // ---- tasks and the run queue (fork.ts, sched.ts) ----
  readonly tasks: Map<number, Task>;
  readonly runList: RunList<Task>;
  readonly nrRunning: number;
  /** the pid the next task gets (get_pid: pids are not reused in a run) */
  nextPid: number;
  newAsid(): number;
  mmOfAsid(asid: number): AddressSpace<SignalFrameK> | null;
  wakeUp(t: Task): void;
  wakeStopped(t: Task): void;

  // ---- signals (signal.ts) ----
  /** signals queued in all tasks' queues (nr_queued_signals) */
  queuedSignals: number;
  blockedOf(t: Task): Sigset;
  recalcSigpending(t: Task): void;

  // ---- paths and accounting (path-table.ts, tallies.ts) ----
  readonly hot: HotPaths;
  readonly events: KernelEvents;
  path(name: string): CompiledPath;
  run(name: string | PathRef): void;
  runN(name: string | PathRef, n: number): void;
  runRef(r: PathRef): void;
  runNRef(r: PathRef, n: number): void;
  tally(i: number, n?: number): void;
  readonly syscallTable: Map<number, SyscallContribution>;
  readonly syscallCounts: Float64Array;

  // ---- time and interrupts (timer.ts, irq.ts) ----
  readonly cyclesPerTick: number;
  readonly tickPhase: number;
  /** `wire`: an IPI's cycles on the bus (the halted target spends them in phase smp.ipi) */
  scheduleEvent(at: number, kind: SimEvent["kind"], fire: () => void, cpu?: Cpu, wire?: number): void;
  interruptDue(): boolean;
  cyclesToNextEvent(): number;

  // ---- the memory hierarchy (footprint.ts, machine/cache.ts) ----
  /** where the kernel's objects lie in physical memory */
  readonly foot: Footprint;
  /** the kernel (or user code) reads, or writes, region `r` on this CPU: lines its L1D lost come back at their latency */
  touch(r: Region, write?: boolean): void;
  /** a bulk copy from `src` to `dst`: lines neither L1 holds move at the rate of the level they come from */
  copyTraffic(src: Region | null, dst: Region | null): void;

  // ---- memory (smp.ts's TLB flushes, mm/, the vDSO) and the disk (drivers/) ----
  readonly fpuPool: FpuPool;
  pcid: boolean;
  tlbFlushCeiling: number;
  vdso: Vdso | null;
  /** whose KernelSetupContribution runs now ("plugin 'id'", or null: the core's), named by map_vdso's refusal */
  setupBy: string | null;
  diskInUse: boolean;
  diskView: LatencyDevice | undefined;

  // ---- the run's end and budgets (budget.ts) ----
  stopped: boolean;
  readonly stopError: SimError | null;
  stopWith(kind: string, message: string): void;
}
