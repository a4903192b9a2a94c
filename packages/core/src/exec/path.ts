/**
 * Kernel paths: named sequences of ops (x86 instructions or op classes), each line attributed to
 * the Linux function or macro it comes from, so the path inspector reads like entry.S / signal.c.
 * The path types and op() are the plugin API's; the executor's view of ops is here.
 */
import type { OpClass } from "@siglab/cpu-profiles";

export { op, type OpLine, type PathDef } from "@siglab/plugin-api";

/**
 * Exceptions that enter through an interrupt gate (IF cleared) in 2.4's trap_init: #DB, NMI and
 * #PF (set_intr_gate); the others are trap gates and leave IF alone.
 */
const INTERRUPT_GATE_EXCEPTIONS = new Set(["#DB", "NMI", "#PF"]);

/** Effect of an op on EFLAGS.IF and CPL, so the slow path knows when interrupts can land. */
export function ifEffect(op: OpClass, fn = ""): 0 | 1 | undefined {
  switch (op) {
    case "exception_entry":
      return INTERRUPT_GATE_EXCEPTIONS.has(fn) ? 0 : undefined;
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
