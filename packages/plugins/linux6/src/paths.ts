/**
 * The Linux 6.x x86-64 paths, op by op, each op named after the kernel function or macro it comes
 * from (kernel-paths.md §4 entry_SYSCALL_64, §6 signal delivery and rt_sigreturn, §7.2 context
 * switch). Costs come from the CPU profile's op classes; where the kernel's instruction has no
 * class of its own the note says which class stands in for it and why.
 */
import { op, type OpLine, type PathDef, type PathTransform } from "@siglab/plugin-api";
import { p, prepend, replace } from "./defs.js";
import type { Mitigations } from "./mitigations.js";

/** The rt_sigframe of x86-64 (pretcode 8 + ucontext 304 + siginfo 128; kernel-paths.md §6 "Sizes"). */
export const RT_SIGFRAME64_BYTES = 440;
/** get_sigframe skips the ABI's red zone below the interrupted rsp (when not switching stacks). */
export const RED_ZONE_BYTES = 128;
/** FP_XSTATE_MAGIC2 written after the xstate in the frame. */
export const MAGIC2_BYTES = 4;
/** The constant MINSIGSTKSZ / SIGSTKSZ of the uapi headers (kernel-paths.md §5.5, §6). */
export const MINSIGSTKSZ = 2048;
export const SIGSTKSZ = 8192;

const SWAPGS = "swapgs has no op class: mov_sreg (a microcoded load of segment state) is the nearest";
const READ_CR3 = "mov %cr3,%reg: no read_cr3 class; read_cr0, the profile's control-register read, stands in";

/** SWITCH_TO_KERNEL_CR3 (calling.h): one CR3 write; with PCID the NOFLUSH bit keeps the TLB. */
function switchToKernelCr3(m: Mitigations, fn: string): OpLine[] {
  return [
    op(fn, "read_cr0", 1, READ_CR3),
    op(fn, "alu", 2, m.pcid ? "ADJUST_KERNEL_CR3: andq $~(PTI_USER_PGTABLE_AND_PCID_MASK); bts $X86_CR3_PCID_NOFLUSH_BIT" : "andq $~PTI_USER_PGTABLE_MASK (no PCID: the write flushes the TLB)"),
    op(fn, "mov_cr3", 1, m.pcid ? "mov %reg,%cr3 with NOFLUSH: the kernel PCID's TLB entries stay" : "mov %reg,%cr3 without PCID: flushes every non-global TLB entry"),
  ];
}

/** SWITCH_TO_USER_CR3 (calling.h): the user half of the PGD and the user PCID (bit 11). */
function switchToUserCr3(m: Mitigations, fn: string): OpLine[] {
  return [
    op(fn, "read_cr0", 1, READ_CR3),
    ...(m.pcid
      ? [
          op(fn, "load", 1, "bt %reg, PER_CPU_VAR(cpu_tlbstate.user_pcid_flush_mask): a flush pending for the user ASID?"),
          op(fn, "alu", 3, "jnc: set NOFLUSH (bit 63); orq $(PTI_USER_PGTABLE_MASK | PTI_USER_PCID_MASK)"),
        ]
      : [op(fn, "alu", 1, "orq $PTI_USER_PGTABLE_MASK")]),
    op(fn, "mov_cr3", 1, m.pcid ? "mov %reg,%cr3 with NOFLUSH (user PCID = kernel PCID | 2048)" : "mov %reg,%cr3: flushes the TLB"),
  ];
}

