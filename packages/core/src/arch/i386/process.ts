/**
 * The i386 half of a context switch (arch/i386/kernel/process.c __switch_to, reached through
 * include/asm-i386/system.h's switch_to): the outgoing task's FPU (unlazy_fpu, or the run's
 * SwitchFpuPolicy), then the TSS's esp0, the segment and debug registers and the I/O bitmap, and
 * the CPU runs `next` from here on.
 */
import type { KernelCore } from "../../kernel/core.js";
import { pathRefs } from "../../kernel/path-refs.js";
import type { Task } from "../../kernel/task.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["switch_to", "switch_to.save"]);

/** switch_to(prev, next): __switch_to's work; `next` is current afterwards. */
export function __switch_to(k: KernelCore, prev: Task, next: Task): void {
  // __switch_to: unlazy_fpu(prev) first, then the TSS, segments, debug registers, I/O bitmap
  k.runRef(P["switch_to.save"]);
  k.deps.switchFpu.switchOut(k, prev);
  k.runRef(P["switch_to"]);
  k.current = next;
  k.ex.timelineTask = next.pid;
  k.deps.switchFpu.switchIn(k, next);
}
