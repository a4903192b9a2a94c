/**
 * Signal masks for user-level thread libraries (ngpt, libc_r): where a library's sigprocmask goes —
 * the rt_sigprocmask system call, or, when the run has the user-space mask service (the
 * user-sigmask plugin), stores into the registered user page.
 */
import { Sigset } from "./sigset.js";
import type { Gen, RuntimeThread } from "./model.js";

/**
 * sigprocmask as a thread library makes it: set (or with `set` null, read) the calling LWP's mask
 * with `how` (0 SIG_BLOCK, 1 SIG_UNBLOCK, 2 SIG_SETMASK) and return the old mask — through the
 * user-space mask service when the run has one (k.userSigmask), else the rt_sigprocmask system
 * call (whose cycles it charges).
 * @category User space
 */
export function* setMask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]> {
  const svc = th.kernel.userSigmask;
  if (svc) return yield* svc.sigprocmask(th, how, set);
  const r = yield* th.sigprocmask(how, set as number[]);
  return typeof r === "number" ? [] : r;
}

/**
 * setMask with bit sets: the rt_sigprocmask path without list conversions (the page ABI takes
 * lists). Returns the old mask as a new set.
 * @category User space
 */
export function* setMaskSet(th: RuntimeThread, how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset> {
  const svc = th.kernel.userSigmask;
  if (svc) return Sigset.of(yield* svc.sigprocmask(th, how, set ? set.toList() : null));
  const r = yield* th.sigprocmaskSet(how, set);
  return typeof r === "number" ? new Sigset() : r;
}

/**
 * Every signal but SIGKILL and SIGSTOP (sigfillset, as the kernel stores it).
 * @category Signals
 */
export const ALL_SIGNALS: readonly number[] = Object.freeze(Array.from({ length: 64 }, (_, i) => i + 1).filter((s) => s !== 9 && s !== 19));

/**
 * ALL_SIGNALS as a bit set (a fresh copy each call: sets are mutable).
 * @category Signals
 */
export function allSignals(): Sigset {
  return Sigset.of(ALL_SIGNALS);
}

/**
 * The mask after sigprocmask(how, set) on `old` (how: 0 SIG_BLOCK, 1 SIG_UNBLOCK, 2 SIG_SETMASK):
 * a new set, SIGKILL and SIGSTOP never in it.
 * @category Signals
 */
export function applyHowSet(old: Sigset, how: 0 | 1 | 2, set: Sigset): Sigset {
  const s = how === 2 ? set.clone() : old.clone();
  if (how === 0) s.or(set);
  else if (how === 1) s.andNot(set);
  s.dropUnblockable();
  return s;
}
