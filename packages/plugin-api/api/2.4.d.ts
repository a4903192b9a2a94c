/**
 * The plugin-API version (SemVer major.minor; see docs/plugin-authoring.md "Versions"): a plugin
 * whose manifest names another major, or a newer minor, is refused. A minor adds to the API
 * (new optional members, new extension points, new services); anything a plugin written for
 * this major could rely on changing or going away is a new major.
 * @category Versions
 */
export declare const PLUGIN_API_VERSION = "2.4";
/** Linux i386 ABI constants the simulated kernel and its plugins share (values as in Linux 2.4). */
/**
 * sa_flags: the handler takes three arguments (signal, siginfo, ucontext) and the kernel builds
 * an `rt_sigframe` instead of a `sigframe`.
 * @category Constants
 */
export declare const SA_SIGINFO = 4;
/**
 * sa_flags: Andi Kleen's SA_NOFP proposal — the handler promises not to touch the FPU, so the
 * kernel may skip saving the FPU state into the frame (honoured only by the sa-nofp plugin).
 * @category Constants
 */
export declare const SA_NOFP = 33554432;
/**
 * sa_flags: `sa_restorer` holds the address sigreturn starts from (glibc always sets it; without
 * it the frame's retcode is used).
 * @category Constants
 */
export declare const SA_RESTORER = 67108864;
/**
 * sa_flags: run the handler on the alternate signal stack (sigaltstack) when one is set up.
 * @category Constants
 */
export declare const SA_ONSTACK = 134217728;
/**
 * sa_flags: a system call the signal interrupted is restarted after the handler (ERESTARTSYS
 * becomes a restart instead of EINTR).
 * @category Constants
 */
export declare const SA_RESTART = 268435456;
/**
 * sa_flags: the signal is not added to the mask while its own handler runs (it may nest).
 * @category Constants
 */
export declare const SA_NODEFER = 1073741824;
/**
 * sa_flags: the disposition goes back to the default once the handler has been entered (one shot).
 * @category Constants
 */
export declare const SA_RESETHAND = 2147483648;
/**
 * si_code: sent by kill() (or raise) from user space.
 * @category Constants
 */
export declare const SI_USER = 0;
/**
 * si_code: sent by sigqueue() (rt_sigqueueinfo) with a value.
 * @category Constants
 */
export declare const SI_QUEUE = -1;
/**
 * si_code: sent by tkill() to one thread.
 * @category Constants
 */
export declare const SI_TKILL = -6;
/**
 * si_code of SIGSEGV: the address is not mapped.
 * @category Constants
 */
export declare const SEGV_MAPERR = 1;
/**
 * si_code of SIGSEGV: the address is mapped, but the access is not allowed (a protection fault).
 * @category Constants
 */
export declare const SEGV_ACCERR = 2;
/**
 * si_code of SIGIO (and an F_SETSIG signal): input is available on `si_fd`.
 * @category Constants
 */
export declare const POLL_IN = 1;
/**
 * si_code of SIGIO (and an F_SETSIG signal): output is possible on `si_fd`.
 * @category Constants
 */
export declare const POLL_OUT = 2;
/**
 * errno: operation not permitted. System calls return `-EPERM`.
 * @category Constants
 */
export declare const EPERM = 1;
/**
 * errno: no such file or directory.
 * @category Constants
 */
export declare const ENOENT = 2;
/**
 * errno: no such process (e.g. kill of a pid that does not exist or has exited).
 * @category Constants
 */
export declare const ESRCH = 3;
/**
 * errno: interrupted system call — a signal handler ran and the call is not restarted.
 * @category Constants
 */
export declare const EINTR = 4;
/**
 * errno: bad file descriptor.
 * @category Constants
 */
export declare const EBADF = 9;
/**
 * errno: no child process to wait for.
 * @category Constants
 */
export declare const ECHILD = 10;
/**
 * errno: try again — a non-blocking call would block, or a queue is full.
 * @category Constants
 */
export declare const EAGAIN = 11;
/**
 * errno: out of memory.
 * @category Constants
 */
export declare const ENOMEM = 12;
/**
 * errno: bad address (a user pointer the kernel cannot access).
 * @category Constants
 */
export declare const EFAULT = 14;
/**
 * errno: invalid argument.
 * @category Constants
 */
export declare const EINVAL = 22;
/**
 * errno: write to a pipe whose read end is closed (SIGPIPE is sent too).
 * @category Constants
 */
export declare const EPIPE = 32;
/**
 * errno: no such system call — what an unused slot of the table (sys_ni_syscall) returns.
 * @category Constants
 */
export declare const ENOSYS = 38;
/**
 * Kernel-internal result: a signal interrupted the call; restart it if the handler has
 * SA_RESTART (or there is no handler), else return EINTR. Never seen by user space.
 * @category Constants
 */
export declare const ERESTARTSYS = 512;
/**
 * Kernel-internal result: a signal interrupted the call; always restart it after the handler.
 * @category Constants
 */
export declare const ERESTARTNOINTR = 513;
/**
 * Kernel-internal result: restart the call only when no handler ran (else EINTR).
 * @category Constants
 */
export declare const ERESTARTNOHAND = 514;
/**
 * File status flag: non-blocking I/O (read/write return -EAGAIN instead of sleeping).
 * @category Constants
 */
export declare const O_NONBLOCK = 2048;
/**
 * File status flag: signal-driven I/O (SIGIO, or the F_SETSIG signal, to the F_SETOWN owner when
 * the file becomes readable or writable).
 * @category Constants
 */
export declare const O_ASYNC = 8192;
/**
 * fcntl command: get the file status flags (O_NONBLOCK, O_ASYNC, ...).
 * @category Constants
 */
export declare const F_GETFL = 3;
/**
 * fcntl command: set the file status flags.
 * @category Constants
 */
export declare const F_SETFL = 4;
/**
 * fcntl command: the process that receives SIGIO for the file.
 * @category Constants
 */
export declare const F_SETOWN = 8;
/**
 * fcntl command: the signal sent instead of SIGIO (an RT signal queues one per event, with si_fd).
 * @category Constants
 */
export declare const F_SETSIG = 10;
/**
 * Bytes in a page (i386: 4 KB).
 * @category Constants
 */
export declare const PAGE_SIZE = 4096;
/**
 * log2(PAGE_SIZE): an address shifted right by it is its page number.
 * @category Constants
 */
export declare const PAGE_SHIFT = 12;
/**
 * mmap/mprotect protection: no access.
 * @category Constants
 */
export declare const PROT_NONE = 0;
/**
 * mmap/mprotect protection bit: readable.
 * @category Constants
 */
export declare const PROT_READ = 1;
/**
 * mmap/mprotect protection bit: writable.
 * @category Constants
 */
export declare const PROT_WRITE = 2;
/**
 * mmap/mprotect protection bit: executable.
 * @category Constants
 */
export declare const PROT_EXEC = 4;
/**
 * Bytes of a `struct sigframe` (a handler without SA_SIGINFO) on the user stack, FP state included.
 * @category Constants
 */
export declare const SIGFRAME_BYTES = 732;
/**
 * Bytes of a `struct rt_sigframe` (a handler with SA_SIGINFO: siginfo and ucontext), FP state included.
 * @category Constants
 */
export declare const RT_SIGFRAME_BYTES = 892;
/**
 * Bytes of a frame's `struct _fpstate` with the FXSR part (x87 view + fxsave image).
 * @category Constants
 */
export declare const FP_FRAME_BYTES_FXSR = 624;
/**
 * Bytes of a frame's `struct _fpstate` on a CPU without FXSR (the fsave image only).
 * @category Constants
 */
export declare const FP_FRAME_BYTES_FSAVE = 112;
/**
 * XMM registers an i386 signal frame carries (xmm0-xmm7).
 * @category Constants
 */
export declare const I386_XMM_REGS = 8;
/**
 * EIP just after the `int $0x80` of the libc stub: where user mode resumes after a system call
 * (a restarted call rewinds it by 2 bytes, to the `int $0x80`).
 * @category Constants
 */
export declare const SYSCALL_EIP = 134516738;
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
export declare const OP_CLASSES: {
	/** `int n` through a trap/interrupt gate with a CPL 3->0 change: IDT lookup, TSS stack switch, 5-word push (cost per instruction). */
	readonly int_gate: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`int n` through a trap/interrupt gate with a CPL 3->0 change: IDT lookup, TSS stack switch, 5-word push";
	};
	/** CPU exception delivery (#PF, #NM, #GP) from user mode through an IDT gate, including the error-code push (cost per event). */
	readonly exception_entry: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "CPU exception delivery (#PF, #NM, #GP) from user mode through an IDT gate, including the error-code push";
	};
	/** hardware interrupt delivery (timer, device) through an interrupt gate (cost per event). */
	readonly irq_entry: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "hardware interrupt delivery (timer, device) through an interrupt gate";
	};
	/** `iret` returning to CPL 3 (pops EIP, CS, EFLAGS, ESP, SS) (cost per instruction). */
	readonly iret_user: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`iret` returning to CPL 3 (pops EIP, CS, EFLAGS, ESP, SS)";
	};
	/** `iret` returning to the same privilege level (interrupt taken in kernel mode) (cost per instruction). */
	readonly iret_kernel: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`iret` returning to the same privilege level (interrupt taken in kernel mode)";
	};
	/** extra cost inside `iret` when the popped EFLAGS.IF differs from the current IF (Linus's 'implicit sti' hypothesis) (cost per event). */
	readonly iret_if_change: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "extra cost inside `iret` when the popped EFLAGS.IF differs from the current IF (Linus's 'implicit sti' hypothesis)";
	};
	/** `sysenter` (CPL 3->0 through the SYSENTER MSRs) (cost per instruction). */
	readonly sysenter: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`sysenter` (CPL 3->0 through the SYSENTER MSRs)";
	};
	/** `sysexit` (CPL 0->3 to EDX/ECX) (cost per instruction). */
	readonly sysexit: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`sysexit` (CPL 0->3 to EDX/ECX)";
	};
	/** `syscall` (x86-64 fast entry through LSTAR) (cost per instruction). */
	readonly syscall: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`syscall` (x86-64 fast entry through LSTAR)";
	};
	/** `sysret` (x86-64 fast return) (cost per instruction). */
	readonly sysret: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`sysret` (x86-64 fast return)";
	};
	/** `cli` (cost per instruction). */
	readonly cli: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`cli`";
	};
	/** `sti` (cost per instruction). */
	readonly sti: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`sti`";
	};
	/** `pushfl` (cost per instruction). */
	readonly pushf: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`pushfl`";
	};
	/** `popfl` (cost per instruction). */
	readonly popf: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`popfl`";
	};
	/** load of a segment register (descriptor fetch and checks) (cost per instruction). */
	readonly mov_sreg: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "load of a segment register (descriptor fetch and checks)";
	};
	/** store of a segment register to a register or memory (cost per instruction). */
	readonly mov_from_sreg: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "store of a segment register to a register or memory";
	};
	/** one stack push (cost per instruction). */
	readonly push: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "one stack push";
	};
	/** one stack pop (cost per instruction). */
	readonly pop: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "one stack pop";
	};
	/** a simple ALU op, compare or predicted branch (cost per instruction). */
	readonly alu: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a simple ALU op, compare or predicted branch";
	};
	/** a load that hits L1 (cost per instruction). */
	readonly load: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a load that hits L1";
	};
	/** a store that hits L1 (cost per instruction). */
	readonly store: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a store that hits L1";
	};
	/** a direct call plus its ret (cost per instruction). */
	readonly call: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a direct call plus its ret";
	};
	/** an indirect call through a table plus its ret (cost per instruction). */
	readonly call_indirect: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "an indirect call through a table plus its ret";
	};
	/** a `lock`-prefixed read-modify-write (atomic op, spin_lock on SMP) (cost per instruction). */
	readonly locked_op: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a `lock`-prefixed read-modify-write (atomic op, spin_lock on SMP)";
	};
	/** `__put_user`/`__get_user` of one word with its exception-table fixup (cost per instruction). */
	readonly put_user: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`__put_user`/`__get_user` of one word with its exception-table fixup";
	};
	/** fixed cost of one `copy_to_user`/`copy_from_user` call (access_ok, alignment, rep setup) (cost per event). */
	readonly copy_user_setup: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "fixed cost of one `copy_to_user`/`copy_from_user` call (access_ok, alignment, rep setup)";
	};
	/** `copy_to_user`/`copy_from_user`: one cache line moved (hot cache) (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly copy_user_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`copy_to_user`/`copy_from_user`: one cache line moved (hot cache)";
	};
	/** user-space libc memcpy with integer registers: one cache line (hot cache) (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly memcpy_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "user-space libc memcpy with integer registers: one cache line (hot cache)";
	};
	/** user-space libc memcpy with SSE registers: one cache line (hot cache) (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly sse_memcpy_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "user-space libc memcpy with SSE registers: one cache line (hot cache)";
	};
	/** a TLB miss: page-table walk and TLB fill (cost per event). */
	readonly tlb_miss: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a TLB miss: page-table walk and TLB fill";
	};
	/** `invlpg` (single-page TLB flush) (cost per instruction). */
	readonly invlpg: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`invlpg` (single-page TLB flush)";
	};
	/** kmem_cache_alloc/free fast path (e.g. a sigqueue entry) (cost per event). */
	readonly slab_alloc: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "kmem_cache_alloc/free fast path (e.g. a sigqueue entry)";
	};
	/** write to CR3 (address-space switch; flushes non-global TLB entries unless PCID keeps them) (cost per instruction). */
	readonly mov_cr3: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "write to CR3 (address-space switch; flushes non-global TLB entries unless PCID keeps them)";
	};
	/** read of CR0 (cost per instruction). */
	readonly read_cr0: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "read of CR0";
	};
	/** write of CR0 (`stts` is a read plus this write); serializing (cost per instruction). */
	readonly write_cr0: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "write of CR0 (`stts` is a read plus this write); serializing";
	};
	/** `clts` (clear CR0.TS) (cost per instruction). */
	readonly clts: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`clts` (clear CR0.TS)";
	};
	/** read of CR2 (page-fault address) (cost per instruction). */
	readonly read_cr2: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "read of CR2 (page-fault address)";
	};
	/** write to a debug register (do_signal rewrites %db7 on every handled signal in 2.4) (cost per instruction). */
	readonly mov_dr: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "write to a debug register (do_signal rewrites %db7 on every handled signal in 2.4)";
	};
	/** `wrmsr` (cost per instruction). */
	readonly wrmsr: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`wrmsr`";
	};
	/** `rdtsc` (cost per instruction). */
	readonly rdtsc: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`rdtsc`";
	};
	/** `fnsave` of the 108-byte x87 state (also reinitialises the FPU) (cost per instruction). */
	readonly fsave: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`fnsave` of the 108-byte x87 state (also reinitialises the FPU)";
	};
	/** `frstor` of the 108-byte x87 state (cost per instruction). */
	readonly frstor: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`frstor` of the 108-byte x87 state";
	};
	/** `fxsave` of the 512-byte x87+SSE state (cost per instruction). */
	readonly fxsave: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`fxsave` of the 512-byte x87+SSE state";
	};
	/** `fxrstor` of the 512-byte x87+SSE state (cost per instruction). */
	readonly fxrstor: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`fxrstor` of the 512-byte x87+SSE state";
	};
	/** XSAVE/XSAVEOPT/XSAVES: one 64-byte chunk of enabled state written (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly xsave_chunk: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "XSAVE/XSAVEOPT/XSAVES: one 64-byte chunk of enabled state written";
	};
	/** XRSTOR/XRSTORS: one 64-byte chunk of enabled state read (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly xrstor_chunk: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "XRSTOR/XRSTORS: one 64-byte chunk of enabled state read";
	};
	/** `fninit` (cost per instruction). */
	readonly fninit: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`fninit`";
	};
	/** `fnclex` (cost per instruction). */
	readonly fnclex: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`fnclex`";
	};
	/** `fwait` (cost per instruction). */
	readonly fwait: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`fwait`";
	};
	/** `fnstenv`/`fldenv` pair (28-byte x87 environment, glibc swapcontext) (cost per instruction). */
	readonly fnstenv: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "`fnstenv`/`fldenv` pair (28-byte x87 environment, glibc swapcontext)";
	};
	/** a user x87/SSE arithmetic instruction (cost per instruction). */
	readonly fp_op: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a user x87/SSE arithmetic instruction";
	};
	/** convert_fxsr_to_user/from_user: one x87 register converted between the 16-byte FXSR slot and the 10-byte i387 layout (incl. twd classification) (cost per event). */
	readonly fxsr_convert_reg: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "convert_fxsr_to_user/from_user: one x87 register converted between the 16-byte FXSR slot and the 10-byte i387 layout (incl. twd classification)";
	};
};
/**
 * The name of an op class (a key of OP_CLASSES), e.g. "int_gate", "fxsave", "copy_user_line".
 * @category Paths and ops
 */
