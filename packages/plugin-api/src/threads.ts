/**
 * User space as thread libraries and libc models see it: the runtime thread they run on (its
 * system calls, as a real library sits on top of syscalls), the thread-library and libc extension
 * points, and the user-level thread machinery M:N and N:1 libraries share.
 */
import type { Kernel, PathHandle, Task } from "./kernel.js";
import type { Sigset } from "./sigset.js";
import type { StateHolder } from "./state.js";

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
  /**
   * API 2.2 (optional additions): system calls a library makes on every switch, without a
   * generator. `xNow(...)` makes the call when it can finish synchronously and returns its result;
   * `undefined` means it could not (an interrupt was due, the task is traced, the exit found work)
   * and `yield* xRest(...)` with the same arguments, called at once, finishes it from where it
   * stopped. Same cycles and order as the generator form. (Optional only for the compatibility
   * rules: the runtime always has them.)
   */
  sigprocmaskSetNow?(how: 0 | 1 | 2, set: Sigset | null): Sigset | number | undefined;
  sigprocmaskSetRest?(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number>;
  /** the gettimeofday system call without a generator (see sigprocmaskSetNow) */
  gettimeofdayNow?(): { sec: number; usec: number } | undefined;
  gettimeofdayRest?(): Gen<{ sec: number; usec: number }>;
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
  /** the same without a generator when no interrupt can land: 0 done; 1/2 call runUserRest */
  runUserNow(path: string | PathHandle): 0 | 1 | 2;
  runUserRest(path: string | PathHandle, r: 0 | 1 | 2): Gen<void>;

  /** the user-level thread scheduler `library` keeps in this task (made on first use) */
  userThreads(library: string, hooks: () => UThreadHooks): UserThreadScheduler;
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

/** A libc model, selected by a workload's `libc` id. Multi-valued: add with bind; ids are unique. */
export interface LibcModel {
  readonly id: string;
  readonly sseMemcpy: boolean;
  readonly sseThreshold: number;
  memcpy(t: RuntimeThread, bytes: number): Gen<void>;
  gettimeofday(t: RuntimeThread): Gen<{ sec: number; usec: number }>;
  /**
   * API 2.2, optional: gettimeofday without a generator, as RuntimeThread.sigprocmaskSetNow
   * (undefined: finish with `yield* gettimeofdayRest(t)`). A model without them is called through
   * gettimeofday.
   */
  gettimeofdayNow?(t: RuntimeThread): { sec: number; usec: number } | undefined;
  gettimeofdayRest?(t: RuntimeThread): Gen<{ sec: number; usec: number }>;
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
  /**
   * API 2.2, optional: `returned` and `enter` without a generator, as RuntimeThread.
   * sigprocmaskSetNow: true when done; false when the hook stopped where it would first have to
   * yield, and the scheduler then runs `returnedRest` / `enterRest` (required with the Now form),
   * which finishes it from there. The runtime calls the Now form when there is one.
   */
  returnedNow?(s: UserThreadScheduler, prev: UThread): boolean;
  returnedRest?(s: UserThreadScheduler, prev: UThread): Gen<void>;
  enterNow?(s: UserThreadScheduler, next: UThread): boolean;
  enterRest?(s: UserThreadScheduler, next: UThread): Gen<void>;
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
  /**
   * API 2.2, optional: a new ready thread running `body`, then `exit(t, body's result)` (the
   * library's exit work, e.g. its last switch out) in the same thread. The same as create with a
   * wrapping generator, but every switch in and out passes one generator level fewer.
   */
  createWithExit?(body: ThreadBody, exit: (t: RuntimeThread, result: unknown) => Gen<unknown>): UThread;
  /** give up the CPU from `me`'s context; returns when the scheduler switched back into `me` */
  park(me: UThread): Gen<void>;
  /**
   * API 2.2, optional: park written out for a library's own generator (one generator level fewer
   * per switch). parkOut makes park's checks and returns the value to `yield`, or undefined when
   * `me` is the LWP's own stack (then `yield* park(me)`); after the yield, call parkBack(me,
   * resumed) in a `finally` (resumed false when the yield completed abruptly):
   * `let ok = false; try { yield v; ok = true; } finally { s.parkBack(me, ok); }`
   */
  parkOut?(me: UThread): unknown;
  parkBack?(me: UThread, resumed: boolean): void;
  /** mark a waiting thread ready */
  wake(ut: UThread): void;
  /** poll (or block in select on) the fds threads wait for, plus `alsoRead`; wakes the ready ones */
  pollFdWaits(block: boolean, alsoRead?: number[]): Gen<number>;
}
