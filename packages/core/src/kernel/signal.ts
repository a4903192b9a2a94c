/**
 * Linux 2.4 signals, the generic part (kernel/signal.c): generation (send_sig_info,
 * force_sig_info, kill), dequeue, the mask (rt_sigprocmask) and the actions (sigaction). Delivery
 * and return, which build and read the i386 frame, are arch/i386/signal.ts's.
 */
import { EV } from "./events.js";
import { TALLY } from "./tallies.js";
import type { KernelCore } from "./core.js";
import { NSIG, SIGKILL, SIGRTMIN, SIGSTOP, Sigset } from "./sigset.js";
import { schedule } from "./sched.js";
import { kick_if_running } from "./smp.js";
import { roundUpToTick } from "./timer.js";
import type { Gen } from "./yields.js";

const SIGCONT = 18;
import type { SigInfoK } from "./siginfo.js";
import { PT_PTRACED, type SigAction, type Task } from "./task.js";

// the ABI's constants are the plugin API's (the values plugins see are the kernel's own)
export { SA_SIGINFO, SA_NOFP, SA_RESTORER, SA_ONSTACK, SA_RESTART, SA_NODEFER, SA_RESETHAND, SI_USER, SI_QUEUE, SI_TKILL, SEGV_ACCERR, SIGFRAME_BYTES, RT_SIGFRAME_BYTES, ERESTARTSYS, ERESTARTNOINTR, ERESTARTNOHAND, EINTR, EAGAIN, ESRCH, EINVAL, EFAULT, ENOMEM } from "@siglab/plugin-api";
import { SI_USER, EAGAIN, ESRCH, EINVAL } from "@siglab/plugin-api";
import type { SignalMaskStore } from "../plugin-api/extension-points.js";
import { pathRefs } from "./path-refs.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["copy_siginfo_to_user", "send_sig_info", "send_sig_info.probe", "signal_wake_up", "sigqueue_alloc", "sys_kill", "sys_rt_sigprocmask", "sys_rt_sigtimedwait", "sys_rt_sigtimedwait.done", "sys_rt_sigtimedwait.none", "sys_rt_sigtimedwait.sleep", "sys_rt_sigtimedwait.take", "sys_rt_sigtimedwait.woken", "sys_sigaction"]);

/** max_queued_signals (2.4, system-wide) */
export const MAX_QUEUED_SIGNALS = 1024;

/** Signals whose default action is to ignore them (2.4 sig_kernel_ignore). */
export const DEFAULT_IGNORE = new Set([17, 18, 23, 28]); // SIGCHLD, SIGCONT, SIGURG, SIGWINCH

function ignoredSignal(t: Task, sig: number): boolean {
  const a = t.sig.action[sig]!;
  // "Don't ignore traced or blocked signals": a tracer sees every signal its tracee gets
  if (t.ptrace & PT_PTRACED || t.blocked.has(sig)) return false;
  return a.handler === "ignore" || (a.handler === "default" && DEFAULT_IGNORE.has(sig));
}

/**
 * send_sig_info: queue `sig` for `t` (RT signals queue every instance; a pending non-RT signal is
 * dropped), wake it if it is unblocked. Returns 0 or -errno.
 */
