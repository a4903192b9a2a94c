/**
 * The invariant checkers of DESIGN §3.5. Each subscribes to kernel events and reports findings
 * with evidence; none of them changes the simulation.
 */
import { userFpuView, I386_XMM_REGS } from "../arch/i386/i387.js";
import type { Kernel } from "../kernel/kernel.js";
import { INT_REGS, UserRegs } from "../arch/i386/regs.js";
import { SignalSnapshot, type SignalFrameK } from "../arch/i386/sigframe.js";
import type { Task } from "../kernel/task.js";
import { diffFpu, FpuRegs } from "../machine/fpu.js";
import type { InvariantChecker } from "../plugin-api/extension-points.js";

function responsible(k: Kernel): string {
  return k.variantIds.length ? k.variantIds.join(",") : "baseline";
}

/** After sigreturn the interrupted context's registers equal what they were (plus frame edits). */
export class SignalTransparencyChecker implements InvariantChecker {
  readonly id = "signal-transparency";
  /** tasks holding registers sys_sigreturn restored (Task.sigreturnRegs) until back in user mode */
  private pending = 0;
  /**
   * Snapshots of frames that returned, for the next deliveries: no allocation per delivery (a
   * frame a handler leaves by longjmp never returns its snapshot; the garbage collector takes it).
   */
  private readonly free: SignalSnapshot[] = [];

  attach(k: Kernel): void {
    k.events.onOwn("signal.interrupt", (t, frame) => {
      const s = this.free.pop() ?? new SignalSnapshot();
      s.regs.copyFrom(t.regs);
      // only what check() reads (equalsLegacy, diffFpu: x87, XMM0-7, control words): 208 of 1104 bytes
      s.fpu.copyLegacyFrom(userFpuView(k, t));
      s.cycle = k.cycles;
      frame.snapshot = s;
    });
    k.events.onOwn("signal.return", (t, frame) => {
      this.check(k, t, frame);
      const s = frame.snapshot;
      frame.snapshot = undefined;
      if (s && this.free.length < 64) this.free.push(s);
      (t.sigreturnRegs ??= new UserRegs()).copyFrom(t.regs);
      if (!t.sigreturnRegsPending) {
        t.sigreturnRegsPending = true;
        this.pending++;
      }
    });
    // the exit after sigreturn must hand user mode what sigreturn restored (an iret does; a
    // fast exit that does not reload pt_regs, e.g. SYSEXIT, would not); guarded: it acts only
    // with sigreturnRegsPending set (events.ts returnWork)
    k.events.onOwnGuarded("return.user", (t, intoHandler) => {
      if (this.pending === 0 || !t.sigreturnRegsPending) return;
      t.sigreturnRegsPending = false;
      this.pending--;
      // sigreturn's exit delivered another signal: user mode gets that handler's frame, and the
      // restored registers come back (checked again) at that handler's own sigreturn
      if (intoHandler) return;
      this.checkExit(k, t, t.sigreturnRegs!);
    });
  }

  private checkExit(k: Kernel, t: Task, want: UserRegs): void {
    if (t.regs.intEquals(want)) return;
    for (const r of INT_REGS) {
      if (t.regs[r] === want[r]) continue;
      k.report({
        severity: "error",
        kind: "int-register-corruption",
        message: `${r} of task ${t.pid} was not returned to user mode as sigreturn restored it: expected ${want[r]}, got ${t.regs[r]}`,
        evidence: { task: t.pid, register: r, expected: want[r], actual: t.regs[r], path: "return to user mode after sys_sigreturn", entry: k.deps.entry.id, variants: responsible(k), cycle: k.cycles },
      });
    }
  }

