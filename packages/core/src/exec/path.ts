/**
 * Kernel paths: named sequences of ops (x86 instructions or op classes), each line attributed to
 * the Linux function or macro it comes from, so the path inspector reads like entry.S / signal.c.
 */
import type { OpClass } from "@siglab/cpu-profiles";

export interface OpLine {
  /** Linux function or macro this op belongs to, e.g. "SAVE_ALL", "save_i387". */
  fn: string;
  op: OpClass;
  /** repeat count within one execution of the path (default 1) */
  n?: number;
  note?: string;
}

export interface PathDef {
  /** Unique path name, e.g. "system_call", "setup_frame", "sys_getpid". */
  name: string;
  /** Phase every cycle of this path is charged to, e.g. "syscall.entry". */
  phase: string;
  ops: OpLine[];
  /** Who defined it: "core" or a plugin id (shown in the inspector). */
  origin?: string;
}

/** Effect of an op on EFLAGS.IF and CPL, so the slow path knows when interrupts can land. */
export function ifEffect(op: OpClass): 0 | 1 | undefined {
  switch (op) {
    case "cli":
    case "irq_entry":
    case "sysenter":
    case "syscall":
      return 0;
    case "sti":
    case "iret_user":
    case "sysexit":
    case "sysret":
      return 1;
    default:
      return undefined;
  }
}

export function cplEffect(op: OpClass): 0 | 3 | undefined {
  switch (op) {
    case "int_gate":
    case "exception_entry":
    case "sysenter":
    case "syscall":
      return 0;
    case "iret_user":
    case "sysexit":
    case "sysret":
      return 3;
    default:
      return undefined;
  }
}

/** Helper to write paths compactly: op("SAVE_ALL", "push", 9). */
export function op(fn: string, opClass: OpClass, n = 1, note?: string): OpLine {
  return note === undefined ? { fn, op: opClass, n } : { fn, op: opClass, n, note };
}
