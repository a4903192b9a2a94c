/** Kernel paths: named op lists, each op attributed to the Linux function or macro it comes from. */
import type { OpClass } from "./op-classes.js";

export type { OpClass };

/**
 * The phases of the core, in the order results list them: every simulated cycle is charged to
 * exactly one phase, the one of the path that ran. A path may also name a phase of its own; it is
 * added to the run's phases after these.
 * @category Paths and ops
 */
export const CORE_PHASES = Object.freeze([
  "user",
  "syscall.entry",
  "syscall.body",
  "syscall.exit",
  "signal.send",
  "signal.frame",
  "signal.fpu_save",
  "signal.handler",
  "signal.sigreturn",
  "signal.fpu_restore",
  "fpu.nm_trap",
  "sched.schedule",
  "sched.switch_mm",
  "sched.switch_to",
  "fault.page_fault",
  "mm.mprotect",
  "irq.timer",
  "irq.device",
  "pipe.io",
  "libc",
  "idle",
  "cache.code",
  "cache.data",
  "cache.copy",
  "tlb.refill",
  "smp.ipi",
  "smp.hlt_exit",
] as const);

/**
 * A phase of the core as API 2.2 listed them. CORE_PHASES lists this version's, which 2.3 extended
 * with the machine's own (cache.code, cache.data, cache.copy, tlb.refill, smp.ipi, smp.hlt_exit);
 * a path may name any phase (PathDef.phase).
 * @category Paths and ops
 */
export type CorePhase =
  | "user" | "syscall.entry" | "syscall.body" | "syscall.exit" | "signal.send" | "signal.frame" | "signal.fpu_save"
  | "signal.handler" | "signal.sigreturn" | "signal.fpu_restore" | "fpu.nm_trap" | "sched.schedule" | "sched.switch_mm"
  | "sched.switch_to" | "fault.page_fault" | "mm.mprotect" | "irq.timer" | "irq.device" | "pipe.io" | "libc" | "idle";

/**
 * One line of a kernel path: an op class, attributed to the Linux function or macro it comes from.
 * Write it with op().
 * @category Paths and ops
 */
export interface OpLine {
  /** Linux function or macro this op belongs to, e.g. "SAVE_ALL", "save_i387" */
  fn: string;
  /** The op class charged: its cost comes from the run's CPU profile. */
  op: OpClass;
  /** repeat count within one execution of the path (default 1) */
  n?: number;
  /** What the line stands for in the Linux source (the instructions, the C), for the path inspector. */
  note?: string;
}

/**
 * A kernel path: a named op list charged to one phase. Running it (k.run) charges each line's op
 * cost times its count, in order; a timer or device interrupt may land between two lines.
 * @category Paths and ops
 */
export interface PathDef {
  /** unique path name, e.g. "system_call", "setup_frame" */
  name: string;
  /** the phase every cycle of this path is charged to, e.g. "syscall.entry" */
  phase: CorePhase | (string & {});
  /** The ops, in the order the Linux code runs them. */
  ops: OpLine[];
  /** who defined it: "core" or a plugin id (the path inspector shows it) */
  origin?: string;
}

/**
 * A change to an existing path (it may add, drop or reorder ops), applied when a run's paths are
 * set up: after every path is defined, in the order of the variant stack.
 * @category Paths and ops
 */
export interface PathTransform {
  /** the path to change, e.g. "ret_from_sys_call" */
  target: string;
  /** your plugin id */
  origin: string;
  /**
   * Returns the new definition of the path from its current one (as the core or an earlier
   * plugin of the stack left it); the path's origin becomes yours (or "theirs+yours").
   */
  transform(def: PathDef): PathDef;
}

/**
 * Writes a path line compactly: `op("SAVE_ALL", "push", 9, "es, ds, eax, ...")` is the OpLine
 * `{ fn: "SAVE_ALL", op: "push", n: 9, note: "es, ds, eax, ..." }`.
 * @category Paths and ops
 */
export function op(fn: string, opClass: OpClass, n = 1, note?: string): OpLine {
  return note === undefined ? { fn, op: opClass, n } : { fn, op: opClass, n, note };
}
