/**
 * One-op paths that charge the machine's own costs (the plugin API's MACHINE_OP_CLASSES): the cache
 * model's line refills (kernel/footprint.ts, machine/cache.ts), a line of code or data the L1 no
 * longer holds brought back from L2 or from memory and the lines a bulk copy moves, each run once
 * per line; a kernel translation walked again; a halted CPU's wake-up (kernel/irq.ts). (No Linux
 * 2.4 counterpart: the hardware charges these, not a kernel function.)
 */
import type { MachineOpClass, OpClass } from "@siglab/plugin-api";
import { op as opLine, type OpLine, type PathDef } from "../../../exec/path.js";

/** An op line of the cache model: the memory hierarchy's op classes (API 2.3) are for core paths only. */
function op(fn: string, opClass: MachineOpClass, n = 1, note?: string): OpLine {
  return opLine(fn, opClass as unknown as OpClass, n, note);
}

export const CACHE_PATHS: PathDef[] = [
  { name: "icache.l2", phase: "cache.code", ops: [op("instruction fetch", "l2_line", 1, "a line of kernel code the L1I (or trace cache) no longer holds, from L2")] },
  { name: "icache.memory", phase: "cache.code", ops: [op("instruction fetch", "memory_line", 1, "a line of kernel code no cache holds, from memory")] },
  { name: "icache.decode", phase: "cache.code", ops: [op("trace cache miss", "decode_line", 1, "a path whose code the trace cache lacks: the switch to build mode (P4)")] },
  { name: "dcache.l2", phase: "cache.data", ops: [op("load/store", "l2_line", 1, "a line of kernel or user data the L1D no longer holds, from L2")] },
  { name: "dcache.memory", phase: "cache.data", ops: [op("load/store", "memory_line", 1, "a line no cache holds, from memory")] },
  { name: "hlt_exit", phase: "smp.hlt_exit", ops: [op("cpu_idle: safe_halt()", "hlt_exit", 1, "the halted CPU restarts its clock for the interrupt (sti; hlt in default_idle, 2.4 arch/i386/kernel/process.c)")] },
  { name: "kernel_tlb_refill", phase: "tlb.refill", ops: [opLine("page walk", "tlb_miss", 1, "a kernel 4 MB page's translation, lost to a CR3 write on a CPU without global pages (a PDE-only walk, charged as a full one)")] },
  { name: "copy.l2_lines", phase: "cache.copy", ops: [op("__copy_user / memcpy", "l2_copy_line", 1, "a line a bulk copy moves between L2 and L1")] },
  { name: "copy.memory_lines", phase: "cache.copy", ops: [op("__copy_user / memcpy", "memory_copy_line", 1, "a line a bulk copy moves over the front-side bus (read, read for ownership, write-back)")] },
];
