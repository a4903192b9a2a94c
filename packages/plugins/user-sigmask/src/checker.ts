/**
 * A parked signal must not be stranded. When the user mask no longer blocks a pending signal but
 * the kernel does not know (sigpending clear) and the page's pending word is not set, nothing will
 * make the library enter the kernel: the signal waits for an unrelated recalc_sigpending. Such a
 * signal is reported as delayed when it is finally delivered, or as lost when the run ends first.
 * (The core's blocked-signal checker covers the other direction through task.userMask.)
 */
import type { InvariantChecker, Kernel, Task } from "@siglab/plugin-api";
import { MASK_HI, MASK_LO, rawPendingWord, rawUserMask, registrationOf } from "./abi.js";

interface Stranded {
  since: number;
  signals: number[];
}

export class ParkedSignalChecker implements InvariantChecker {
  readonly id = "user-sigmask-parked";
  private readonly stranded = new Map<Task, Stranded>();

  attach(k: Kernel): void {
    // a store to the mask words may unblock a parked signal without any kernel entry
    k.events.on("user.store", (t, addr) => {
      const reg = registrationOf(t);
      if (reg && (addr === reg.addr + MASK_LO || addr === reg.addr + MASK_HI)) this.check(k, t);
    });
    k.events.on("return.user", (t, intoHandler) => {
      if (!intoHandler) this.check(k, t);
    });
    k.events.on("tick", (t) => this.check(k, t));
    k.events.on("signal.deliver", (t, frame) => {
      const s = this.stranded.get(t);
      if (!s || !s.signals.includes(frame.sig)) return;
      this.stranded.delete(t);
      const delay = k.cycles - s.since;
      k.report({
        severity: "warning",
        kind: "delayed-signal",
        message: `signal ${frame.sig} to task ${t.pid} was unblocked by a store to the user mask page but delivered only ${delay} cycles later (the kernel learnt of it at an unrelated recalc_sigpending)`,
        evidence: { task: t.pid, signal: frame.sig, delayCycles: delay, delayUs: delay / k.profile.mhz, since: s.since, pendingWord: 0, maskStore: k.policies.maskStore.id, variants: k.variantIds.join(",") || "baseline" },
      });
    });
    // a task that exits, or is still alive when the run ends, with a stranded signal lost it
    k.events.on("switch.out", (t) => {
      if (t.state === "zombie" || t.state === "dead") this.lost(k, t);
    });
    k.events.on("run.end", () => {
      for (const t of k.tasks.values()) if (t.state !== "zombie" && t.state !== "dead") this.lost(k, t);
    });
  }

  private lost(k: Kernel, t: Task): void {
    const sigs = this.deliverable(t);
    if (!sigs.length) return;
    const reg = registrationOf(t)!;
    k.report({
      severity: "error",
      kind: "lost-signal",
      message: `signal(s) ${sigs.join(", ")} to task ${t.pid} were left pending although the user mask no longer blocks them; the kernel never delivered them`,
      evidence: { task: t.pid, signal: sigs[0]!, signals: sigs, pendingWord: rawPendingWord(t, reg), since: this.stranded.get(t)?.since ?? -1, maskStore: k.policies.maskStore.id, variants: k.variantIds.join(",") || "baseline" },
    });
    this.stranded.delete(t);
  }

  /** Pending signals neither mask blocks, while the kernel's sigpending is clear. */
  private deliverable(t: Task): number[] {
    const reg = registrationOf(t);
    if (!reg || t.sigpending) return [];
    const eff = t.blocked.clone();
    eff.or(rawUserMask(t, reg));
    return t.pending.toList().filter((s) => !eff.has(s));
  }

  private check(k: Kernel, t: Task): void {
    if (this.stranded.has(t)) return;
    const sigs = this.deliverable(t);
    if (!sigs.length || rawPendingWord(t, registrationOf(t)!) !== 0) return;
    this.stranded.set(t, { since: k.cycles, signals: sigs });
    k.count("user_sigmask.stranded");
  }
}
