/**
 * Signal delivery and return on i386 (arch/i386/kernel/signal.c): do_signal and handle_signal on
 * the way back to user mode, setup_frame/setup_rt_frame (the frame on the user stack, the FP state
 * through the run's SignalFpuPolicy), and sys_sigreturn/sys_rt_sigreturn. Generation and dequeue
 * are kernel/signal.ts's.
 */
import { SA_NODEFER, SA_ONSTACK, SA_RESETHAND, SA_RESTART, SA_RESTORER, SA_SIGINFO, SI_USER, SIGFRAME_BYTES, RT_SIGFRAME_BYTES, ERESTARTSYS, ERESTARTNOINTR, ERESTARTNOHAND, EINTR } from "@siglab/plugin-api";
import type { KernelCore } from "../../kernel/core.js";
import { EV } from "../../kernel/events.js";
import { pathRefs } from "../../kernel/path-refs.js";
import { DEFAULT_IGNORE, dequeue_signal, force_sig_info, touchSignalState } from "../../kernel/signal.js";
import type { SigInfoK } from "../../kernel/siginfo.js";
import { SIGKILL, SIGSTOP, Sigset } from "../../kernel/sigset.js";
import { schedule } from "../../kernel/sched.js";
import { TALLY } from "../../kernel/tallies.js";
import { PT_PTRACED, type SigAction, type Task } from "../../kernel/task.js";
import type { FrameSigContextK } from "./sigcontext.js";
import type { Gen } from "../../kernel/yields.js";
import { SignalFrameK } from "./sigframe.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["sys_sigsuspend", "dequeue_signal", "dequeue_signal.collect", "dequeue_signal.unlock", "do_signal", "do_signal.action", "do_signal.deliver", "do_signal.ptrace_stop", "handle_signal_mask", "setup_frame", "setup_frame.regs", "setup_frame.tail", "setup_frame_retcode", "setup_rt_frame", "setup_rt_frame.regs", "setup_rt_frame.tail", "sys_rt_sigreturn", "sys_sigreturn"]);

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
export function do_signal(k: KernelCore, t: Task, syscallResult: number | undefined, syscallEip: number, resumed?: { sig: number; info: SigInfoK } | null): SignalAction {
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

function sigcontextOf(t: Task, k: KernelCore): FrameSigContextK {
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
export function setup_frame(k: KernelCore, t: Task, sig: number, info: SigInfoK, ka: SigAction): SignalFrameK {
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
export function sys_sigreturn(k: KernelCore, t: Task, rt: boolean): number {
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

/**
 * sys_rt_sigsuspend (arch/i386/kernel/signal.c): the mask replaced by `mask` until a signal is
 * pending; the old one is kept for the frame (2.4 passes &saveset to do_signal). -EINTR.
 */
export function* sys_rt_sigsuspend(k: KernelCore, t: Task, mask: number[]): Gen<number> {
  k.runRef(P["sys_sigsuspend"]);
  const saved = t.blocked.clone();
  const m = Sigset.of(mask);
  m.dropUnblockable();
  t.blocked = m;
  k.recalcSigpending(t);
  while (!t.sigpending) {
    t.state = "interruptible";
    t.wakeReason = "";
    yield* schedule(k);
  }
  // the frame must save the mask from before sigsuspend (2.4 passes &saveset to do_signal)
  t.sigsuspendSaved = saved;
  return -4; // -EINTR
}
