/** The baseline (Linux 2.4.18 i386) implementations of the single-valued extension points. */
import type { EntryMechanism, SignalMaskStore } from "../plugin-api/extension-points.js";
import type { KernelCore } from "./core.js";
import type { Sigset } from "./sigset.js";
import type { Task } from "./task.js";

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

/** task->blocked, as 2.4 keeps it. */
export class TaskBlockedMaskStore implements SignalMaskStore {
  readonly id = "core:task-blocked";
  effectiveBlocked(_k: KernelCore, t: Task): Sigset {
    return t.blocked;
  }
}