const IBRS_ENTER: OpLine[] = [
  op("IBRS_ENTER", "load", 1, "movq PER_CPU_VAR(x86_spec_ctrl_current),%rdx"),
  op("IBRS_ENTER", "wrmsr", 1, "wrmsr MSR_IA32_SPEC_CTRL (IBRS on in the kernel)"),
];
const IBRS_EXIT: OpLine[] = [
  op("IBRS_EXIT", "load", 1, "movq PER_CPU_VAR(x86_spec_ctrl_current),%rdx; andl $~SPEC_CTRL_IBRS"),
  op("IBRS_EXIT", "wrmsr", 1, "wrmsr MSR_IA32_SPEC_CTRL (IBRS off for user mode)"),
];
const UNTRAIN_RET: OpLine[] = [
  op("UNTRAIN_RET", "call", 1, "call entry_untrain_ret -> srso_untrain_ret (safe-RET: the BTB entry for the ret is retrained)"),
  op("UNTRAIN_RET", "alu", 2, "lea 8(%rsp),%rsp; ret into srso_safe_ret (estimated instruction count)"),
];
/** srso_return_thunk on the kernel's rets: about five functions return on a short syscall (estimated). */
const RETURN_THUNK: OpLine[] = [op("srso_return_thunk", "call", 5, "every kernel ret is jmp __x86_return_thunk -> call srso_safe_ret; lea 8(%rsp),%rsp; ret: an extra call/ret pair per ret; ~5 rets on a short syscall path (estimated count)")];
const VERW: OpLine[] = [
  op("CLEAR_CPU_BUFFERS", "write_cr0", 1, "verw x86_verw_sel with MD_CLEAR microcode: overwrites the store/fill/load buffers. No VERW figure in x86-costs.md; charged as the profile's serializing control-register write (≈ CPUID(0)), the nearest serializing microcode flow (estimated)"),
];