export function send_sig_info(k: KernelCore, sig: number, info: SigInfoK, t: Task): number {
  if (sig < 1 || sig > NSIG) return -EINVAL;
  if (t.state === "zombie" || t.state === "dead") return -ESRCH;
  k.runRef(P["send_sig_info"]);
  k.tally(TALLY.signals_sent);
  touchSignalState(k, t, sig);
  // handle_stop_signal: SIGKILL and SIGCONT wake a stopped task (and cancel what it stopped with)
  if ((sig === SIGKILL || sig === SIGCONT) && t.stopped) {
    t.stopCode = 0;
    k.wakeStopped(t);
  }
  if (ignoredSignal(t, sig)) {
    k.runRef(P["signal_wake_up"]);
    return 0;
  }
  if (sig < SIGRTMIN && t.pending.has(sig)) {
    // only one instance of a non-RT signal is queued
    k.runRef(P["signal_wake_up"]);
    k.count("signals.coalesced");
    k.events.fire(EV["signal.queued"], t, sig, false);
    return 0;
  }
  const globalQueued = k.queuedSignals;
  if (globalQueued < MAX_QUEUED_SIGNALS) {
    k.runRef(P["sigqueue_alloc"]);
    k.touch(k.foot.sigqueue, true);
    t.queue.push({ sig, info, at: k.cycles });
    k.queuedSignals++;
    k.events.fire(EV["signal.queued"], t, sig, true);
  } else if (sig >= SIGRTMIN && info.code !== SI_USER) {
    k.runRef(P["signal_wake_up"]);
    k.count("signals.queue_overflow");
    return -EAGAIN;
  } else {
    // queue full: only the bit is set, the siginfo is lost
    k.count("signals.queue_overflow");
    k.events.fire(EV["signal.queued"], t, sig, false);
  }
  t.pending.add(sig);
  k.runRef(P["signal_wake_up"]);
  k.lines.touch(k, t.pending, 1); // t->pending and sigmask_lock, last written on t's CPU
  if (!k.blockedOf(t).has(sig)) {
    t.sigpending = true;
    kick_if_running(k, t);
    if (t.state === "interruptible") {
      t.wakeReason = "signal";
      k.wakeUp(t);
    }
  }
  return 0;
}

/** force_sig_info (synchronous faults): SIG_IGN -> SIG_DFL, unblock the signal, then send. */
export function force_sig_info(k: KernelCore, sig: number, info: SigInfoK, t: Task): number {
  const a = t.sig.action[sig]!;
  if (a.handler === "ignore") a.handler = "default";
  t.blocked.del(sig);
  k.recalcSigpending(t);
  return send_sig_info(k, sig, info, t);
}

/** dequeue_signal: lowest unblocked pending signal, with its siginfo. */
export function dequeue_signal(k: KernelCore, t: Task, mask: Sigset): { sig: number; info: SigInfoK } | null {
  const sig = t.pending.firstUnblocked(mask);
  if (!sig) return null;
  touchSignalState(k, t, sig);
  k.events.fire(EV["signal.dequeue"], t, sig);
  // collect_signal: the first queued instance (loops, not findIndex/splice: no closure or array
  // per delivery), and the pending bit stays while another instance is queued
  const q = t.queue;
  let i = 0;
  while (i < q.length && q[i]!.sig !== sig) i++;
  let info: SigInfoK;
  if (i < q.length) {
    info = q[i]!.info;
    for (let j = i + 1; j < q.length; j++) q[j - 1] = q[j]!;
    q.pop();
    k.queuedSignals--;
  } else info = { signo: sig, errno: 0, code: SI_USER };
  let more = false;
  for (let j = i; j < q.length && !more; j++) more = q[j]!.sig === sig;
  if (!more) t.pending.del(sig);
  k.recalcSigpending(t);
  return { sig, info };
}

export function sys_kill(k: KernelCore, sender: Task, pid: number, sig: number, code = SI_USER): number {
  k.runRef(P["sys_kill"]);
  if (sig === 0) {
    const p = k.tasks.get(pid);
    if (!p || p.state === "dead") return -ESRCH;
    k.runRef(P["send_sig_info.probe"]);
    return 0;
  }
  // kill(pid) targets the thread-group leader (2.4: the task with that pid)
  const t = k.tasks.get(pid);
  if (!t || t.state === "dead") return -ESRCH;
  return send_sig_info(k, sig, { signo: sig, errno: 0, code, pid: sender.tgid }, t);
}

export function sys_rt_sigprocmask(k: KernelCore, t: Task, how: number, set: Sigset | null): Sigset | number {
  k.runRef(P["sys_rt_sigprocmask"]);
  const cur = t.blocked;
  if (!set) return cur.clone();
  if (how !== 0 && how !== 1 && how !== 2) return -EINVAL;
  const s = set.clone(); // the caller keeps its set; the kernel's is its own
  s.dropUnblockable();
  let old: Sigset;
  if (how === 2) {
    // SETMASK replaces the set: the old one is the caller's alone from here on (the kernel only
    // ever installs sets of its own and never touches a replaced one), so it needs no copy — a
    // thread library's switch makes several of these
    old = cur;
    t.blocked = s;
  } else {
    old = cur.clone();
    if (how === 0) cur.or(s);
    else cur.andNot(s);
  }
  k.recalcSigpending(t);
  return old;
}

