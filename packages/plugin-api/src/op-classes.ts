/** The op classes the executor charges (every CPU profile gives a cost for each). */
/**
 * What the executor needs to know of an op class: the unit it is charged per, and what it is.
 * @category Paths and ops
 */
export interface OpClassInfo {
  /** What the op is, in a sentence (the path inspector and the profile docs show it). */
  readonly description: string;
  /**
   * What one occurrence is, i.e. what a profile's cost is per: "instr" one instruction, "event"
   * one hardware event (an exception, an interrupt delivery, a TLB miss), "line" one unit of data
   * moved (a cache line of the profile's line size; for XSAVE/XRSTOR a 64-byte chunk).
   */
  readonly unit: "instr" | "line" | "event";
}

/**
 * Every op class a kernel path may use, with its unit and description. Every CPU profile must give
 * a cost for each (CpuProfileFile.costs; the loader refuses a profile that lacks one, naming the
 * op and the profile), in core clock cycles per occurrence — per `unit` for ops that move data.
 * The path inspector shows ops by these names.
 * @category Paths and ops
 */
export const OP_CLASSES = {
  // --- privilege transitions --------------------------------------------------------------
  int_gate: { unit: "instr", description: "`int n` through a trap/interrupt gate with a CPL 3->0 change: IDT lookup, TSS stack switch, 5-word push" },
  exception_entry: { unit: "event", description: "CPU exception delivery (#PF, #NM, #GP) from user mode through an IDT gate, including the error-code push" },
  irq_entry: { unit: "event", description: "hardware interrupt delivery (timer, device) through an interrupt gate" },
  iret_user: { unit: "instr", description: "`iret` returning to CPL 3 (pops EIP, CS, EFLAGS, ESP, SS)" },
  iret_kernel: { unit: "instr", description: "`iret` returning to the same privilege level (interrupt taken in kernel mode)" },
  iret_if_change: { unit: "event", description: "extra cost inside `iret` when the popped EFLAGS.IF differs from the current IF (Linus's 'implicit sti' hypothesis)" },
  sysenter: { unit: "instr", description: "`sysenter` (CPL 3->0 through the SYSENTER MSRs)" },
  sysexit: { unit: "instr", description: "`sysexit` (CPL 0->3 to EDX/ECX)" },
  syscall: { unit: "instr", description: "`syscall` (x86-64 fast entry through LSTAR)" },
  sysret: { unit: "instr", description: "`sysret` (x86-64 fast return)" },
  // --- flags, segments, stack --------------------------------------------------------------
  cli: { unit: "instr", description: "`cli`" },
  sti: { unit: "instr", description: "`sti`" },
  pushf: { unit: "instr", description: "`pushfl`" },
  popf: { unit: "instr", description: "`popfl`" },
  mov_sreg: { unit: "instr", description: "load of a segment register (descriptor fetch and checks)" },
  mov_from_sreg: { unit: "instr", description: "store of a segment register to a register or memory" },
  push: { unit: "instr", description: "one stack push" },
  pop: { unit: "instr", description: "one stack pop" },
  // --- plain work --------------------------------------------------------------------------
  alu: { unit: "instr", description: "a simple ALU op, compare or predicted branch" },
  load: { unit: "instr", description: "a load that hits L1" },
  store: { unit: "instr", description: "a store that hits L1" },
  call: { unit: "instr", description: "a direct call plus its ret" },
  call_indirect: { unit: "instr", description: "an indirect call through a table plus its ret" },
  locked_op: { unit: "instr", description: "a `lock`-prefixed read-modify-write (atomic op, spin_lock on SMP)" },
  // --- memory and copies -------------------------------------------------------------------
  put_user: { unit: "instr", description: "`__put_user`/`__get_user` of one word with its exception-table fixup" },
  copy_user_setup: { unit: "event", description: "fixed cost of one `copy_to_user`/`copy_from_user` call (access_ok, alignment, rep setup)" },
  copy_user_line: { unit: "line", description: "`copy_to_user`/`copy_from_user`: one cache line moved (hot cache)" },
  memcpy_line: { unit: "line", description: "user-space libc memcpy with integer registers: one cache line (hot cache)" },
  sse_memcpy_line: { unit: "line", description: "user-space libc memcpy with SSE registers: one cache line (hot cache)" },
  tlb_miss: { unit: "event", description: "a TLB miss: page-table walk and TLB fill" },
  invlpg: { unit: "instr", description: "`invlpg` (single-page TLB flush)" },
  slab_alloc: { unit: "event", description: "kmem_cache_alloc/free fast path (e.g. a sigqueue entry)" },
  // --- control registers, MSRs, timing -----------------------------------------------------
  mov_cr3: { unit: "instr", description: "write to CR3 (address-space switch; flushes non-global TLB entries unless PCID keeps them)" },
  read_cr0: { unit: "instr", description: "read of CR0" },
  write_cr0: { unit: "instr", description: "write of CR0 (`stts` is a read plus this write); serializing" },
  clts: { unit: "instr", description: "`clts` (clear CR0.TS)" },
  read_cr2: { unit: "instr", description: "read of CR2 (page-fault address)" },
  mov_dr: { unit: "instr", description: "write to a debug register (do_signal rewrites %db7 on every handled signal in 2.4)" },
  wrmsr: { unit: "instr", description: "`wrmsr`" },
  rdtsc: { unit: "instr", description: "`rdtsc`" },
  // --- FPU state ---------------------------------------------------------------------------
  fsave: { unit: "instr", description: "`fnsave` of the 108-byte x87 state (also reinitialises the FPU)" },
  frstor: { unit: "instr", description: "`frstor` of the 108-byte x87 state" },
  fxsave: { unit: "instr", description: "`fxsave` of the 512-byte x87+SSE state" },
  fxrstor: { unit: "instr", description: "`fxrstor` of the 512-byte x87+SSE state" },
  xsave_chunk: { unit: "line", description: "XSAVE/XSAVEOPT/XSAVES: one 64-byte chunk of enabled state written" },
  xrstor_chunk: { unit: "line", description: "XRSTOR/XRSTORS: one 64-byte chunk of enabled state read" },
  fninit: { unit: "instr", description: "`fninit`" },
  fnclex: { unit: "instr", description: "`fnclex`" },
  fwait: { unit: "instr", description: "`fwait`" },
  fnstenv: { unit: "instr", description: "`fnstenv`/`fldenv` pair (28-byte x87 environment, glibc swapcontext)" },
  fp_op: { unit: "instr", description: "a user x87/SSE arithmetic instruction" },
  fxsr_convert_reg: { unit: "event", description: "convert_fxsr_to_user/from_user: one x87 register converted between the 16-byte FXSR slot and the 10-byte i387 layout (incl. twd classification)" },
} as const satisfies Record<string, OpClassInfo>;

