/**
 * (No Linux counterpart: where Linux's schedule() switches stacks, a simulator generator yields.)
 * What the simulator's generators yield to the run loop (runner/run-workload.ts: drive). Kernel
 * code that may sleep or switch tasks, and every user-mode operation, is a generator of type Gen.
 */

/** A simulated operation: call it with `yield*`. */
export type Gen<T> = Generator<unknown, T, unknown>;

/** What a generator yields to the run loop: "another task is current now". */
export const SWITCH = Object.freeze({ switch: true });
/** What a generator yields to the run loop on SMP: "let the CPUs behind this one catch up". */
export const SMP_SYNC = Object.freeze({ sync: true });
