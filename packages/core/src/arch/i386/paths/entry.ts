/**
 * Linux 2.4 i386 system-call entry/exit and interrupt paths (arch/i386/kernel/entry.S).
 * Step lists follow ../shared/reference/kernel-paths.md §2 (copied facts in docs/kernel-model.md).
 */
import { op, type PathDef } from "../../../exec/path.js";

export const ENTRY_PATHS: PathDef[] = [
  {
    name: "system_call",
    phase: "syscall.entry",
    ops: [
      op("libc syscall stub", "alu", 3, "movl $nr,%eax; load args into ebx..ebp"),
      op("int $0x80", "int_gate", 1, "trap gate, DPL 3: IF unchanged; pushes SS, ESP, EFLAGS, CS, EIP"),
      op("system_call", "push", 1, "pushl %eax (orig_eax)"),
      op("SAVE_ALL", "alu", 1, "cld"),
      op("SAVE_ALL", "push", 9, "es, ds, eax, ebp, edi, esi, edx, ecx, ebx"),
      op("SAVE_ALL", "mov_sreg", 2, "movl $__KERNEL_DS,%edx; movl %edx,%ds; movl %edx,%es"),
      op("GET_CURRENT", "alu", 2, "movl $-8192,%ebx; andl %esp,%ebx"),
      op("system_call", "load", 1, "testb $0x02,tsk_ptrace(%ebx)"),
      op("system_call", "alu", 2, "jne tracesys; cmpl $(NR_syscalls),%eax; jae badsys"),
      op("system_call", "call_indirect", 1, "call *SYMBOL_NAME(sys_call_table)(,%eax,4)"),
    ],
  },
  {
    name: "ret_from_sys_call",
    phase: "syscall.exit",
    ops: [
      op("system_call", "store", 1, "movl %eax,EAX(%esp)"),
      op("ret_from_sys_call", "cli", 1, "makes 'test work flags, then iret' atomic"),
      op("ret_from_sys_call", "load", 2, "cmpl $0,need_resched(%ebx); cmpl $0,sigpending(%ebx)"),
      op("ret_from_sys_call", "alu", 2, "jne reschedule; jne signal_return"),
    ],
  },
  {
    name: "restore_all",
    phase: "syscall.exit",
    ops: [
      op("RESTORE_ALL", "pop", 7, "ebx, ecx, edx, esi, edi, ebp, eax"),
      op("RESTORE_ALL", "mov_sreg", 2, "popl %ds; popl %es"),
      op("RESTORE_ALL", "alu", 1, "addl $4,%esp (orig_eax)"),
      op("RESTORE_ALL", "iret_user", 1, "pops EIP, CS, EFLAGS (IF=1), ESP, SS"),
    ],
  },
  {
    name: "iret_sti",
    phase: "syscall.exit",
    ops: [op("RESTORE_ALL", "iret_if_change", 1, "iret re-enables interrupts (popped IF=1, current IF=0)")],
  },
  {
    name: "reschedule",
    phase: "sched.schedule",
    ops: [op("reschedule", "call", 1, "call SYMBOL_NAME(schedule); jmp ret_from_sys_call")],
  },
  {
    name: "signal_return",
    phase: "signal.frame",
    ops: [
      op("signal_return", "sti", 1, "sti: signals are handled with interrupts on"),
      op("signal_return", "alu", 3, "testl $(VM_MASK),EFLAGS(%esp); xorl %edx,%edx; movl %esp,%eax"),
      op("signal_return", "call", 1, "call SYMBOL_NAME(do_signal); jmp restore_all"),
    ],
  },
  {
    name: "ret_from_exception",
    phase: "syscall.exit",
    ops: [
      op("ret_from_exception", "load", 2, "movl EFLAGS(%esp),%eax; movb CS(%esp),%al"),
      op("ret_from_exception", "alu", 2, "testl $(VM_MASK | 3),%eax; jne ret_from_sys_call"),
      op("ret_from_sys_call", "cli", 1),
      op("ret_from_sys_call", "load", 2, "cmpl $0,need_resched(%ebx); cmpl $0,sigpending(%ebx)"),
      op("ret_from_sys_call", "alu", 2),
    ],
  },
  {
    name: "IRQ0x00_interrupt",
    phase: "irq.timer",
    ops: [
      op("interrupt gate", "irq_entry", 1, "IF cleared"),
      op("IRQ0x00_interrupt", "push", 1, "pushl $0x00-256"),
      op("SAVE_ALL", "alu", 1),
      op("SAVE_ALL", "push", 9),
      op("SAVE_ALL", "mov_sreg", 2),
      op("do_IRQ", "alu", 12, "irq_desc lock, mask_and_ack_8259A, status bits"),
      op("timer_interrupt", "rdtsc", 1, "last_tsc_low for do_gettimeoffset"),
      op("do_timer", "store", 2, "jiffies++; mark_bh(TIMER_BH)"),
      op("update_process_times", "alu", 8, "--p->counter; need_resched when it reaches 0"),
      op("do_softirq", "alu", 20, "run timer bottom half"),
      op("ret_from_intr", "alu", 3, "GET_CURRENT; test VM/CPL of the interrupted context"),
    ],
  },
  {
    name: "device_interrupt",
    phase: "irq.device",
    ops: [
      op("interrupt gate", "irq_entry", 1, "IF cleared"),
      op("IRQn_interrupt", "push", 1),
      op("SAVE_ALL", "alu", 1),
      op("SAVE_ALL", "push", 9),
      op("SAVE_ALL", "mov_sreg", 2),
      op("do_IRQ", "alu", 12, "irq_desc lock, ack, handle_IRQ_event"),
      op("device completion", "alu", 10, "driver completion handler"),
      op("ret_from_intr", "alu", 3),
    ],
  },
  {
    name: "restore_all_kernel",
    phase: "syscall.exit",
    ops: [
      op("RESTORE_ALL", "pop", 7),
      op("RESTORE_ALL", "mov_sreg", 2),
      op("RESTORE_ALL", "alu", 1),
      op("RESTORE_ALL", "iret_kernel", 1, "same-privilege iret back into the interrupted kernel path"),
    ],
  },
];
