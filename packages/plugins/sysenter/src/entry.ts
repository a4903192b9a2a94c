/**
 * SYSENTER/SYSEXIT as the EntryMechanism. Registers follow the 2.6.11 fast exit: SYSEXIT reloads
 * nothing from pt_regs; EIP/ESP come from EDX/ECX (loaded from pt_regs' EIP/OLDESP), eax holds
 * the value the syscall returned, ebx/esi/edi what they held at entry (callee-saved through the C
 * calls), ebp is zeroed; at SYSENTER_RETURN the stub pops the ecx/edx/ebp it pushed. Any work or
 * changed pt_regs (signal delivery, sigreturn: TIF_IRET) must therefore leave through iret.
 */
import { NR, stateKey, SYSCALL_EIP, type EntryMechanism, type Kernel, type ResolvedProfile, type Task } from "@siglab/plugin-api";

export interface SysenterOptions {
  /** how the signal trampoline enters sys_sigreturn: "int80" (2.5.53 retcode, glibc __restore) or "vsyscall" */
  sigreturnEntry: "int80" | "vsyscall";
  /** hazard: return with SYSEXIT even when there was work or pt_regs changed */
  forgetIret: boolean;
}

/** The registers __kernel_vsyscall pushed, and the live callee-saved ones, at one sysenter. */
export interface StubSave {
  ebx: number; esi: number; edi: number;
  ecx: number; edx: number; ebp: number;
}

/** Per-task state of the current kernel entry (what thread_info and the stacks hold). */
interface EntryState {
  /** how the current system call entered; null: not in a system call (interrupt, fork return) */
  via: "sysenter" | "int80" | null;
  sigreturn: boolean;
  /** the exit test found work: the exit goes through syscall_exit_work */
  work: boolean;
  /** eax at the exit test (the syscall's return value, live in %eax) */
  eax: number | undefined;
  saved: StubSave;
  /** sigreturn: the restored context was interrupted at SYSENTER_RETURN, with this stub save */
  resumeStub: StubSave | null;
}

/** per frame: the interrupted context sits at SYSENTER_RETURN (its stub save is on the user stack) */
export const STUB_KEY = stateKey<StubSave | null>("sysenter.stub", () => null);

const ENTRY_STATE = stateKey<EntryState>("sysenter.entry", () => ({ via: null, sigreturn: false, work: false, eax: undefined, saved: { ebx: 0, esi: 0, edi: 0, ecx: 0, edx: 0, ebp: 0 }, resumeStub: null }));

function stateOf(t: Task): EntryState {
  return t.slot(ENTRY_STATE);
}

export class SysenterEntry implements EntryMechanism {
  readonly id = "sysenter";
  constructor(private readonly o: SysenterOptions) {}

  checkCpu(p: ResolvedProfile): string | null {
    if (p.features.sep) return null;
    return `plugin 'sysenter': CPU '${p.name}' (${p.id}) has no SEP (SYSENTER/SYSEXIT); 2.5.53 would fall back to int $0x80 in the vsyscall page — run this CPU without the sysenter variant`;
  }

  /** Record, per frame, whether the interrupted context sits at SYSENTER_RETURN (a KernelSetupContribution calls this). */
  attach(k: Kernel): void {
    k.events.on("signal.interrupt", (t, frame) => {
      const s = stateOf(t);
      const stub = s.sigreturn ? s.resumeStub : s.via === "sysenter" ? { ...s.saved } : null;
      if (stub) frame.setSlot(STUB_KEY, stub);
    });
    k.events.on("signal.return", (t, frame) => {
      stateOf(t).resumeStub = frame.peekSlot(STUB_KEY) ?? null;
    });
  }

  enter(k: Kernel, t: Task, nr: number): void {
    const s = stateOf(t);
    s.work = false;
    s.eax = undefined;
    s.sigreturn = nr === NR.sigreturn || nr === NR.rt_sigreturn;
    s.resumeStub = null;
    if (s.sigreturn && this.o.sigreturnEntry === "int80") {
      // the on-stack retcode / glibc's __restore: movl $__NR_sigreturn,%eax; int $0x80
      s.via = "int80";
      k.run("system_call");
      return;
    }
    s.via = "sysenter";
    const r = t.regs;
    s.saved = { ebx: r.ebx, esi: r.esi, edi: r.edi, ecx: r.ecx, edx: r.edx, ebp: r.ebp };
    k.run("__kernel_vsyscall");
    k.run("sysenter_entry");
  }

  exitTest(k: Kernel, t: Task): boolean {
    const s = stateOf(t);
    if (s.via !== "sysenter") {
      k.run("ret_from_sys_call");
      return t.needResched || t.sigpending;
    }
    if (s.eax === undefined) s.eax = t.regs.eax;
    k.run("sysenter_exit_test");
    const work = t.needResched || t.sigpending;
    if (work) s.work = true;
    return work;
  }

  leave(k: Kernel, t: Task, mustIret: boolean): void {
    const s = stateOf(t);
    const via = s.via;
    const regsChanged = mustIret || s.work;
    // where user mode resumes: SYSENTER_RETURN (the stub pops ecx/edx/ebp) or elsewhere
    const stub = t.regs.eip !== SYSCALL_EIP ? null : s.sigreturn ? s.resumeStub : via === "sysenter" ? s.saved : null;
    if (via === "sysenter" && (!regsChanged || this.o.forgetIret)) {
      k.run("sysexit");
      this.sysexitRegs(t, s, stub);
      if (regsChanged) k.count("sysenter.sysexit_with_changed_regs");
    } else {
      if (via === "sysenter") k.run("syscall_exit_work");
      if (k.cpu.IF === 0) k.run("iret_sti");
      k.run("restore_all");
      k.count(via === "sysenter" ? "sysenter.iret_exits" : "sysenter.int80_exits");
    }
    if (stub) k.run("SYSENTER_RETURN");
    s.via = null;
    s.sigreturn = false;
    s.work = false;
    s.eax = undefined;
    s.resumeStub = null;
  }

  /** What user mode holds after SYSEXIT (and the stub's pops when it lands on SYSENTER_RETURN). */
  private sysexitRegs(t: Task, s: EntryState, stub: StubSave | null): void {
    const r = t.regs, live = s.saved;
    r.eax = (s.eax ?? r.eax) | 0;
    r.ebx = live.ebx;
    r.esi = live.esi;
    r.edi = live.edi;
    if (stub) {
      r.ecx = stub.ecx;
      r.edx = stub.edx;
      r.ebp = stub.ebp;
    } else {
      r.ecx = r.esp; // ecx = OLDESP, edx = EIP, xorl %ebp,%ebp
      r.edx = r.eip;
      r.ebp = 0;
    }
  }
}
