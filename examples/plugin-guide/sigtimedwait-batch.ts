/**
 * sigtimedwait-batch: collect many queued signals with one system call.
 *
 *   rt_sigtimedwait_batch(set, max, timeoutNs?) -> the signal numbers dequeued (1..max of them),
 *                                                  or -EAGAIN (none in time), -EINTR, -EINVAL
 *
 * Mechanism. Slot 254 is sys_ni_syscall in the 2.4 i386 table (getpid-cache takes 253, aio
 * 245-249). The call is 2.4's sys_rt_sigtimedwait (kernel/signal.c) with a loop around
 * dequeue_signal: the first signal exactly as rt_sigtimedwait takes it (sleeping if none is
 * pending), then up to max-1 more under the same spin_lock_irq, then copy_siginfo_to_user for each.
 *
 * Hazard. Before it sleeps, rt_sigtimedwait unblocks the signals it waits for
 * (sigandsets(&current->blocked, &current->blocked, &these)): send_sig_info wakes a sleeper only
 * for a signal it does not block. unblockWhileWaiting=false forgets that step: the signal stays
 * queued and the caller sleeps on until its timeout. The checker reports a task asleep in the
 * call while a signal it waits for is pending.
 */
import { ContainerModule, EAGAIN, EINTR, EINVAL, Sigset, TOKENS, op, stateKey } from "@siglab/plugin-api";
import type { CreateModule, Gen, InvariantChecker, Kernel, PathDef, PluginManifest, Task } from "@siglab/plugin-api";

export const ID = "sigtimedwait-batch";
export const NR_rt_sigtimedwait_batch = 254;

export const manifest: PluginManifest = {
  id: ID,
  version: "1.0.0",
  apiVersion: "2.0",
  displayName: "rt_sigtimedwait_batch: many signals per system call",
  description: "A new system call (slot 254 of the 2.4 i386 table) that dequeues up to max pending signals of a set in one call, following sys_rt_sigtimedwait. Its hazard: sleeping with the awaited signals still blocked, so that their arrival does not wake the caller.",
  options: {
    unblockWhileWaiting: {
      type: "boolean",
      default: true,
      description: "unblock the awaited signals while sleeping, as sys_rt_sigtimedwait does. false reproduces the hazard: a signal that arrives does not wake the sleeper, which returns at its timeout",
    },
  },
  contributes: ["SyscallContribution", "PathContribution", "InvariantChecker"],
  presets: [
    { id: "batch-lost-wakeup", name: "Batch wait, lost wake-ups", description: "rt_sigtimedwait_batch sleeping with the awaited signals still blocked", stack: [{ id: ID, options: { unblockWhileWaiting: false } }] },
  ],
  main: "dist/index.cjs",
};

/** per task: the set it waits for while it sleeps in the call (what the checker reads) */
const WAITING = stateKey<{ set: Sigset; since: number } | null>(`${ID}.waiting`, () => null);

const complement = (s: Sigset) => new Sigset(~s.lo >>> 0, ~s.hi >>> 0);

function paths(unblock: boolean): PathDef[] {
  const path = (name: string, ops: PathDef["ops"]): PathDef => ({ name, phase: "syscall.body", origin: ID, ops });
  return [
    // the entry part of sys_rt_sigtimedwait, as the core charges it
    path("sys_rt_sigtimedwait_batch", [
      op("sys_rt_sigtimedwait", "put_user", 2, "copy_from_user(&these, uthese, sizeof(these))"),
      op("sys_rt_sigtimedwait", "alu", 4, "sigdelsetmask(&these, sigmask(SIGKILL)|sigmask(SIGSTOP)); signotset(&these)"),
      op("sys_rt_sigtimedwait", "cli", 1, "spin_lock_irq(&current->sigmask_lock)"),
      op("dequeue_signal", "alu", 6, "sig = dequeue_signal(&these, &info)"),
    ]),
    path("rt_sigtimedwait_batch.sleep", [
      ...(unblock ? [op("sys_rt_sigtimedwait", "alu", 4, "oldblocked = current->blocked; sigandsets(&current->blocked, &current->blocked, &these)"), op("recalc_sigpending", "alu", 4)] : []),
      op("sys_rt_sigtimedwait", "sti", 1, "spin_unlock_irq"),
      op("schedule_timeout", "alu", 12, "current->state = TASK_INTERRUPTIBLE; add_timer"),
    ]),
    path("rt_sigtimedwait_batch.wake", [
      op("sys_rt_sigtimedwait", "cli", 1, "spin_lock_irq"),
      op("dequeue_signal", "alu", 6, "sig = dequeue_signal(&these, &info)"),
      op("sys_rt_sigtimedwait", "store", 2, "current->blocked = oldblocked"),
      op("recalc_sigpending", "alu", 4),
    ]),
    // each further signal: one more dequeue_signal (charged with runN)
    path("rt_sigtimedwait_batch.dequeue", [
      op("dequeue_signal", "alu", 6, "next_signal(current, &these)"),
      op("collect_signal", "store", 3, "unlink the sigqueue entry; copy its siginfo"),
      op("collect_signal", "slab_alloc", 1, "kmem_cache_free(sigqueue_cachep, q)"),
      op("recalc_sigpending", "alu", 4),
    ]),
    path("rt_sigtimedwait_batch.unlock", [op("sys_rt_sigtimedwait", "sti", 1, "spin_unlock_irq")]),
    path("rt_sigtimedwait_batch.copy_siginfo", [op("copy_siginfo_to_user", "put_user", 6, "uinfo[i]: si_signo, si_errno, si_code, union fields")]),
  ];
}

