/**
 * Linux 2.4 signals: generation (send_sig_info, force_sig_info), dequeue, delivery (do_signal,
 * handle_signal, setup_frame/setup_rt_frame) and return (sys_sigreturn/sys_rt_sigreturn),
 * following kernel/signal.c and arch/i386/kernel/signal.c.
 */
import { EV } from "./events.js";
import { TALLY } from "./tallies.js";
import type { Kernel } from "./kernel.js";
import { NSIG, SIGKILL, SIGRTMIN, SIGSTOP, Sigset } from "./sigset.js";
import { PT_PTRACED } from "./ptrace.js";
import { kick_if_running } from "./smp.js";

const SIGCONT = 18;
import { SignalFrameK, type FrameSigContextK, type SigAction, type SigInfoK, type Task } from "./task.js";

// the ABI's constants are the plugin API's (the values plugins see are the kernel's own)
export { SA_SIGINFO, SA_NOFP, SA_RESTORER, SA_ONSTACK, SA_RESTART, SA_NODEFER, SA_RESETHAND, SI_USER, SI_QUEUE, SI_TKILL, SEGV_ACCERR, SIGFRAME_BYTES, RT_SIGFRAME_BYTES, ERESTARTSYS, ERESTARTNOINTR, ERESTARTNOHAND, EINTR, EAGAIN, ESRCH, EINVAL, EFAULT, ENOMEM } from "@siglab/plugin-api";
import { SA_NODEFER, SA_ONSTACK, SA_RESETHAND, SA_RESTART, SA_RESTORER, SA_SIGINFO, SI_USER, SEGV_ACCERR, SIGFRAME_BYTES, RT_SIGFRAME_BYTES, ERESTARTSYS, ERESTARTNOINTR, ERESTARTNOHAND, EINTR, EAGAIN, ESRCH, EINVAL, EFAULT, ENOMEM } from "@siglab/plugin-api";
import { pathRefs } from "./path-refs.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["dequeue_signal", "dequeue_signal.collect", "dequeue_signal.unlock", "do_signal", "do_signal.action", "do_signal.deliver", "do_signal.ptrace_stop", "handle_signal_mask", "send_sig_info", "send_sig_info.probe", "setup_frame", "setup_frame.regs", "setup_frame.tail", "setup_frame_retcode", "setup_rt_frame", "setup_rt_frame.regs", "setup_rt_frame.tail", "signal_wake_up", "sigqueue_alloc", "sys_kill", "sys_rt_sigprocmask", "sys_rt_sigreturn", "sys_sigaction", "sys_sigreturn"]);

/** max_queued_signals (2.4, system-wide) */
export const MAX_QUEUED_SIGNALS = 1024;