/** Paths the entry mechanism and the FPU policies run; the mitigation paths only when enabled. */
export function linux6Paths(m: Mitigations): PathDef[] {
  const dispatch: OpLine[] =
    m.dispatch === "switch"
      ? [op("x64_sys_call", "alu", 2, "switch (nr): a jump table of direct calls (6.9+; sys_call_table is kept for tracing only)"), op("x64_sys_call", "call", 1, "call __x64_sys_<name> (direct)")]
      : m.spectreV2 === "retpoline"
        ? [
            op("do_syscall_x64", "load", 1, "sys_call_table[nr] (pre-6.9 kernels)"),
            op("__x86_indirect_thunk_rax", "call", 2, "retpoline: call .Ldo_rop; mov %rax,(%rsp); ret -- the ret is predicted into the pause/lfence capture loop and mispredicts; the misprediction has no op class and is not charged (a lower bound)"),
            op("__x86_indirect_thunk_rax", "call_indirect", 1, "the table call itself"),
          ]
        : [op("do_syscall_x64", "load", 1, "sys_call_table[nr] (pre-6.9 kernels)"), op("do_syscall_x64", "call_indirect", 1, m.spectreV2 === "ibrs" || m.spectreV2 === "eibrs" ? "call *sys_call_table(,%rax,8): with (e)IBRS a plain indirect call" : "call *sys_call_table(,%rax,8)")];
  const paths: PathDef[] = [
    p("entry_SYSCALL_64", "syscall.entry", [
      op("libc syscall()", "alu", 3, "mov $nr,%eax; arguments in rdi, rsi, rdx, r10, r8, r9"),
      op("syscall", "syscall", 1, "RCX = RIP, R11 = RFLAGS; RFLAGS &= ~FMASK (IF cleared); CS/SS from STAR; RIP = LSTAR; CPL 0; RSP is still the user's"),
      op("entry_SYSCALL_64", "mov_sreg", 1, `swapgs: GS base <-> KERNEL_GS_BASE (per-CPU data). ${SWAPGS}`),
      op("entry_SYSCALL_64", "store", 1, "movq %rsp, PER_CPU_VAR(cpu_tss_rw + TSS_sp2)"),
    ]),
    p("entry_SYSCALL_64.pt_regs", "syscall.entry", [
      op("entry_SYSCALL_64", "load", 1, "movq PER_CPU_VAR(cpu_current_top_of_stack), %rsp"),
      op("entry_SYSCALL_64", "push", 6, "pushq $__USER_DS; pushq sp2 (user rsp); pushq %r11 (flags); pushq $__USER_CS; pushq %rcx (ip); pushq %rax (orig_ax)"),
      op("PUSH_AND_CLEAR_REGS", "push", 15, "di, si, dx, cx, ax = -ENOSYS, r8-r11, bx, bp, r12-r15: pt_regs is 21 words = 168 B"),
      op("PUSH_AND_CLEAR_REGS", "alu", 12, "xorl of the registers not holding arguments (against speculative use of user values)"),
      op("entry_SYSCALL_64", "alu", 2, "movq %rsp,%rdi; movslq %eax,%rsi"),
    ]),
    p("do_syscall_64", "syscall.entry", [
      op("entry_SYSCALL_64", "call", 1, "call do_syscall_64"),
      op("add_random_kstack_offset", "alu", 3, "alloca(per-CPU kstack_offset & KSTACK_OFFSET_MAX)"),
      op("syscall_enter_from_user_mode", "alu", 2, "enter_from_user_mode: lockdep/context-tracking hooks (compiled out)"),
      op("syscall_enter_from_user_mode", "sti", 1, "local_irq_enable()"),
      op("syscall_enter_from_user_mode", "load", 1, "read_thread_flags(): SYSCALL_WORK_ENTER (seccomp, trace, audit)?"),
      op("do_syscall_x64", "alu", 3, "unr = nr; if (likely(unr < NR_syscalls)) unr = array_index_nospec(unr, NR_syscalls)"),
      ...dispatch,
    ]),
    p("syscall_exit_to_user_mode", "syscall.exit", [
      op("do_syscall_x64", "store", 1, "regs->ax = result"),
      op("syscall_exit_to_user_mode_work", "alu", 2, "SYSCALL_WORK_EXIT (audit, trace) not set"),
      op("syscall_exit_to_user_mode", "cli", 1, "local_irq_disable_exit_to_user()"),
      op("exit_to_user_mode_prepare", "load", 1, "ti_work = read_thread_flags()"),
      op("exit_to_user_mode_prepare", "alu", 2, "if (unlikely(ti_work & EXIT_TO_USER_MODE_WORK)) exit_to_user_mode_loop(); arch_exit_to_user_mode_prepare: TIF_NEED_FPU_LOAD?"),
    ]),
    p("do_syscall_64.sysret_check", "syscall.exit", [
      op("do_syscall_64", "load", 4, "regs->cx, ip, r11, flags"),
      op("do_syscall_64", "alu", 8, "SYSRET allowed? RCX == RIP, R11 == RFLAGS, RIP < TASK_SIZE_MAX (canonical), no RF/TF, not XENPV (CS/SS checked by the entry)"),
    ]),
    p("syscall_return_via_sysret", "syscall.exit", [
      op("entry_SYSCALL_64", "alu", 1, "testb %al,%al; jz swapgs_restore_regs_and_return_to_usermode"),
      op("POP_REGS", "pop", 14, "pop_rdi=0: every register but rdi"),
      op("syscall_return_via_sysret", "alu", 1, "movq %rsp,%rdi"),
      op("syscall_return_via_sysret", "load", 1, "movq PER_CPU_VAR(cpu_tss_rw + TSS_sp0),%rsp: the trampoline stack"),
      op("syscall_return_via_sysret", "push", 2, "pushq RSP-RDI(%rdi) (user rsp); pushq (%rdi) (user rdi)"),
    ]),
    p("syscall_return_via_sysret.swapgs", "syscall.exit", [
      op("syscall_return_via_sysret", "pop", 2, "popq %rdi; popq %rsp"),
      op("syscall_return_via_sysret", "mov_sreg", 1, `swapgs. ${SWAPGS}`),
    ]),
    p("sysretq", "syscall.exit", [op("entry_SYSRETQ_unsafe_stack", "sysret", 1, "sysretq: RIP = RCX, RFLAGS = R11 (IF back on with the drop to CPL 3)")]),
    p("swapgs_restore_regs_and_return_to_usermode", "syscall.exit", [
      op("POP_REGS", "pop", 15, "every general register of pt_regs"),
      op("swapgs_restore_regs_and_return_to_usermode", "alu", 2, "addq $8,%rsp (orig_ax); movq %rsp,%rdi"),
      op("swapgs_restore_regs_and_return_to_usermode", "load", 1, "movq PER_CPU_VAR(cpu_tss_rw + TSS_sp0),%rsp"),
      op("swapgs_restore_regs_and_return_to_usermode", "push", 6, "copy the IRET frame (ss, rsp, flags, cs, ip) and rdi to the trampoline stack"),
    ]),
    p("swapgs_restore_regs_and_return_to_usermode.swapgs", "syscall.exit", [
      op("swapgs_restore_regs_and_return_to_usermode", "pop", 1, "popq %rdi"),
      op("swapgs_restore_regs_and_return_to_usermode", "mov_sreg", 1, `swapgs. ${SWAPGS}`),
    ]),
    p("iretq", "syscall.exit", [op("native_irq_return_iret", "iret_user", 1, "iretq: pops RIP, CS, RFLAGS, RSP, SS (pt_regs changed: SYSRET is not allowed)")]),
    p("SWITCH_TO_KERNEL_CR3", "syscall.entry", switchToKernelCr3(m, "SWITCH_TO_KERNEL_CR3")),
    p("SWITCH_TO_USER_CR3", "syscall.exit", switchToUserCr3(m, "SWITCH_TO_USER_CR3_STACK")),
    p("IBRS_ENTER", "syscall.entry", IBRS_ENTER),
    p("IBRS_EXIT", "syscall.exit", IBRS_EXIT),
    p("UNTRAIN_RET", "syscall.entry", [...UNTRAIN_RET, ...RETURN_THUNK]),
    p("CLEAR_CPU_BUFFERS", "syscall.exit", VERW),
    // ---- FPU (kernel-paths.md §6 steps 6, 9, 12; §7.2 steps 3-4) ----
    p("switch_fpu_prepare", "sched.switch_to", [
      op("switch_fpu", "alu", 3, "!(prev->flags & (PF_KTHREAD | PF_USER_WORKER)) && !test_tsk_thread_flag(prev, TIF_NEED_FPU_LOAD)"),
      op("save_fpregs_to_fpstate", "alu", 2, "os_xsave: XSAVES, selected by alternatives; RFBM = every enabled feature"),
      op("switch_fpu", "store", 2, "set_tsk_thread_flag(prev, TIF_NEED_FPU_LOAD); fpu->last_cpu = cpu"),
    ]),
    p("os_xsave", "sched.switch_to", [op("os_xsave", "xsave_chunk", 1, "XSAVES: one 64-B chunk of the (compacted) XSAVE area written")]),
    p("fpregs_restore_userregs", "syscall.exit", [
      op("switch_fpu_return", "alu", 2, "arch_exit_to_user_mode_prepare: TIF_NEED_FPU_LOAD set"),
      op("fpregs_restore_userregs", "load", 2, "fpregs_state_valid(fpu, cpu): fpu_fpregs_owner_ctx == fpu && fpu->last_cpu == cpu? (no: restore)"),
      op("fpregs_restore_userregs", "alu", 2, "os_xrstor(fpu->fpstate, XFEATURE_MASK_FPSTATE & fpstate->xfeatures)"),
      op("fpregs_activate", "store", 2, "this_cpu_write(fpu_fpregs_owner_ctx, fpu); clear_thread_flag(TIF_NEED_FPU_LOAD)"),
    ]),
    p("os_xrstor", "syscall.exit", [op("os_xrstor", "xrstor_chunk", 1, "XRSTORS: one 64-B chunk of the task's XSAVE area read (components with XSTATE_BV clear are initialised, not read)")]),
    p("fpregs_restore_userregs.valid", "syscall.exit", [
      op("switch_fpu_return", "alu", 2, "arch_exit_to_user_mode_prepare: TIF_NEED_FPU_LOAD set"),
      op("fpregs_restore_userregs", "load", 2, "fpregs_state_valid(): the registers still hold this task's state on this CPU: no XRSTOR"),
      op("fpregs_restore_userregs", "store", 1, "clear_thread_flag(TIF_NEED_FPU_LOAD)"),
    ]),
    p("copy_fpstate_to_sigframe", "signal.fpu_save", [
      op("get_sigframe", "alu", 6, "fpu__alloc_mathframe: buf_fx = round_down(sp - (user_size + 4), 64); sp -= sizeof(rt_sigframe); round_down(sp, 16) - 8; sigaltstack overflow check"),
      op("copy_fpstate_to_sigframe", "alu", 3, "access_ok(buf, size); ia32_fxstate? (no)"),
      op("copy_fpstate_to_sigframe", "copy_user_setup", 1, "__clear_user(&buf->header, sizeof(buf->header)): the 64-B XSAVE header"),
      op("copy_fpstate_to_sigframe", "copy_user_line", 1, "the header's 64 bytes"),
      op("copy_fpstate_to_sigframe", "alu", 2, "fpregs_lock(); test_thread_flag(TIF_NEED_FPU_LOAD)"),
      op("copy_fpregs_to_sigframe", "alu", 3, "pagefault_disable(); xsave_to_user_sigframe: stac; mask = fpstate->user_xfeatures"),
    ]),
    p("xsave_to_user_sigframe", "signal.fpu_save", [op("xsave_to_user_sigframe", "xsave_chunk", 1, "XSAVE (standard format) straight into the user frame: one 64-B chunk")]),
    p("save_xstate_epilog", "signal.fpu_save", [
      op("copy_fpregs_to_sigframe", "alu", 2, "clac; pagefault_enable(); fpregs_unlock()"),
      op("save_xstate_epilog", "put_user", 6, "__copy_to_user(&x->i387.sw_reserved, &fpx_sw_bytes): magic1 0x46505853, extended_size, xfeatures, xstate_size (48 B at offset 464)"),
      op("save_xstate_epilog", "put_user", 1, "__put_user(FP_XSTATE_MAGIC2, buf + user_size)"),
      op("save_xstate_epilog", "put_user", 2, "header.xfeatures |= XFEATURE_MASK_FP | XFEATURE_MASK_SSE (read, or, write)"),
    ]),
    p("sig_prepare_pkru", "signal.fpu_save", [
      op("sig_prepare_pkru", "locked_op", 1, "write_pkru(0): WRPKRU has no op class; it orders memory accesses like a fence, so locked_op (the profile's fencing read-modify-write) stands in (estimated)"),
    ]),
    p("fpu__clear_user_states", "signal.frame", [
      op("fpu__clear_user_states", "alu", 3, "fpregs_lock(); if (!cpu_feature_enabled(X86_FEATURE_FPU)) ...; TIF_NEED_FPU_LOAD? fpregs_restore"),
      op("restore_fpregs_from_init_fpstate", "xrstor_chunk", 1, "os_xrstor(&init_fpstate, XFEATURE_MASK_USER_RESTORE): XSTATE_BV = 0 in init_fpstate, so every component is initialised and only the header is read"),
      op("fpu__clear_user_states", "store", 2, "fpregs_mark_activate(); fpregs_unlock()"),
    ]),
    p("fpu__restore_sig", "signal.fpu_restore", [
      op("fpu__restore_sig", "alu", 3, "buf == NULL? ia32_fxstate? size = xstate user size"),
      op("check_xstate_in_sigframe", "put_user", 3, "__copy_from_user(fx_sw, &fxbuf->sw_reserved) then magic1 at 464 and magic2 at +user_size (one user read each)"),
      op("restore_fpregs_from_user", "alu", 4, "fpregs_lock(); xfd_update_state(); pagefault_disable(); stac; xfeatures = user_xfeatures & fx_sw.xfeatures"),
    ]),
    p("xrstor_from_user_sigframe", "signal.fpu_restore", [op("xrstor_from_user_sigframe", "xrstor_chunk", 1, "XRSTOR straight from the user frame: one 64-B chunk")]),
    p("fpu__restore_sig.tail", "signal.fpu_restore", [
      op("restore_fpregs_from_user", "alu", 2, "clac; pagefault_enable(); supervisor states kept (XRSTORS not needed: no supervisor features in use)"),
      op("fpregs_mark_activate", "store", 2, "this_cpu_write(fpu_fpregs_owner_ctx, fpu); fpu->last_cpu = cpu; fpregs_unlock()"),
    ]),
    // ---- context switch (kernel-paths.md §7.2) ----
    p("FILL_RETURN_BUFFER", "sched.switch_to", [
      op("__FILL_RETURN_BUFFER", "push", 32, "RSB_CLEAR_LOOPS = 32 calls, each pushing a return address that is never used (the calls are predicted direct calls; their stores are the cost)"),
      op("__FILL_RETURN_BUFFER", "alu", 18, "16 × (dec; jnz) loop and add $(BITS_PER_LONG/8) * nr,%rsp; lfence (estimated instruction count)"),
    ]),
    p("cond_mitigation.ibpb", "sched.switch_mm", [
      op("cond_mitigation", "alu", 3, "prev_mm = this_cpu_read(cpu_tlbstate.last_user_mm_spec); next_mm != prev_mm: IBPB"),
      op("indirect_branch_prediction_barrier", "wrmsr", 1, "wrmsr MSR_IA32_PRED_CMD, PRED_CMD_IBPB. The predictor flush is far slower than a plain MSR write, but x86-costs.md has no IBPB figure: this is the profile's wrmsr estimate, a lower bound"),
    ]),
  ];
  return paths;
}

