/**
 * The paths only an SMP kernel (CONFIG_SMP) runs, from Linux 2.4.22: the reschedule and TLB-flush
 * IPIs (arch/i386/kernel/smp.c), the local APIC timer (apic.c), 2.4's SMP reschedule_idle
 * (kernel/sched.c) and the cost of a cache line another CPU modified. The lock-prefixed atomics
 * every other path gains on SMP are added by smpKernelPath (smp-kernel.ts).
 */
import type { OpClass, SmpOpClass } from "@siglab/plugin-api";
import { op as opLine, type OpLine, type PathDef } from "../../../exec/path.js";

/** An op line of the SMP kernel: the SMP op classes (API 2.2) are for core paths only. */
function op(fn: string, opClass: OpClass | SmpOpClass, n = 1, note?: string): OpLine {
  return opLine(fn, opClass as OpClass, n, note);
}

export const SMP_PATHS: PathDef[] = [
  {
    // reschedule_idle, SMP part: the woken task's last CPU first, else the least recently active
    // idle CPU, else the running task it preempts most (one iteration per CPU: smp.reschedule_idle.cpu)
    name: "smp.reschedule_idle",
    phase: "sched.schedule",
    ops: [
      op("reschedule_idle", "alu", 4, "best_cpu = p->processor; can_schedule(p, best_cpu); cpu_curr(best_cpu) == idle_task(best_cpu)?"),
    ],
  },
  {
    name: "smp.reschedule_idle.cpu",
    phase: "sched.schedule",
    ops: [
      op("reschedule_idle", "load", 2, "cpu_curr(cpu), last_schedule(cpu)"),
      op("reschedule_idle", "alu", 6, "idle: oldest last_schedule; else preemption_goodness(tsk, p, cpu) > max_prio"),
    ],
  },
  {
    name: "smp.reschedule_idle.mark",
    phase: "sched.schedule",
    ops: [op("reschedule_idle", "store", 1, "tsk->need_resched = 1 (send_now_idle)")],
  },
  {
    // smp_send_reschedule -> send_IPI_mask(1 << cpu, RESCHEDULE_VECTOR) -> send_IPI_mask_bitmask
    name: "smp_send_reschedule",
    phase: "smp.ipi",
    ops: [
      op("send_IPI_mask_bitmask", "pushf", 1, "__save_flags(flags)"),
      op("send_IPI_mask_bitmask", "cli", 1, "__cli()"),
      op("apic_wait_icr_idle", "apic_access", 1, "apic_read(APIC_ICR) until the delivery status is idle"),
      op("send_IPI_mask_bitmask", "apic_access", 1, "apic_write_around(APIC_ICR2, SET_APIC_DEST_FIELD(mask))"),
      op("send_IPI_mask_bitmask", "apic_access", 1, "apic_write_around(APIC_ICR, cfg): the IPI leaves"),
      op("send_IPI_mask_bitmask", "popf", 1, "__restore_flags(flags)"),
    ],
  },
  {
    // RESCHEDULE_VECTOR: BUILD_SMP_INTERRUPT(reschedule_interrupt) -> smp_reschedule_interrupt
    name: "reschedule_interrupt",
    phase: "smp.ipi",
    ops: [
      op("interrupt gate", "irq_entry", 1, "IF cleared"),
      op("reschedule_interrupt", "push", 1, "pushl $RESCHEDULE_VECTOR-256"),
      op("SAVE_ALL", "alu", 1),
      op("SAVE_ALL", "push", 9),
      op("SAVE_ALL", "mov_sreg", 2),
      op("smp_reschedule_interrupt", "apic_access", 1, "ack_APIC_irq(): write APIC_EOI (the handler does nothing else: need_resched is already set)"),
      op("ret_from_intr", "alu", 3, "GET_CURRENT; test VM/CPL of the interrupted context"),
    ],
  },
  {
    // LOCAL_TIMER_VECTOR: smp_apic_timer_interrupt -> smp_local_timer_interrupt; CPU 0's also does
    // IRQ0's do_timer here (the model folds the global tick into CPU 0's local one)
    name: "smp_apic_timer_interrupt",
    phase: "irq.timer",
    ops: [
      op("interrupt gate", "irq_entry", 1, "IF cleared"),
      op("apic_timer_interrupt", "push", 1, "pushl $LOCAL_TIMER_VECTOR-256"),
      op("SAVE_ALL", "alu", 1),
      op("SAVE_ALL", "push", 9),
      op("SAVE_ALL", "mov_sreg", 2),
      op("smp_apic_timer_interrupt", "apic_access", 1, "ack_APIC_irq(): write APIC_EOI"),
      op("irq_enter", "locked_op", 1, "irq_enter: the global irq lock count (atomic on SMP)"),
      op("smp_local_timer_interrupt", "alu", 6, "prof_counter, x86_do_profile"),
      op("timer_interrupt", "rdtsc", 1, "last_tsc_low for do_gettimeoffset"),
      op("do_timer", "store", 2, "jiffies++; mark_bh(TIMER_BH)"),
      op("update_process_times", "alu", 8, "--p->counter; need_resched when it reaches 0"),
      op("irq_exit", "locked_op", 1),
      op("do_softirq", "alu", 20, "run timer bottom half"),
      op("ret_from_intr", "alu", 3, "GET_CURRENT; test VM/CPL of the interrupted context"),
    ],
  },
  {
    // flush_tlb_mm/flush_tlb_range with other CPUs in mm->cpu_vm_mask -> flush_tlb_others
    name: "flush_tlb_others",
    phase: "smp.tlb_shootdown",
    ops: [
      op("flush_tlb_others", "alu", 4, "cpumask &= cpu_online_map; BUG checks"),
      op("flush_tlb_others", "locked_op", 1, "spin_lock(&tlbstate_lock)"),
      op("flush_tlb_others", "store", 2, "flush_mm = mm; flush_va = va"),
      op("flush_tlb_others", "locked_op", 1, "atomic_set_mask(cpumask, &flush_cpumask)"),
      op("send_IPI_mask", "pushf", 1),
      op("send_IPI_mask", "cli", 1),
      op("apic_wait_icr_idle", "apic_access", 1),
      op("send_IPI_mask", "apic_access", 2, "APIC_ICR2, APIC_ICR: INVALIDATE_TLB_VECTOR"),
      op("send_IPI_mask", "popf", 1),
    ],
  },
  {
    // while (flush_cpumask) cpu_relax(): one spin per check, until every target acknowledged
    name: "flush_tlb_others.wait",
    phase: "smp.tlb_shootdown",
    ops: [op("flush_tlb_others", "load", 1, "while (flush_cpumask) cpu_relax()")],
  },
  {
    name: "flush_tlb_others.done",
    phase: "smp.tlb_shootdown",
    ops: [
      op("flush_tlb_others", "store", 2, "flush_mm = flush_va = 0"),
      op("flush_tlb_others", "store", 1, "spin_unlock(&tlbstate_lock)"),
    ],
  },
  {
    // INVALIDATE_TLB_VECTOR on a target CPU: smp_invalidate_interrupt
    name: "invalidate_interrupt",
    phase: "smp.tlb_shootdown",
    ops: [
      op("interrupt gate", "irq_entry", 1, "IF cleared"),
      op("invalidate_interrupt", "push", 1),
      op("SAVE_ALL", "alu", 1),
      op("SAVE_ALL", "push", 9),
      op("SAVE_ALL", "mov_sreg", 2),
      op("smp_invalidate_interrupt", "alu", 4, "cpu in flush_cpumask? flush_mm == cpu_tlbstate[cpu].active_mm?"),
      op("smp_invalidate_interrupt", "apic_access", 1, "ack_APIC_irq()"),
      op("smp_invalidate_interrupt", "locked_op", 1, "clear_bit(cpu, &flush_cpumask): the sender stops waiting"),
      op("ret_from_intr", "alu", 3),
    ],
  },
  {
    // the target is running the mm: local flush (flush_va == FLUSH_ALL on i386 2.4 for a range)
    name: "invalidate_interrupt.flush",
    phase: "smp.tlb_shootdown",
    ops: [op("__flush_tlb", "mov_cr3", 1, "cpu_tlbstate[cpu].state == TLBSTATE_OK: reload %cr3")],
  },
  {
    // flush_va is one page (flush_tlb_page)
    name: "invalidate_interrupt.invlpg",
    phase: "smp.tlb_shootdown",
    ops: [op("__flush_tlb_one", "invlpg", 1, "cpu_tlbstate[cpu].state == TLBSTATE_OK: invlpg flush_va")],
  },
  {
    // the target borrows the mm lazily (a kernel thread / idle): stop taking flush IPIs for it
    name: "leave_mm",
    phase: "smp.tlb_shootdown",
    ops: [
      op("leave_mm", "locked_op", 1, "clear_bit(cpu, &cpu_tlbstate[cpu].active_mm->cpu_vm_mask)"),
      op("leave_mm", "mov_cr3", 1, "load_cr3(swapper_pg_dir)"),
    ],
  },
  {
    // sys_getppid's #if CONFIG_SMP loop: a memory barrier, then p_opptr read again
    name: "sys_getppid.smp",
    phase: "syscall.body",
    ops: [op("sys_getppid", "locked_op", 1, "mb(): lock; addl $0,0(%esp)"), op("sys_getppid", "load", 1, "parent = me->p_opptr; if (old != parent) continue")],
  },
  {
    // a cache line this CPU reads or writes was last written by another CPU (MESI: HITM snoop,
    // the line moves); run once per line moved
    name: "smp.cacheline_transfer",
    phase: "smp.cacheline",
    ops: [op("cache coherence", "cacheline_transfer", 1, "the line was modified in another CPU's cache")],
  },
];

/** The SMP part of schedule()'s tail. */
export const SMP_SCHEDULE_TAIL_PATHS: PathDef[] = [
  {
    name: "__schedule_tail",
    phase: "sched.schedule",
    ops: [
      op("__schedule_tail", "store", 1, "prev->policy &= ~SCHED_YIELD; wmb()"),
      op("__schedule_tail", "alu", 2, "task_lock(prev); task_release_cpu(prev)"),
      op("__schedule_tail", "locked_op", 1, "mb(): lock; addl $0,0(%esp)"),
      op("__schedule_tail", "alu", 2, "prev->state == TASK_RUNNING? task_unlock(prev)"),
    ],
  },
  {
    name: "__schedule_tail.resched",
    phase: "sched.schedule",
    ops: [op("__schedule_tail", "pushf", 1, "spin_lock_irqsave(&runqueue_lock)"), op("__schedule_tail", "cli", 1), op("__schedule_tail", "popf", 1, "spin_unlock_irqrestore")],
  },
];