export type OpClass = keyof typeof OP_CLASSES;
/**
 * The op classes' names in OP_CLASSES' order.
 * @category Paths and ops
 */
export declare const OP_CLASS_IDS: OpClass[];
/**
 * API 2.2: the op classes only an SMP machine runs. A profile may leave them out (it then runs one
 * CPU only); core paths of the SMP kernel use them (paths of plugins cannot).
 * @category Paths and ops
 */
export declare const SMP_OP_CLASSES: {
	/** a read or write of a local APIC register (ICR, EOI): an uncached access to the on-chip APIC (cost per instruction). */
	readonly apic_access: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "instr";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a read or write of a local APIC register (ICR, EOI): an uncached access to the on-chip APIC";
	};
	/** cycles from the ICR write until the target CPU takes the inter-processor interrupt (APIC bus or system-bus message); a delay, not charged to the sender (cost per event). */
	readonly ipi_delivery: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "cycles from the ICR write until the target CPU takes the inter-processor interrupt (APIC bus or system-bus message); a delay, not charged to the sender";
	};
	/** a cache line modified in another CPU's cache read or written here (snoop hit on a modified line, the line moves) (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly cacheline_transfer: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a cache line modified in another CPU's cache read or written here (snoop hit on a modified line, the line moves)";
	};
};
/**
 * The name of an SMP op class (a key of SMP_OP_CLASSES).
 * @category Paths and ops
 */
export type SmpOpClass = keyof typeof SMP_OP_CLASSES;
/**
 * The SMP op classes' names in SMP_OP_CLASSES' order.
 * @category Paths and ops
 */
export declare const SMP_OP_CLASS_IDS: SmpOpClass[];
/**
 * API 2.3: what the machine costs beyond its instructions: the memory hierarchy (a line from L2 or
 * from memory, the lines a bulk copy moves, code the P4's trace cache decodes again) and a halted
 * CPU's wake-up. A profile may leave any of them out: without the memory hierarchy's its runs model
 * no caches (every access hits L1, as before 2.3); without hlt_exit a halted CPU wakes at no cost.
 * The core charges them (its cache model, its idle loop); plugin paths do not use them.
 * @category Paths and ops
 */
export declare const MACHINE_OP_CLASSES: {
	/** a line L1 no longer holds, read from L2: the L2 load-to-use latency beyond an L1 hit (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly l2_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a line L1 no longer holds, read from L2: the L2 load-to-use latency beyond an L1 hit";
	};
	/** a line no cache holds, read from memory: the memory load-to-use latency beyond an L1 hit (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly memory_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a line no cache holds, read from memory: the memory load-to-use latency beyond an L1 hit";
	};
	/** a line moved between L2 and L1 by a bulk copy (rep movs): the L2's transfer time per line, the copy's misses overlapping (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly l2_copy_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a line moved between L2 and L1 by a bulk copy (rep movs): the L2's transfer time per line, the copy's misses overlapping";
	};
	/** a line moved over the front-side bus by a bulk copy (a read, a read for ownership or a write-back): the bus's transfer time per line (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly memory_copy_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a line moved over the front-side bus by a bulk copy (a read, a read for ownership or a write-back): the bus's transfer time per line";
	};
	/** a line of code missing from a decoded-instruction cache (the P4's trace cache) decoded again, at the decoder's rate (cost per cache line (XSAVE/XRSTOR: per 64-byte chunk)). */
	readonly decode_line: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "line";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a line of code missing from a decoded-instruction cache (the P4's trace cache) decoded again, at the decoder's rate";
	};
	/** a halted CPU (the idle loop's `hlt`) coming back to run the interrupt that woke it (its clock restarted, before the interrupt's entry) (cost per event). */
	readonly hlt_exit: {
		/** What one occurrence is (see OpClassInfo.unit). */
		readonly unit: "event";
		/** What the op is (the text of this entry's doc comment). */
		readonly description: "a halted CPU (the idle loop's `hlt`) coming back to run the interrupt that woke it (its clock restarted, before the interrupt's entry)";
	};
};
/**
 * API 2.3: the name of a machine op class (a key of MACHINE_OP_CLASSES).
 * @category Paths and ops
 */
export type MachineOpClass = keyof typeof MACHINE_OP_CLASSES;
/**
 * API 2.3: the machine op classes' names in MACHINE_OP_CLASSES' order.
 * @category Paths and ops
 */
export declare const MACHINE_OP_CLASS_IDS: MachineOpClass[];
/**
 * The phases of the core, in the order results list them: every simulated cycle is charged to
 * exactly one phase, the one of the path that ran. A path may also name a phase of its own; it is
 * added to the run's phases after these.
 * @category Paths and ops
 */
export declare const CORE_PHASES: readonly [
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
	"smp.hlt_exit"
];
/**
 * A phase of the core as API 2.2 listed them. CORE_PHASES lists this version's, which 2.3 extended
 * with the machine's own (cache.code, cache.data, cache.copy, tlb.refill, smp.ipi, smp.hlt_exit);
 * a path may name any phase (PathDef.phase).
 * @category Paths and ops
 */
export type CorePhase = "user" | "syscall.entry" | "syscall.body" | "syscall.exit" | "signal.send" | "signal.frame" | "signal.fpu_save" | "signal.handler" | "signal.sigreturn" | "signal.fpu_restore" | "fpu.nm_trap" | "sched.schedule" | "sched.switch_mm" | "sched.switch_to" | "fault.page_fault" | "mm.mprotect" | "irq.timer" | "irq.device" | "pipe.io" | "libc" | "idle";
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
export declare function op(fn: string, opClass: OpClass, n?: number, note?: string): OpLine;
/** A 64-signal sigset_t as two 32-bit words (signal n is bit n-1). */
/**
 * The number of signals (1..64): 1-31 are the classic ones, 32-64 the real-time ones.
 * @category Signals
 */
export declare const NSIG = 64;
/**
 * SIGKILL: cannot be caught, blocked or ignored.
 * @category Signals
 */
export declare const SIGKILL = 9;
/**
 * SIGSTOP: stops the task; cannot be caught, blocked or ignored.
 * @category Signals
 */
export declare const SIGSTOP = 19;
/**
 * The first real-time signal: from here on every send is queued (with its siginfo), where a
 * classic signal already pending is only coalesced.
 * @category Signals
 */
export declare const SIGRTMIN = 32;
/**
 * A sigset_t of 64 signals as two 32-bit words (signal n is bit n-1 of `lo` for n <= 32, of `hi`
 * above). Mutable: the in-place operations change this set; copy with clone() before changing a
 * set you do not own (a task's blocked mask, a frame's saved mask).
 * @category Signals
 */
export declare class Sigset {
	/** Signals 1-32 as bits (bit 0 is signal 1). */
	lo: number;
	/** Signals 33-64 as bits (bit 0 is signal 33). */
	hi: number;
	/** A set with the given words (both 0: the empty set). */
	constructor(lo?: number, hi?: number);
	/** Whether `sig` (1-64) is in the set. */
	has(sig: number): boolean;
	/** Adds `sig` (1-64) to this set. */
	add(sig: number): void;
	/** Removes `sig` from this set. */
	del(sig: number): void;
	/** Adds every signal of `o` to this set (sigorsets into this). */
	or(o: Sigset): void;
	/** Keeps only the signals that are also in `o` (sigandsets into this). */
	and(o: Sigset): void;
	/** Removes every signal of `o` from this set. */
	andNot(o: Sigset): void;
	/** Makes this set equal to `o` (a copy of its bits). */
	set(o: Sigset): void;
	/** A new set with the same signals. */
	clone(): Sigset;
	/** Whether no signal is in the set. */
	isEmpty(): boolean;
	/** The lowest signal in this set that is not in `blocked`, or 0 (next_signal's choice). */
	firstUnblocked(blocked: Sigset): number;
	/** Whether any signal of this set is not in `blocked` (what sets sigpending). */
	anyUnblocked(blocked: Sigset): boolean;
	/** The signals in the set, ascending. */
	toList(): number[];
	/** A set of the signals in `list` (numbers outside 1-64 are left out). */
	static of(list: readonly number[]): Sigset;
	/** Removes SIGKILL and SIGSTOP, which can never be blocked (what the kernel does to every new mask). */
	dropUnblockable(): void;
}
/**
 * i386 system call numbers (include/asm-i386/unistd.h) of the system calls the simulated kernel
 * implements; a workload reaches any of them with `t.syscall(nr, ...)`. A plugin adds a system
 * call in an unused slot (SyscallContribution) — slots that are not here are sys_ni_syscall
 * (-ENOSYS) unless a plugin of the run takes them.
 * @category Constants
 */
export declare const NR: {
	/** exit(status): end the calling task. */
	readonly exit: 1;
	/** fork(): a child process with a copy of the address space (copy on write). */
	readonly fork: 2;
	/** read(fd, buf, count): read from a pipe end or a device; may sleep. */
	readonly read: 3;
	/** write(fd, buf, count): write to a pipe end or a device; may sleep. */
	readonly write: 4;
	/** open(path, flags): open a device (/dev/null, /dev/zero, /dev/siglab-disk). */
	readonly open: 5;
	/** close(fd). */
	readonly close: 6;
	/** getpid(): the caller's process id (its thread group's id). */
	readonly getpid: 20;
	/** kill(pid, sig): send a signal to a process. */
	readonly kill: 37;
	/** pipe(fds): a pipe's read and write ends. */
	readonly pipe: 42;
	/** fcntl(fd, cmd, arg): F_GETFL, F_SETFL, F_SETOWN, F_SETSIG. */
	readonly fcntl: 55;
	/** getppid(): the parent's process id. */
	readonly getppid: 64;
	/** gettimeofday(tv, tz): the time of day from the simulated clock. */
	readonly gettimeofday: 78;
	/** mmap(addr, len, prot, flags, fd, off): anonymous memory. */
	readonly mmap: 90;
	/** munmap(addr, len). */
	readonly munmap: 91;
	/** wait4(pid, status, options, rusage): wait for a child to exit and reap it. */
	readonly wait4: 114;
	/** sigreturn(): return from a handler of a `sigframe` (restores the interrupted context). */
	readonly sigreturn: 119;
	/** clone(flags, stack): a new task sharing what the flags say (threads: CLONE_VM|CLONE_SIGHAND|...). */
	readonly clone: 120;
	/** mprotect(addr, len, prot): change the protection of pages (flushes their TLB entries). */
	readonly mprotect: 125;
	/** select(n, readfds, writefds, exceptfds, timeout): wait until fds are ready or the timeout passes. */
	readonly _newselect: 142;
	/** sched_yield(): give up the CPU to another runnable task. */
	readonly sched_yield: 158;
	/** nanosleep(req, rem): sleep for a time (woken on the tick after it expires, or by a signal). */
	readonly nanosleep: 162;
	/** rt_sigreturn(): return from a handler of an `rt_sigframe`. */
	readonly rt_sigreturn: 173;
	/** rt_sigaction(sig, act, oact, size): set or read a signal's disposition. */
	readonly rt_sigaction: 174;
	/** rt_sigprocmask(how, set, oset, size): change or read the blocked mask. */
	readonly rt_sigprocmask: 175;
	/** rt_sigpending(set, size): the pending signals that are blocked. */
	readonly rt_sigpending: 176;
	/** rt_sigtimedwait(set, info, timeout, size): dequeue a pending signal of the set, sleeping until one comes. */
	readonly rt_sigtimedwait: 177;
	/** rt_sigqueueinfo(pid, sig, info): send a signal with a value (SI_QUEUE). */
	readonly rt_sigqueueinfo: 178;
	/** rt_sigsuspend(mask, size): set the mask and sleep until a signal is handled. */
	readonly rt_sigsuspend: 179;
	/** sigaltstack(ss, oss): the alternate signal stack (SA_ONSTACK handlers run on it). */
	readonly sigaltstack: 186;
	/** tkill(tid, sig): send a signal to one thread. */
	readonly tkill: 238;
};
/**
 * The name of a system call the simulated kernel implements (a key of NR).
 * @category Constants
 */
export type SyscallName = keyof typeof NR;
/**
 * System call number -> name, for the calls in NR (e.g. `NR_NAME[20]` is "getpid").
 * @category Constants
 */
