/** Kernel paths: named op lists, each op attributed to the Linux function or macro it comes from. */
import type { OpClass } from "./op-classes.js";

export type { OpClass };

/** The phases of the core; a path may name a new phase (it is added to the run's phase table). */
export type CorePhase =
  | "user" | "syscall.entry" | "syscall.body" | "syscall.exit" | "signal.send" | "signal.frame" | "signal.fpu_save"
  | "signal.handler" | "signal.sigreturn" | "signal.fpu_restore" | "fpu.nm_trap" | "sched.schedule" | "sched.switch_mm"
  | "sched.switch_to" | "fault.page_fault" | "mm.mprotect" | "irq.timer" | "irq.device" | "pipe.io" | "libc" | "idle"
  | "cache.code" | "cache.data" | "cache.copy" | "tlb.refill" | "smp.ipi" | "smp.hlt_exit";

/** One line of a kernel path: an op class, attributed to the Linux function or macro it comes from. */
export interface OpLine {
  /** Linux function or macro this op belongs to, e.g. "SAVE_ALL", "save_i387" */
  fn: string;
  op: OpClass;
  /** repeat count within one execution of the path (default 1) */
  n?: number;
  note?: string;
}

/** A kernel path: a named op list charged to one phase. */
export interface PathDef {
  /** unique path name, e.g. "system_call", "setup_frame" */
  name: string;
  /** the phase every cycle of this path is charged to, e.g. "syscall.entry" */
  phase: CorePhase | (string & {});
  ops: OpLine[];
  /** who defined it: "core" or a plugin id (the path inspector shows it) */
  origin?: string;
}

/** A change to an existing path (it may add, drop or reorder ops). */
export interface PathTransform {
  /** the path to change, e.g. "ret_from_sys_call" */
  target: string;
  /** your plugin id */
  origin: string;
  transform(def: PathDef): PathDef;
}

/** Writes a path line compactly: op("SAVE_ALL", "push", 9, "es, ds, eax, ..."). */
export function op(fn: string, opClass: OpClass, n = 1, note?: string): OpLine {
  return note === undefined ? { fn, op: opClass, n } : { fn, op: opClass, n, note };
}