/**
 * The name of an op class (a key of OP_CLASSES), e.g. "int_gate", "fxsave", "copy_user_line".
 * @category Paths and ops
 */
export type OpClass = keyof typeof OP_CLASSES;
/**
 * The op classes' names in OP_CLASSES' order.
 * @category Paths and ops
 */
export const OP_CLASS_IDS = Object.keys(OP_CLASSES) as OpClass[];
/**
 * API 2.2: the op classes only an SMP machine runs. A profile may leave them out (it then runs one
 * CPU only); core paths of the SMP kernel use them (paths of plugins cannot).
 * @category Paths and ops
 */
export const SMP_OP_CLASSES = {
  apic_access: { unit: "instr", description: "a read or write of a local APIC register (ICR, EOI): an uncached access to the on-chip APIC" },
  ipi_delivery: { unit: "event", description: "cycles from the ICR write until the target CPU takes the inter-processor interrupt (APIC bus or system-bus message); a delay, not charged to the sender" },
  cacheline_transfer: { unit: "line", description: "a cache line modified in another CPU's cache read or written here (snoop hit on a modified line, the line moves)" },
} as const satisfies Record<string, OpClassInfo>;

/**
 * The name of an SMP op class (a key of SMP_OP_CLASSES).
 * @category Paths and ops
 */
export type SmpOpClass = keyof typeof SMP_OP_CLASSES;
/**
 * The SMP op classes' names in SMP_OP_CLASSES' order.
 * @category Paths and ops
 */
export const SMP_OP_CLASS_IDS = Object.keys(SMP_OP_CLASSES) as SmpOpClass[];

/**
 * API 2.3: what the machine costs beyond its instructions: the memory hierarchy (a line from L2 or
 * from memory, the lines a bulk copy moves, code the P4's trace cache decodes again) and a halted
 * CPU's wake-up. A profile may leave any of them out: without the memory hierarchy's its runs model
 * no caches (every access hits L1, as before 2.3); without hlt_exit a halted CPU wakes at no cost.
 * The core charges them (its cache model, its idle loop); plugin paths do not use them.
 * @category Paths and ops
 */
export const MACHINE_OP_CLASSES = {
  l2_line: { unit: "line", description: "a line L1 no longer holds, read from L2: the L2 load-to-use latency beyond an L1 hit" },
  memory_line: { unit: "line", description: "a line no cache holds, read from memory: the memory load-to-use latency beyond an L1 hit" },
  l2_copy_line: { unit: "line", description: "a line moved between L2 and L1 by a bulk copy (rep movs): the L2's transfer time per line, the copy's misses overlapping" },
  memory_copy_line: { unit: "line", description: "a line moved over the front-side bus by a bulk copy (a read, a read for ownership or a write-back): the bus's transfer time per line" },
  decode_line: { unit: "line", description: "a line of code missing from a decoded-instruction cache (the P4's trace cache) decoded again, at the decoder's rate" },
  hlt_exit: { unit: "event", description: "a halted CPU (the idle loop's `hlt`) coming back to run the interrupt that woke it (its clock restarted, before the interrupt's entry)" },
} as const satisfies Record<string, OpClassInfo>;

/**
 * API 2.3: the name of a machine op class (a key of MACHINE_OP_CLASSES).
 * @category Paths and ops
 */
export type MachineOpClass = keyof typeof MACHINE_OP_CLASSES;
/**
 * API 2.3: the machine op classes' names in MACHINE_OP_CLASSES' order.
 * @category Paths and ops
 */
export const MACHINE_OP_CLASS_IDS = Object.keys(MACHINE_OP_CLASSES) as MachineOpClass[];