export declare const NR_NAME: Record<number, string>;
/** State slots: typed plugin state on kernel objects, in place of untyped string-keyed bags. */
/**
 * The key of one piece of typed state a plugin keeps on kernel objects (the kernel of a run, a
 * task, a signal frame, a user-level thread scheduler): make it once with stateKey() at module
 * level, and use it with `slot(key)`. A key is an object only its plugin holds, so two plugins
 * cannot collide, and the value has one type everywhere.
 *
 * ```ts
 * const LAZY = stateKey("lazy-fpu-frame.records", (): LazyRecord[] => []);
 * task.slot(LAZY).push(rec);
 * ```
 * @category State
 */
export interface StateKey<T> {
	/** for messages and debugging, e.g. "lazy-fpu-frame.records" */
	readonly name: string;
	/** the initial value, made on first use */
	create(): T;
}
/**
 * Makes a state key: `name` for messages (prefix it with your plugin id), `create` makes the
 * initial value the first time a holder's slot(key) is read (once per holder: per run for the
 * kernel, per task for a task).
 * @category State
 */
export declare function stateKey<T>(name: string, create: () => T): StateKey<T>;
/**
 * Something that holds plugin state by StateKey: the Kernel (per run), a Task, a SignalFrame, a
 * UserThreadScheduler. The state lives as long as its holder.
 * @category State
 */
export interface StateHolder {
	/** the value for `key`, created on first use */
	slot<T>(key: StateKey<T>): T;
	/** the value for `key` if it was ever created or set */
	peekSlot<T>(key: StateKey<T>): T | undefined;
	/** set the value for `key` */
	setSlot<T>(key: StateKey<T>, value: T): void;
	/** forget the value (the next slot() call creates a fresh one) */
	dropSlot(key: StateKey<unknown>): void;
}
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
/**
 * How a number in a profile is known (every number cites its source or says what it was fitted to).
 * @category CPU profiles
 */
export type Provenance = 
/** read in a source (cite the key from docs/sources, e.g. "IL P4 Northwood 2.41 GHz"). */
"sourced"
/** arithmetic on sourced numbers (say which). */
 | "derived"
/** set by `siglab calibrate` against figures in calibration/figures.json (name them in fittedTo). */
 | "fitted"
/** no source: a reasoned estimate (say the reasoning). */
 | "estimated";
/**
 * The cost of one op class in a profile, with where the number comes from.
 * @category CPU profiles
 */
export interface CostEntry {
	/** Core clock cycles per occurrence of the op (per its unit: an instruction, an event, a line). */
	cycles: number;
	/** How the number is known. */
	kind: Provenance;
	/** Source key + short reference, or the reasoning for an estimate. */
	source: string;
	/** For kind "fitted": the calibration figure ids this value was fitted to. */
	fittedTo?: string[];
	/**
	 * The CPU lacks the instruction (e.g. `fxsave` without FXSR). `cycles` is then 0 and the
	 * executor must not charge it: a path that needs it is a modelling error or a #UD.
	 */
	unavailable?: boolean;
	/**
	 * This estimate is defined relative to another op of the same resolved profile:
	 * cycles = cycles(op) × factor + plus. The loader recomputes `cycles` after inheritance, so
	 * estimates tied to a fitted value follow it when calibration rewrites that value.
	 */
	relativeTo?: RelativeCost;
	/**
	 * API 2.2: a cost fixed in time rather than in cycles (bus- or memory-bound: an IPI, a cache line
	 * from another CPU): the run's cycles are ns × MHz / 1000; `cycles` shows it at the default clock.
	 */
	ns?: number;
	/** Set by the loader: the ancestor profile this entry was inherited from (not written by hand). */
	inheritedFrom?: string;
}
/**
 * An estimate defined from another op's cost of the same profile: cycles(op) × factor + plus.
 * @category CPU profiles
 */
export interface RelativeCost {
	/** The op whose cost this one follows. */
	op: OpClass;
	/** Default 1. */
	factor?: number;
	/** Default 0. */
	plus?: number;
}
/**
 * A number of a profile's geometry with its provenance.
 * @category CPU profiles
 */
export interface SourcedNumber {
	/** The number (in the unit its field names). */
	value: number;
	/** How it is known. */
	kind: Provenance;
	/** Source key + short reference, or the reasoning for an estimate. */
	source: string;
	/** Set by the loader: the ancestor profile this entry was inherited from (not written by hand). */
	inheritedFrom?: string;
}
/**
 * The CPUID feature flags the simulated kernel and plugins act on.
 * @category CPU profiles
 */
export interface CpuFeatures {
	/** fxsave/fxrstor available: the kernel saves FPU state with them and frames carry the FXSR layout. */
	fxsr: boolean;
	/** SYSENTER/SYSEXIT usable (the sysenter plugin refuses a CPU without it). */
	sep: boolean;
	/** SSE: XMM registers, MXCSR. */
	sse: boolean;
	/** SSE2. */
	sse2: boolean;
	/** AVX: the YMM upper halves are part of the FPU state. */
	avx: boolean;
	/** AVX-512: ZMM upper halves and opmask registers. */
	avx512: boolean;
	/** xsave/xrstor. */
	xsave: boolean;
	/** xsaveopt (skips unmodified state). */
	xsaveopt: boolean;
	/** xsaves/xrstors (compacted, supervisor state). */
	xsaves: boolean;
	/** Process-context identifiers: CR3 loads may keep other address spaces' TLB entries. */
	pcid: boolean;
	/** Global pages: kernel TLB entries survive CR3 loads. */
	pge: boolean;
	/** SYSCALL/SYSRET usable (AMD legacy-mode SYSCALL on K7; x86-64 long mode on modern CPUs). */
	syscall?: boolean;
	/** Long mode (x86-64). */
	lm?: boolean;
}
/**
 * The clocks a profile may run at.
 * @category CPU profiles
 */
export interface ClockRange {
	/** The clock a run gets when it names none (MHz). */
	defaultMhz: number;
	/** The lowest clock accepted (MHz). */
	minMhz: number;
	/** The highest clock accepted (MHz). */
	maxMhz: number;
	/** Clocks the UI offers; any MHz in [minMhz, maxMhz] is accepted. */
	presets: number[];
}
/**
 * A profile as stored on disk (after inheritance is applied): what a CpuProfileContribution returns.
 * @category CPU profiles
 */
export interface CpuProfileFile {
	/** Runnable ids match /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/; abstract ones may start with "_". */
	id: string;
	/** Its name as the UI shows it, e.g. "Pentium 4 (Northwood)". */
	name: string;
	/** "Intel", "AMD", ... */
	vendor: string;
	/** What the CPU is and what the profile is for, in a sentence or two. */
	description: string;
	/** Optional parent profile id whose fields this one overrides (deep merge; costs per op). */
	inherits?: string;
	/** Shared defaults (e.g. a family file): may be partial, cannot be run, only inherited. */
	abstract?: boolean;
	/** Set by the loader on resolved profiles: the ancestors whose fields were merged, nearest first. */
	inheritedFrom?: string[];
	/** CPUID family/model, for variants that check a model (e.g. Linux refusing SEP on early P6). */
	cpuid?: CpuIdInfo;
	/** Why a feature flag has the value it has, when that is not obvious. */
	featureNotes?: Partial<Record<keyof CpuFeatures, string>>;
	/** Free-form remarks on the profile as a whole (shown by the UI). */
	notes?: string[];
	/** The clocks it runs at. */
	clock: ClockRange;
	/** Its feature flags. */
	features: CpuFeatures;
	/** Cache and TLB sizes, register counts: what the executor's per-line and per-entry ops use. */
	geometry: {
		/** Bytes per cache line (the unit of the "line" ops). */
		cacheLineBytes: SourcedNumber;
		/** First-level data TLB entries (4 KB pages). */
		dtlbEntries: SourcedNumber;
		/** L1 data cache, KB. */
		l1dKB: SourcedNumber;
		/** L2 cache, KB. */
		l2KB: SourcedNumber;
		/** Number of XMM registers architecturally visible (8 on i386, 16 in 64-bit mode). */
		xmmRegs: SourcedNumber;
		/** Bytes of the XSAVE area for the enabled components (512 when only FXSR, 108 with FSAVE only). */
		xsaveBytes: SourcedNumber;
		/** Second-level data TLB entries (4 KB pages), where the CPU has one and a source gives it. */
		l2dtlbEntries?: SourcedNumber;
		/**
		 * API 2.3, the cache model (all of l1iKB, l1iWays, l1dWays, l2Ways and the MEM op costs, or the
		 * profile's runs model no caches): the L1 instruction cache's size in KB (the P4: an
		 * instruction-cache equivalent of its trace cache).
		 */
		l1iKB?: SourcedNumber;
		/** API 2.3: L1 instruction cache associativity. */
		l1iWays?: SourcedNumber;
		/** API 2.3: L1 data cache associativity. */
		l1dWays?: SourcedNumber;
		/** API 2.3: L2 associativity. */
		l2Ways?: SourcedNumber;
		/** API 2.3: the L2's line (fill unit) in bytes when it differs from cacheLineBytes (the P4's 128-byte sectors). */
		l2LineBytes?: SourcedNumber;
		/** API 2.3: 1 when a store that misses L1D allocates the line (P6, P4, K7), 0 when it does not (the Pentium). Default 1. */
		l1dWriteAllocate?: SourcedNumber;
		/** API 2.3: 1 when the L2 holds only what L1 does not (the K7). Default 0. */
		l2Exclusive?: SourcedNumber;
		/**
		 * API 2.4: 1 when an entry through the IDT (int n, an exception, a hardware interrupt) empties
		 * the L1 instruction cache (the P4's trace cache, as TN observed); SYSENTER does not go through
		 * the IDT. Default 0.
		 */
		l1iClearedByInterrupt?: SourcedNumber;
	};
	/**
	 * every op class; the SMP ones (API 2.2) may be left out: the profile then runs one CPU only; the
	 * memory hierarchy's (API 2.3) may be left out: its runs then model no caches
	 */
	costs: Record<OpClass, CostEntry> & Partial<Record<SmpOpClass, CostEntry>> & Partial<Record<MachineOpClass, CostEntry>>;
}
/**
 * A profile's CPUID family and model.
 * @category CPU profiles
 */
export interface CpuIdInfo {
	/** The CPUID family (6 for P6, 15 for the Pentium 4, ...). */
	family: number;
	/** The CPUID model, where variants check it. */
	model?: number;
	/** Where the numbers come from. */
	source: string;
}
/**
 * A profile file as written (before inheritance): only `id` is required; an inheriting or
 * abstract profile gives just the fields it overrides (deep merge, `costs` per op). Each field
 * means what it means in CpuProfileFile.
 * @category CPU profiles
 */
export interface CpuProfileSource {
	/** As CpuProfileFile.id. */
	id: string;
	/** As CpuProfileFile.name. */
	name?: string;
	/** As CpuProfileFile.vendor. */
	vendor?: string;
	/** As CpuProfileFile.description. */
	description?: string;
	/** The parent profile whose fields this one overrides. */
	inherits?: string;
	/** Shared defaults only: cannot be run, only inherited. */
	abstract?: boolean;
	/** Set by the loader (not written by hand). */
	inheritedFrom?: string[];
	/** As CpuProfileFile.cpuid. */
	cpuid?: CpuIdInfo;
	/** As CpuProfileFile.featureNotes. */
	featureNotes?: Partial<Record<keyof CpuFeatures, string>>;
	/** As CpuProfileFile.notes. */
	notes?: string[];
	/** The clock fields it overrides. */
	clock?: Partial<ClockRange>;
	/** The feature flags it overrides. */
	features?: Partial<CpuFeatures>;
	/** The geometry fields it overrides. */
	geometry?: Partial<CpuProfileFile["geometry"]>;
	/** The op costs it overrides (per op). */
	costs?: Partial<Record<OpClass, CostEntry>>;
}
/**
 * API 2.3: the shape of one cache level.
 * @category CPU profiles
 */
export interface CacheShape {
	/** Capacity in bytes. */
	bytes: number;
	/** Associativity (1 = direct mapped). */
	ways: number;
	/** Line (fill unit) in bytes. */
	lineBytes: number;
}
/**
 * API 2.3: a CPU's caches as the core's cache model keeps them (one set per CPU).
 * @category CPU profiles
 */
export interface CacheGeometry {
	/** The L1 instruction cache (the P4: an instruction-cache equivalent of its trace cache). */
	l1i: CacheShape;
	/** The L1 data cache. */
	l1d: CacheShape;
	/** The unified second level. */
	l2: CacheShape;
	/** The L2 holds only what L1 does not (the K7). */
	l2Exclusive: boolean;
	/** A store that misses L1D allocates the line (false: the Pentium). */
	l1dWriteAllocate: boolean;
	/** API 2.4: an entry through the IDT empties the L1I (the P4's trace cache). Absent: false. */
	l1iClearedByInterrupt?: boolean;
}
/**
 * A profile resolved for one clock: what the simulator consumes (k.profile).
 * @category CPU profiles
 */
export interface ResolvedProfile {
	/** The profile's id. */
	id: string;
	/** Its display name. */
	name: string;
	/** Its vendor. */
	vendor: string;
	/** The clock of this run, MHz (cycles per microsecond). */
	mhz: number;
	/** Its feature flags. */
	features: CpuFeatures;
	/** Bytes per cache line. */
	cacheLineBytes: number;
	/** First-level data TLB entries. */
	dtlbEntries: number;
	/** L1 data cache, KB. */
	l1dKB: number;
	/** L2 cache, KB. */
	l2KB: number;
	/** XMM registers visible (8 on i386, 16 in 64-bit mode). */
	xmmRegs: number;
	/** Bytes of the XSAVE area for the enabled components (512 with FXSR only, 108 with fsave only). */
	xsaveBytes: number;
	/** cycles per op class (the SMP ones, API 2.2, and the memory hierarchy's, API 2.3: NaN when the profile leaves them out) */
	costs: Record<OpClass, number> & Partial<Record<SmpOpClass, number>> & Partial<Record<MachineOpClass, number>>;
	/**
	 * API 2.3: the caches the model keeps for each CPU (machine/cache.ts), or undefined when the
	 * profile gives no cache geometry or no memory-hierarchy costs (then every access hits L1).
	 */
	caches?: CacheGeometry;
	/** The full file (for provenance display and bundles). */
	file: CpuProfileFile;
	/** Ops the CPU lacks (cost entries marked `unavailable`); their cost is 0 and must not be charged. */
	unavailableOps?: OpClass[];
}
/** What an experiment asks for and what a run produces. Plain data: structured-clone-able, JSON-serialisable. */
/**
 * The value of a workload parameter or a plugin option.
 * @category Results
 */
export type ParamValue = number | string | boolean;
/**
 * A CPU of an experiment: a profile id and its clock.
 * @category Results
 */