/** Signals whose default action is to ignore them (2.4 sig_kernel_ignore). */
const DEFAULT_IGNORE = new Set([17, 18, 23, 28]); // SIGCHLD, SIGCONT, SIGURG, SIGWINCH

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
export function send_sig_info(k: Kernel, sig: number, info: SigInfoK, t: Task): number {
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
export function force_sig_info(k: Kernel, sig: number, info: SigInfoK, t: Task): number {
  const a = t.sig.action[sig]!;
  if (a.handler === "ignore") a.handler = "default";
  t.blocked.del(sig);
  k.recalcSigpending(t);
  return send_sig_info(k, sig, info, t);
}

/** dequeue_signal: lowest unblocked pending signal, with its siginfo. */
export function dequeue_signal(k: Kernel, t: Task, mask: Sigset): { sig: number; info: SigInfoK } | null {
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

export type SignalAction =
  | { kind: "none" }
  | { kind: "handler"; frame: SignalFrameK; action: SigAction }
  | { kind: "terminate"; sig: number }
  /** a traced task must stop first (ptrace_signal_stop), then call do_signal again with what the tracer left */
  | { kind: "trace"; sig: number; info: SigInfoK };

/**
 * do_signal + handle_signal: dequeue one signal and act on it. For a handler, build the frame and
 * point the saved user context at the handler (the runtime then runs it).
 * `syscallResult` is the interrupted syscall's return value (for restart rules) or undefined.
 */
export function do_signal(k: Kernel, t: Task, syscallResult: number | undefined, syscallEip: number, resumed?: { sig: number; info: SigInfoK } | null): SignalAction {
  // `resumed`: back from a ptrace stop, with the signal the tracer left (or null: none, go on)
  if (resumed === undefined) k.runRef(P["do_signal"]);
  let fromTracer = resumed ?? null;
  for (;;) {
    let d: { sig: number; info: SigInfoK } | null = fromTracer;
    if (!d) {
      k.runRef(P["dequeue_signal"]);
      d = dequeue_signal(k, t, k.deps.maskStore.deliveryBlocked?.(k, t) ?? k.blockedOf(t));
      if (d) k.runRef(P["dequeue_signal.collect"]);
      k.runRef(P["dequeue_signal.unlock"]);
    }
    const traced = fromTracer === null && d !== null && (t.ptrace & PT_PTRACED) !== 0 && d.sig !== SIGKILL;
    fromTracer = null;
    if (traced && d) {
      // "Let the debugger run": stop before acting on the signal (the caller stops and comes back)
      k.runRef(P["do_signal.ptrace_stop"]);
      return { kind: "trace", sig: d.sig, info: d.info };
    }
    if (!d) {
      // "Did we come from a system call? Restart the system call - no handlers present"
      if (syscallResult !== undefined) {
        const r = -syscallResult;
        if (r === ERESTARTNOHAND || r === ERESTARTSYS || r === ERESTARTNOINTR) {
          t.regs.eip = syscallEip - 2;
          k.count("signals.syscall_restarts");
        }
      }
      return { kind: "none" };
    }
    const { sig, info } = d;
    k.runRef(P["do_signal.action"]);
    const ka = t.sig.action[sig]!;
    if (ka.handler === "ignore") continue;
    if (ka.handler === "default") {
      if (DEFAULT_IGNORE.has(sig) || sig === SIGSTOP) continue; // job control stop not modelled
      return { kind: "terminate", sig };
    }
    k.tally(TALLY.signals_delivered);
    k.runRef(P["do_signal.deliver"]);
    // handle_signal: restart rules when we came from a system call
    if (syscallResult !== undefined) {
      const r = -syscallResult;
      if (r === ERESTARTNOHAND || (r === ERESTARTSYS && !(ka.flags & SA_RESTART))) t.regs.eax = -EINTR;
      else if (r === ERESTARTSYS || r === ERESTARTNOINTR) {
        t.regs.eip = syscallEip - 2; // re-execute int $0x80
        k.count("signals.syscall_restarts");
      }
    }
    const frame = setup_frame(k, t, sig, info, ka);
    // handle_signal: SA_ONESHOT, then the handler's mask (2.4: NODEFER also skips sa_mask)
    k.runRef(P["handle_signal_mask"]);
    if (ka.flags & SA_RESETHAND) t.sig.action[sig] = { handler: "default", flags: 0, mask: new Sigset() };
    if (!(ka.flags & SA_NODEFER)) {
      t.blocked.or(ka.mask);
      t.blocked.add(sig);
      t.blocked.dropUnblockable();
      k.recalcSigpending(t);
    }
    return { kind: "handler", frame, action: ka };
  }
}

function sigcontextOf(t: Task, k: Kernel): FrameSigContextK {
  const r = t.regs;
  return {
    eax: r.eax, ebx: r.ebx, ecx: r.ecx, edx: r.edx, esi: r.esi, edi: r.edi, ebp: r.ebp,
    esp: r.esp, eip: r.eip, eflags: r.eflags,
    trapno: t.fault.trapno,
    err: t.fault.err,
    cr2: t.fault.cr2,
    oldmask: t.blocked.lo,
  };
}

/** setup_frame / setup_rt_frame: build the frame on the user stack (or the altstack). */
export function setup_frame(k: Kernel, t: Task, sig: number, info: SigInfoK, ka: SigAction): SignalFrameK {
  const rt = (ka.flags & SA_SIGINFO) !== 0;
  const size = rt ? RT_SIGFRAME_BYTES : SIGFRAME_BYTES;
  // get_sigframe: SA_ONSTACK switches to the alternate stack unless already on it
  let esp = t.regs.esp;
  if (ka.flags & SA_ONSTACK && t.sas && !(esp - t.sas.sp < t.sas.size)) esp = t.sas.sp + t.sas.size;
  const address = ((esp - size) & ~7) >>> 0;
  const sc = sigcontextOf(t, k);
  // sys_rt_sigsuspend hands do_signal the mask from before the call (&saveset)
  const oldset = t.sigsuspendSaved ?? t.blocked;
  t.sigsuspendSaved = null;
  sc.oldmask = oldset.lo;
  const frame = new SignalFrameK(rt ? "rt_sigframe" : "sigframe", address, size, sig, sc, oldset.clone(), rt ? { ...info } : null, k.profile.features.fxsr);
  k.events.fire(EV["signal.interrupt"], t, frame);
  k.runRef(rt ? P["setup_rt_frame"] : P["setup_frame"]);
  // the frame's bytes are stores to the user stack (write-allocated lines, or around L1 on the P5)
  k.copyTraffic(null, k.foot.user(t.mm.asid, address, size));
  // setup_sigcontext: tmp = save_i387(fpstate) (or a plugin's policy), between the registers and oldmask
  k.deps.signalFpu.saveToFrame(k, t, frame, ka);
  k.runRef(rt ? P["setup_rt_frame.tail"] : P["setup_frame.tail"]);
  // bytes of the frame proper (save_i387 counts the 624-byte FP image itself)
  let bytes = size - 624;
  if (ka.flags & SA_RESTORER) bytes -= 8;
  else k.runRef(P["setup_frame_retcode"]);
  k.runRef(rt ? P["setup_rt_frame.regs"] : P["setup_frame.regs"]);
  k.tally(TALLY.bytes_copied, bytes);
  t.mm.putFrame(address, frame);
  // regs->esp = frame; regs->eip = handler; eflags &= ~TF; the handler gets sig in its argument
  t.regs.esp = address;
  t.regs.eip = 0x0804a000 + sig * 16;
  t.regs.eflags &= ~0x100;
  k.events.fire(EV["signal.deliver"], t, frame);
  return frame;
}

/**
 * sys_sigreturn / sys_rt_sigreturn: find the frame at esp, restore the mask, the registers and
 * (through the policy) the FPU state. Returns the restored eax.
 */
export function sys_sigreturn(k: Kernel, t: Task, rt: boolean): number {
  k.runRef(rt ? P["sys_rt_sigreturn"] : P["sys_sigreturn"]);
  const address = (t.regs.esp - (rt ? 4 : 8)) >>> 0;
  const frame = t.mm.frameAt(address);
  if (!frame || frame.kind !== (rt ? "rt_sigframe" : "sigframe")) {
    // bad frame: force SIGSEGV
    k.count("signals.bad_frame");
    force_sig_info(k, 11, { signo: 11, errno: 0, code: SI_USER }, t);
    return 0;
  }
  t.mm.dropFrame(address);
  // restore_sigcontext and the mask read the frame back
  k.copyTraffic(k.foot.user(t.mm.asid, address, frame.size), null);
  touchSignalState(k, t, 0);
  // the mask in the frame: uc_sigmask (rt) or sc.oldmask + extramask; a handler may have edited either
  const blocked = frame.maskToRestore();
  if (!rt && frame.sigcontext.oldmask !== frame.original.sigcontext.oldmask) blocked.lo = frame.sigcontext.oldmask >>> 0;
  blocked.dropUnblockable();
  t.blocked = blocked;
  k.recalcSigpending(t);
  // restore_sigcontext: general registers, eflags user bits (0x40DD5) only
  const sc = frame.sigcontext;
  const r = t.regs;
  r.eax = sc.eax; r.ebx = sc.ebx; r.ecx = sc.ecx; r.edx = sc.edx; r.esi = sc.esi; r.edi = sc.edi; r.ebp = sc.ebp;
  r.esp = sc.esp; r.eip = sc.eip;
  r.eflags = ((r.eflags & ~0x40dd5) | (sc.eflags & 0x40dd5)) >>> 0;
  k.deps.signalFpu.restoreFromFrame(k, t, frame);
  k.events.fire(EV["signal.return"], t, frame);
  k.fpuPool.give(frame.fpImage);
  frame.fpImage = null;
  return r.eax;
}

export function sys_kill(k: Kernel, sender: Task, pid: number, sig: number, code = SI_USER): number {
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

export function sys_rt_sigprocmask(k: Kernel, t: Task, how: number, set: Sigset | null): Sigset | number {
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

export function sys_sigaction(k: Kernel, t: Task, sig: number, act: SigAction | null): number {
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
 * The task_struct lines signal code reads and writes (sigpending and state; sigmask_lock, blocked,
 * pending) and the handler's k_sigaction (sig->action[sig - 1]; 0: none), in this CPU's caches.
 */
function touchSignalState(k: Kernel, t: Task, sig: number): void {
  const m = t.mem;
  if (m === null) return;
  k.touch(m.fields.state, true);
  k.touch(m.fields.signal, true);
  if (sig > 0 && t.sig.mem !== null) k.touch(t.sig.mem.action(sig));
}
