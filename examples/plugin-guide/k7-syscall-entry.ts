/**
 * k7-syscall-entry: what if Linux i386 had used AMD's SYSCALL/SYSRET on the Athlon? (It chose
 * SYSENTER, 2.5.53.) x86-64's ia32 layer did, with arch/x86_64/ia32/vsyscall-syscall.S:
 *   push %ebp; movl %ecx,%ebp; syscall; movl $__USER32_DS,%ecx; movl %ecx,%ss; movl %ebp,%ecx; popl %ebp; ret
 * SYSCALL leaves the return EIP in ecx: argument 2 travels in ebp, argument 6 on the user stack.
 *
 * Mechanism. Legacy-mode SYSCALL loads CS/SS from STAR, clears IF, switches no stack: the entry
 * (after sysenter_entry and ia32_cstar_target) loads esp0, builds the hardware frame, SAVE_ALL,
 * call *sys_call_table. SYSRET (EIP = ecx, IF = 1) only when there was no work and nothing changed
 * pt_regs; otherwise 2.4's RESTORE_ALL + iret. sigreturn (the retcode) and clone (glibc's clone.S)
 * use int $0x80. Registers: t.regs is pt_regs; the stub's push/mov happen at entry, pt_regs->ecx
 * gets argument 2, pt_regs->ebp keeps the stub's ebp. Wherever user mode resumes in the stub its
 * tail runs (ecx = ebp; popl %ebp): the pushed ebp is kept per entry, per signal frame (sigreturn
 * back into the stub) and for a fork child (its copy of the stack).
 *
 * Hazard. stub=naive: a libc that just executes `syscall`: ecx comes back as the return address.
 */
import { ContainerModule, NR, SYSCALL_EIP, TOKENS, op, stateKey } from "@siglab/plugin-api";
import type { CreateModule, EntryMechanism, Kernel, OpLine, PathDef, PluginManifest, ResolvedProfile, Task } from "@siglab/plugin-api";

export const ID = "k7-syscall-entry";

export const manifest: PluginManifest = {
  id: ID,
  version: "1.0.0",
  apiVersion: "2.0",
  displayName: "SYSCALL/SYSRET system calls on the Athlon (what if)",
  description: "AMD's SYSCALL/SYSRET in 32-bit legacy mode as the system call entry, with x86-64's ia32 vsyscall stub (argument 2 in ebp); SYSRET after a plain call, iret after work or a pt_regs change. Needs a CPU with SYSCALL (the K7). Its hazard: a stub that does not save ecx.",
  options: {
    stub: { type: "enum", values: ["x86-64-ia32", "naive"], default: "x86-64-ia32", description: "x86-64-ia32: push %ebp; movl %ecx,%ebp; syscall; ...; movl %ebp,%ecx; popl %ebp. naive: just syscall (HAZARD: the caller's ecx comes back as the return address)" },
  },
  contributes: ["EntryMechanism", "PathContribution", "KernelSetupContribution"],
  replaces: ["EntryMechanism"],
  main: "dist/index.cjs",
};

/** Per task: the call in flight, and the ebp the stub pushed (on the user stack until the tail pops it). */
const STATE = stateKey(`${ID}.entry`, () => ({
  via: null as "syscall" | null, nr: -1, sigreturn: false, work: false, restart: false,
  pushed: null as number | null, // this entry's; after sigreturn the restored context's; a fork child's parent's
  tail: null as number | null, // owed after sigreturn: run at return.user, after the core checked the registers
}));
/** per signal frame: the interrupted context is in the stub, with this ebp pushed */
const FRAME_PUSHED = stateKey<number | null>(`${ID}.pushed`, () => null);

