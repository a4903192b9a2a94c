/** The user registers the kernel saves on entry (struct pt_regs, include/asm-i386/ptrace.h). */
import { STACK_TOP, USER_CODE_BASE } from "../../machine/memory.js";

/** Integer user registers, as saved in pt_regs / sigcontext. */
export const INT_REGS = ["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp"] as const;
export type IntRegName = (typeof INT_REGS)[number];

export class UserRegs {
  eax = 0; ebx = 0; ecx = 0; edx = 0; esi = 0; edi = 0; ebp = 0;
  esp = STACK_TOP - 16;
  eip = USER_CODE_BASE;
  eflags = 0x202;
  /** pt_regs->orig_eax: the syscall number system_call pushed (-1 outside a syscall); a tracer may rewrite it */
  orig_eax = -1;

  copyFrom(o: UserRegs): void {
    this.eax = o.eax; this.ebx = o.ebx; this.ecx = o.ecx; this.edx = o.edx;
    this.esi = o.esi; this.edi = o.edi; this.ebp = o.ebp;
    this.esp = o.esp; this.eip = o.eip; this.eflags = o.eflags; this.orig_eax = o.orig_eax;
  }
  clone(): UserRegs {
    const r = new UserRegs();
    r.copyFrom(this);
    return r;
  }
  /** the integer registers (INT_REGS) equal `o`'s: field by field, for the checkers' hot path */
  intEquals(o: UserRegs): boolean {
    return this.eax === o.eax && this.ebx === o.ebx && this.ecx === o.ecx && this.edx === o.edx && this.esi === o.esi && this.edi === o.edi && this.ebp === o.ebp;
  }
}
