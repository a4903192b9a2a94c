/**
 * How many bytes of kernel text an op stands for, so a path's code has a size the instruction cache
 * can hold or lose (machine/cache.ts). The lengths are the usual i386 encodings (Intel SDM vol. 2:
 * `int $0x80` 2 bytes, `iret` 1, `push`/`pop` 1, a register ALU op or short compare-and-branch 2,
 * a load or store with an 8-bit displacement 3, `call rel32` + `ret` 6...); ops that are hardware
 * events (exception delivery, a TLB walk, a line moved) take no text. An op repeated `n` times in a
 * path is n instructions of straight-line code; a per-line or per-register path run `n` times is
 * one loop body, fetched once per run.
 */
import type { OpClass } from "@siglab/cpu-profiles";
import type { PathDef } from "./path.js";

const BYTES: Partial<Record<string, number>> = {
  int_gate: 2, iret_user: 1, iret_kernel: 1, sysenter: 2, sysexit: 2, syscall: 2, sysret: 2,
  cli: 1, sti: 1, pushf: 1, popf: 1, mov_sreg: 2, mov_from_sreg: 2, push: 1, pop: 1,
  alu: 2, load: 3, store: 3, call: 6, call_indirect: 4, locked_op: 4,
  put_user: 3,
  // __copy_user's inline sequence: the count split, rep movsl, the tail's rep movsb, the fixup jumps
  copy_user_setup: 20,
  invlpg: 3,
  // kmem_cache_alloc/free's fast path (irq save/restore, the per-cpu/slab free list)
  slab_alloc: 40,
  mov_cr3: 3, read_cr0: 3, write_cr0: 3, clts: 2, read_cr2: 3, mov_dr: 3, wrmsr: 2, rdtsc: 2,
  fsave: 3, frstor: 3, fxsave: 3, fxrstor: 3, fninit: 2, fnclex: 2, fwait: 1, fnstenv: 3, fp_op: 3,
  // convert_fxsr_to_user/from_user's loop body for one register (twd classification, a 10-byte copy)
  fxsr_convert_reg: 60,
  apic_access: 5,
};

/** The kernel text bytes of a path (0 for a path of hardware events only). */
export function codeBytes(def: PathDef): number {
  let b = 0;
  for (const l of def.ops) b += (BYTES[l.op as OpClass] ?? 0) * (l.n ?? 1);
  return b;
}

/** Phases whose paths are user code (the program, libc, a handler), not kernel text. */
export const USER_PHASES: ReadonlySet<string> = new Set(["user", "libc", "signal.handler"]);
