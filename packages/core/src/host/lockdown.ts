/**
 * Locks down the realm that will run foreign code: Hardened JavaScript's lockdown() freezes every
 * intrinsic (so nothing a workload or plugin changes can reach another run) and tames the Function
 * constructors, Date and Math.random inside compartments.
 *
 * Import this module FIRST in a sandbox entry point, before anything that imports the simulator:
 * inversify loads reflect-metadata, which adds methods to the global Reflect. After lockdown the
 * start compartment's `Reflect` binding is still writable, so it gets an extensible copy of the
 * frozen Reflect (hardened once reflect-metadata has loaded, by the sandbox's hardenReachable); compartments
 * keep the real, frozen one.
 */
import "ses";

lockdown({
  // compartments see no stack text (it would name the host's files); the host reads stacks with
  // getStackString (blame, --verbose)
  errorTaming: "safe",
  consoleTaming: "unsafe",
  stackFiltering: "verbose",
  // the host reports its own errors (one line each); SES must not exit the process or the worker
  errorTrapping: "none",
  unhandledRejectionTrapping: "none",
});

const reflectCopy: Record<PropertyKey, unknown> = {};
for (const key of Reflect.ownKeys(Reflect)) if (key !== Symbol.toStringTag) reflectCopy[key] = (Reflect as unknown as Record<PropertyKey, unknown>)[key];
(globalThis as { Reflect: unknown }).Reflect = reflectCopy;

export const LOCKED_DOWN = true;
