/**
 * The simulated machine's state as plugins see it: the FPU register file, the TLB, address spaces
 * and user registers (the Cpu that holds them is in model.ts).
 */

/** The FPU/SSE register file with real values (x87 st as doubles, XMM as 32-bit lanes). */
export interface FpuRegs {
  readonly st: Float64Array;
  readonly xmm: Uint32Array;
  fcw: number;
  fsw: number;
  /** abridged tag: bit i set = st(i) valid */
  ftw: number;
  mxcsr: number;
  copyFrom(o: FpuRegs): void;
  /** the x87/SSE part only (an i386 signal frame carries no AVX state) */
  copyLegacyFrom(o: FpuRegs): void;
  equals(o: FpuRegs): boolean;
  clone(): FpuRegs;
  /** fninit + the MXCSR reset value */
  init(): void;
}

export interface Tlb {
  readonly capacity: number;
  flushes: number;
  misses: number;
  /** touch a page (key from the address space and the page number); true on a miss */
  touch(key: number): boolean;
  /** a CR3 reload without PCID */
  flushAll(): void;
}

/** A task's address space: page protections and the sparse word values user stores wrote. */
export interface AddressSpace {
  readonly asid: number;
  /** page number -> prot bits (PROT_READ 1 | PROT_WRITE 2 | PROT_EXEC 4); absent = not mapped */
  readonly pages: Map<number, number>;
  /** word values by address (what a workload's load reads and store writes) */
  readonly words: Map<number, number>;
  /** tasks sharing it (threads) */
  users: number;
  protOf(addr: number): number | undefined;
  /** map anonymous memory; returns its address */
  mmapAnon(bytes: number, prot: number): number;
  unmap(addr: number, bytes: number): void;
}

/** Integer user registers as saved in pt_regs. */
export interface UserRegs {
  eax: number; ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number;
  esp: number; eip: number; eflags: number;
}