function paths(ia32: boolean): PathDef[] {
  const only = (lines: OpLine[]) => (ia32 ? lines : []);
  const path = (name: string, phase: string, ops: OpLine[]): PathDef => ({ name: `${ID}.${name}`, phase, origin: ID, ops });
  return [
    path("stub", "syscall.entry", [
      op("libc syscall stub", "alu", 3, "movl $nr,%eax; load args into ebx..ebp"),
      ...only([op("libc syscall stub", "call", 1, "call *%gs:AT_SYSINFO (and the stub's ret)"), op("__kernel_vsyscall", "push", 1, "pushl %ebp"), op("__kernel_vsyscall", "alu", 1, "movl %ecx,%ebp")]),
      op("__kernel_vsyscall", "syscall", 1, "ecx = return EIP; CS, SS, EIP from STAR; IF = 0; esp unchanged"),
    ]),
    path("entry", "syscall.entry", [
      op("syscall_entry", "store", 1, "movl %esp,%ss:user_esp"),
      op("syscall_entry", "load", 1, "movl %ss:init_tss+ESP0,%esp: this task's kernel stack"),
      op("syscall_entry", "sti", 1),
      op("syscall_entry", "push", 2, "fake hardware frame: pushl $__USER_DS; pushl %ss:user_esp"),
      op("syscall_entry", "pushf", 1, "pushfl (legacy SYSCALL saves no EFLAGS)"),
      op("syscall_entry", "push", 3, "pushl $__USER_CS; pushl %ecx (return EIP); pushl %eax (orig_eax)"),
      ...only([
        op("syscall_entry", "alu", 1, "movl %ebp,%ecx: argument 2 ('lies slightly to ptrace')"),
        op("syscall_entry", "load", 1, "movl %ss:user_esp,%ebp"),
        op("syscall_entry", "alu", 2, "cmpl $__PAGE_OFFSET-3,%ebp; jae syscall_fault"),
        op("syscall_entry", "put_user", 1, "movl (%ebp),%ebp: argument 6, the pushed ebp"),
      ]),
      op("SAVE_ALL", "alu", 1, "cld"),
      op("SAVE_ALL", "push", 9, "es, ds, eax, ebp, edi, esi, edx, ecx, ebx"),
      op("SAVE_ALL", "mov_sreg", 2, "__KERNEL_DS into ds, es"),
      op("GET_CURRENT", "alu", 2, "movl $-8192,%ebx; andl %esp,%ebx"),
      op("system_call", "load", 1, "testb $0x02,tsk_ptrace(%ebx)"),
      op("system_call", "alu", 2, "jne tracesys; cmpl $(NR_syscalls),%eax; jae badsys"),
      op("system_call", "call_indirect", 1, "call *SYMBOL_NAME(sys_call_table)(,%eax,4)"),
    ]),
    path("exit_test", "syscall.exit", [
      op("system_call", "store", 1, "movl %eax,EAX(%esp)"),
      ...only([op("syscall_entry", "load", 1, "movl ECX(%esp),%edx"), op("syscall_entry", "store", 1, "movl %edx,EBP(%esp): the stub's ebp back")]),
      op("ret_from_sys_call", "cli", 1),
      op("ret_from_sys_call", "load", 2, "cmpl $0,need_resched(%ebx); cmpl $0,sigpending(%ebx)"),
      op("ret_from_sys_call", "alu", 2, "jne reschedule; jne signal_return"),
    ]),
    path("sysret", "syscall.exit", [
      op("RESTORE_ALL", "pop", 7, "ebx, ecx, edx, esi, edi, ebp, eax"),
      op("RESTORE_ALL", "mov_sreg", 2, "popl %ds; popl %es"),
      op("syscall_exit", "alu", 1, "addl $4,%esp (orig_eax)"),
      op("syscall_exit", "load", 2, "movl EIP(%esp),%ecx; movl OLDESP(%esp),%esp"),
      op("syscall_exit", "sysret", 1, "CPL 3, EIP = ecx, IF = 1"),
    ]),
    // user code, charged to syscall.exit as sysenter's SYSENTER_RETURN is: the call's round trip
    ...(ia32 ? [path("stub_tail", "syscall.exit", [
      op("__kernel_vsyscall", "alu", 1, "movl $__USER32_DS,%ecx"),
      op("__kernel_vsyscall", "mov_sreg", 1, "movl %ecx,%ss: SYSRET set SS's descriptor cache to fixed values"),
      op("__kernel_vsyscall", "alu", 1, "movl %ebp,%ecx"),
      op("__kernel_vsyscall", "pop", 1, "popl %ebp"),
    ])] : []),
  ];
}

class SyscallEntry implements EntryMechanism {
  readonly id = ID;
  constructor(private readonly ia32: boolean) {}

  checkCpu(p: ResolvedProfile): string | null {
    if (p.features.syscall) return null;
    return `plugin '${ID}': CPU '${p.name}' (${p.id}) has no SYSCALL/SYSRET in 32-bit mode (an AMD feature: the K7 has it, Intel CPUs only in 64-bit mode) — run this CPU without the ${ID} variant`;
  }

