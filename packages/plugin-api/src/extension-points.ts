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

/** Runs when a kernel is created for a run, before the first task exists. */
export interface KernelSetupContribution {
  setup(k: Kernel): void;
}

/** What pthread_create returns to the workload. */
export interface PthreadHandle {
  readonly tid: number;
}

/** A thread library (LinuxThreads 1:1, NGPT M:N, libc_r N:1). Single-valued: rebind it. */
export interface ThreadLibrary {
  readonly id: string;
  create(t: RuntimeThread, body: ThreadBody): Gen<PthreadHandle>;
  join(t: RuntimeThread, th: PthreadHandle): Gen<number>;
  yield(t: RuntimeThread): Gen<void>;
  read(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
  write(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
  sigmask(t: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]>;
  self(t: RuntimeThread): number;
}