export function sys_sigaction(k: KernelCore, t: Task, sig: number, act: SigAction | null): number {
  k.runRef(P["sys_sigaction"]);
  if (sig < 1 || sig > NSIG || sig === SIGKILL || sig === SIGSTOP) return -EINVAL;
  if (act) {
    t.sig.action[sig] = act;
    // POSIX 3.3.1.3: setting SIG_IGN (or SIG_DFL of an ignored signal) discards pending instances
    if (act.handler === "ignore" || (act.handler === "default" && DEFAULT_IGNORE.has(sig))) {
      for (const task of k.tasks.values()) {
        if (task.sig !== t.sig) continue;
        task.pending.del(sig);
        for (let i = task.queue.length - 1; i >= 0; i--) if (task.queue[i]!.sig === sig) task.queue.splice(i, 1);
        k.recalcSigpending(task);
      }
    }
  }
  return 0;
}

/**
 * sys_rt_sigtimedwait: a signal of `set` dequeued without a handler; when none is pending (and the
 * timeout is not 0), sleep with them unblocked until one comes or the timeout's tick. Returns the
 * signal (its siginfo copied to out.info: copy_siginfo_to_user) or -errno.
 */
export function* sys_rt_sigtimedwait(k: KernelCore, t: Task, set: number[], timeoutNs: number | undefined, out: { info: SigInfoK | null }): Gen<number> {
  // the paths charged follow what the call does: a signal pending at entry is dequeued at
  // once (no sleep, no second search); otherwise the sleep and, woken, the second search
  k.runRef(P["sys_rt_sigtimedwait"]);
  const these = Sigset.of(set);
  these.dropUnblockable();
  const notThese = new Sigset(~these.lo >>> 0, ~these.hi >>> 0);
  let d = dequeue_signal(k, t, notThese);
  k.run(d ? P["sys_rt_sigtimedwait.take"] : P["sys_rt_sigtimedwait.none"]);
  if (!d && timeoutNs !== 0) {
    // temporarily unblock the waited-for signals and sleep
    k.runRef(P["sys_rt_sigtimedwait.sleep"]);
    const saved = t.blocked.clone();
    t.blocked.andNot(these);
    k.recalcSigpending(t);
    if (!t.sigpending) {
      if (timeoutNs !== undefined) t.timeoutAt = roundUpToTick(k, k.cycles + Math.ceil((timeoutNs * k.profile.mhz) / 1000));
      t.state = "interruptible";
      t.wakeReason = "";
      yield* schedule(k);
      t.timeoutAt = -1;
    }
    k.runRef(P["sys_rt_sigtimedwait.woken"]);
    d = dequeue_signal(k, t, notThese);
    k.run(d ? P["sys_rt_sigtimedwait.take"] : P["sys_rt_sigtimedwait.none"]);
    t.blocked = saved;
    k.recalcSigpending(t);
  }
  k.runRef(P["sys_rt_sigtimedwait.done"]);
  if (!d) return t.sigpending ? -4 : -EAGAIN;
  k.runRef(P["copy_siginfo_to_user"]);
  out.info = { ...d.info };
  return d.sig;
}

/** The baseline SignalMaskStore: task->blocked, as 2.4 keeps it. */
export class TaskBlockedMaskStore implements SignalMaskStore {
  readonly id = "core:task-blocked";
  effectiveBlocked(_k: KernelCore, t: Task): Sigset {
    return t.blocked;
  }
}


/**
 * The task_struct lines signal code reads and writes (sigpending and state; sigmask_lock, blocked,
 * pending) and the handler's k_sigaction (sig->action[sig - 1]; 0: none), in this CPU's caches.
 */
export function touchSignalState(k: KernelCore, t: Task, sig: number): void {
  const m = t.mem;
  if (m === null) return;
  k.touch(m.fields.state, true);
  k.touch(m.fields.signal, true);
  if (sig > 0 && t.sig.mem !== null) k.touch(t.sig.mem.action(sig));
}