export interface CpuRef {
	/** The CPU profile's id, e.g. "p4-northwood". */
	id: string;
	/** The clock in MHz (0 in a request: the profile's default clock). */
	mhz: number;
	/** CPUs of the machine (API 2.2; absent or 1: one CPU and the UP kernel, more: the SMP kernel) */
	smp?: number;
}
/**
 * One plugin in a variant stack, with its options.
 * @category Results
 */
export interface VariantSpec {
	/** The plugin's id (its manifest's id). */
	id: string;
	/** Option values by name (checked against the manifest's options; the others take their defaults). */
	options?: Record<string, ParamValue>;
}
/**
 * A number a workload reported (`t.report(name, value, unit)`).
 * @category Results
 */
export interface Metric {
	/** The name the workload gave it, e.g. "getpid" or "signals lost". */
	name: string;
	/** The value (its last report when the workload reported it several times). */
	value: number;
	/** The unit the workload gave, e.g. "cycles", "us", "" for a count. */
	unit: string;
	/** Optional per-iteration samples (bounded) for histograms. */
	samples?: number[];
}
/**
 * How bad a finding is: "error" (a correctness bug the variant causes: corrupted registers, a
 * lost signal), "warning" (a hazard or a delay), "info".
 * @category Results
 */
export type Severity = "error" | "warning" | "info";
/**
 * Something a checker found during a run (InvariantChecker, k.report): what went wrong, where, and
 * the evidence. Repeats of the same finding are folded into one with a count.
 * @category Results
 */
export interface Finding {
	/** How bad it is. */
	severity: Severity;
	/** e.g. "fpu-corruption", "int-register-corruption", "blocked-signal-delivered", "delayed-signal", "lost-signal" */
	kind: string;
	/** One sentence for the user: what happened to which task. */
	message: string;
	/** Task, register, expected vs actual, the op/path and the plugin responsible, cycle, ... */
	evidence: Record<string, unknown>;
}
/**
 * One op of a kernel path as the path inspector shows it.
 * @category Results
 */
export interface PathOpStat {
	/** Kernel function or macro the op belongs to (e.g. "SAVE_ALL", "save_i387"). */
	fn: string;
	/** Op class (see OP_CLASSES). */
	op: string;
	/** Cycles of one occurrence of this op line (count × unit cost). */
	cycles: number;
	/** How many times the op line repeats within one path execution. */
	repeat: number;
	/** The path line's note (what it stands for in the Linux source). */
	note?: string;
}
/**
 * Per-path statistics: how often it ran, where its cycles went, and its ops.
 * @category Results
 */
export interface PathStat {
	/** The path's name, e.g. "system_call". */
	name: string;
	/** The phase its cycles were charged to. */
	phase: string;
	/** Plugin that contributed or changed this path ("core" for the baseline). */
	origin: string;
	/** How many times it ran in the run. */
	count: number;
	/** Cycles it was charged in all, over every run of it. */
	cycles: number;
	/** Its ops, with the cycles of one run of the path. */
	ops: PathOpStat[];
}
/**
 * One interval of the run's timeline (when the run asked for a timeline): what a task (or the
 * idle CPU) did from `start` to `end`.
 * @category Results
 */
export interface TimelineEvent {
	/** pid of the task */
	task: number;
	/** User code, kernel code, a signal handler, or the idle task. */
	kind: "user" | "kernel" | "handler" | "idle";
	/** path name or user activity */
	name: string;
	/** The phase its cycles were charged to. */
	phase: string;
	/** The first cycle of the interval. */
	start: number;
	/** The cycle after the interval's last. */
	end: number;
	/** the CPU it ran on (API 2.2; present only on an SMP machine) */
	cpu?: number;
}
/**
 * Why a run failed, where, and whose fault it was.
 * @category Results
 */
export interface RunError {
	/** "compile" | "workload" | "budget" | "plugin" | "config" | "cancelled" | "internal" */
	kind: string;
	/** What went wrong, naming the file, plugin or budget concerned. */
	message: string;
	/** The workload's or plugin's file the error points at. */
	file?: string;
	/** Its line (1-based). */
	line?: number;
	/** Its column (1-based). */
	column?: number;
	/** The pid of the task that was running. */
	task?: number;
	/** The simulated cycle at which the run stopped. */
	cycle?: number;
}
/**
 * The result of one run: what `siglab run --json` prints, the harness returns and bundles store.
 * @category Results
 */
export interface RunResult {
	/** The workload's id (an example id, or the workload file's name without `.ts`). */
	workload: string;
	/** The CPU it ran on (the profile's clock filled in when the request gave 0). */
	cpu: CpuRef;
	/** The variant stack, bottom first (empty: the Linux 2.4 baseline). */
	variants: VariantSpec[];
	/** The workload's parameters as they ran (its defaults, overridden by the request's). */
	params: Record<string, ParamValue>;
	/** The seed of the run's random numbers (k.random, the sandbox's Math.random). */
	seed: number;
	/** What the workload reported, in report order. */
	metrics: Metric[];
	/** cycles charged to each phase, e.g. { "syscall.entry": 123, "signal.fpu_save": 456 } */
	phases: Record<string, number>;
	/** counters: syscalls.<name>, signals.delivered, switches, tlb.flushes, fpu.nm_traps, fpu.saves, bytes.copied, ... */
	counters: Record<string, number>;
	/** What the run's checkers found. */
	findings: Finding[];
	/** Simulated cycles of the whole run. */
	totalCycles: number;
	/** simulated seconds = totalCycles / (mhz * 1e6) */
	simSeconds: number;
	/** Every path that ran, with its counts and cycles. */
	paths: PathStat[];
	/** The timeline, when the run asked for one. */
	timeline?: TimelineEvent[];
	/** Present when the run failed; metrics then hold what was reported before the failure. */
	error?: RunError;
}
/**
 * How far a run is (reported while it runs).
 * @category Results
 */
export interface RunProgress {
	/** 0..1 where the workload reports it (iterations done), else undefined */
	fraction?: number;
	/** Simulated cycles so far. */
	cycles: number;
	/** Workload steps so far (the step budget counts them). */
	steps: number;
}
/**
 * siginfo_t as the kernel fills it (128 bytes on i386): what send_sig_info queues with a signal and
 * an SA_SIGINFO handler receives.
 * @category Signals
 */
export interface SigInfo {
	/** The signal number (1-64). */
	signo: number;
	/** An errno value associated with the signal (0 for most). */
	errno: number;
	/** SI_USER (0) for kill(), SI_TKILL (-6), SEGV_ACCERR (2), POLL_IN (1), SI_QUEUE (-1), ... */
	code: number;
	/** The sender's pid (kill, tkill, sigqueue). */
	pid?: number;
	/** The faulting address (SIGSEGV, SIGBUS, SIGFPE). */
	addr?: number;
	/** SIGIO / F_SETSIG: the poll band (POLL_IN, POLL_OUT). */
	band?: number;
	/** SIGIO / F_SETSIG: the file descriptor that became ready. */
	fd?: number;
	/** sigqueue's value. */
	value?: number;
}
/**
 * A signal's disposition (struct k_sigaction): its handler, flags and the mask added while the
 * handler runs.
 * @category Signals
 */
export interface SigAction {
	/** the workload's handler (opaque to plugins), or a default disposition */
	readonly handler: object | "default" | "ignore";
	/** sa_flags: SA_SIGINFO, SA_RESTART, SA_NODEFER, SA_RESETHAND, SA_ONSTACK, SA_NOFP, ... */
	flags: number;
	/** sa_mask: signals blocked while the handler runs (besides the signal itself, unless SA_NODEFER). */
	mask: Sigset;
}
/**
 * A queued instance of a signal (struct sigqueue) on Task.queue: real-time signals queue one per
 * send; a classic signal at most one.
 * @category Signals
 */
export interface PendingSignal {
	/** The signal number. */
	sig: number;
	/** The siginfo it was sent with (what its handler or sigtimedwait receives). */
	info: SigInfo;
	/** cycle at which it was queued */
	at: number;
}
/**
 * struct _fpstate as a frame carries it (the i387 view + the FXSR extension): what a handler sees
 * of the interrupted program's FPU state, and may edit before sigreturn restores it.
 * @category Signals
 */
export interface FrameFpState {
	/** x87 control word. */
	cw: number;
	/** x87 status word. */
	sw: number;
	/** x87 tag word (abridged: bit i set = st(i) valid). */
	tag: number;
	/** st0..st7 as numbers (the 80-bit values, modelled as doubles) */
	st: number[];
	/** 0x0000 = FXSR part follows, 0xffff = only fsave data */
	magic: number;
	/** The SSE control/status register (absent without FXSR). */
	mxcsr?: number;
	/** xmm0..xmm7, each as 4 × 32-bit lanes (absent without FXSR). */
	xmm?: number[][];
}
/**
 * The interrupted context saved in the frame (struct sigcontext): the user registers at
 * interruption (which sigreturn restores; a handler may edit them; eax holds a system call's
 * result, or -ERESTART... before the restart decision), and what the trap that raised the signal
 * left.
 * @category Signals
 */
export interface FrameSigContext extends UserRegs {
	/** The trap number when a fault raised the signal (14 for #PF), else 0. */
	trapno: number;
	/** The fault's error code (#PF: the page-fault error code bits), else 0. */
	err: number;
	/** #PF: the faulting address (CR2). */
	cr2: number;
	/** blocked mask (signals 1..31) at interruption */
	oldmask: number;
}
/**
 * A signal frame on the user stack (struct sigframe, 732 bytes, or struct rt_sigframe, 892 bytes),
 * from setup_frame until the handler's sigreturn; plugins keep per-frame state in slot().
 * @category Signals
 */
export interface SignalFrame extends StateHolder {
	/** Which frame: `rt_sigframe` for a handler with SA_SIGINFO, else `sigframe`. */
	readonly kind: "sigframe" | "rt_sigframe";
	/** Its address on the user stack (or the alternate signal stack). */
	readonly address: number;
	/** Its size in bytes (SIGFRAME_BYTES or RT_SIGFRAME_BYTES on a CPU with FXSR). */
	readonly size: number;
	/** The signal being delivered. */
	readonly sig: number;
	/** The interrupted context (struct sigcontext) as the handler sees and may edit it. */
	readonly sigcontext: FrameSigContext;
	/** the FP image save_i387 wrote (null: none); owned by the frame until sigreturn */
	fpImage: FpuRegs | null;
	/** the FP area as the handler sees it (null: none); a SignalFpuPolicy may set it, e.g. to null */
	fpstate: FrameFpState | null;
	/** uc_sigmask / oldmask + extramask, as a list of signals */
	sigmask: number[];
	/** the mask as the kernel wrote it */
	readonly savedBlocked: Sigset;
	/** The siginfo of an rt_sigframe (null for a sigframe). */
	readonly info: SigInfo | null;
	/** FXSR layout (xmm + mxcsr present) or fsave only */
	readonly fxsr: boolean;
	/** what the kernel wrote, to tell a handler's edits apart */
	readonly original: {
		/** The sigcontext as setup_sigcontext wrote it. */
		sigcontext: FrameSigContext;
		/** The FP area as save_i387 wrote it (null: none). */
		fpstate: FrameFpState | null;
	};
	/** true when the frame carries an FP image (saved or written) */
	hasFp(): boolean;
	/** the FP view if it was materialised (only then can a handler have edited it) */
	materialisedView(): FrameFpState | null | undefined;
}
/**
 * One CPU of the simulated machine: its privilege level, flags, control registers, FPU and TLB.
 * @category Machine
 */
export interface Cpu {
	/** API 2.2: smp_processor_id() of this CPU (0 on the UP kernel): its index in Kernel.cpus */
	readonly id?: number;
	/** API 2.2: this CPU's idle task (idle_task(cpu)); the CPU is idle when Kernel.currentOf(cpu) is it */
	readonly idle?: Task;
	/** The current privilege level: 0 in the kernel, 3 in user mode. */
	cpl: number;
	/** EFLAGS.IF: 1 when interrupts are enabled (an interrupt then lands at the next op boundary), 0 after cli. */
	IF: number;
	/** CR0.TS */
	TS: boolean;
	/** The address space loaded (its AddressSpace.asid): what switch_mm writes to CR3. */
	cr3: number;
	/** whose FPU state is live in the registers */
	fpuOwner: Task | null;
	/** The live FPU/SSE registers. */
	readonly fpu: FpuRegs;
	/** The data TLB. */
	readonly tlb: Tlb;
}
/**
 * A task's state: "running" (on the run queue: running or runnable), "interruptible" (asleep until
 * woken: by a signal, a timeout, the event it waits for), "zombie" (exited, not yet reaped by its
 * parent's wait4), "dead" (gone).
 * @category Kernel
 */
export type TaskState = "running" | "interruptible" | "zombie" | "dead";
/**
 * task_struct: what a plugin may read and change (its own state goes in slot()).
 *
 * Sleeping in a blocking system call (SyscallContribution.blocking): set `state` to
 * "interruptible", `wakeReason` to "", `waitingOn` to what you wait for and, for a timeout,
 * `timeoutAt` to `k.sched.roundUpToTick(deadline)`; then `yield* k.sched.schedule()`. It returns
 * when the task runs again; `wakeReason` then says why (see there). Whoever makes the awaited
 * event happen sets `wakeReason` and calls `k.sched.wake_up(task)`.
 * @category Kernel
 */