  /** The pushed ebp travels with signal frames; the tail owed after sigreturn (a KernelSetupContribution calls this). */
  attach(k: Kernel): void {
    const inStub = (t: Task) => t.regs.eip === SYSCALL_EIP || t.regs.eip === SYSCALL_EIP - 2;
    k.events.on("signal.interrupt", (t, frame) => {
      const s = t.slot(STATE);
      if (s.pushed !== null && inStub(t)) frame.setSlot(FRAME_PUSHED, s.pushed);
    });
    k.events.on("signal.return", (t, frame) => {
      t.slot(STATE).pushed = frame.peekSlot(FRAME_PUSHED) ?? null;
    });
    k.events.on("return.user", (t, intoHandler) => {
      const s = t.peekSlot(STATE);
      if (s?.tail == null) return;
      if (!intoHandler) this.tail(k, t, s.tail);
      s.tail = null;
    });
  }

  enter(k: Kernel, t: Task, nr: number): void {
    const s = t.slot(STATE), r = t.regs;
    const restart = s.restart; // do_signal rewound eip by 2: only `syscall` runs again
    s.nr = nr;
    s.work = s.restart = false;
    s.sigreturn = nr === NR.sigreturn || nr === NR.rt_sigreturn;
    s.via = s.sigreturn || nr === NR.clone ? null : "syscall";
    if (s.via === null) {
      s.pushed = null;
      return k.baseline.entry.enter(k, t, nr); // int $0x80
    }
    if (this.ia32 && !restart) [s.pushed, r.ebp] = [r.ebp, r.ecx]; // push %ebp; movl %ecx,%ebp
    if (!this.ia32) r.ecx = SYSCALL_EIP; // SYSCALL: ecx = return EIP, the caller's ecx is gone
    k.run(`${ID}.stub`);
    k.run(`${ID}.entry`);
  }

  exitTest(k: Kernel, t: Task): boolean {
    const s = t.slot(STATE);
    if (s.via !== "syscall") return k.baseline.entry.exitTest(k, t);
    k.run(`${ID}.exit_test`);
    const work = t.needResched || t.sigpending;
    s.work ||= work;
    return work;
  }

  leave(k: Kernel, t: Task, mustIret: boolean): void {
    const s = t.slot(STATE), r = t.regs;
    // fork's child returns into the stub on its copy of the user stack: the parent's push is on it
    if (s.via === "syscall" && s.nr === NR.fork && r.eax > 0) k.tasks.get(r.eax)?.setSlot(STATE, { ...STATE.create(), pushed: s.pushed });
    if (s.via === "syscall" && !mustIret && !s.work) {
      k.run(`${ID}.sysret`);
      r.ecx = SYSCALL_EIP; // SYSRET returned to ecx; ebp is pt_regs->ebp, the stub's
      if (s.pushed !== null) this.tail(k, t, s.pushed);
    } else {
      k.baseline.entry.leave(k, t, mustIret); // RESTORE_ALL; iret: user mode gets pt_regs
      if (s.pushed !== null && r.eip === SYSCALL_EIP - 2) s.restart = true; // do_signal restarts the call
      else if (s.pushed !== null && r.eip === SYSCALL_EIP) {
        // back in the stub; after sigreturn the core first checks the registers it restored
        if (s.sigreturn) s.tail = s.pushed;
        else this.tail(k, t, s.pushed);
      }
    }
    s.via = null;
    s.sigreturn = s.work = false;
    if (!s.restart) s.pushed = null;
  }

  /** User mode resumes at the stub's tail: ecx = ebp (the caller's ecx); popl %ebp. */
  private tail(k: Kernel, t: Task, pushed: number): void {
    k.run(`${ID}.stub_tail`);
    [t.regs.ecx, t.regs.ebp] = [t.regs.ebp, pushed];
  }
}

export const createModule: CreateModule = (options) => {
  const entry = new SyscallEntry(options["stub"] !== "naive");
  return new ContainerModule(({ bind, rebind }) => {
    rebind(TOKENS.EntryMechanism).toConstantValue(entry);
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => paths(options["stub"] !== "naive") });
    bind(TOKENS.KernelSetupContribution).toConstantValue({ setup: (k) => entry.attach(k) });
  });
};
