/**
 * Linux 2.4 scheduler and context switch (kernel/sched.c, include/asm-i386/mmu_context.h,
 * include/asm-i386/system.h, arch/i386/kernel/process.c).
 */
import { op, type PathDef } from "../../../exec/path.js";

export const SCHED_PATHS: PathDef[] = [
  {
    name: "schedule",
    phase: "sched.schedule",
    ops: [
      op("schedule", "alu", 4, "prev = current; this_cpu; release_kernel_lock"),
      op("schedule", "cli", 1, "spin_lock_irq(&runqueue_lock)"),
      op("schedule", "alu", 8, "SCHED_RR refill; switch (prev->state): del_from_runqueue unless signal pending; need_resched = 0"),
      op("repeat_schedule", "alu", 3, "next = idle_task(this_cpu); c = -1000; list_for_each(tmp, &runqueue_head)"),
    ],
  },
  {
    name: "goodness",
    phase: "sched.schedule",
    ops: [op("goodness", "alu", 9, "policy, SCHED_YIELD, counter, same mm (+1), 20 - nice; compare with c")],
  },
  {
    name: "recalculate_counters",
    phase: "sched.schedule",
    ops: [
      op("schedule", "sti", 1, "recalculate: spin_unlock_irq(&runqueue_lock)"),
      op("schedule", "alu", 2, "read_lock(&tasklist_lock)"),
      op("schedule", "alu", 2, "read_unlock(&tasklist_lock)"),
      op("schedule", "cli", 1, "spin_lock_irq(&runqueue_lock); goto repeat_schedule"),
    ],
  },
  {
    // once per task of the task list (for_each_task), runnable or not
    name: "recalculate_counters.task",
    phase: "sched.schedule",
    ops: [
      op("schedule", "load", 2, "p->counter, p->nice"),
      op("schedule", "alu", 3, "(p->counter >> 1) + NICE_TO_TICKS(p->nice); p = p->next_task"),
      op("schedule", "store", 1, "p->counter = ..."),
    ],
  },
  {
    name: "schedule.finish",
    phase: "sched.schedule",
    ops: [
      op("schedule", "sti", 1, "spin_unlock_irq(&runqueue_lock)"),
      op("schedule", "alu", 2, "if (prev == next) goto same_process"),
    ],
  },
  {
    name: "schedule.switch",
    phase: "sched.schedule",
    ops: [
      op("schedule", "store", 1, "kstat.context_swtch++"),
      op("prepare_to_switch", "alu", 4, "mm = next->mm; oldmm = prev->active_mm; kernel-thread tests"),
    ],
  },
  {
    name: "switch_mm",
    phase: "sched.switch_mm",
    ops: [
      op("switch_mm", "alu", 2, "if (prev != next)"),
      op("switch_mm", "store", 1, "clear_bit(cpu, &prev->cpu_vm_mask)"),
      op("switch_mm", "alu", 2, "if (prev->context.segments != next->context.segments) load_LDT"),
      op("switch_mm", "store", 1, "set_bit(cpu, &next->cpu_vm_mask)"),
      op("load_cr3", "mov_cr3", 1, "asm volatile(\"movl %0,%%cr3\": :\"r\" (__pa(next->pgd))) — flushes non-global TLB entries"),
    ],
  },
  {
    // the switch_to macro up to __switch_to's first statement, unlazy_fpu(prev) (the FPU save, if
    // any, runs between this path and the rest of __switch_to: "switch_to")
    name: "switch_to.save",
    phase: "sched.switch_to",
    ops: [
      op("switch_to", "push", 3, "pushl %esi; pushl %edi; pushl %ebp"),
      op("switch_to", "store", 2, "movl %esp,%0 (prev->thread.esp); movl $1f,%1 (prev->thread.eip)"),
      op("switch_to", "load", 1, "movl %3,%esp (next->thread.esp)"),
      op("switch_to", "push", 1, "pushl %4 (next->thread.eip)"),
      op("switch_to", "alu", 1, "jmp __switch_to"),
      op("__switch_to", "alu", 2, "unlazy_fpu(prev): if (prev->flags & PF_USEDFPU)"),
    ],
  },
  {
    name: "switch_to",
    phase: "sched.switch_to",
    ops: [
      op("__switch_to", "store", 1, "tss->esp0 = next->esp0"),
      op("__switch_to", "mov_from_sreg", 2, "asm volatile(\"movl %%fs,%0\"); movl %%gs"),
      op("__switch_to", "mov_sreg", 2, "loadsegment(fs, next->fs); loadsegment(gs, next->gs)"),
      op("__switch_to", "alu", 4, "if (next->debugreg[7]); if (prev->ioperm || next->ioperm)"),
      op("switch_to", "pop", 3, "1: popl %ebp; popl %edi; popl %esi"),
      op("__schedule_tail", "alu", 3, "prev->policy &= ~SCHED_YIELD"),
      op("schedule", "alu", 2, "reacquire_kernel_lock; if (current->need_resched) goto need_resched_back"),
    ],
  },
  {
    name: "unlazy_fpu.switch",
    phase: "sched.switch_to",
    ops: [
      op("save_init_fpu", "fxsave", 1, "fxsave prev->thread.i387.fxsave"),
      op("save_init_fpu", "fnclex", 1),
      op("save_init_fpu", "alu", 1, "prev->flags &= ~PF_USEDFPU"),
      op("stts", "read_cr0", 1),
      op("stts", "write_cr0", 1, "CR0.TS = 1: next's first FPU use traps"),
    ],
  },
  {
    name: "unlazy_fpu.switch.fnsave",
    phase: "sched.switch_to",
    ops: [
      op("save_init_fpu", "fsave", 1),
      op("save_init_fpu", "fwait", 1),
      op("save_init_fpu", "alu", 1),
      op("stts", "read_cr0", 1),
      op("stts", "write_cr0", 1),
    ],
  },
  {
    name: "sys_sched_yield",
    phase: "syscall.body",
    // "This test does not have to be atomic": no lock until move_last_runqueue (sys_sched_yield.yield)
    ops: [op("sys_sched_yield", "alu", 3, "nr_pending = nr_running; nr_pending-- (UP); if (nr_pending)")],
  },
  {
    name: "sys_sched_yield.yield",
    phase: "syscall.body",
    ops: [
      op("sys_sched_yield", "alu", 1, "if (current->policy == SCHED_OTHER)"),
      op("sys_sched_yield", "store", 2, "current->policy |= SCHED_YIELD; current->need_resched = 1"),
      op("move_last_runqueue", "cli", 1, "spin_lock_irq(&runqueue_lock)"),
      op("move_last_runqueue", "alu", 4, "list_del; list_add_tail(&p->run_list, &runqueue_head)"),
      op("move_last_runqueue", "sti", 1, "spin_unlock_irq(&runqueue_lock)"),
    ],
  },
  {
    name: "try_to_wake_up",
    phase: "sched.schedule",
    ops: [
      op("try_to_wake_up", "pushf", 1, "spin_lock_irqsave(&runqueue_lock)"),
      op("try_to_wake_up", "cli", 1),
      op("try_to_wake_up", "store", 1, "p->state = TASK_RUNNING"),
      op("add_to_runqueue", "alu", 4, "list_add(&p->run_list, &runqueue_head); nr_running++"),
      op("reschedule_idle", "alu", 6, "preemption_goodness(tsk, p) > 0 -> need_resched"),
      op("try_to_wake_up", "popf", 1),
    ],
  },
  {
    name: "add_wait_queue",
    phase: "sched.schedule",
    ops: [
      op("add_wait_queue", "pushf", 1, "wq_write_lock_irqsave"),
      op("add_wait_queue", "cli", 1),
      op("__add_wait_queue", "store", 4),
      op("add_wait_queue", "popf", 1),
      op("set_current_state", "store", 1, "TASK_INTERRUPTIBLE"),
    ],
  },
  {
    name: "remove_wait_queue",
    phase: "sched.schedule",
    ops: [
      op("remove_wait_queue", "pushf", 1),
      op("remove_wait_queue", "cli", 1),
      op("__remove_wait_queue", "store", 2),
      op("remove_wait_queue", "popf", 1),
    ],
  },
  {
    name: "__wake_up",
    phase: "sched.schedule",
    ops: [
      op("__wake_up", "pushf", 1, "wq_read_lock_irqsave"),
      op("__wake_up", "cli", 1),
      op("__wake_up_common", "alu", 4, "list_for_each(tmp, &q->task_list)"),
      op("__wake_up", "popf", 1),
    ],
  },
  {
    name: "user_tlb_refill",
    phase: "tlb.refill",
    ops: [op("page walk", "tlb_miss", 1, "first touch of a user page after the TLB was flushed")],
  },
  {
    name: "idle",
    phase: "idle",
    ops: [op("cpu_idle", "alu", 1, "hlt until the next interrupt")],
  },
];