  private check(k: Kernel, t: Task, frame: SignalFrameK): void {
    const snap = frame.snapshot;
    if (!snap) return;
    // integer registers: expected = value at interruption unless the handler edited the frame
    const sc = frame.sigcontext, osc = frame.original.sigcontext;
    const intClean =
      sc.eax === osc.eax && sc.ebx === osc.ebx && sc.ecx === osc.ecx && sc.edx === osc.edx && sc.esi === osc.esi && sc.edi === osc.edi && sc.ebp === osc.ebp && t.regs.intEquals(snap.regs);
    if (!intClean) for (const r of INT_REGS) {
      const edited = frame.sigcontext[r] !== frame.original.sigcontext[r];
      const expected = edited ? frame.sigcontext[r] : snap.regs[r];
      if (t.regs[r] !== expected) {
        k.report({
          severity: "error",
          kind: "int-register-corruption",
          message: `${r} of task ${t.pid} changed across signal ${frame.sig}: expected ${expected}, got ${t.regs[r]}`,
          evidence: { task: t.pid, signal: frame.sig, register: r, expected, actual: t.regs[r], path: "sys_sigreturn/restore_sigcontext", variants: responsible(k), cycle: k.cycles },
        });
      }
    }
    // FPU/SSE: apply the handler's edits of the frame's FP image to the snapshot
    // only a materialised view can have been edited; otherwise the snapshot is the expectation
    const fs = frame.materialisedView(), orig = frame.original.fpstate;
    const expected = fs && orig ? snap.fpu.clone() : snap.fpu;
    if (fs && orig) {
      for (let i = 0; i < 8; i++) if (fs.st[i] !== orig.st[i]) expected.st[i] = fs.st[i]!;
      if (fs.cw !== orig.cw) expected.fcw = fs.cw;
      if (fs.xmm && orig.xmm) {
        for (let i = 0; i < fs.xmm.length; i++) {
          for (let l = 0; l < 4; l++) if (fs.xmm[i]![l] !== orig.xmm[i]![l]) expected.xmm[i * 4 + l] = fs.xmm[i]![l]! >>> 0;
        }
      }
      if (fs.mxcsr !== orig.mxcsr && fs.mxcsr !== undefined) expected.mxcsr = (fs.mxcsr & 0xffbf) >>> 0;
    }
    const actual = userFpuView(k, t);
    if (expected === snap.fpu && actual.equalsLegacy(expected)) return; // what an i386 frame carries
    const diffs = diffFpu(expected, actual, Math.min(I386_XMM_REGS, k.profile.xmmRegs), k.profile.features.sse, false);
    for (const d of diffs) {
      k.report({
        severity: "error",
        kind: "fpu-corruption",
        message: `${d.reg} of task ${t.pid} was corrupted across signal ${frame.sig} (handler state leaked into the interrupted context)`,
        evidence: {
          task: t.pid,
          signal: frame.sig,
          register: d.reg,
          expected: d.expected,
          actual: d.actual,
          fpstateInFrame: frame.hasFp(),
          path: "sys_sigreturn",
          fpuPolicy: k.deps.signalFpu.id,
          variants: responsible(k),
          cycle: k.cycles,
        },
      });
    }
    if (diffs.length) k.count("findings.fpu_corruption");
  }
}

/** A context switch is transparent for every task's FPU state. */
export class SwitchTransparencyChecker implements InvariantChecker {
  readonly id = "switch-transparency";

  attach(k: Kernel): void {
    k.events.onOwn("switch.out", (t) => {
      if (t === k.idle || t.state === "zombie") return;
      // a task that is switched out again before it ran (a zombie's last switch has none) keeps one
      if (t.usedMath || t.usedFpu) (t.switchSnapshot ??= this.take()).copyFrom(userFpuView(k, t));
      else this.give(t.switchSnapshot), (t.switchSnapshot = null);
    });
    k.events.onOwn("switch.in", (t) => {
      const snap = t.switchSnapshot;
      if (!snap) return;
      t.switchSnapshot = null;
      this.compare(k, t, snap);
      this.give(snap);
    });
  }

  /** register files of tasks that were switched back in, for the next switch-outs */
  private readonly free: FpuRegs[] = [];
  private take(): FpuRegs {
    return this.free.pop() ?? new FpuRegs();
  }
  private give(f: FpuRegs | null): void {
    if (f && this.free.length < 64) this.free.push(f);
  }

  private compare(k: Kernel, t: Task, snap: FpuRegs): void {
    const now = userFpuView(k, t);
    // diffFpu compares a part of what equalsLegacy does: equal there, nothing to report
    if (now.equalsLegacy(snap)) return;
    const diffs = diffFpu(snap, now, Math.min(I386_XMM_REGS, k.profile.xmmRegs), k.profile.features.sse, false);
    for (const d of diffs) {
      k.report({
        severity: "error",
        kind: "switch-fpu-corruption",
        message: `${d.reg} of task ${t.pid} changed while it was switched out`,
        evidence: { task: t.pid, register: d.reg, expected: d.expected, actual: d.actual, fpuPolicy: k.deps.switchFpu.id, variants: responsible(k), cycle: k.cycles },
      });
    }
  }
}

