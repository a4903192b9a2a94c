/**
 * entry_SYSCALL_64 as the EntryMechanism (kernel-paths.md §4): SYSCALL, swapgs, the PTI CR3
 * switch, pt_regs, IBRS/untraining, do_syscall_64; on the way out syscall_exit_to_user_mode (the
 * exit work loop is the core's: exitTest is its flag test), the deferred FPU restore, and SYSRET
 * -- or IRET when pt_regs were changed (a signal frame, sigreturn) or the task did not enter by
 * SYSCALL (a new child's ret_from_fork).
 */
import { NR, stateKey, type EntryMechanism, type Kernel, type ResolvedProfile, type Task } from "@siglab/plugin-api";
import { sigaltstackEnter, sigaltstackExit } from "./altstack.js";
import { restoreUserRegs } from "./fpu.js";
import type { Mitigations } from "./mitigations.js";
import { SE } from "./sched-fair.js";

interface EntryState {
  /** entered by SYSCALL (null: ret_from_fork or an interrupt/exception frame) */
  via: "syscall" | null;
  nr: number;
}

const ENTRY = stateKey<EntryState>("linux6.entry", () => ({ via: null, nr: -1 }));

export class Syscall64Entry implements EntryMechanism {
  readonly id = "linux6:entry_SYSCALL_64";
  constructor(private readonly resolve: (p: ResolvedProfile) => Mitigations, private readonly cfg: () => Mitigations) {}

  checkCpu(p: ResolvedProfile): string | null {
    if (!p.features.lm || !p.features.syscall) {
      return `plugin 'linux6': CPU '${p.name}' (${p.id}) has no long mode / SYSCALL: Linux 6.x x86-64 needs an x86-64 CPU (skylake, skylake-x, zen4, zen5)`;
    }
    if (!p.features.xsave) return `plugin 'linux6': CPU '${p.name}' (${p.id}) has no XSAVE: the modelled signal frames are XSAVE frames`;
    this.resolve(p);
    return null;
  }

  enter(k: Kernel, t: Task, nr: number): void {
    const m = this.cfg();
    const s = t.slot(ENTRY);
    s.via = "syscall";
    s.nr = nr;
    if (nr === NR.sigaltstack) sigaltstackEnter(t);
    // do_sched_yield: the fair scheduler's yield_task_fair happens at the pick that follows
    if (nr === NR.sched_yield) t.slot(SE).yielding = true;
    k.run("entry_SYSCALL_64");
    if (m.pti) k.run("SWITCH_TO_KERNEL_CR3");
    k.run("entry_SYSCALL_64.pt_regs");
    if (m.spectreV2 === "ibrs") k.run("IBRS_ENTER");
    if (m.retbleedUntrain) k.run("UNTRAIN_RET");
    k.run("do_syscall_64");
    k.count(m.pti ? "linux6.pti_entries" : "linux6.entries");
  }

  exitTest(k: Kernel, t: Task): boolean {
    k.run("syscall_exit_to_user_mode");
    return t.needResched || t.sigpending;
  }

  leave(k: Kernel, t: Task, mustIret: boolean): void {
    const m = this.cfg();
    const s = t.slot(ENTRY);
    if (s.nr === NR.sigaltstack) sigaltstackExit(t, t.regs.eax | 0);
    if (s.nr === NR.sched_yield) t.slot(SE).yielding = false;
    // arch_exit_to_user_mode_prepare: TIF_NEED_FPU_LOAD -> fpregs_restore_userregs
    restoreUserRegs(k, t);
    const sysret = s.via === "syscall" && !mustIret;
    if (s.via === "syscall") k.run("do_syscall_64.sysret_check");
    if (m.spectreV2 === "ibrs") k.run("IBRS_EXIT");
    if (sysret) {
      k.run("syscall_return_via_sysret");
      if (m.pti) this.userCr3(k, m);
      k.run("syscall_return_via_sysret.swapgs");
      if (m.verw) k.run("CLEAR_CPU_BUFFERS");
      k.run("sysretq");
      k.count("linux6.sysret_exits");
    } else {
      k.run("swapgs_restore_regs_and_return_to_usermode");
      if (m.pti) this.userCr3(k, m);
      k.run("swapgs_restore_regs_and_return_to_usermode.swapgs");
      if (m.verw) k.run("CLEAR_CPU_BUFFERS");
      if (k.cpu.IF === 0) k.run("iret_sti"); // as the baseline: iret that turns IF back on
      k.run("iretq");
      k.count("linux6.iret_exits");
    }
    s.via = null;
    s.nr = -1;
  }

  private userCr3(k: Kernel, m: Mitigations): void {
    k.run("SWITCH_TO_USER_CR3");
    // without PCID both CR3 writes of PTI flush the TLB: the user's pages miss again after return
    if (!m.pcid) {
      k.cpu.tlb.flushAll();
      k.count("tlb.flushes");
    }
  }
}
