/**
 * Where a user-level thread library's sigprocmask goes (shared by the ngpt and libc-r plugins):
 * the rt_sigprocmask system call, or — when the user-sigmask plugin is in the stack — stores into
 * the registered user page. That plugin publishes its ABI in k.ext["user-sigmask"], so the thread
 * libraries need no package dependency on it.
 */
import { Sigset } from "../kernel/sigset.js";
import type { Gen } from "./gate.js";
import type { ThreadImpl } from "./thread.js";

export interface UserSigmaskAbi {
  /** sigprocmask through the page (loads/stores; an unblocking store checks the pending word) */
  sigprocmask(th: ThreadImpl, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
}

export function userSigmask(th: ThreadImpl): UserSigmaskAbi | undefined {
  return th.kernel.ext["user-sigmask"] as UserSigmaskAbi | undefined;
}

/** Set (or with `set` null, read) the calling LWP's mask; returns the old mask. */
export function* setMask(th: ThreadImpl, how: 0 | 1 | 2, set: number[] | null): Gen<number[]> {
  const abi = userSigmask(th);
  if (abi) return yield* abi.sigprocmask(th, how, set);
  const r = yield* th.sigprocmask(how, set as number[]);
  return typeof r === "number" ? [] : r;
}

/** Every signal but SIGKILL and SIGSTOP (sigfillset, as the kernel stores it). */
export const ALL_SIGNALS: number[] = Array.from({ length: 64 }, (_, i) => i + 1).filter((s) => s !== 9 && s !== 19);

/** setMask with bit sets: the rt_sigprocmask path without list conversions (the page ABI takes lists). */
export function* setMaskSet(th: ThreadImpl, how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset> {
  const abi = userSigmask(th);
  if (abi) return Sigset.of(yield* abi.sigprocmask(th, how, set ? set.toList() : null));
  const r = yield* th.sigprocmaskSet(how, set);
  return typeof r === "number" ? new Sigset() : r;
}

/** ALL_SIGNALS as a bit set (treat as read-only). */
export const ALL_SIGNALS_SET: Sigset = Sigset.of(ALL_SIGNALS);

/** The mask after sigprocmask(how, set) on `old`: a new set, SIGKILL and SIGSTOP never in it. */
export function applyHowSet(old: Sigset, how: 0 | 1 | 2, set: Sigset): Sigset {
  const s = how === 2 ? set.clone() : old.clone();
  if (how === 0) s.or(set);
  else if (how === 1) s.andNot(set);
  s.dropUnblockable();
  return s;
}
