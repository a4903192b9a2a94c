/**
 * The baseline EntryMechanism: int $0x80 through a trap gate (arch/i386/kernel/traps.c
 * set_system_gate(SYSCALL_VECTOR, &system_call)), ret_from_sys_call's test with cli, RESTORE_ALL
 * and iret (arch/i386/kernel/entry.S), charged as the hot paths the kernel resolved once.
 */
import type { KernelCore } from "../../kernel/core.js";
import type { Task } from "../../kernel/task.js";
import type { EntryMechanism } from "../../plugin-api/extension-points.js";

/** int $0x80 through a trap gate; ret_from_sys_call with cli; RESTORE_ALL + iret. */
export class Int80Entry implements EntryMechanism {
  readonly id = "core:int80";

  checkCpu(): string | null {
    return null;
  }

  enter(k: KernelCore): void {
    k.ex.run(k.hot.system_call);
  }

  exitTest(k: KernelCore, t: Task): boolean {
    k.ex.run(k.hot.ret_from_sys_call);
    return t.needResched || t.sigpending;
  }

  leave(k: KernelCore): void {
    // iret pays extra when it must re-enable interrupts (IF 0 -> 1)
    if (k.cpu.IF === 0) k.ex.run(k.hot.iret_sti);
    k.ex.run(k.hot.restore_all);
  }
}
