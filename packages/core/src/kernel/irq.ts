/**
 * Interrupts as this CPU takes them (arch/i386/kernel/irq.c do_IRQ, entry.S's interrupt entry,
 * ret_from_intr; the local APIC's and the IPIs' handlers): every interrupt due fires at the first
 * op boundary where the CPU runs kernel code with IF=1 (Executor.irqHook), or at a user-mode
 * instruction boundary; an idle CPU halts (hlt) until the next one.
 */
import type { KernelCore } from "./core.js";
import { pathRefs } from "./path-refs.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["restore_all_kernel"]);

/** Fire every event that is due (the interrupt handlers' bodies). Returns how many fired. */
function fireDue(k: KernelCore): number {
  let n = 0;
  const q = k.cpu.queue;
  while (q.length && q[0]!.at <= k.ex.cycles) {
    const ev = q.shift()!;
    k.ex.nextEvent = q.length ? q[0]!.at : Infinity;
    k.run(ev.kind === "timer" ? (k.ncpus > 1 ? "smp_apic_timer_interrupt" : "IRQ0x00_interrupt") : ev.kind === "ipi" ? "reschedule_interrupt" : "device_interrupt");
    k.count(ev.kind === "timer" ? "irq.timer" : ev.kind === "ipi" ? "irq.ipi" : "irq.device");
    ev.fire();
    n++;
  }
  return n;
}

/** Interrupt taken at an op boundary of a kernel path (IF=1): runs and returns to the path. */
export function takeInterruptInKernel(k: KernelCore): void {
  const IF = k.cpu.IF, cpl = k.cpu.cpl;
  k.cpu.cpl = 0;
  fireDue(k);
  k.run(P["restore_all_kernel"]);
  k.cpu.IF = IF;
  k.cpu.cpl = cpl;
}

/** Interrupt taken in user mode: runs the handlers; the caller then runs the exit work. */
export function takeInterruptInUser(k: KernelCore): void {
  k.cpu.cpl = 0;
  k.cpu.IF = 0;
  fireDue(k);
}

/** Advance an idle CPU to the next event (cpu_idle's hlt). Returns false when nothing can ever happen again. */
export function idleUntilEvent(k: KernelCore): boolean {
  const q = k.cpu.queue;
  if (!q.length) return false;
  const ev = q[0]!;
  const at = ev.at;
  const halted = at > k.ex.cycles;
  if (halted) {
    // an IPI that reaches a halted CPU: the part of the wait it spent on the wire is its own phase
    const idle = at - k.ex.cycles;
    const wire = ev.wire !== undefined ? Math.min(idle, ev.wire) : 0;
    if (idle > wire) k.ex.chargeRaw(k.path("idle").phaseIdx, idle - wire);
    if (wire > 0) k.ex.chargeRaw(k.phases.id("smp.ipi"), wire);
  }
  k.cpu.cpl = 0;
  k.cpu.IF = 1;
  // the SMP kernel's idle CPU leaves hlt for the interrupt (default_idle: sti; hlt)
  if (halted && k.ncpus > 1 && Number.isFinite(k.profile.costs.hlt_exit)) k.run("hlt_exit");
  fireDue(k);
  return true;
}

/** Any events other than the periodic tick? (to detect deadlock) */
export function hasNonTimerEvents(k: KernelCore): boolean {
  return k.cpus.some((c) => c.queue.some((e) => e.kind !== "timer"));
}
