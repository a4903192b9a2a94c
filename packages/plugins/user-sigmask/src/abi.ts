/**
 * The user page and its ABI. Layout (three 32-bit words): the blocked mask (signals 1-32, 33-64)
 * and the pending word the kernel sets while a signal it parked waits. Registration and
 * collection are two new system calls (numbers of this plugin, not of any Linux kernel; Knight's
 * 2006 patch used a new rt_sigprocmask `how` instead).
 */
import { Sigset, stateKey, type Gen, type RuntimeThread, type Task, type UserSigmaskService } from "@siglab/plugin-api";

export const NR_USER_SIGMASK_REGISTER = 496;
export const NR_USER_SIGMASK_COLLECT = 497;
/** word offsets in the page */
export const MASK_LO = 0;
export const MASK_HI = 4;
export const PENDING = 8;

/** Per-task registration (task->sigmask_uptr). */
export interface Registration {
  addr: number;
}

/** per task: task->sigmask_uptr (null: no page registered) */
export const REGISTRATION = stateKey<Registration | null>("user-sigmask.registration", () => null);

export function registrationOf(t: Task): Registration | null {
  return t.peekSlot(REGISTRATION) ?? null;
}

/** The mask words as they are in the page now (no cost: for checkers and for the kernel's read). */
export function rawUserMask(t: Task, reg: Registration): Sigset {
  const s = new Sigset((t.mm.words.get(reg.addr + MASK_LO) ?? 0) >>> 0, (t.mm.words.get(reg.addr + MASK_HI) ?? 0) >>> 0);
  s.dropUnblockable();
  return s;
}

export function rawPendingWord(t: Task, reg: Registration): number {
  return t.mm.words.get(reg.addr + PENDING) ?? 0;
}

/** What a thread library (or a workload through the plugin's syscalls) uses. */
export class UserSigmaskAbi implements UserSigmaskService {
  readonly id = "user-sigmask";

  /** Register a page for the caller's task the first time (one mmap, one registration syscall). */
  *ensureRegistered(th: RuntimeThread): Gen<Registration> {
    const have = registrationOf(th.task);
    if (have) return have;
    const addr = yield* th.mmap(4096, 3);
    if (addr < 0) throw new Error(`user-sigmask: mmap of the mask page failed (${addr})`);
    const r = (yield* th.syscall(NR_USER_SIGMASK_REGISTER, addr)) as number;
    if (r < 0) throw new Error(`user-sigmask: registering the mask page failed (${r})`);
    return registrationOf(th.task)!;
  }

  /**
   * sigprocmask through the page: load the old words, store the new ones; after a store that
   * unblocks something, load the pending word and, if set, enter the kernel to collect.
   */
  *sigprocmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]> {
    const reg = yield* this.ensureRegistered(th);
    const k = th.kernel;
    const old = new Sigset((yield* th.load(reg.addr + MASK_LO)) >>> 0, (yield* th.load(reg.addr + MASK_HI)) >>> 0);
    if (!set) return old.toList();
    k.step();
    k.run("user_sigmask.lib");
    const s = Sigset.of(set);
    s.dropUnblockable();
    const next = old.clone();
    if (how === 0) next.or(s);
    else if (how === 1) next.andNot(s);
    else next.set(s);
    yield* th.store(reg.addr + MASK_LO, next.lo);
    yield* th.store(reg.addr + MASK_HI, next.hi);
    k.count("user_sigmask.mask_stores");
    const unblocked = old.clone();
    unblocked.andNot(next);
    if (!unblocked.isEmpty()) {
      if ((yield* th.load(reg.addr + PENDING)) !== 0) {
        k.count("user_sigmask.collects");
        yield* th.syscall(NR_USER_SIGMASK_COLLECT);
      }
    }
    return old.toList();
  }
}
