/**
 * The SYSENTER fast system call of Linux 2.5.53 (code as in 2.6.11: arch/i386/kernel/entry.S
 * sysenter_entry, vsyscall-sysenter.S __kernel_vsyscall), following kernel-paths.md §3.
 */
import { op, type OpLine, type PathDef, type PathTransform } from "@siglab/plugin-api";

export const ORIGIN = "sysenter";

/**
 * `msrOnSwitch`: SYSENTER_ESP is rewritten with next->esp0 at every switch (the 2.5 load_esp0), so
 * sysenter lands on the task's kernel stack; otherwise (2.6) it lands on the per-CPU TSS stack and
 * the first instruction fetches esp0 from the TSS.
 */
export function sysenterPaths(msrOnSwitch: boolean): PathDef[] {
  const stack: OpLine[] = msrOnSwitch ? [] : [op("sysenter_entry", "load", 1, "movl TSS_sysenter_esp0(%esp),%esp: the task's kernel stack from the TSS")];
  return [
    {
      name: "__kernel_vsyscall",
      phase: "syscall.entry",
      origin: ORIGIN,
      ops: [
        op("libc syscall stub", "alu", 3, "movl $nr,%eax; load args into ebx..ebp"),
        op("libc syscall stub", "call", 1, "call *%gs:AT_SYSINFO -> 0xffffe400 (the stub's ret is in SYSENTER_RETURN)"),
        op("__kernel_vsyscall", "push", 3, "pushl %ecx; pushl %edx; pushl %ebp (sysexit clobbers ecx/edx)"),
        op("__kernel_vsyscall", "alu", 1, "movl %esp,%ebp: argument 6 is now at (%ebp)"),
        op("__kernel_vsyscall", "sysenter", 1, "CS/EIP/ESP from the SYSENTER MSRs; clears IF, VM, RF; saves no EIP, ESP or EFLAGS"),
      ],
    },
    {
      name: "sysenter_entry",
      phase: "syscall.entry",
      origin: ORIGIN,
      ops: [
        ...stack,
        op("sysenter_entry", "sti", 1),
        op("sysenter_entry", "push", 2, "fake hardware frame: pushl $(__USER_DS); pushl %ebp (user esp)"),
        op("sysenter_entry", "pushf", 1, "pushfl: EFLAGS after the sti (the user's were never saved)"),
        op("sysenter_entry", "push", 2, "pushl $(__USER_CS); pushl $SYSENTER_RETURN"),
        op("sysenter_entry", "alu", 2, "cmpl $__PAGE_OFFSET-3,%ebp; jae syscall_fault: argument 6 must be a user pointer"),
        op("sysenter_entry", "put_user", 1, "1: movl (%ebp),%ebp — argument 6 from the user stack, with an exception-table fixup"),
        op("sysenter_entry", "push", 1, "pushl %eax (orig_eax)"),
        op("SAVE_ALL", "alu", 1, "cld"),
        op("SAVE_ALL", "push", 9, "es, ds, eax, ebp, edi, esi, edx, ecx, ebx"),
        op("SAVE_ALL", "mov_sreg", 2, "movl $__USER_DS,%edx; movl %edx,%ds; movl %edx,%es (user values, so sysexit can leave them)"),
        op("GET_THREAD_INFO", "alu", 2, "movl $-8192,%ebp; andl %esp,%ebp"),
        op("sysenter_entry", "load", 1, "testb $(_TIF_SYSCALL_TRACE|_TIF_SYSCALL_AUDIT),TI_flags(%ebp)"),
        op("sysenter_entry", "alu", 2, "jnz syscall_trace_entry; cmpl $(nr_syscalls),%eax; jae syscall_badsys"),
        op("sysenter_entry", "call_indirect", 1, "call *sys_call_table(,%eax,4)"),
      ],
    },
    {
      name: "sysenter_exit_test",
      phase: "syscall.exit",
      origin: ORIGIN,
      ops: [
        op("sysenter_entry", "store", 1, "movl %eax,EAX(%esp)"),
        op("sysenter_entry", "cli", 1),
        op("sysenter_entry", "load", 1, "movl TI_flags(%ebp),%ecx"),
        op("sysenter_entry", "alu", 2, "testw $_TIF_ALLWORK_MASK,%cx; jne syscall_exit_work"),
      ],
    },
    {
      name: "sysexit",
      phase: "syscall.exit",
      origin: ORIGIN,
      ops: [
        op("sysenter_entry", "load", 2, "movl EIP(%esp),%edx; movl OLDESP(%esp),%ecx — no RESTORE_ALL: pt_regs are not reloaded"),
        op("sysenter_entry", "alu", 1, "xorl %ebp,%ebp"),
        op("sysenter_entry", "sysexit", 1, "CPL 3, EIP = EDX, ESP = ECX; EFLAGS not loaded"),
        op("sysenter_entry", "sti", 1, "the sti before sysexit, listed after it: its one-instruction shadow covers sysexit, so no interrupt lands between them"),
      ],
    },
    {
      name: "SYSENTER_RETURN",
      phase: "syscall.exit",
      origin: ORIGIN,
      ops: [op("SYSENTER_RETURN", "pop", 3, "popl %ebp; popl %edx; popl %ecx (the stub's ret is charged with the call)")],
    },
    {
      name: "syscall_exit_work",
      phase: "syscall.exit",
      origin: ORIGIN,
      ops: [
        op("syscall_exit_work", "alu", 2, "testb $(_TIF_SYSCALL_TRACE|_TIF_SYSCALL_AUDIT|_TIF_SINGLESTEP),%cl; jz work_pending"),
        op("work_pending", "alu", 2, "work done, or pt_regs changed (TIF_IRET): jmp restore_all — never sysexit"),
      ],
    },
  ];
}

/** The 2.5 load_esp0: wrmsr SYSENTER_CS and SYSENTER_ESP on every context switch (bug 350, Feb 2003). */
export function msrRewrite(writes: number): PathTransform[] {
  if (writes <= 0) return [];
  const names = ["MSR_IA32_SYSENTER_ESP", "MSR_IA32_SYSENTER_CS"].slice(0, writes).reverse().join(", ");
  return [
    {
      target: "switch_to",
      origin: ORIGIN,
      transform(def) {
        const at = def.ops.findIndex((l) => l.fn === "__switch_to" && l.op === "store");
        if (at < 0) throw new Error(`plugin '${ORIGIN}': switch_to has no 'tss->esp0 = next->esp0' store to follow (core path changed?)`);
        const ops = [...def.ops];
        ops.splice(at + 1, 0, op("load_esp0", "wrmsr", writes, `if (cpu_has_sep) wrmsr(${names}) — so sysenter lands on next's kernel stack`));
        return { ...def, ops };
      },
    },
  ];
}