/** A blocked signal is never delivered. */
export class BlockedSignalChecker implements InvariantChecker {
  readonly id = "blocked-signal";

  attach(k: Kernel): void {
    k.events.onOwn("signal.interrupt", (t, frame) => {
      const sig = frame.sig;
      // the mask the program set: task->blocked, plus a user-space mask where a plugin keeps one
      const userMask = t.userMask;
      if (t.blocked.has(sig) || userMask?.has(sig)) {
        k.report({
          severity: "error",
          kind: "blocked-signal-delivered",
          message: `signal ${sig} was delivered to task ${t.pid} while it was blocked`,
          evidence: { task: t.pid, signal: sig, blocked: t.blocked.toList(), maskStore: k.deps.maskStore.id, variants: responsible(k), cycle: k.cycles },
        });
      }
    });
  }
}

/**
 * A pending unblocked signal (or a pending reschedule) is acted on before the return to user mode;
 * otherwise the delay until it is acted on is reported as a warning.
 */
export class DelayedWorkChecker implements InvariantChecker {
  readonly id = "delayed-work";

  attach(k: Kernel): void {
    // guarded: it acts only with work pending and no delay being timed (events.ts returnWork)
    k.events.onOwnGuarded("return.user", (t, intoHandler) => {
      if (intoHandler) return; // 2.4 delivers one signal per return by design (the next at sigreturn)
      const sig = t.sigpending && t.pending.anyUnblocked(k.blockedOf(t));
      if ((sig || t.needResched) && t.delayedSince < 0) {
        t.delayedSince = k.cycles;
        t.delayedKind = sig ? "signal" : "reschedule";
        k.count("checks.returned_with_work");
      }
    });
    const settle = (t: Task, what: string) => {
      if (t.delayedSince < 0) return;
      const delay = k.cycles - t.delayedSince;
      k.report({
        severity: "warning",
        kind: t.delayedKind === "signal" ? "delayed-signal" : "delayed-reschedule",
        message: `task ${t.pid} returned to user mode with a pending ${t.delayedKind}; it was acted on ${delay} cycles later (${what})`,
        evidence: { task: t.pid, delayCycles: delay, delayUs: delay / k.profile.mhz, since: t.delayedSince, variants: responsible(k) },
      });
      t.delayedSince = -1;
    };
    k.events.onOwn("signal.deliver", (t) => settle(t, "at the next kernel entry"));
    k.events.onOwn("switch.out", (t) => {
      if (t.delayedKind === "reschedule") settle(t, "at the next schedule()");
    });
  }
}

/** No signal that POSIX says must be queued (RT signals) is lost. */
export class LostSignalChecker implements InvariantChecker {
  readonly id = "lost-signal";
  private queued = 0;
  private consumed = 0;

  attach(k: Kernel): void {
    k.events.onOwn("signal.queued", (_t, sig, queued) => {
      if (sig >= 32 && queued) this.queued++;
    });
    k.events.onOwn("signal.dequeue", (_t, sig) => {
      if (sig >= 32) this.consumed++;
    });
    k.events.onOwn("run.end", () => {
      let stillPending = 0;
      for (const t of k.tasks.values()) stillPending += t.queue.filter((q) => q.sig >= 32).length;
      const lost = this.queued - this.consumed - stillPending;
      if (lost > 0) {
        k.report({
          severity: "error",
          kind: "lost-signal",
          message: `${lost} queued real-time signal(s) were lost`,
          evidence: { queued: this.queued, delivered: this.consumed, stillPending, variants: responsible(k) },
        });
      }
    });
  }
}

export const CORE_CHECKERS: (() => InvariantChecker)[] = [
  () => new SignalTransparencyChecker(),
  () => new SwitchTransparencyChecker(),
  () => new BlockedSignalChecker(),
  () => new DelayedWorkChecker(),
  () => new LostSignalChecker(),
];
