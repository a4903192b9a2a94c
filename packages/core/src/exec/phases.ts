/**
 * Phases: every simulated cycle is charged to exactly one. Plugins may add phases; the index is
 * stable within a run so the executor can use an array.
 */
export const CORE_PHASES = [
  "user",
  "syscall.entry",
  "syscall.body",
  "syscall.exit",
  "signal.send",
  "signal.frame",
  "signal.fpu_save",
  "signal.handler",
  "signal.sigreturn",
  "signal.fpu_restore",
  "fpu.nm_trap",
  "sched.schedule",
  "sched.switch_mm",
  "sched.switch_to",
  "fault.page_fault",
  "mm.mprotect",
  "irq.timer",
  "irq.device",
  "pipe.io",
  "libc",
  "idle",
  "cache.code",
  "cache.data",
  "cache.copy",
  "tlb.refill",
  "smp.ipi",
  "smp.hlt_exit",
] as const;

export type CorePhase = (typeof CORE_PHASES)[number];

export class PhaseTable {
  readonly names: string[] = [...CORE_PHASES];
  private readonly index = new Map<string, number>(this.names.map((n, i) => [n, i]));

  id(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(name);
      this.index.set(name, i);
    }
    return i;
  }
}
