/** The simulated machine's state: the FPU register file, the TLB, address spaces, user registers. */

/**
 * The FPU/SSE register file with real values (x87 st as doubles, XMM as 32-bit lanes): a CPU's
 * live registers (Cpu.fpu), a task's saved state (Task.fpu, thread.i387) or a frame's image.
 * Values are how corruption shows: the transparency checkers compare what a task sees before and
 * after a signal or a switch.
 * @category Machine
 */
export interface FpuRegs {
  /** The x87 stack st0-st7 (80-bit values modelled as doubles). */
  readonly st: Float64Array;
  /** XMM0-XMM15 as 4 × 32-bit lanes each (register i is lanes 4i to 4i+3). */
  readonly xmm: Uint32Array;
  /** x87 control word (0x037f after fninit). */
  fcw: number;
  /** x87 status word. */
  fsw: number;
  /** abridged tag: bit i set = st(i) valid */
  ftw: number;
  /** SSE control and status register (0x1f80 after reset). */
  mxcsr: number;
  /** Copies every register of `o` into this file (fxsave/xsave-like: x87, SSE, AVX, control words). */
  copyFrom(o: FpuRegs): void;
  /** the x87/SSE part only (an i386 signal frame carries no AVX state) */
  copyLegacyFrom(o: FpuRegs): void;
  /** Whether every register and control word equals `o`'s. */
  equals(o: FpuRegs): boolean;
  /** A new register file with the same values (prefer k.fpu.take/give on paths that run often). */
  clone(): FpuRegs;
  /** fninit + the MXCSR reset value */
  init(): void;
}

/**
 * A CPU's data TLB as the simulator models it: a set of page entries of the profile's capacity;
 * a miss charges a page walk (the `tlb_miss` op) where the core touches user pages.
 * @category Machine
 */
export interface Tlb {
  /** Entries it holds (the profile's dtlbEntries). */
  readonly capacity: number;
  /** Full flushes so far in the run (CR3 reloads without PCID, flush_tlb_all). */
  flushes: number;
  /** Misses so far in the run. */
  misses: number;
  /** touch a page (key from the address space and the page number); true on a miss */
  touch(key: number): boolean;
  /** a CR3 reload without PCID */
  flushAll(): void;
}

/**
 * A task's address space (mm_struct): page protections and the sparse word values user stores
 * wrote. Threads (clone with CLONE_VM) share one; fork copies it.
 * @category Machine
 */
export interface AddressSpace {
  /** Its address-space id: what Cpu.cr3 holds while it is loaded, and the TLB tags entries with. */
  readonly asid: number;
  /** page number -> prot bits (PROT_READ 1 | PROT_WRITE 2 | PROT_EXEC 4); absent = not mapped */
  readonly pages: Map<number, number>;
  /** word values by address (what a workload's load reads and store writes) */
  readonly words: Map<number, number>;
  /** tasks sharing it (threads) */
  users: number;
  /** The protection bits of the page holding `addr`, or undefined when it is not mapped. */
  protOf(addr: number): number | undefined;
  /** map anonymous memory; returns its address */
  mmapAnon(bytes: number, prot: number): number;
  /** Unmaps the pages of [addr, addr + bytes) (do_munmap): an access there then faults. */
  unmap(addr: number, bytes: number): void;
}

/**
 * Integer user registers as saved in pt_regs on kernel entry (what a signal frame's sigcontext
 * saves, and sigreturn restores). A system call's result is in eax on return.
 * @category Machine
 */
export interface UserRegs {
  /** eax: the system call number on entry, its result on return. */
  eax: number;
  /** ebx: the first system call argument. */
  ebx: number;
  /** ecx: the second system call argument (SYSENTER/SYSCALL entries clobber it). */
  ecx: number;
  /** edx: the third system call argument. */
  edx: number;
  /** esi: the fourth system call argument. */
  esi: number;
  /** edi: the fifth system call argument. */
  edi: number;
  /** ebp: the sixth system call argument (the user stack pointer in the SYSENTER convention). */
  ebp: number;
  /** esp: the user stack pointer. */
  esp: number;
  /** eip: where user mode resumes (SYSCALL_EIP after a system call). */
  eip: number;
  /** eflags: the user flags (IF set). */
  eflags: number;
}