/** The system call: a blocking one, so a generator that runs its own paths. */
function sysRtSigtimedwaitBatch(unblock: boolean) {
  return function* (k: Kernel, t: Task, args: unknown[]): Gen<number[] | number> {
    const [set, max, timeoutNs] = args;
    if (!Array.isArray(set) || typeof max !== "number" || !Number.isInteger(max) || max < 1) return -EINVAL;
    if (timeoutNs !== undefined && !(typeof timeoutNs === "number" && timeoutNs >= 0)) return -EINVAL;
    k.run("sys_rt_sigtimedwait_batch");
    const these = Sigset.of(set.map(Number));
    these.dropUnblockable();
    const notThese = complement(these); // dequeue_signal takes the mask of signals to leave alone
    let d = k.signal.dequeue_signal(t, notThese);
    if (!d && timeoutNs !== 0) {
      // none ready: temporarily unblock those we wait for while we sleep, so that we are woken
      const oldblocked = t.blocked.clone();
      if (unblock) {
        t.blocked.andNot(these);
        k.signal.recalc_sigpending(t);
      }
      k.run("rt_sigtimedwait_batch.sleep");
      if (!t.sigpending) {
        if (timeoutNs !== undefined) t.timeoutAt = k.sched.roundUpToTick(k.cycles + Math.ceil((timeoutNs * k.profile.mhz) / 1000));
        t.state = "interruptible";
        t.wakeReason = "";
        t.waitingOn = "rt_sigtimedwait_batch";
        t.setSlot(WAITING, { set: these, since: k.cycles });
        yield* k.sched.schedule(); // schedule_timeout
        t.setSlot(WAITING, null);
        t.timeoutAt = -1;
      }
      k.run("rt_sigtimedwait_batch.wake");
      d = k.signal.dequeue_signal(t, notThese);
      t.blocked = oldblocked;
      k.signal.recalc_sigpending(t);
    }
    if (!d) {
      k.run("rt_sigtimedwait_batch.unlock");
      return t.sigpending ? -EINTR : -EAGAIN;
    }
    // the batch: more signals of the set while the lock is held
    const sigs = [d.sig];
    for (let more; sigs.length < max && (more = k.signal.dequeue_signal(t, notThese)); ) sigs.push(more.sig);
    k.runN("rt_sigtimedwait_batch.dequeue", sigs.length - 1);
    k.run("rt_sigtimedwait_batch.unlock");
    k.runN("rt_sigtimedwait_batch.copy_siginfo", sigs.length);
    k.count(`${ID}.signals`, sigs.length);
    return sigs;
  };
}

/** No task sleeps in rt_sigtimedwait_batch while a signal it waits for is pending. */
class SleepingWithPendingChecker implements InvariantChecker {
  readonly id = `${ID}.sleeping-with-pending`;
  private readonly reported = new WeakSet<object>(); // one finding per sleep

  attach(k: Kernel): void {
    const check = (t: Task) => {
      const w = t.peekSlot(WAITING);
      if (!w || t.state !== "interruptible" || this.reported.has(w)) return;
      const sig = t.pending.firstUnblocked(complement(w.set)); // lowest pending signal of the set
      if (!sig) return;
      this.reported.add(w);
      k.report({
        severity: "error",
        kind: `${ID}.sleeping-with-pending`,
        message: `task ${t.pid} sleeps in rt_sigtimedwait_batch although signal ${sig}, which it waits for, is pending: the signal is still blocked, so send_sig_info did not wake it (it wakes at its timeout)`,
        evidence: { task: t.pid, signal: sig, asleepSince: w.since, cycle: k.cycles, variants: k.variantIds.join(",") },
      });
    };
    const all = () => {
      for (const t of k.tasks.values()) check(t);
    };
    k.events.on("tick", all);
    k.events.on("switch.out", all);
    k.events.on("run.end", all); // a sleeper is never reaped: one asleep when the run stops is still in k.tasks
  }
}

export const createModule: CreateModule = (options) => {
  const unblock = options["unblockWhileWaiting"] !== false;
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.SyscallContribution).toConstantValue({ nr: NR_rt_sigtimedwait_batch, name: "rt_sigtimedwait_batch", blocking: true, handler: sysRtSigtimedwaitBatch(unblock) });
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => paths(unblock) });
    bind(TOKENS.InvariantChecker).toDynamicValue(() => new SleepingWithPendingChecker()); // fresh per run
  });
};
