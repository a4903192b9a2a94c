/**
 * The kernel side: effective blocked = task->blocked | the user page's mask. The kernel reads the
 * page (a charged __get_user) whenever it decides deliverability in kernel mode — send_sig_info,
 * recalc_sigpending, do_signal — and keeps the page's pending word in step with the signals it
 * parked. Observers (checkers, running in user mode) read the page for free.
 */
import { Sigset, type Kernel, type SignalMaskStore, type Task } from "@siglab/plugin-api";
import { PENDING, rawPendingWord, rawUserMask, registrationOf, type Registration } from "./abi.js";

export interface UserMaskOptions {
  /** maintain the pending word (false: Knight's patch as posted) */
  pendingFlag: boolean;
  /** do_signal re-reads the user mask (false: only recalc_sigpending does; delivery trusts task->blocked) */
  readAtDelivery: boolean;
}

export class UserPageMaskStore implements SignalMaskStore {
  readonly id = "user-sigmask";
  constructor(private readonly opts: UserMaskOptions) {}

  effectiveBlocked(k: Kernel, t: Task): Sigset {
    const reg = registrationOf(t);
    if (!reg) return t.blocked;
    const user = this.read(k, t, reg);
    const eff = t.blocked.clone();
    eff.or(user);
    if (k.cpu.cpl === 0) this.updatePending(k, t, reg, user);
    return eff;
  }

  deliveryBlocked(k: Kernel, t: Task): Sigset {
    const reg = registrationOf(t);
    if (!reg || !this.opts.readAtDelivery) return t.blocked;
    const eff = this.effectiveBlocked(k, t);
    // do_signal's recalc with the mask it just read: a signal blocked by a later store is not "pending" any more
    if (!t.pending.anyUnblocked(eff)) t.sigpending = false;
    return eff;
  }

  /** The page's mask: a charged __get_user when the kernel reads it (kernel mode), free for observers. */
  private read(k: Kernel, t: Task, reg: Registration): Sigset {
    if (k.cpu.cpl === 0) {
      if (t.mm.protOf(reg.addr) === undefined) {
        // the page went away: __get_user faults, the kernel ignores the user mask
        k.count("user_sigmask.read_faults");
        return new Sigset();
      }
      k.run("user_sigmask.get_user");
      k.count("user_sigmask.kernel_reads");
    }
    return rawUserMask(t, reg);
  }

  /** pending word = some signal is pending and blocked only by the user mask (parked). */
  private updatePending(k: Kernel, t: Task, reg: Registration, user: Sigset): void {
    if (!this.opts.pendingFlag) return;
    const onlyUser = user.clone();
    onlyUser.andNot(t.blocked);
    const parked = new Sigset((t.pending.lo & onlyUser.lo) >>> 0, (t.pending.hi & onlyUser.hi) >>> 0);
    const want = parked.isEmpty() ? 0 : 1;
    if (rawPendingWord(t, reg) === want || t.mm.protOf(reg.addr) === undefined) return;
    k.run("user_sigmask.put_user");
    t.mm.words.set(reg.addr + PENDING, want);
    if (want) k.count("user_sigmask.parked");
  }
}
