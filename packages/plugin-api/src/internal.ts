/**
 * `@siglab/plugin-api/internal` — UNSTABLE and not part of the plugin API: the fast-call protocol
 * between SigLab's core and its built-in plugins (NGPT's switch, linux6's vDSO), kept apart so the
 * documented API stays what a plugin needs.
 *
 * Each member here does what a public one does (runUser, sigprocmaskSet, gettimeofday, the
 * scheduler hooks, create and park) with fewer generators: a thread library that switches
 * millions of times per run spends most of its host time creating and resuming generators. The
 * protocol may change in any release without a new API version; a plugin that uses it is tied to
 * the SigLab it was built with. Plugins of API 2.0-2.2, which had these members in the public
 * types, keep working: the core still implements every one of them (the compatibility test checks
 * the 2.x baselines against the public declarations plus these), and a library's hooks may still
 * provide the `…Now`/`…Rest` forms.
 *
 * How to reach it: `import type { FastRuntimeThread } from "@siglab/plugin-api/internal"` (types
 * only: there is no module to import at run time) and view the objects the core hands you through
 * these interfaces — the core's threads, schedulers and libc models implement them.
 * @packageDocumentation
 */
import type { Gen, LibcModel, PathHandle, RuntimeThread, ThreadBody, Timeval, UThread, UThreadHooks, UserThreadScheduler } from "./model.js";
import type { Sigset } from "./sigset.js";

/** A runtime thread with the synchronous forms of the calls a library makes on every switch. */
export interface FastRuntimeThread extends RuntimeThread {
  /**
   * System calls a library makes on every switch, without a generator. `xNow(...)` makes the call
   * when it can finish synchronously and returns its result; `undefined` means it could not (an
   * interrupt was due, the task is traced, the exit found work) and `yield* xRest(...)` with the
   * same arguments, called at once, finishes it from where it stopped. Same cycles and order as
   * the generator form. (Optional as they were in API 2.2: the core always has them.)
   */
  sigprocmaskSetNow?(how: 0 | 1 | 2, set: Sigset | null): Sigset | number | undefined;
  /** Finishes what sigprocmaskSetNow left (called at once after it returned undefined). */
  sigprocmaskSetRest?(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number>;
  /** The gettimeofday system call without a generator (see sigprocmaskSetNow). */
  gettimeofdayNow?(): Timeval | undefined;
  /** Finishes what gettimeofdayNow left. */
  gettimeofdayRest?(): Gen<Timeval>;
  /**
   * runUser without a generator: 0 when the path ran and no interrupt is due; otherwise finish
   * with `yield* runUserRest(path, r)` (1: the path ran and an interrupt is now due; 2: one was
   * due before, nothing ran yet).
   */
  runUserNow(path: string | PathHandle): 0 | 1 | 2;
  /** Finishes what runUserNow left (its result `r`). */
  runUserRest(path: string | PathHandle, r: 0 | 1 | 2): Gen<void>;
}

/** A libc model whose gettimeofday also has the synchronous form (NGPT stamps the time three times per switch). */
export interface FastLibcModel extends LibcModel {
  /**
   * gettimeofday without a generator, as FastRuntimeThread.sigprocmaskSetNow (undefined: finish
   * with `yield* gettimeofdayRest(t)`). A model without them is called through gettimeofday.
   */
  gettimeofdayNow?(t: RuntimeThread): Timeval | undefined;
  /** Finishes what gettimeofdayNow left. */
  gettimeofdayRest?(t: RuntimeThread): Gen<Timeval>;
}

/** A library's switch hooks with synchronous forms, which the core calls when they are there. */
export interface FastUThreadHooks extends UThreadHooks {
  /**
   * `returned` without a generator: true when done; false when the hook stopped where it would
   * first have to yield, and the scheduler then runs `returnedRest` (required with the Now form),
   * which finishes it from there.
   */
  returnedNow?(s: UserThreadScheduler, prev: UThread): boolean;
  /** Finishes what returnedNow left. */
  returnedRest?(s: UserThreadScheduler, prev: UThread): Gen<void>;
  /** `enter` without a generator (see returnedNow). */
  enterNow?(s: UserThreadScheduler, next: UThread): boolean;
  /** Finishes what enterNow left. */
  enterRest?(s: UserThreadScheduler, next: UThread): Gen<void>;
}

/** A user-level thread scheduler with create and park written out for a library's own generators. */
export interface FastUserThreadScheduler extends UserThreadScheduler {
  /**
   * A new ready thread running `body`, then `exit(t, body's result)` (the library's exit work,
   * e.g. its last switch out) in the same thread: create with a wrapping generator, but every
   * switch in and out passes one generator level fewer.
   */
  createWithExit?(body: ThreadBody, exit: (t: RuntimeThread, result: unknown) => Gen<unknown>): UThread;
  /**
   * park written out for a library's own generator (one generator level fewer per switch):
   * parkOut makes park's checks and returns the value to `yield`, or undefined when `me` is the
   * LWP's own stack (then `yield* park(me)`); after the yield, call parkBack(me, resumed) in a
   * `finally` (resumed false when the yield completed abruptly):
   * `let ok = false; try { yield v; ok = true; } finally { s.parkBack(me, ok); }`
   */
  parkOut?(me: UThread): unknown;
  /** The second half of parkOut (see there). */
  parkBack?(me: UThread, resumed: boolean): void;
}