export interface Task extends StateHolder {
	/** The task's id (each thread of a LinuxThreads process has its own). */
	readonly pid: number;
	/** The thread group id: the pid of the process's first task (what getpid returns). */
	readonly tgid: number;
	/** The parent's pid (1 once the parent exited). */
	ppid: number;
	/** The task's name (the workload's name for the first task). */
	readonly name: string;
	/** Running, asleep, or exited (see TaskState). */
	state: TaskState;
	/** ticks left in this timeslice */
	counter: number;
	/** need_resched: schedule() runs on the way back to user mode (set by the timer tick or a wake-up that preempts). */
	needResched: boolean;
	/** sigpending: an unblocked signal is pending (do_signal runs on the way back to user mode). */
	sigpending: boolean;
	/** 2.4 used_math */
	usedMath: boolean;
	/** 2.4 PF_USEDFPU: the registers hold this task's live FPU state */
	usedFpu: boolean;
	/** thread.i387 */
	readonly fpu: FpuRegs;
	/** The user registers saved on kernel entry (pt_regs). */
	readonly regs: UserRegs;
	/** The blocked mask (task->blocked). Assign a new set (after dropUnblockable) rather than changing it, then recalc_sigpending. */
	blocked: Sigset;
	/** The signals pending for the task (bits), whether blocked or not. */
	readonly pending: Sigset;
	/** The queued instances of pending signals with their siginfo, oldest first. */
	readonly queue: PendingSignal[];
	/** The address space (shared by the threads of a process). */
	mm: AddressSpace;
	/** Its child tasks (forked or cloned), while they exist. */
	readonly children: Task[];
	/** depth of signal handlers running in this task */
	handlerDepth: number;
	/** What the task sleeps on, for deadlock messages ("wait4", a plugin's own description); null when runnable. */
	waitingOn: unknown;
	/**
	 * Why a sleeping task was woken, set by whoever woke it: "signal" (send_sig_info), "timeout"
	 * (timeoutAt passed), "data" (a pipe), "child" (wait4), or what a plugin's waker sets; "" while
	 * asleep (the sleeper clears it before it sleeps).
	 */
	wakeReason: string;
	/**
	 * The cycle at which a sleeping task times out (a timer tick at or after it wakes it, with
	 * wakeReason "timeout", and sets this back to -1); -1: no timeout. Set it with
	 * k.sched.roundUpToTick; a sleeper that wakes otherwise should set it back to -1.
	 */
	timeoutAt: number;
	/**
	 * The mask the program means when a library keeps it in user space (an M:N library's intended
	 * mask, a user-sigmask page): the blocked-signal checker honours it. null: task->blocked.
	 */
	userMask: {
		/** Whether the program means `sig` to be blocked. */
		has(sig: number): boolean;
	} | null;
}
/**
 * The kernel events checkers and plugins observe (and plugins may emit their own), with each
 * handler's arguments. A handler runs synchronously where the kernel fires the event; a checker
 * must only look and report, never change the simulation.
 * @category Kernel
 */
export interface KernelEventMap {
	/**
	 * A timer interrupt (IRQ0; on SMP each CPU's local APIC timer) interrupted `task`, the CPU's
	 * current task (its idle task when the CPU was idle): fired in do_timer after the sleepers whose
	 * timeout expired were woken and after the Scheduler's update_process_times, once per tick.
	 */
	tick: [
		task: Task
	];
	/**
	 * setup_frame (or setup_rt_frame) finished building `frame` on the user stack: the interrupted
	 * registers, the old mask and the FPU state (the SignalFpuPolicy's save) are in it, and eip
	 * points at the handler. The handler has not run yet; "return.user" with `intoHandler` true
	 * follows. Fired once per handler delivered, after "signal.interrupt" for the same frame.
	 */
	"signal.deliver": [
		task: Task,
		frame: SignalFrame
	];
	/**
	 * do_signal chose a handler for a dequeued signal and setup_frame is about to build `frame`: the
	 * frame holds the interrupted registers (its sigcontext) and mask, and nothing of setup_frame
	 * has been charged or written yet (no FPU save, no stores to the user stack). Fired once per
	 * handler delivered, before "signal.deliver".
	 */
	"signal.interrupt": [
		task: Task,
		frame: SignalFrame
	];
	/**
	 * sys_sigreturn (or sys_rt_sigreturn) restored the interrupted context from `frame`: the mask,
	 * the general registers and the FPU state (the SignalFpuPolicy's restore) are back in `task`;
	 * the return to user mode has not happened yet. Not fired for a bad frame (the task gets
	 * SIGSEGV instead).
	 */
	"signal.return": [
		task: Task,
		frame: SignalFrame
	];
	/**
	 * dequeue_signal found `sig`, the lowest pending signal outside the mask it was given, and is
	 * about to take it off `task`'s pending signals. Fired for every dequeue, whoever asked: do_signal
	 * on the way to user mode (which then runs a handler, takes the default action, ignores it, or
	 * stops a traced task), rt_sigtimedwait (which returns it to the caller instead), and a plugin
	 * calling k.signal.dequeue_signal. Not fired when no signal was found.
	 */
	"signal.dequeue": [
		task: Task,
		sig: number
	];
	/**
	 * send_sig_info left `sig` pending for `task`: `queued` true when an instance was queued with
	 * its siginfo, false when only the pending bit is set (a non-RT signal already pending is
	 * coalesced; the queue was full). Not fired when send_sig_info refuses or discards the signal: an
	 * invalid number, a zombie task, a signal the task ignores, a kernel-sent RT signal the full
	 * queue refuses (-EAGAIN).
	 */
	"signal.queued": [
		task: Task,
		sig: number,
		queued: boolean
	];
	/**
	 * schedule() chose another task and is about to switch `task` out: it is still current, before
	 * switch_mm and before switch_to's switch policy (SwitchFpuPolicy.switchOut). Not fired when
	 * schedule() keeps the same task.
	 */
	"switch.out": [
		task: Task
	];
	/**
	 * switch_to switched `task` in: it is current, after the switch policy's switchIn; it has not
	 * returned to user mode yet. Fired once for each "switch.out".
	 */
	"switch.in": [
		task: Task
	];
	/**
	 * `task` returns from the kernel to user mode: fired after the entry mechanism's leave (its
	 * sysexit, sysret or iret) on every such return — a system call's exit, the plain (fast) one
	 * included, a forked child's first return, the return into a signal handler (`intoHandler`
	 * true, after "signal.deliver"), the return after sigreturn, and the return from an interrupt or
	 * exception taken in user mode (a timer tick, a page fault, #NM). Firing it charges no simulated
	 * cycles; a subscriber costs host time on every system call.
	 */
	"return.user": [
		task: Task,
		intoHandler: boolean
	];
	/**
	 * A user-mode store by `task` to `addr` completed (after its page was found writable; a store
	 * that faults fires it when it is retried and completes).
	 */
	"user.store": [
		task: Task,
		addr: number
	];
	/**
	 * The run is over (finished, failed or stopped by a budget): the last event, fired once; no
	 * simulation runs after it. k.tasks holds the tasks not reaped by then (those alive when the run
	 * stopped, zombies nobody waited for): a task that exited and was reaped is gone. To read every
	 * task's end, subscribe to "task.exit".
	 */
	"run.end": [
	];
	/**
	 * API 2.3: do_exit begins for `task` (exit(), the end of its main, or a fatal signal's default
	 * action) with exit `code` (128 + the signal's number for a fatal signal): fired before anything
	 * is torn down or charged, so the task's pending signals and queue, its mask, mm and open files
	 * are still as they were. Fired once per task that exits; a task
	 * still alive when the run stops does not fire it (sweep k.tasks at "run.end" for those).
	 */
	"task.exit": [
		task: Task,
		code: number
	];
}
/**
 * The type of argument `I` of a handler's argument list `T` (undefined past its end): how
 * KernelEvents.emit types its positional arguments.
 * @category Kernel
 */
export type Arg<T extends unknown[], I extends number> = I extends keyof T ? T[I] : undefined;
/**
 * The kernel's event bus (k.events): subscribe, and emit your own events.
 * @category Kernel
 */
export interface KernelEvents {
	/** Calls `h` with the event's arguments each time `ev` fires in this run (there is no unsubscribe: the bus lives as long as the run). */
	on<K extends keyof KernelEventMap>(ev: K, h: (...args: KernelEventMap[K]) => void): void;
	/** Whether anything subscribed to `ev` (skip work that only feeds an event nobody hears). */
	has(ev: keyof KernelEventMap): boolean;
	/** Fires `ev` with up to three arguments (a plugin may emit events of its own under other names). */
	emit<K extends keyof KernelEventMap>(ev: K, a?: Arg<KernelEventMap[K], 0>, b?: Arg<KernelEventMap[K], 1>, c?: Arg<KernelEventMap[K], 2>): void;
}
/**
 * The settings of one run's kernel (k.config), from the workload and the request.
 * @category Kernel
 */
export interface KernelConfig {
	/** timer interrupts per second (2.4 i386: 100; a workload may ask for another) */
	hz: number;
	/** Ticks in a fresh timeslice (2.4: NICE_TO_TICKS(0), 6 at HZ=100). */
	timesliceTicks: number;
	/** The run's cycle budget: it stops with a "budget" error beyond it. */
	maxCycles: number;
	/** The run's step budget (see Kernel.step). */
	maxSteps: number;
	/** The run's seed (k.random). */
	seed: number;
	/** Whether the run records a timeline. */
	timeline: boolean;
	/** API 2.2: the number of CPUs (absent in older hosts: 1) */
	cpus?: number;
}
/**
 * kernel/signal.c (k.signal): sending and dequeuing signals; each charges the kernel's paths.
 * @category Kernel
 */
export interface SignalFunctions {
	/** queue `sig` for `t` and wake it if unblocked; 0 or -errno */
	send_sig_info(sig: number, info: SigInfo, t: Task): number;
	/** a synchronous signal (a fault): unblocked and un-ignored first */
	force_sig_info(sig: number, info: SigInfo, t: Task): number;
	/**
	 * The lowest pending signal of `t` not in `mask`, taken off the pending set (its first queued
	 * instance), with its siginfo; null when there is none. Fires "signal.dequeue".
	 */
	dequeue_signal(t: Task, mask: Sigset): {
		/** The signal taken. */
		sig: number;
		/** Its siginfo as sent (a signal whose instance was not queued gets signo, errno 0, code SI_USER). */
		info: SigInfo;
	} | null;
	/** Recomputes t.sigpending from its pending signals and blocked mask (after changing either). */
	recalc_sigpending(t: Task): void;
	/** the mask delivery must honour (task->blocked, or the SignalMaskStore's) */
	blockedOf(t: Task): Sigset;
}
/**
 * arch/i386/kernel/i387.c (k.fpu): saving and restoring FPU state, and FP views of frames.
 * @category Kernel
 */
export interface FpuFunctions {
	/** save the task's live FPU state to thread.i387 (runs pathFxsr or pathFsave) and set TS */
	unlazy_fpu(t: Task, pathFxsr: string, pathFsave: string): void;
	/** restore_i387 from the frame being returned from (the 2.4 code) */
	restore_i387(t: Task, frame: SignalFrame): void;
	/** #NM: math_state_restore through the run's SwitchFpuPolicy */
	do_device_not_available(t: Task): void;
	/** the FPU state the task sees in user mode (live registers or thread.i387) */
	userFpuView(t: Task): FpuRegs;
	/** The frame's i387 view (struct _fpstate) of `f`, in this CPU's layout (FXSR or fsave): what convert_fxsr_to_user writes. */
	fpstateFromRegs(f: FpuRegs): FrameFpState;
	/** Writes the frame view `s` into the register file `into` (convert_fxsr_from_user). */
	regsFromFpstate(s: FrameFpState, into: FpuRegs): void;
	/** A deep copy of `s` (null stays null). */
	cloneFpstate(s: FrameFpState | null): FrameFpState | null;
	/** a copy of `src` from the run's pool of register files (give() it back when done) */
	take(src: FpuRegs): FpuRegs;
	/** a register file from the pool in the state fninit (+ the MXCSR reset value) leaves */
	blank(): FpuRegs;
	/** Returns a register file from take() or blank() to the pool (null and undefined are ignored). */
	give(f: FpuRegs | null | undefined): void;
}
/**
 * kernel/sched.c (k.sched): sleeping, waking, the run queue, tick rounding.
 * @category Kernel
 */
export interface SchedFunctions {
	/** sleep or give up the CPU: `yield* k.sched.schedule()` in a blocking syscall's generator */
	schedule(): Gen<void>;
	/** try_to_wake_up */
	wake_up(t: Task): void;
	/** Puts `t` on the run queue (a Scheduler's own bookkeeping; wake_up does it for a sleeping task). */
	add_to_runqueue(t: Task): void;
	/** Takes `t` off the run queue. */
	del_from_runqueue(t: Task): void;
	/** the first timer tick at or after `cycle` (timeouts expire on ticks) */
	roundUpToTick(cycle: number): number;
}
/**
 * arch/i386/mm/fault.c and the TLB (k.mm).
 * @category Kernel
 */
export interface MmFunctions {
	/**
	 * #PF on `t` at `addr` (`write`: a write access; `code`: SEGV_MAPERR for an unmapped page,
	 * SEGV_ACCERR for a protection fault): a copy-on-write fault is handled, then the PageFaultHooks
	 * may handle it, else SIGSEGV with si_addr = addr.
	 */
	do_page_fault(t: Task, addr: number, write: boolean, code: number): void;
	/**
	 * API 2.2: flush_tlb_page after a PTE of `t`'s address space changed: invlpg here if this CPU
	 * runs it, and on SMP an INVALIDATE IPI to every other CPU in its cpu_vm_mask (a TLB shootdown,
	 * the sender waiting for every ack). Returns how many other CPUs were sent the IPI.
	 */
	flush_tlb_page?(t: Task, addr: number): number;
	/**
	 * API 2.2: the kernel loads CR3 with PCIDs (NOFLUSH): TLB entries stay tagged with their address
	 * space, so switch_mm keeps every address space's entries instead of flushing them. Call it at
	 * kernel setup; refused on a CPU without PCID.
	 */
	setPcid?(on: boolean): void;
	/**
	 * API 2.2: flush_tlb_range (after mprotect changed PTEs) invalidates page by page (invlpg) when
	 * the range has at most `pages` pages, so only those pages' TLB entries go, and flushes the
	 * whole TLB above it (6.x's tlb_single_page_flush_ceiling, 33). 0, the default (i386 2.4): every
	 * range flush is a full one. Call it at kernel setup.
	 */
	setTlbFlushCeiling?(pages: number): void;
	/**
	 * API 2.2: map_vdso: the kernel maps a vDSO into every process (arch/x86/entry/vdso/vma.c), so
	 * libc's gettimeofday calls `vdso.gettimeofday` in user mode instead of making the system call.
	 * Call it at kernel setup, once per run; without it (Linux 2.4) libc makes the system call.
	 */
	map_vdso?(vdso: Vdso): void;
}
/**
 * An open file as the file table holds it (a pipe end, or a character device).
 * @category Kernel
 */
export interface OpenFile {
	/** the character device behind it; null for a pipe end */
	readonly dev: "null" | "zero" | "disk" | null;
	/** What it was opened for: read, write, or both. */
	readonly mode: "r" | "w" | "rw";
	/** O_NONBLOCK, O_ASYNC, ... */
	flags: number;
}
/**
 * /dev/siglab-disk as drivers use it: requests go to the run's BlockDevice and complete by interrupt.
 * @category Kernel
 */
export interface LatencyDevice {
	/** start a request of `bytes`; `done` runs in the completion interrupt with the result */
	submit(k: Kernel, bytes: number, done: (result: number) => void): void;
}
/**
 * fs/ and drivers/ (k.files): the file table and the run's disk.
 * @category Kernel
 */
