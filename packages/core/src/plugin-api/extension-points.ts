/**
 * Extension points: the interfaces a plugin implements and the inversify tokens it binds them to.
 * Single-valued points (an entry mechanism, an FPU policy, ...) are replaced; multi-valued points
 * (syscalls, path transforms, checkers, ...) are collected Theia-style by a contribution provider.
 */
import type { CpuProfileFile, ResolvedProfile } from "@siglab/cpu-profiles";
import type { PathDef } from "../exec/path.js";
import type { PathTransform } from "../exec/registry.js";
import type { Kernel } from "../kernel/kernel.js";
import type { Sigset } from "../kernel/sigset.js";
import type { SignalFrameK, SigAction, Task } from "../kernel/task.js";

/** How user mode enters and leaves the kernel for a system call (int $0x80 / SYSENTER / SYSCALL). */
export interface EntryMechanism {
  readonly id: string;
  /** null if usable on this CPU, else the reason (e.g. "CPU has no SEP") */
  checkCpu(profile: ResolvedProfile): string | null;
  /** user -> kernel for system call `nr` (a mechanism may enter some calls differently, e.g. sigreturn through int $0x80) */
  enter(k: Kernel, task: Task, nr: number): void;
  /** test the work flags on the way out; returns true when there is work (resched or signal) */
  exitTest(k: Kernel, task: Task): boolean;
  /** kernel -> user; `mustIret` when pt_regs were changed (signal frame, sigreturn) */
  leave(k: Kernel, task: Task, mustIret: boolean): void;
}

/** What setup_frame does with the FPU state, and what sigreturn restores (save_i387/restore_i387). */
export interface SignalFpuPolicy {
  readonly id: string;
  saveToFrame(k: Kernel, task: Task, frame: SignalFrameK, ka: SigAction): void;
  restoreFromFrame(k: Kernel, task: Task, frame: SignalFrameK): void;
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

/** A system call added to the table. The handler may be a generator (blocking) or plain. */
export interface SyscallContribution {
  nr: number;
  name: string;
  /** a plain function returns the result; a generator function may sleep with `yield* k.schedule()` */
  handler: (k: Kernel, task: Task, args: unknown[]) => unknown;
  blocking?: boolean;
  /** path charged as the syscall body (defaults to "sys_ni_syscall") */
  path?: string;
}

/** Additional kernel paths (new plugins define their own op sequences). */
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

/** Invariant checkers subscribe to kernel events and report findings. */
export interface InvariantChecker {
  readonly id: string;
  attach(k: Kernel): void;
}

export interface CpuProfileContribution {
  profiles(): CpuProfileFile[];
}

export interface ExampleWorkload {
  id: string;
  title: string;
  file: string;
  source: string;
  /** plugins this example needs to show its point (e.g. sa_nofp_hazard -> sa-nofp) */
  suggestedVariants?: { id: string; options?: Record<string, string | number | boolean> }[];
}

export interface ExampleWorkloadContribution {
  examples(): ExampleWorkload[];
}

/** Hooks a plugin can use to run code when a kernel is created for a run (e.g. set task state). */
export interface KernelSetupContribution {
  setup(k: Kernel): void;
}

export const TOKENS = {
  EntryMechanism: Symbol.for("siglab.EntryMechanism"),
  SignalFpuPolicy: Symbol.for("siglab.SignalFpuPolicy"),
  SwitchFpuPolicy: Symbol.for("siglab.SwitchFpuPolicy"),
  SignalMaskStore: Symbol.for("siglab.SignalMaskStore"),
  ThreadLibrary: Symbol.for("siglab.ThreadLibrary"),
  LibcModel: Symbol.for("siglab.LibcModel"),
  SyscallContribution: Symbol.for("siglab.SyscallContribution"),
  PathContribution: Symbol.for("siglab.PathContribution"),
  PathTransformContribution: Symbol.for("siglab.PathTransformContribution"),
  FpuTrapHook: Symbol.for("siglab.FpuTrapHook"),
  PageFaultHook: Symbol.for("siglab.PageFaultHook"),
  InvariantChecker: Symbol.for("siglab.InvariantChecker"),
  CpuProfileContribution: Symbol.for("siglab.CpuProfileContribution"),
  ExampleWorkloadContribution: Symbol.for("siglab.ExampleWorkloadContribution"),
  KernelSetupContribution: Symbol.for("siglab.KernelSetupContribution"),
  KernelConfig: Symbol.for("siglab.KernelConfig"),
} as const;

export type ExtensionPointName = keyof typeof TOKENS;
