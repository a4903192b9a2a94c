/**
 * Where a user-level thread library's sigprocmask goes (shared by the ngpt and libc-r plugins):
 * the rt_sigprocmask system call, or — when the user-sigmask plugin is in the stack — stores into
 * the registered user page. That plugin publishes its ABI in k.ext["user-sigmask"], so the thread
 * libraries need no package dependency on it.
 */
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

/** The mask after sigprocmask(how, set) on `old` (lists of signal numbers, ascending). */
export function applyHow(old: number[], how: 0 | 1 | 2, set: number[]): number[] {
  const s = new Set(how === 2 ? [] : old);
  for (const sig of set) {
    if (sig === 9 || sig === 19 || sig < 1 || sig > 64) continue;
    if (how === 1) s.delete(sig);
    else s.add(sig);
  }
  return [...s].sort((a, b) => a - b);
}