export interface FileFunctions {
	/** the open file behind `fd` in `t` (undefined: not open) */
	file(t: Task, fd: number): OpenFile | undefined;
	/** the run's /dev/siglab-disk (its requests go to the run's BlockDevice) */
	disk(): LatencyDevice;
	/**
	 * Set the disk's latency and interval (at kernel setup, before it is used): the values are
	 * checked, then handed to the run's BlockDevice (its configure); `who` names the caller.
	 */
	configureDisk(cfg: BlockDeviceConfig, who: string): void;
}
/**
 * The mechanisms of this run: the ones in force, and the 2.4 baseline ones (to delegate to). The
 * scheduler and the block device are always there; they are optional in the type only because
 * they came with plugin API 2.1 (a 2.0 type stays assignable).
 * @category Kernel
 */
export interface KernelPolicies {
	/** How system calls enter and leave the kernel. */
	readonly entry: EntryMechanism;
	/** What a signal frame does with the FPU state. */
	readonly signalFpu: SignalFpuPolicy;
	/** The FPU at a context switch and on #NM. */
	readonly switchFpu: SwitchFpuPolicy;
	/** Where the blocked mask lives. */
	readonly maskStore: SignalMaskStore;
	/** since 2.1 */
	readonly scheduler?: Scheduler;
	/** since 2.1 */
	readonly blockDevice?: BlockDevice;
}
/**
 * A kernel path resolved once per run (Kernel.pathHandle): opaque, made only by the kernel.
 * @category Kernel
 */
export interface PathHandle {
	/** The path's name. */
	readonly name: string;
	/** Its number in this run's path table. */
	readonly id: number;
}
/**
 * The simulated kernel of one run: what every extension point is called with. Per-run plugin
 * state goes in slot(). A plugin may read everything; it changes the simulation only through the
 * functions (k.signal, k.sched, ..., run, count, report) and the mechanisms it provides.
 * @category Kernel
 */
export interface Kernel extends StateHolder {
	/** The CPU profile, resolved at the run's clock: op costs, features, geometry. */
	readonly profile: ResolvedProfile;
	/** The run's settings. */
	readonly config: KernelConfig;
	/** The CPU this code runs on (on SMP: the one whose task is running now). */
	readonly cpu: Cpu;
	/** API 2.2: every CPU of the machine, by id (cpus[0] alone on the UP kernel) */
	readonly cpus?: readonly Cpu[];
	/** The event bus: subscribe in InvariantChecker.attach or KernelSetupContribution.setup. */
	readonly events: KernelEvents;
	/** Every task by pid, from its creation until it is reaped (a zombie stays until its parent's wait4). */
	readonly tasks: ReadonlyMap<number, Task>;
	/** The runnable tasks in run-queue order (a copy made when read after a change: changing it changes nothing). */
	readonly runqueue: readonly Task[];
	/** This CPU's idle task (pid 0): what runs when no task can. */
	readonly idle: Task;
	/** The task running on this CPU. */
	readonly current: Task;
	/** the ids of the plugins in this run's variant stack */
	readonly variantIds: readonly string[];
	/** simulated cycles so far */
	readonly cycles: number;
	/** kernel/signal.c's functions. */
	readonly signal: SignalFunctions;
	/** i387.c's functions. */
	readonly fpu: FpuFunctions;
	/** sched.c's functions. */
	readonly sched: SchedFunctions;
	/** The page fault and TLB functions. */
	readonly mm: MmFunctions;
	/** The file table and the disk. */
	readonly files: FileFunctions;
	/** the mechanisms in force in this run */
	readonly policies: KernelPolicies;
	/** Linux 2.4's own mechanisms (a variant delegates to them for the cases it does not change) */
	readonly baseline: KernelPolicies;
	/** the user-space signal mask service, when a plugin of the stack provides one */
	readonly userSigmask: UserSigmaskService | null;
	/** API 2.2: the task running on CPU `cpu` (cpu_curr(cpu)); its idle task when it is idle */
	currentOf?(cpu: Cpu): Task;
	/**
	 * API 2.2: resched_curr(cpu_rq(cpu)): set need_resched on the task running on `cpu` (nothing when
	 * it is set already) and, when `cpu` is not this CPU, send it the reschedule IPI.
	 */
	resched_cpu?(cpu: Cpu): void;
	/** API 2.2: is_cpu_allowed(t, cpu): `cpu` is in the task's cpus_allowed (sched_setaffinity) */
	is_cpu_allowed?(t: Task, cpu: Cpu): boolean;
	/**
	 * run a kernel path once: charge its ops (an interrupt may land between them). An unknown name
	 * is an error that stops the run, naming the path.
	 */
	run(path: string | PathHandle): void;
	/** run a one-op path n times (data-dependent work: lines copied, registers converted, ...) */
	runN(path: string | PathHandle, n: number): void;
	/**
	 * API 2.2: a handle of path `name` for call sites that run it often (every switch, every
	 * delivery): run, runN and RuntimeThread.runUser take it in place of the
	 * name and skip the lookup by name. Valid in this run only (get handles at setup, or on first
	 * use in a run); an unknown name is refused here, as run(name) would refuse it.
	 */
	pathHandle?(name: string): PathHandle;
	/**
	 * one workload step: enforces the run's step and cycle budgets (the run stops with a "budget"
	 * error past either). The runtime counts one per system call and user-mode operation.
	 */
	step(): void;
	/** add to a counter shown with the results (`n`, default 1); prefix your counters with your plugin id */
	count(name: string, n?: number): void;
	/** deterministic random number in [0, 1) from the experiment's seed */
	random(): number;
	/** record a finding; repeats are folded into one with a count */
	report(f: Finding): void;
	/**
	 * Queues an interrupt at the absolute cycle `at` on this CPU: `fire` runs as the body of its
	 * handler when the CPU reaches it (IRQ0's path for "timer", the device interrupt's for
	 * "device"; a pending "device" event also keeps the run from being a deadlock while every task
	 * sleeps). Events at the same cycle fire in the order they were queued.
	 */
	scheduleEvent(at: number, kind: "timer" | "device", fire: () => void): void;
}
/**
 * How user mode enters and leaves the kernel for a system call (int $0x80 / SYSENTER / SYSCALL).
 * Single-valued: rebind it (and list it in `replaces`); k.baseline.entry is 2.4's int $0x80.
 * @category Mechanisms
 */
export interface EntryMechanism {
	/** The mechanism's id, e.g. "int80" or "sysenter". */
	readonly id: string;
	/** null if usable on this CPU, else the reason (e.g. "CPU has no SEP") */
	checkCpu(profile: ResolvedProfile): string | null;
	/** user -> kernel for system call `nr` (a mechanism may enter some calls differently, e.g. sigreturn) */
	enter(k: Kernel, task: Task, nr: number): void;
	/** test the work flags on the way out; true when there is work (reschedule or signal) */
	exitTest(k: Kernel, task: Task): boolean;
	/** kernel -> user; `mustIret` when pt_regs were changed (signal frame, sigreturn) */
	leave(k: Kernel, task: Task, mustIret: boolean): void;
}
/**
 * What setup_frame does with the FPU state, and what sigreturn restores (save_i387/restore_i387).
 * Single-valued: rebind it; k.baseline.signalFpu is 2.4's.
 * @category Mechanisms
 */
export interface SignalFpuPolicy {
	/** The policy's id. */
	readonly id: string;
	/**
	 * setup_frame's save_i387: put the task's FPU state into `frame` (frame.fpImage, frame.fpstate)
	 * for the handler of `ka`, charging the paths it runs, before the handler starts.
	 */
	saveToFrame(k: Kernel, task: Task, frame: SignalFrame, ka: SigAction): void;
	/** sigreturn's restore_i387: give the task back the FPU state `frame` holds (edits of the handler included). */
	restoreFromFrame(k: Kernel, task: Task, frame: SignalFrame): void;
}
/**
 * FPU handling at context switch and on #NM (lazy by default: TS set on switch, restore on trap).
 * Single-valued: rebind it; k.baseline.switchFpu is 2.4's.
 * @category Mechanisms
 */
export interface SwitchFpuPolicy {
	/** The policy's id. */
	readonly id: string;
	/** __switch_to's unlazy_fpu(prev): save `prev`'s live FPU state if it has one, before the switch. */
	switchOut(k: Kernel, prev: Task): void;
	/** After switch_to made `next` current: what the FPU needs for it (2.4: set CR0.TS; an eager policy restores). */
	switchIn(k: Kernel, next: Task): void;
	/** #NM: math_state_restore */
	deviceNotAvailable(k: Kernel, task: Task): void;
}
/**
 * Where the blocked mask lives (task->blocked by default; a user page with user-sigmask).
 * Single-valued: rebind it.
 * @category Mechanisms
 */
export interface SignalMaskStore {
	/** The store's id. */
	readonly id: string;
	/** the mask the kernel must honour at delivery */
	effectiveBlocked(k: Kernel, task: Task): Sigset;
	/** the mask do_signal dequeues with (defaults to effectiveBlocked; a variant may read less) */
	deliveryBlocked?(k: Kernel, task: Task): Sigset;
}
/**
 * Which runnable task gets the CPU, and when a timeslice is used up (since plugin API 2.1).
 *
 * Why a point of its own: the choice is policy — 2.4's goodness() loop, 2.6's O(1) or CFS, a
 * round robin for a what-if — while the mechanics around it are the same for every policy and
 * stay the kernel's: schedule() takes prev off the run queue when it sleeps, falls back to prev
 * when only the idle task is left, and does switch_mm/switch_to; the timer interrupt re-arms
 * itself and expires timeouts; try_to_wake_up puts the task on the run queue. The baseline is
 * Linux 2.4's (kernel/sched.c; k.baseline.scheduler, to delegate to).
 * @category Mechanisms
 */
export interface Scheduler {
	/** The policy's id, e.g. "linux-2.4" or "cfs". */
	readonly id: string;
	/**
	 * schedule()'s choice: a task of k.runqueue, or k.idle when none should run. `prev` is the task
	 * that called schedule() (still on the run queue if it can run). Charges its own work (e.g.
	 * k.runN("goodness", n)) and may refill timeslices (Task.counter). Anything else is refused.
	 */
	pick_next_task(k: Kernel, prev: Task): Task;
	/**
	 * The timer tick's accounting for the task it interrupted (`p` may be k.idle): 2.4's
	 * update_process_times (--p->counter; need_resched when the slice is used up).
	 */
	update_process_times(k: Kernel, p: Task): void;
	/**
	 * try_to_wake_up's reschedule_idle: `p` was just made runnable; set k.current.needResched when
	 * it should preempt the running task.
	 */
	reschedule_idle(k: Kernel, p: Task): void;
	/**
	 * API 2.2: what runs after a context switch, on the CPU that switched, once `next` is current
	 * (`prev` was switched out; `yielded`: it called sched_yield). When present the core calls it on
	 * every switch, on one CPU and on SMP, instead of its own tail: 2.4's __schedule_tail on SMP
	 * (offering a still-runnable, non-yielding prev to another CPU with reschedule_idle). A policy
	 * without that step (6.x's finish_task_switch has no reschedule_idle) provides its own, which
	 * charges what its kernel runs there. Absent: the core's 2.4 tail.
	 */
	schedule_tail?(k: Kernel, prev: Task, yielded: boolean): void;
}
/**
 * The settings of /dev/siglab-disk that k.files.configureDisk takes (the core checks them).
 * @category Mechanisms
 */
export interface BlockDeviceConfig {
	/** microseconds from the start of a request to its completion interrupt */
	latencyUs?: number;
	/** minimum microseconds between two completions (0: unlimited bandwidth) */
	intervalUs?: number;
	/** API 2.2: each completion comes up to this many microseconds later, drawn from the run's seed (0: none) */
	jitterUs?: number;
}
/**
 * The model of /dev/siglab-disk: when a request completes, and what the driver charges to start
 * and end it (since plugin API 2.1).
 *
 * Why a point of its own: what the experiments compare is how a completion reaches the program (a
 * record read(), SIGIO or an F_SETSIG signal, an AIO ring); the device behind it is a parameter of
 * the experiment (a fixed latency, a queue with bandwidth, a seek model). The file side — the
 * 32-byte records, wake-ups, kill_fasync, aio_complete — stays the kernel's, so every way of
 * learning of a completion sees the same device. The baseline is a latency with a minimum interval
 * between completions (k.baseline.blockDevice, to delegate to). A model that keeps state (its
 * queue) keeps it per run: bind it with toDynamicValue, or keep the state in k.slot().
 * @category Mechanisms
 */
export interface BlockDevice {
	/** The model's id. */
	readonly id: string;
	/**
	 * Start a request of `bytes` (the driver's make_request). The device queues its completion
	 * interrupt (k.scheduleEvent(at, "device", ...)), whose handler calls `complete(result)` once.
	 */
	submit(k: Kernel, bytes: number, complete: (result: number) => void): void;
	/**
	 * Settings a KernelSetupContribution gave with k.files.configureDisk, before the device's first
	 * use (keys and values already checked). Throw to refuse what the model cannot honour.
	 */
	configure(k: Kernel, cfg: Readonly<BlockDeviceConfig>, who: string): void;
}
/**
 * The user-space signal mask (a service the user-sigmask plugin provides, thread libraries use):
 * sigprocmask through a page the kernel reads at delivery, instead of a system call. Bound by at
 * most one plugin of a stack (TOKENS.UserSigmask); k.userSigmask is it.
 * @category Mechanisms
 */
export interface UserSigmaskService {
	/** The calling thread's mask changed (or with `set` null, read) through the page: returns the old mask. */
	sigprocmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
}
/**
 * A simulated operation: call it with `yield*` (the runtime drives it, and switches tasks where it
 * yields); its return value is the operation's result.
 * @category User space
 */
export type Gen<T> = Generator<unknown, T, unknown>;
/**
 * A thread's code, as the runtime calls it.
 * @category User space
 */
export type ThreadBody = (t: RuntimeThread) => Gen<unknown>;
/**
 * The runtime thread a thread library or libc model works on: one task's user-mode context with
 * its system calls (each charges the entry, the syscall body and the exit work, and may run
 * signal handlers on its way out) and user work. System calls return >= 0, or -errno.
 * @category User space
 */