/**
 * Changes to the core's i386 paths where a 6.x kernel does it differently. The core's scheduler,
 * signal dequeue and syscall bodies stay; the entry/exit of interrupts and exceptions gets the
 * x86-64 mitigation steps.
 */
export function linux6Transforms(m: Mitigations): PathTransform[] {
  // the mitigations every entry from user mode pays (interrupts and exceptions as well as syscalls)
  const entryFromUser = (fn: string): OpLine[] => [
    op(fn, "mov_sreg", 1, `swapgs (from user mode). ${SWAPGS}`),
    ...(m.pti ? switchToKernelCr3(m, "SWITCH_TO_KERNEL_CR3") : []),
    ...(m.spectreV2 === "ibrs" ? IBRS_ENTER : []),
    ...(m.retbleedUntrain ? UNTRAIN_RET : []),
  ];
  const iretToUser: OpLine[] = [
    ...(m.spectreV2 === "ibrs" ? IBRS_EXIT : []),
    op("POP_REGS", "pop", 15, "every general register of pt_regs"),
    op("swapgs_restore_regs_and_return_to_usermode", "alu", 2, "addq $8,%rsp (orig_ax / error code); movq %rsp,%rdi"),
    op("swapgs_restore_regs_and_return_to_usermode", "load", 1, "the trampoline stack (TSS sp0)"),
    op("swapgs_restore_regs_and_return_to_usermode", "push", 6, "the IRET frame and rdi onto the trampoline stack"),
    ...(m.pti ? switchToUserCr3(m, "SWITCH_TO_USER_CR3_STACK") : []),
    op("swapgs_restore_regs_and_return_to_usermode", "pop", 1, "popq %rdi"),
    op("swapgs_restore_regs_and_return_to_usermode", "mov_sreg", 1, `swapgs. ${SWAPGS}`),
    ...(m.verw ? VERW : []),
    op("native_irq_return_iret", "iret_user", 1, "iretq"),
  ];
  const signalFrameHead: OpLine[] = [
    op("get_sigframe", "alu", 5, "sp = regs->sp - 128 (red zone); SA_ONSTACK: sas_ss_flags(sp) == 0 -> sp = sas_ss_sp + sas_ss_size"),
    op("rseq_signal_deliver", "alu", 2, "current->rseq? (no)"),
    op("x64_setup_rt_frame", "alu", 3, "SA_RESTORER required (else -EFAULT); user_access_begin(frame, sizeof(*frame)): stac"),
    op("x64_setup_rt_frame", "put_user", 5, "uc_flags (UC_FP_XSTATE | UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS), uc_link = 0, uc_stack (sp, flags, size)"),
    op("setup_sigcontext", "put_user", 23, "r8-r15, di, si, bp, bx, dx, ax, cx, sp, ip, flags, cs|gs|fs|ss, err, trapno, oldmask, cr2 (the 256-B sigcontext; no segment-register reads in 64-bit mode)"),
  ];
  const signalFrameTail: OpLine[] = [
    op("setup_sigcontext", "put_user", 1, "sc->fpstate = buf_fx"),
    op("x64_setup_rt_frame", "put_user", 1, "uc_sigmask (8 B)"),
    op("x64_setup_rt_frame", "put_user", 1, "pretcode = ksig->ka.sa.sa_restorer (glibc's __restore_rt)"),
    op("x64_setup_rt_frame", "alu", 1, "user_access_end(): clac"),
    op("setup_signal_shadow_stack", "alu", 1, "no user shadow stack"),
  ];
  const sigreturn: OpLine[] = [
    op("__restore_rt", "alu", 1, "mov $__NR_rt_sigreturn,%rax (then syscall)"),
    op("sys_rt_sigreturn", "alu", 3, "frame = (struct rt_sigframe __user *)(regs->sp - sizeof(long)); access_ok"),
    op("sys_rt_sigreturn", "put_user", 2, "__get_user(uc_flags); __get_user(set, &frame->uc.uc_sigmask)"),
    op("set_current_blocked", "cli", 1, "spin_lock_irq(&current->sighand->siglock)"),
    op("set_current_blocked", "store", 2, "__set_task_blocked: current->blocked = set"),
    op("recalc_sigpending", "alu", 4, "estimated: test the pending sets against blocked, set or clear TIF_SIGPENDING"),
    op("set_current_blocked", "sti", 1, "spin_unlock_irq"),
    op("restore_sigcontext", "put_user", 20, "unsafe_get_user of r8-r15, di, si, bp, bx, dx, ax, cx, sp, ip, flags, cs|ss, fpstate (user_access_begin/end around them)"),
    op("restore_sigcontext", "alu", 5, "cs/ss |= 3; flags = (regs->flags & ~FIX_EFLAGS) | (tmpflags & FIX_EFLAGS); orig_ax = -1; force_valid_ss unless UC_STRICT_RESTORE_SS"),
    op("restore_altstack", "put_user", 3, "__copy_from_user(&new, &uss->ss_sp/flags/size); do_sigaltstack"),
  ];
  return [
    // exit_to_user_mode_loop: IRQs on around schedule() and arch_do_signal_or_restart()
    replace("reschedule", [op("exit_to_user_mode_loop", "sti", 1, "local_irq_enable_exit_to_user(ti_work)"), op("exit_to_user_mode_loop", "call", 1, "if (ti_work & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)) schedule()")]),
    replace("signal_return", [op("exit_to_user_mode_loop", "sti", 1, "local_irq_enable_exit_to_user(ti_work)"), op("exit_to_user_mode_loop", "call", 1, "if (ti_work & (_TIF_SIGPENDING | _TIF_NOTIFY_SIGNAL)) arch_do_signal_or_restart(regs)")]),
    replace("do_signal.deliver", [op("handle_signal", "alu", 4, "syscall restart rules (regs->orig_ax >= 0); no %db7 rewrite on x86-64 6.x")]),
    replace("setup_rt_frame", signalFrameHead),
    replace("setup_frame", signalFrameHead),
    replace("setup_rt_frame.tail", signalFrameTail),
    replace("setup_frame.tail", signalFrameTail),
    replace("setup_frame_retcode", [op("x64_setup_rt_frame", "alu", 1, "x86-64 has no on-stack retcode: glibc always passes SA_RESTORER (__restore_rt)")]),
    replace("setup_rt_frame.regs", [op("x64_setup_rt_frame", "store", 7, "regs->di = sig; ax = 0; si = &info; dx = &uc; ip = handler; sp = frame; cs = __USER_CS")]),
    replace("setup_frame.regs", [op("x64_setup_rt_frame", "store", 7, "regs->di = sig; ax = 0; si = &info; dx = &uc; ip = handler; sp = frame; cs = __USER_CS")]),
    replace("sigreturn_trampoline", [op("__restore_rt", "alu", 1, "handler ret pops pretcode -> __restore_rt")]),
    replace("sys_rt_sigreturn", sigreturn),
    replace("sys_sigreturn", sigreturn),
    // returns to user mode from interrupts and exceptions
    replace("restore_all", iretToUser),
    prepend("page_fault", entryFromUser("asm_exc_page_fault")),
    prepend("IRQ0x00_interrupt", entryFromUser("asm_sysvec_apic_timer_interrupt")),
    prepend("device_interrupt", entryFromUser("asm_common_interrupt")),
    // context switch (kernel-paths.md §7.2)
    replace("switch_mm", [
      op("switch_mm_irqs_off", "alu", 4, "prev = cpu_tlbstate.loaded_mm; next != prev; cpumask_set_cpu(cpu, mm_cpumask(next))"),
      op("cond_mitigation", "alu", 2, "TIF_SPEC_IB / L1D flush conditions (IBPB itself: cond_mitigation.ibpb)"),
      op("choose_new_asid", "load", 3, "cpu_tlbstate.ctxs[asid].ctx_id == next->context.ctx_id? tlb_gen up to date?"),
      op("choose_new_asid", "alu", 6, "TLB_NR_DYN_ASIDS = 6 slots: reuse this mm's ASID, need_flush only if its tlb_gen is stale"),
      op("load_new_mm_cr3", "alu", 2, m.pcid ? "build_cr3_noflush(next->pgd, new_asid): kPCID = ASID + 1, bit 63 set" : "build_cr3(next->pgd, 0): no PCID"),
      op("load_new_mm_cr3", "mov_cr3", 1, m.pcid ? "write_cr3 with NOFLUSH: the ASID's TLB entries survive (k.mm.setPcid)" : "write_cr3: flushes the TLB (no PCID)"),
      op("switch_mm_irqs_off", "store", 3, "this_cpu_write(cpu_tlbstate.loaded_mm, next); loaded_mm_asid; ctxs[asid].tlb_gen"),
    ]),
    replace("switch_to.save", [
      op("__switch_to_asm", "push", 6, "rbp, rbx, r12, r13, r14, r15"),
      op("__switch_to_asm", "store", 1, "movq %rsp, TASK_threadsp(%rdi)"),
      op("__switch_to_asm", "load", 1, "movq TASK_threadsp(%rsi), %rsp"),
      op("__switch_to_asm", "load", 1, "stack canary: movq TASK_stack_canary(%rsi), %rbx"),
      op("__switch_to_asm", "store", 1, "movq %rbx, PER_CPU_VAR(__stack_chk_guard)"),
      op("__switch_to", "alu", 2, "switch_fpu(prev, cpu) (the FPU save, if any, follows: switch_fpu_prepare)"),
    ]),
    replace("switch_to", [
      op("save_fsgs", "mov_from_sreg", 2, "RDFSBASE/RDGSBASE of prev (FSGSBASE): a segment-state read, mov_from_sreg"),
      op("load_TLS", "store", 3, "the 3 TLS descriptors into the GDT"),
      op("__switch_to", "alu", 4, "savesegment(es/ds); reload only if non-zero"),
      op("x86_fsgsbase_load", "mov_sreg", 2, "WRFSBASE/WRGSBASE of next: no op class; mov_sreg, the segment-state load, is the nearest"),
      op("__switch_to", "store", 3, "this_cpu_write(current_task, next); cpu_current_top_of_stack; update_task_stack (sp0)"),
      op("switch_to_extra", "alu", 3, "TIF_IO_BITMAP / debug registers / TIF_SPEC_* work? (none)"),
      op("__switch_to_asm", "pop", 6, "r15 ... rbp of next"),
      op("finish_task_switch", "alu", 4, "finish_lock_switch; mmdrop of a lazy mm (none)"),
    ]),
  ];
}
