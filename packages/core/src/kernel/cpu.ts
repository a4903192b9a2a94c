/**
 * One CPU of the machine as the kernel keeps it (Linux 2.4: the per-CPU parts of
 * include/asm-i386/processor.h and kernel/sched.c's aligned_data / schedule_data): its registers
 * and TLB, what it runs, its clock and the interrupts due to it.
 */
import { FpuRegs } from "../machine/fpu.js";
import type { Tlb } from "../machine/tlb.js";
import type { MemoryHierarchy } from "../machine/cache.js";
import type { Task } from "./task.js";

/** An interrupt due to a CPU: a timer tick, a device completion or an IPI. */
export interface SimEvent {
  at: number;
  kind: "timer" | "device" | "ipi";
  seq: number;
  fire: () => void;
  /** an IPI: its cycles on the APIC bus or system bus (the target, halted, spends them in phase smp.ipi) */
  wire?: number;
}

/**
 * One CPU: its registers and TLB, what it runs (current, its own idle task), its clock and the
 * interrupts due to it. The kernel's `cpu`/`current`/`idle` are "this CPU" (smp_processor_id()):
 * the run loop points them at the CPU whose turn it is (Kernel.useCpu).
 */
export class Cpu {
  /** the CPU's cycle counter while it is not the one executing (the executor holds the live one) */
  clock = 0;
  /** interrupts due to this CPU (timer ticks, device completions, IPIs), by time */
  readonly queue: SimEvent[] = [];
  current!: Task;
  idle!: Task;
  /** the task whose pages this CPU's TLB was last refilled for */
  lastUser: Task | null = null;
  /** schedule_data.last_schedule: when this CPU last scheduled (reschedule_idle prefers the oldest idle) */
  lastSchedule = 0;
  /** cpu_tlbstate[cpu].state: LAZY while a kernel thread (idle) borrows the previous mm */
  tlbLazy = false;
  cpl = 3;
  IF = 1;
  /** CR0.TS */
  TS = true;
  /** address space whose page tables CR3 points at */
  cr3 = 0;
  /** whose FPU state is live in the registers (null: none) */
  fpuOwner: Task | null = null;
  readonly fpu = new FpuRegs();
  /** this CPU's caches (null: the profile models none) */
  caches: MemoryHierarchy | null = null;
  constructor(readonly tlb: Tlb, readonly id = 0) {}
}