export interface RuntimeThread {
	/** The run's kernel. */
	readonly kernel: Kernel;
	/** The kernel task it runs on (several user-level threads of an M:N library share one). */
	readonly task: Task;
	/** The process id (getpid's answer). */
	readonly pid: number;
	/** The kernel task's id. */
	readonly tid: number;
	/** the run's libc model */
	readonly libc: LibcModel;
	/** getpid: the process id. */
	getpid(): Gen<number>;
	/** The gettimeofday system call (not libc's: see LibcModel): the simulated time of day. */
	gettimeofday(): Gen<Timeval>;
	/** sched_yield: 0. */
	sched_yield(): Gen<number>;
	/** read up to `bytes` from `fd` (may sleep on an empty pipe): the bytes read, 0 at end of file, or -errno. */
	read(fd: number, bytes: number): Gen<number>;
	/** write `bytes` to `fd` (may sleep on a full pipe): the bytes written, or -errno. */
	write(fd: number, bytes: number): Gen<number>;
	/** pipe: [read end, write end], or -errno. */
	pipe(): Gen<[
		number,
		number
	]>;
	/** fcntl(fd, cmd, arg) with F_GETFL, F_SETFL, F_SETOWN, F_SETSIG: the result, or -errno. */
	fcntl(fd: number, cmd: number, arg?: number): Gen<number>;
	/**
	 * select on the fds to read and to write, sleeping until one is ready or `timeoutNs` passed
	 * (undefined: no timeout; 0: poll): the ready fds, or -errno (-EINTR when a signal woke it).
	 */
	select(readFds: number[], writeFds: number[], timeoutNs?: number): Gen<{
		/** The fds of readFds that are readable. */
		readable: number[];
		/** The fds of writeFds that are writable. */
		writable: number[];
	} | number>;
	/** mmap of `bytes` of anonymous memory with `prot` (PROT_* bits): its address, or -errno. */
	mmap(bytes: number, prot: number): Gen<number>;
	/** rt_sigprocmask with `how` (0 SIG_BLOCK, 1 SIG_UNBLOCK, 2 SIG_SETMASK): the old mask, or -errno. */
	sigprocmask(how: 0 | 1 | 2, set: number[]): Gen<number[] | number>;
	/** rt_sigprocmask with bit sets (for libraries that switch masks on every switch) */
	sigprocmaskSet(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number>;
	/** rt_sigpending: the pending signals that are blocked. */
	sigpending(): Gen<number[]>;
	/** clone(CLONE_VM|...): a kernel thread running `body`; returns its tid */
	clone(body: ThreadBody): Gen<number>;
	/** wait4(pid or -1): the reaped pid or -errno */
	waitFor(pid: number): Gen<number>;
	/** any system call by number (the table includes plugins' syscalls) */
	syscall(nr: number, ...args: unknown[]): Gen<unknown>;
	/** A user-mode load of the word at `addr` (0 if never stored); an unmapped address faults (SIGSEGV) and the load is retried. */
	load(addr: number): Gen<number>;
	/** A user-mode store of `value` (default 0) at `addr` (fires "user.store"); faults as load does. */
	store(addr: number, value?: number): Gen<void>;
	/** `cycles` of user-mode computation (charged to the user phase, or signal.handler in a handler); interrupts land in it. */
	compute(cycles: number): Gen<void>;
	/** `n` user FPU instructions (#NM first if CR0.TS is set) */
	fpuInstruction(n: number): Gen<void>;
	/** libc memcpy of `bytes`; with SSE it uses (and clobbers) xmm0-xmm3 */
	userMemcpy(bytes: number, sse: boolean): Gen<void>;
	/** run a user-mode path (library code): charged to the user phase; a timer tick may land in it */
	runUser(path: string | PathHandle, n?: number): Gen<void>;
	/** the user-level thread scheduler `library` keeps in this task (made on first use) */
	userThreads(library: string, hooks: () => UThreadHooks): UserThreadScheduler;
}
/**
 * A libc model, selected by a workload's `libc` id. Multi-valued: add with bind; ids are unique.
 * A workload's `t.libc` calls run these on the calling thread.
 * @category User space
 */
export interface LibcModel {
	/** The id a workload selects it by (`libc: "glibc-2.2"`); the default is "glibc-2.2". */
	readonly id: string;
	/** Whether memcpy uses SSE registers (above sseThreshold): it may then trap #NM and clobbers xmm0-xmm3. */
	readonly sseMemcpy: boolean;
	/** The copy size in bytes from which memcpy uses SSE. */
	readonly sseThreshold: number;
	/** memcpy of `bytes` in user mode (charge it with t.userMemcpy). */
	memcpy(t: RuntimeThread, bytes: number): Gen<void>;
	/** libc's gettimeofday: the system call, or (with a vDSO, a vsyscall page) user-mode code. */
	gettimeofday(t: RuntimeThread): Gen<Timeval>;
}
/**
 * A time of day (struct timeval) from the simulated clock.
 * @category User space
 */
export interface Timeval {
	/** Seconds. */
	sec: number;
	/** Microseconds (0-999999). */
	usec: number;
}
/**
 * API 2.2: the functions of a vDSO (see MmFunctions.map_vdso): user-mode code the kernel maps into
 * every process, which libc calls instead of the system call. Each runs on the calling thread in
 * user mode and charges its own paths (th.runUser); a timer tick may land between them.
 * @category User space
 */
export interface Vdso {
	/** The vDSO's id (errors name it). */
	readonly id: string;
	/** __vdso_gettimeofday: the time of day from the simulated clock, without entering the kernel */
	gettimeofday(th: RuntimeThread): Gen<Timeval>;
}
/**
 * A user-level thread's state: "ready" (on the ready queue), "running", "waiting" (for a join,
 * an fd, ...: see waitingOn), "done" (its body returned).
 * @category User space
 */
export type UThreadState = "ready" | "running" | "waiting" | "done";
/**
 * A user-level thread of an M:N or N:1 library.
 * @category User space
 */
export interface UThread {
	/** Its id (what pthread_self returns; the root's is the task's pid). */
	readonly id: number;
	/** Its state; the library sets "waiting" before it parks a thread that waits. */
	state: UThreadState;
	/** why it waits ("join", "fd", ...), for deadlock messages */
	waitingOn: string;
	/** Its body's return value (a number) once it is done. */
	result: number;
	/** The threads waiting in pthread_join for it (the library wakes them when it is done). */
	readonly joiners: UThread[];
	/** the runtime thread its code runs with (the same kernel task as every other user thread) */
	readonly th: RuntimeThread;
	/** the library's per-thread data */
	mask: Sigset | null;
}
/**
 * The library's side of a user-level switch, run in the scheduler's context.
 * @category User space
 */
export interface UThreadHooks {
	/** `prev` just switched to the scheduler (it is ready, waiting or done) */
	returned(s: UserThreadScheduler, prev: UThread): Gen<void>;
	/** nothing is ready: wait for an event; false if nothing can ever wake a thread */
	idle(s: UserThreadScheduler): Gen<boolean>;
	/** switch from the scheduler into `next` (time stamps, mask install, register restore) */
	enter(s: UserThreadScheduler, next: UThread): Gen<void>;
}
/**
 * A user-level thread waiting for an fd (UserThreadScheduler.fdWaits).
 * @category User space
 */
export interface FdWait {
	/** The waiting thread. */
	ut: UThread;
	/** The fd it waits for. */
	fd: number;
	/** Whether it waits to write (else to read). */
	write: boolean;
}
/**
 * The user-level threads of one kernel task, multiplexed by a library (its own state: slot()).
 * @category User space
 */
export interface UserThreadScheduler extends StateHolder {
	/** The kernel task (the LWP) they run on. */
	readonly task: Task;
	/** The library's id. */
	readonly library: string;
	/** The LWP's own stack (the thread that first entered the library, e.g. main). */
	readonly root: UThread;
	/** The thread running now. */
	current: UThread;
	/** Every thread by id, done ones included. */
	readonly threads: ReadonlyMap<number, UThread>;
	/** the ready queue (the scheduler takes from its head) */
	readonly ready: readonly UThread[];
	/** threads waiting for an fd to become ready */
	readonly fdWaits: FdWait[];
	/** the scheduler's own runtime thread (its syscalls are the LWP's) */
	readonly sched: RuntimeThread;
	/** a new ready thread running `body` */
	create(body: ThreadBody): UThread;
	/** give up the CPU from `me`'s context; returns when the scheduler switched back into `me` */
	park(me: UThread): Gen<void>;
	/** mark a waiting thread ready */
	wake(ut: UThread): void;
	/** poll (or block in select on) the fds threads wait for, plus `alsoRead`; wakes the ready ones */
	pollFdWaits(block: boolean, alsoRead?: number[]): Gen<number>;
}
/**
 * A system call added to the table; reached by a workload's `t.syscall(nr, ...args)`. The entry
 * and exit (the run's EntryMechanism, the exit work loop) are the kernel's; the plugin gives the
 * body.
 * @category Extension points
 */
export interface SyscallContribution {
	/**
	 * Its number: a slot the core does not implement (NR lists the ones it does; the workload API's
	 * typed calls, such as `t.getpid()`, always run the core's). Two plugins of a stack may not
	 * take the same number.
	 */
	nr: number;
	/** Its name, e.g. "gettid": the counter `syscalls.<name>` counts its calls. */
	name: string;
	/**
	 * The body, called in kernel mode on the calling task. A plain function returns the result
	 * (>= 0, or -errno, which becomes the workload's return value; any other plain data is returned
	 * to the workload as is, with 0 in eax); with `blocking`, a generator function that may sleep
	 * with `yield* k.sched.schedule()` and returns the result. `args` are plain data the workload
	 * passed.
	 */
	handler(k: Kernel, task: Task, args: unknown[]): unknown;
	/**
	 * The handler is a generator that may sleep: set task.state to "interruptible" (and
	 * task.waitingOn, task.timeoutAt), then `yield* k.sched.schedule()`; on return task.wakeReason
	 * says why it woke. Woken by a signal, return -ERESTARTSYS to be restarted after the handler
	 * when it has SA_RESTART (-EINTR otherwise), or -EINTR.
	 */
	blocking?: boolean;
	/** the path charged as the syscall's body (default "sys_ni_syscall") */
	path?: string;
}
/**
 * New paths (kernel or user mode), defined when a run's paths are set up, before any transform;
 * a name that exists already replaces that path.
 * @category Extension points
 */
export interface PathContribution {
	/** The paths to define (called once per run). */
	paths(): PathDef[];
}
/**
 * Changes to existing paths (the core's or another plugin's), applied after every path is defined.
 * @category Extension points
 */
export interface PathTransformContribution {
	/** The transforms to apply (called once per run), in order. */
	transforms(): PathTransform[];
}
/**
 * Called on #NM (device not available: a task used the FPU while CR0.TS was set) before the
 * switch policy's math_state_restore (lazy FPU frame variants). Hooks run in stack order; the
 * first that returns true has handled the trap.
 * @category Extension points
 */
export interface FpuTrapHook {
	/** Handle #NM for `task` (charge what you do with k.run); true when handled, false to pass it on. */
	onDeviceNotAvailable(k: Kernel, task: Task): boolean;
}
/**
 * Called on #PF before the default handling (after a copy-on-write fault was handled), in stack
 * order. Return true if handled: the access is retried; false passes it on (in the end SIGSEGV).
 * @category Extension points
 */
export interface PageFaultHook {
	/** Handle a fault of `task` at `addr` (a write when `write`); true when handled. */
	onPageFault(k: Kernel, task: Task, addr: number, write: boolean): boolean;
}
/**
 * Subscribes to kernel events and reports findings; it must not change the simulation. Bind it
 * with toDynamicValue (a fresh checker per run) when it keeps state.
 * @category Extension points
 */
export interface InvariantChecker {
	/** The checker's id (findings name it), e.g. "getpid-cache.stale-pid". */
	readonly id: string;
	/**
	 * Called once per run, when the kernel is made (before the first task exists): subscribe to
	 * k.events here and report with k.report.
	 */
	attach(k: Kernel): void;
}
/**
 * CPU profiles a plugin adds (a CPU its variant needs, e.g. one with SYSCALL); their ids must not
 * clash with the built-in ones.
 * @category Extension points
 */
export interface CpuProfileContribution {
	/** The profiles, as files (inheritance applied). */
	profiles(): CpuProfileFile[];
}
/**
 * Runs when a kernel is created for a run, before the first task exists (after the checkers are
 * attached): configure the kernel (k.mm.map_vdso, k.files.configureDisk, k.mm.setPcid) and get
 * path handles.
 * @category Extension points
 */
export interface KernelSetupContribution {
	/** Set up `k` for the run. */
	setup(k: Kernel): void;
}
/**
 * What pthread_create returns to the workload.
 * @category User space
 */
export interface PthreadHandle {
	/** The thread's id (a kernel task's pid for a 1:1 library, a user-level thread's id for M:N). */
	readonly tid: number;
}
/**
 * A thread library (LinuxThreads 1:1, NGPT M:N, libc_r N:1): what a workload's `t.pthread` calls
 * run. Single-valued: rebind it. Each call runs on the calling thread, in user mode, and charges
 * what the library does (its paths with t.runUser, its system calls through `t`).
 * @category User space
 */
export interface ThreadLibrary {
	/** The library's id, e.g. "ngpt". */
	readonly id: string;
	/** pthread_create: start a thread running `body`; returns its handle. */
	create(t: RuntimeThread, body: ThreadBody): Gen<PthreadHandle>;
	/** pthread_join: wait until the thread's body returned; returns its result (a number). */
	join(t: RuntimeThread, th: PthreadHandle): Gen<number>;
	/** sched_yield as the library does it (a system call, or a user-level switch). */
	yield(t: RuntimeThread): Gen<void>;
	/** read as the library wraps it (an M:N library waits in its scheduler instead of blocking the LWP). */
	read(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
	/** write as the library wraps it. */
	write(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
	/** pthread_sigmask: the calling thread's mask (how: 0 block, 1 unblock, 2 set); returns the old mask. */
	sigmask(t: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]>;
	/** pthread_self: the calling thread's id. */
	self(t: RuntimeThread): number;
}
/**
 * A token for values of type T (a symbol at run time): what `bind`/`rebind` take, so the value
 * bound is checked against T.
 * @category Extension points
 */
export type Token<T> = symbol & {
	/** Type-only: the type of what the token is bound to (never present at run time). */
	readonly __bound?: T;
};
/**
 * The tokens of the extension points, by name: `bind(TOKENS.SyscallContribution)` adds to a
 * multi-valued point, `rebind(TOKENS.EntryMechanism)` replaces a single-valued one (SINGLE_VALUED),
 * `bind(TOKENS.UserSigmask)` provides a service (SERVICES).
 * @category Extension points
 */
export declare const TOKENS: Readonly<{
	/** How system calls enter and leave the kernel (single-valued: rebind). */
	EntryMechanism: Token<EntryMechanism>;
	/** What a signal frame does with the FPU state (single-valued: rebind). */
	SignalFpuPolicy: Token<SignalFpuPolicy>;
	/** The FPU at context switch and on #NM (single-valued: rebind). */
	SwitchFpuPolicy: Token<SwitchFpuPolicy>;
	/** Where the blocked mask lives (single-valued: rebind). */
	SignalMaskStore: Token<SignalMaskStore>;
	/** The pthread library workloads' `t.pthread` calls go to (single-valued: rebind). */
	ThreadLibrary: Token<ThreadLibrary>;
	/** since plugin API 2.1 */
	Scheduler: Token<Scheduler>;
	/** since plugin API 2.1 */
	BlockDevice: Token<BlockDevice>;
	/** A libc model a workload may select by id (multi-valued: bind). */
	LibcModel: Token<LibcModel>;
	/** A system call in a free slot of the table (multi-valued: bind). */
	SyscallContribution: Token<SyscallContribution>;
	/** New kernel or user paths (multi-valued: bind). */
	PathContribution: Token<PathContribution>;
	/** Changes to existing paths (multi-valued: bind). */
	PathTransformContribution: Token<PathTransformContribution>;
	/** Code run on #NM before the switch policy (multi-valued: bind). */
	FpuTrapHook: Token<FpuTrapHook>;
	/** Code run on #PF before the default handling (multi-valued: bind). */
	PageFaultHook: Token<PageFaultHook>;
	/** A checker that reports findings (multi-valued: bind). */
	InvariantChecker: Token<InvariantChecker>;
	/** CPU profiles the plugin adds (multi-valued: bind). */
	CpuProfileContribution: Token<CpuProfileContribution>;
	/** Code run when a run's kernel is made (multi-valued: bind). */
	KernelSetupContribution: Token<KernelSetupContribution>;
	/** The user-space signal mask service (bind; at most one plugin of a stack provides it). */
	UserSigmask: Token<UserSigmaskService>;
}>;
/**
 * The name of an extension point (a key of TOKENS): what a manifest lists in `contributes` and
 * `replaces`.
 * @category Extension points
 */
export type ExtensionPointName = keyof typeof TOKENS;
/**
 * The single-valued points: a plugin that binds one must `rebind` it and list it in `replaces`.
 * @category Extension points
 */
export declare const SINGLE_VALUED: readonly ExtensionPointName[];
/**
 * Services: bound by at most one plugin of a stack.
 * @category Extension points
 */
export declare const SERVICES: readonly ExtensionPointName[];
/**
 * What `bind(token)` / `rebind(token)` return: say what the point is bound to.
 * @category Extension points
 */
export interface BindingTo<T> {
	/** one value for every run (it must hold no per-run state) */
	toConstantValue(value: T): unknown;
	/** a fresh value per run: use it for objects that keep per-run state (checkers) */
	toDynamicValue(make: (context: unknown) => T): unknown;
}
/**
 * What a plugin's module callback receives: bind and rebind, restricted to the points its manifest
 * declares (anything else is refused with the plugin's id and the point), and isBound. Inversify's
 * other options (unbind, activation hooks) are not part of the plugin API and are refused.
 * @category Extension points
 */
export interface ModuleLoadOptions {
	/** add a contribution to a multi-valued point (declared in the manifest's `contributes`) */
	bind<T>(token: Token<T>): BindingTo<T>;
	/** replace a single-valued point (declared in `contributes` and `replaces`) */
	rebind<T>(token: Token<T>): BindingTo<T>;
	/** Whether the point has a binding already (the core's, or a plugin's lower in the stack). */
	isBound(token: Token<unknown>): boolean;
}
/**
 * A plugin's module: what `createModule(options, api)` returns, made with
 * `new ContainerModule(({ bind, rebind }) => { ... })`. The callback runs once per run, when the
 * run's container is assembled, and must bind synchronously (a returned promise is refused).
 * @category Extension points
 */
export interface ContainerModule {
	/** Inversify's id of the module (unique per module object). */
	readonly id: number;
}
/**
 * The constructor of ContainerModule: `new ContainerModule(load)` with the callback that binds.
 * @category Extension points
 */
export interface ContainerModuleConstructor {
	/** A module whose `load` callback binds the plugin's extension points. */
	new (load: (options: ModuleLoadOptions) => void): ContainerModule;
}
/**
 * Inversify's ContainerModule, typed with the plugin API's options: `new ContainerModule(({ bind,
 * rebind }) => ...)`.
 * @category Extension points
 */
export declare const ContainerModule: ContainerModuleConstructor;
/**
 * sigprocmask as a thread library makes it: set (or with `set` null, read) the calling LWP's mask
 * with `how` (0 SIG_BLOCK, 1 SIG_UNBLOCK, 2 SIG_SETMASK) and return the old mask — through the
 * user-space mask service when the run has one (k.userSigmask), else the rt_sigprocmask system
 * call (whose cycles it charges).
 * @category User space
 */
export declare function setMask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
/**
 * setMask with bit sets: the rt_sigprocmask path without list conversions (the page ABI takes
 * lists). Returns the old mask as a new set.
 * @category User space
 */
export declare function setMaskSet(th: RuntimeThread, how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset>;
/**
 * Every signal but SIGKILL and SIGSTOP (sigfillset, as the kernel stores it).
 * @category Signals
 */
export declare const ALL_SIGNALS: readonly number[];
/**
 * ALL_SIGNALS as a bit set (a fresh copy each call: sets are mutable).
 * @category Signals
 */
export declare function allSignals(): Sigset;
/**
 * The mask after sigprocmask(how, set) on `old` (how: 0 SIG_BLOCK, 1 SIG_UNBLOCK, 2 SIG_SETMASK):
 * a new set, SIGKILL and SIGSTOP never in it.
 * @category Signals
 */
export declare function applyHowSet(old: Sigset, how: 0 | 1 | 2, set: Sigset): Sigset;
/**
 * Runs the user-mode path `path` on `t` (as `t.runUser(path)`) and returns what `read()` returns,
 * called after the path's ops and before a timer or device interrupt that fell due during them
 * lands: what the path's loads saw. An interrupt that was already due lands first, and `read()`
 * then follows the path. A seqlock reader (a vsyscall or vDSO gettimeofday) reads this way: the
 * interrupt that updates the data may land between its loads and its retry test, never inside
 * the loads. Same cycles and order as `yield* t.runUser(path)` with the read in its middle.
 * @since 2.3
 * @category User space
 */
export declare function runUserAndRead<T>(t: RuntimeThread, path: string | PathHandle, read: () => T): Gen<T>;
/**
 * One option of a plugin (plugin.json's "options"): its type, default and what it does. Users set
 * it as `--variant id:name=value`; the host checks the value against this spec before
 * createModule sees it.
 * @category Manifest
 */
export interface PluginOptionSpec {
	/** The value's type ("enum": one of `values`). */
	type: "boolean" | "number" | "string" | "enum";
	/** The value when the user gives none. */
	default: ParamValue;
	/** What the option changes, for `siglab plugins info` and the app. */
	description: string;
	/** for enum */
	values?: string[];
	/** for number */
	min?: number;
	/** For a number: the highest value accepted. */
	max?: number;
	/** For a number: its unit, e.g. "us" or "cycles". */
	unit?: string;
}
/**
 * plugin.json: what a plugin declares about itself. The host checks it before any plugin code
 * runs, and enforces `contributes` and `replaces` when the plugin's module binds.
 * @category Manifest
 */
export interface PluginManifest {
	/** The plugin's id: lower-case letters, digits and '-' (at most 64); what `--variant` names. */
	id: string;
	/** The plugin's version, SemVer ("1.2.0"); bundles record it. Raise it with every change. */
	version: string;
	/** plugin-API version targeted ("major.minor"); another major, or a newer minor, is refused */
	apiVersion: string;
	/** Its name as lists show it. */
	displayName: string;
	/** What the variant changes, in a sentence or two. */
	description: string;
	/** Its options by name (empty: none). */
	options: Record<string, PluginOptionSpec>;
	/** every extension point the plugin binds */
	contributes: ExtensionPointName[];
	/** the single-valued points it replaces (two plugins replacing the same one conflict) */
	replaces?: ExtensionPointName[];
	/** the JavaScript entry (third-party plugins), relative to the plugin folder, e.g. "dist/index.cjs" */
	main?: string;
	/** named variant stacks this plugin offers (shown by `siglab list`, used with `--preset`) */
	presets?: Preset[];
	/**
	 * Why a run may not be changed by this variant, and what makes it apply (API 2.4). A variant none
	 * of whose kernel paths ran in a run had no effect on it (`PathStat.origin` says whose a path is);
	 * the CLI and the app then say so, with these words, and the app offers `options` as a switch.
	 */
	noEffect?: NoEffectHint;
}
/**
 * A plugin's words for a run it did not change; in plugin.json's "noEffect" (API 2.4).
 * @category Manifest
 */
export interface NoEffectHint {
	/** Why, in a clause ("no handler asked for SA_NOFP"). */
	reason: string;
	/** What to do about it, in a clause ("set forceAll=true to apply it to every handler"). */
	remedy?: string;
	/** The option values that make the variant apply (e.g. `{ "forceAll": true }`): the app's switch. */
	options?: Record<string, ParamValue>;
}
/**
 * Option values after validation against the manifest (defaults filled in): what createModule gets.
 * @category Manifest
 */
export type PluginOptions = Readonly<Record<string, ParamValue>>;
/**
 * A named variant stack (shown by `siglab list`, used with `--preset`); in plugin.json's "presets".
 * @category Manifest
 */
export interface Preset {
	/** e.g. "linux-2.5.53" */
	id: string;
	/** e.g. "Linux 2.5.53 + SYSENTER" */
	name: string;
	/** What the stack stands for (a kernel release, a what-if). */
	description: string;
	/** The plugins of the stack, bottom first, with their options. */
	stack: VariantSpec[];
}
/**
 * What `require("@siglab/plugin-api")` returns (also passed to createModule): the API's values.
 * @category Plugin module
 */
export type PluginApi = typeof values;
/**
 * The signature of a plugin's `createModule` export: called once per run that has the plugin in
 * its stack, with the plugin's validated options (defaults filled in) and the API's values;
 * returns the module that binds the plugin's extension points.
 * @category Plugin module
 */
export type CreateModule = (options: PluginOptions, api: PluginApi) => ContainerModule;
/**
 * A workload shipped with a plugin (shown in `siglab list` and the app's example list). A
 * third-party plugin ships them as .ts files in its examples/ folder.
 * @category Plugin module
 */
export interface ExampleWorkload {
	/** The example's id: what `siglab run <id>` names (unique among all examples). */
	id: string;
	/** A line saying what it shows. */
	title: string;
	/** Its file name, e.g. "getpid_cache.ts" (errors point at it). */
	file: string;
	/** the workload's TypeScript source */
	source: string;
	/** plugins this example needs to show its point (e.g. sa_nofp_hazard -> sa-nofp) */
	suggestedVariants?: VariantSpec[];
	/** API 2.2: the CPU the example is made for, when the suggested stack needs one (e.g. long mode); mhz 0 or absent: its default clock */
	suggestedCpu?: {
		/** The CPU profile's id. */
		id: string;
		/** Its clock (0 or absent: the profile's default). */
		mhz?: number;
	};
}
/**
 * What a plugin's entry exports (a built-in plugin's module, a third-party plugin's main).
 * @category Plugin module
 */
export interface PluginModule<M = unknown> {
	/** plugin.json (the host validates it) */
	readonly manifest: M;
	/** Makes the plugin's module for one run (see CreateModule). */
	readonly createModule: CreateModule;
	/** example workloads it ships (a third-party plugin may also use its examples/ folder) */
	readonly examples?: readonly ExampleWorkload[];
}
/**
 * One run of the test harness: your plugin(s), a CPU, a variant stack and a workload. What
 * `runWorkload` of @siglab/plugin-harness takes (which adds a host-time budget and plugins by
 * folder); the deprecated 2.x entry @siglab/plugin-api/harness takes the same.
 * @category Harness
 */
export interface HarnessOptions {
	/** your plugin(s): their entry's exports plus the manifest (plugin.json) */
	plugins?: PluginModule[];
	/** CPU profile and clock, "id" or "id@MHz" (default p4-northwood@2200) */
	cpu?: string;
	/** the variant stack: plugin ids (with options "id:key=value,...") or VariantSpecs; default the baseline */
	variant?: string | (string | VariantSpec)[];
	/** an example id (the core's, a built-in plugin's, or one your plugin ships), or a workload's source */
	workload: string | {
		/** The file name errors name (default "workload.ts"); its base name is the workload's id. */
		file?: string;
		/** The workload's TypeScript source (it imports "siglab"). */
		source: string;
	};
	/** Workload parameters by name (the others take the workload's defaults). */
	params?: Record<string, ParamValue>;
	/** The run's seed (default 1): the same seed gives the same run. */
	seed?: number;
	/** Record the timeline (RunResult.timeline). */
	timeline?: boolean;
	/** extra CPU profiles (e.g. one you are writing) */
	profiles?: CpuProfileFile[];
	/** The run's budgets: it stops with a "budget" error when it exceeds one (defaults: the CLI's). */
	budget?: {
		/** Workload steps: each system call and each user-mode operation (a load, a store, a compute, a library path) is one. */
		maxSteps?: number;
		/** Simulated cycles. */
		maxCycles?: number;
	};
}
/**
 * The harness's entry: one run, in process; the result as `siglab run --json` prints it.
 * @category Harness
 */
export type RunWorkload = (o: HarnessOptions) => RunResult;

declare namespace values {
	export { ALL_SIGNALS, CORE_PHASES, ContainerModule, EAGAIN, EBADF, ECHILD, EFAULT, EINTR, EINVAL, ENOENT, ENOMEM, ENOSYS, EPERM, EPIPE, ERESTARTNOHAND, ERESTARTNOINTR, ERESTARTSYS, ESRCH, FP_FRAME_BYTES_FSAVE, FP_FRAME_BYTES_FXSR, F_GETFL, F_SETFL, F_SETOWN, F_SETSIG, I386_XMM_REGS, MACHINE_OP_CLASSES, MACHINE_OP_CLASS_IDS, NR, NR_NAME, NSIG, OP_CLASSES, OP_CLASS_IDS, O_ASYNC, O_NONBLOCK, PAGE_SHIFT, PAGE_SIZE, PLUGIN_API_VERSION, POLL_IN, POLL_OUT, PROT_EXEC, PROT_NONE, PROT_READ, PROT_WRITE, RT_SIGFRAME_BYTES, SA_NODEFER, SA_NOFP, SA_ONSTACK, SA_RESETHAND, SA_RESTART, SA_RESTORER, SA_SIGINFO, SEGV_ACCERR, SEGV_MAPERR, SERVICES, SIGFRAME_BYTES, SIGKILL, SIGRTMIN, SIGSTOP, SINGLE_VALUED, SI_QUEUE, SI_TKILL, SI_USER, SMP_OP_CLASSES, SMP_OP_CLASS_IDS, SYSCALL_EIP, Sigset, TOKENS, allSignals, applyHowSet, op, runUserAndRead, setMask, setMaskSet, stateKey };
}

export {};
