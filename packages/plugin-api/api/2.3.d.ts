/**
 * The plugin-API version (SemVer major.minor; see docs/plugin-authoring.md "Versions"): a plugin
 * whose manifest names another major, or a newer minor, is refused. A minor adds to the API
 * (new optional members, new extension points, new services); anything a plugin written for
 * this major could rely on changing or going away is a new major.
 */
export declare const PLUGIN_API_VERSION = "2.3";
/** Linux i386 ABI constants the simulated kernel and its plugins share (values as in Linux 2.4). */
export declare const SA_SIGINFO = 4;
/** Andi Kleen's SA_NOFP (honoured only by the sa-nofp plugin) */
export declare const SA_NOFP = 33554432;
export declare const SA_RESTORER = 67108864;
export declare const SA_ONSTACK = 134217728;
export declare const SA_RESTART = 268435456;
export declare const SA_NODEFER = 1073741824;
export declare const SA_RESETHAND = 2147483648;
export declare const SI_USER = 0;
export declare const SI_QUEUE = -1;
export declare const SI_TKILL = -6;
export declare const SEGV_MAPERR = 1;
export declare const SEGV_ACCERR = 2;
export declare const POLL_IN = 1;
export declare const POLL_OUT = 2;
export declare const EPERM = 1;
export declare const ENOENT = 2;
export declare const ESRCH = 3;
export declare const EINTR = 4;
export declare const EBADF = 9;
export declare const ECHILD = 10;
export declare const EAGAIN = 11;
export declare const ENOMEM = 12;
export declare const EFAULT = 14;
export declare const EINVAL = 22;
export declare const EPIPE = 32;
export declare const ENOSYS = 38;
export declare const ERESTARTSYS = 512;
export declare const ERESTARTNOINTR = 513;
export declare const ERESTARTNOHAND = 514;
export declare const O_NONBLOCK = 2048;
export declare const O_ASYNC = 8192;
export declare const F_GETFL = 3;
export declare const F_SETFL = 4;
export declare const F_SETOWN = 8;
export declare const F_SETSIG = 10;
export declare const PAGE_SIZE = 4096;
export declare const PAGE_SHIFT = 12;
export declare const PROT_NONE = 0;
export declare const PROT_READ = 1;
export declare const PROT_WRITE = 2;
export declare const PROT_EXEC = 4;
export declare const SIGFRAME_BYTES = 732;
export declare const RT_SIGFRAME_BYTES = 892;
/** struct _fpstate with the FXSR part / fsave only */
export declare const FP_FRAME_BYTES_FXSR = 624;
export declare const FP_FRAME_BYTES_FSAVE = 112;
/** i386 signal frames carry XMM0-7 */
export declare const I386_XMM_REGS = 8;
/** EIP just after the `int $0x80` of the libc stub (a restarted syscall rewinds it by 2) */
export declare const SYSCALL_EIP = 134516738;
/**
 * The op classes the executor charges. Every CPU profile must give a cost for each of them
 * (the loader refuses a profile that lacks one, naming the op and the profile).
 *
 * Costs are in core clock cycles per occurrence. Ops that move data are charged per unit named in
 * `unit` (a cache line of the profile's line size, or a 64-byte XSAVE chunk).
 */
export interface OpClassInfo {
	readonly description: string;
	/** What one occurrence is: an instruction, or a unit of data. */
	readonly unit: "instr" | "line" | "event";
}
export declare const OP_CLASSES: {
	readonly int_gate: {
		readonly unit: "instr";
		readonly description: "`int n` through a trap/interrupt gate with a CPL 3->0 change: IDT lookup, TSS stack switch, 5-word push";
	};
	readonly exception_entry: {
		readonly unit: "event";
		readonly description: "CPU exception delivery (#PF, #NM, #GP) from user mode through an IDT gate, including the error-code push";
	};
	readonly irq_entry: {
		readonly unit: "event";
		readonly description: "hardware interrupt delivery (timer, device) through an interrupt gate";
	};
	readonly iret_user: {
		readonly unit: "instr";
		readonly description: "`iret` returning to CPL 3 (pops EIP, CS, EFLAGS, ESP, SS)";
	};
	readonly iret_kernel: {
		readonly unit: "instr";
		readonly description: "`iret` returning to the same privilege level (interrupt taken in kernel mode)";
	};
	readonly iret_if_change: {
		readonly unit: "event";
		readonly description: "extra cost inside `iret` when the popped EFLAGS.IF differs from the current IF (Linus's 'implicit sti' hypothesis)";
	};
	readonly sysenter: {
		readonly unit: "instr";
		readonly description: "`sysenter` (CPL 3->0 through the SYSENTER MSRs)";
	};
	readonly sysexit: {
		readonly unit: "instr";
		readonly description: "`sysexit` (CPL 0->3 to EDX/ECX)";
	};
	readonly syscall: {
		readonly unit: "instr";
		readonly description: "`syscall` (x86-64 fast entry through LSTAR)";
	};
	readonly sysret: {
		readonly unit: "instr";
		readonly description: "`sysret` (x86-64 fast return)";
	};
	readonly cli: {
		readonly unit: "instr";
		readonly description: "`cli`";
	};
	readonly sti: {
		readonly unit: "instr";
		readonly description: "`sti`";
	};
	readonly pushf: {
		readonly unit: "instr";
		readonly description: "`pushfl`";
	};
	readonly popf: {
		readonly unit: "instr";
		readonly description: "`popfl`";
	};
	readonly mov_sreg: {
		readonly unit: "instr";
		readonly description: "load of a segment register (descriptor fetch and checks)";
	};
	readonly mov_from_sreg: {
		readonly unit: "instr";
		readonly description: "store of a segment register to a register or memory";
	};
	readonly push: {
		readonly unit: "instr";
		readonly description: "one stack push";
	};
	readonly pop: {
		readonly unit: "instr";
		readonly description: "one stack pop";
	};
	readonly alu: {
		readonly unit: "instr";
		readonly description: "a simple ALU op, compare or predicted branch";
	};
	readonly load: {
		readonly unit: "instr";
		readonly description: "a load that hits L1";
	};
	readonly store: {
		readonly unit: "instr";
		readonly description: "a store that hits L1";
	};
	readonly call: {
		readonly unit: "instr";
		readonly description: "a direct call plus its ret";
	};
	readonly call_indirect: {
		readonly unit: "instr";
		readonly description: "an indirect call through a table plus its ret";
	};
	readonly locked_op: {
		readonly unit: "instr";
		readonly description: "a `lock`-prefixed read-modify-write (atomic op, spin_lock on SMP)";
	};
	readonly put_user: {
		readonly unit: "instr";
		readonly description: "`__put_user`/`__get_user` of one word with its exception-table fixup";
	};
	readonly copy_user_setup: {
		readonly unit: "event";
		readonly description: "fixed cost of one `copy_to_user`/`copy_from_user` call (access_ok, alignment, rep setup)";
	};
	readonly copy_user_line: {
		readonly unit: "line";
		readonly description: "`copy_to_user`/`copy_from_user`: one cache line moved (hot cache)";
	};
	readonly memcpy_line: {
		readonly unit: "line";
		readonly description: "user-space libc memcpy with integer registers: one cache line (hot cache)";
	};
	readonly sse_memcpy_line: {
		readonly unit: "line";
		readonly description: "user-space libc memcpy with SSE registers: one cache line (hot cache)";
	};
	readonly tlb_miss: {
		readonly unit: "event";
		readonly description: "a TLB miss: page-table walk and TLB fill";
	};
	readonly invlpg: {
		readonly unit: "instr";
		readonly description: "`invlpg` (single-page TLB flush)";
	};
	readonly slab_alloc: {
		readonly unit: "event";
		readonly description: "kmem_cache_alloc/free fast path (e.g. a sigqueue entry)";
	};
	readonly mov_cr3: {
		readonly unit: "instr";
		readonly description: "write to CR3 (address-space switch; flushes non-global TLB entries unless PCID keeps them)";
	};
	readonly read_cr0: {
		readonly unit: "instr";
		readonly description: "read of CR0";
	};
	readonly write_cr0: {
		readonly unit: "instr";
		readonly description: "write of CR0 (`stts` is a read plus this write); serializing";
	};
	readonly clts: {
		readonly unit: "instr";
		readonly description: "`clts` (clear CR0.TS)";
	};
	readonly read_cr2: {
		readonly unit: "instr";
		readonly description: "read of CR2 (page-fault address)";
	};
	readonly mov_dr: {
		readonly unit: "instr";
		readonly description: "write to a debug register (do_signal rewrites %db7 on every handled signal in 2.4)";
	};
	readonly wrmsr: {
		readonly unit: "instr";
		readonly description: "`wrmsr`";
	};
	readonly rdtsc: {
		readonly unit: "instr";
		readonly description: "`rdtsc`";
	};
	readonly fsave: {
		readonly unit: "instr";
		readonly description: "`fnsave` of the 108-byte x87 state (also reinitialises the FPU)";
	};
	readonly frstor: {
		readonly unit: "instr";
		readonly description: "`frstor` of the 108-byte x87 state";
	};
	readonly fxsave: {
		readonly unit: "instr";
		readonly description: "`fxsave` of the 512-byte x87+SSE state";
	};
	readonly fxrstor: {
		readonly unit: "instr";
		readonly description: "`fxrstor` of the 512-byte x87+SSE state";
	};
	readonly xsave_chunk: {
		readonly unit: "line";
		readonly description: "XSAVE/XSAVEOPT/XSAVES: one 64-byte chunk of enabled state written";
	};
	readonly xrstor_chunk: {
		readonly unit: "line";
		readonly description: "XRSTOR/XRSTORS: one 64-byte chunk of enabled state read";
	};
	readonly fninit: {
		readonly unit: "instr";
		readonly description: "`fninit`";
	};
	readonly fnclex: {
		readonly unit: "instr";
		readonly description: "`fnclex`";
	};
	readonly fwait: {
		readonly unit: "instr";
		readonly description: "`fwait`";
	};
	readonly fnstenv: {
		readonly unit: "instr";
		readonly description: "`fnstenv`/`fldenv` pair (28-byte x87 environment, glibc swapcontext)";
	};
	readonly fp_op: {
		readonly unit: "instr";
		readonly description: "a user x87/SSE arithmetic instruction";
	};
	readonly fxsr_convert_reg: {
		readonly unit: "event";
		readonly description: "convert_fxsr_to_user/from_user: one x87 register converted between the 16-byte FXSR slot and the 10-byte i387 layout (incl. twd classification)";
	};
};
export type OpClass = keyof typeof OP_CLASSES;
export declare const OP_CLASS_IDS: OpClass[];
/**
 * API 2.2: the op classes only an SMP machine runs. A profile may leave them out (it then runs one
 * CPU only); core paths of the SMP kernel use them (paths of plugins cannot).
 */
export declare const SMP_OP_CLASSES: {
	readonly apic_access: {
		readonly unit: "instr";
		readonly description: "a read or write of a local APIC register (ICR, EOI): an uncached access to the on-chip APIC";
	};
	readonly ipi_delivery: {
		readonly unit: "event";
		readonly description: "cycles from the ICR write until the target CPU takes the inter-processor interrupt (APIC bus or system-bus message); a delay, not charged to the sender";
	};
	readonly cacheline_transfer: {
		readonly unit: "line";
		readonly description: "a cache line modified in another CPU's cache read or written here (snoop hit on a modified line, the line moves)";
	};
};
export type SmpOpClass = keyof typeof SMP_OP_CLASSES;
export declare const SMP_OP_CLASS_IDS: SmpOpClass[];
/** The phases of the core; a path may name a new phase (it is added to the run's phase table). */
export type CorePhase = "user" | "syscall.entry" | "syscall.body" | "syscall.exit" | "signal.send" | "signal.frame" | "signal.fpu_save" | "signal.handler" | "signal.sigreturn" | "signal.fpu_restore" | "fpu.nm_trap" | "sched.schedule" | "sched.switch_mm" | "sched.switch_to" | "fault.page_fault" | "mm.mprotect" | "irq.timer" | "irq.device" | "pipe.io" | "libc" | "idle";
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
export declare function op(fn: string, opClass: OpClass, n?: number, note?: string): OpLine;
/** A 64-signal sigset_t as two 32-bit words (signal n is bit n-1). */
export declare const NSIG = 64;
export declare const SIGKILL = 9;
export declare const SIGSTOP = 19;
export declare const SIGRTMIN = 32;
export declare class Sigset {
	lo: number;
	hi: number;
	constructor(lo?: number, hi?: number);
	has(sig: number): boolean;
	add(sig: number): void;
	del(sig: number): void;
	or(o: Sigset): void;
	and(o: Sigset): void;
	andNot(o: Sigset): void;
	set(o: Sigset): void;
	clone(): Sigset;
	isEmpty(): boolean;
	/** lowest signal in (this & ~blocked), or 0 */
	firstUnblocked(blocked: Sigset): number;
	anyUnblocked(blocked: Sigset): boolean;
	toList(): number[];
	static of(list: readonly number[]): Sigset;
	/** SIGKILL and SIGSTOP can never be blocked */
	dropUnblockable(): void;
}
/** i386 system call numbers (include/asm-i386/unistd.h) for the syscalls the model implements. */
export declare const NR: {
	readonly exit: 1;
	readonly fork: 2;
	readonly read: 3;
	readonly write: 4;
	readonly open: 5;
	readonly close: 6;
	readonly getpid: 20;
	readonly kill: 37;
	readonly pipe: 42;
	readonly fcntl: 55;
	readonly getppid: 64;
	readonly gettimeofday: 78;
	readonly mmap: 90;
	readonly munmap: 91;
	readonly wait4: 114;
	readonly sigreturn: 119;
	readonly clone: 120;
	readonly mprotect: 125;
	readonly _newselect: 142;
	readonly sched_yield: 158;
	readonly nanosleep: 162;
	readonly rt_sigreturn: 173;
	readonly rt_sigaction: 174;
	readonly rt_sigprocmask: 175;
	readonly rt_sigpending: 176;
	readonly rt_sigtimedwait: 177;
	readonly rt_sigqueueinfo: 178;
	readonly rt_sigsuspend: 179;
	readonly sigaltstack: 186;
	readonly tkill: 238;
};
export type SyscallName = keyof typeof NR;
export declare const NR_NAME: Record<number, string>;
/**
 * Typed state a plugin keeps on kernel objects (per run, per task, per signal frame), in place of
 * untyped string-keyed bags: a key is an object only its plugin holds, so two plugins cannot
 * collide and the value has one type everywhere.
 *
 *   const LAZY = stateKey("lazy-fpu-frame.records", (): LazyRecord[] => []);
 *   task.slot(LAZY).push(rec);
 */
export interface StateKey<T> {
	/** for messages and debugging, e.g. "lazy-fpu-frame.records" */
	readonly name: string;
	/** the initial value, made on first use */
	create(): T;
}
export declare function stateKey<T>(name: string, create: () => T): StateKey<T>;
/** Something that holds plugin state. */
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
	eax: number;
	ebx: number;
	ecx: number;
	edx: number;
	esi: number;
	edi: number;
	ebp: number;
	esp: number;
	eip: number;
	eflags: number;
}
/** How a number in a profile is known. */
export type Provenance = 
/** read in a source (cite the key from docs/sources, e.g. "IL P4 Northwood 2.41 GHz"). */
"sourced"
/** arithmetic on sourced numbers (say which). */
 | "derived"
/** set by `siglab calibrate` against figures in calibration/figures.json (name them in fittedTo). */
 | "fitted"
/** no source: a reasoned estimate (say the reasoning). */
 | "estimated";
export interface CostEntry {
	cycles: number;
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
export interface RelativeCost {
	op: OpClass;
	/** Default 1. */
	factor?: number;
	/** Default 0. */
	plus?: number;
}
export interface SourcedNumber {
	value: number;
	kind: Provenance;
	source: string;
	/** Set by the loader: the ancestor profile this entry was inherited from (not written by hand). */
	inheritedFrom?: string;
}
export interface CpuFeatures {
	fxsr: boolean;
	sep: boolean;
	sse: boolean;
	sse2: boolean;
	avx: boolean;
	avx512: boolean;
	xsave: boolean;
	xsaveopt: boolean;
	xsaves: boolean;
	pcid: boolean;
	pge: boolean;
	/** SYSCALL/SYSRET usable (AMD legacy-mode SYSCALL on K7; x86-64 long mode on modern CPUs). */
	syscall?: boolean;
	/** Long mode (x86-64). */
	lm?: boolean;
}
export interface ClockRange {
	defaultMhz: number;
	minMhz: number;
	maxMhz: number;
	/** Clocks the UI offers; any MHz in [minMhz, maxMhz] is accepted. */
	presets: number[];
}
/** A profile as stored on disk (after inheritance is applied). */
export interface CpuProfileFile {
	/** Runnable ids match /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/; abstract ones may start with "_". */
	id: string;
	name: string;
	vendor: string;
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
	clock: ClockRange;
	features: CpuFeatures;
	geometry: {
		cacheLineBytes: SourcedNumber;
		dtlbEntries: SourcedNumber;
		l1dKB: SourcedNumber;
		l2KB: SourcedNumber;
		/** Number of XMM registers architecturally visible (8 on i386, 16 in 64-bit mode). */
		xmmRegs: SourcedNumber;
		/** Bytes of the XSAVE area for the enabled components (512 when only FXSR, 108 with FSAVE only). */
		xsaveBytes: SourcedNumber;
		/** Second-level data TLB entries (4 KB pages), where the CPU has one and a source gives it. */
		l2dtlbEntries?: SourcedNumber;
	};
	/** every op class; the SMP ones (API 2.2) may be left out: the profile then runs one CPU only */
	costs: Record<OpClass, CostEntry> & Partial<Record<SmpOpClass, CostEntry>>;
}
export interface CpuIdInfo {
	family: number;
	model?: number;
	/** Where the numbers come from. */
	source: string;
}
/**
 * A profile file as written (before inheritance): only `id` is required; an inheriting or
 * abstract profile gives just the fields it overrides (deep merge, `costs` per op).
 */
export interface CpuProfileSource {
	id: string;
	name?: string;
	vendor?: string;
	description?: string;
	inherits?: string;
	abstract?: boolean;
	inheritedFrom?: string[];
	cpuid?: CpuIdInfo;
	featureNotes?: Partial<Record<keyof CpuFeatures, string>>;
	notes?: string[];
	clock?: Partial<ClockRange>;
	features?: Partial<CpuFeatures>;
	geometry?: Partial<CpuProfileFile["geometry"]>;
	costs?: Partial<Record<OpClass, CostEntry>>;
}
/** A profile resolved for one clock: what the simulator consumes. */
export interface ResolvedProfile {
	id: string;
	name: string;
	vendor: string;
	mhz: number;
	features: CpuFeatures;
	cacheLineBytes: number;
	dtlbEntries: number;
	l1dKB: number;
	l2KB: number;
	xmmRegs: number;
	xsaveBytes: number;
	/** cycles per op class */
	/** cycles per op class (the SMP ones, API 2.2: NaN when the profile leaves them out) */
	costs: Record<OpClass, number> & Partial<Record<SmpOpClass, number>>;
	/** The full file (for provenance display and bundles). */
	file: CpuProfileFile;
	/** Ops the CPU lacks (cost entries marked `unavailable`); their cost is 0 and must not be charged. */
	unavailableOps?: OpClass[];
}
/** What an experiment asks for and what a run produces. Plain data: structured-clone-able, JSON-serialisable. */
/** The value of a workload parameter or a plugin option. */
export type ParamValue = number | string | boolean;
/** A CPU of an experiment: a profile id and its clock. */
export interface CpuRef {
	id: string;
	mhz: number;
	/** CPUs of the machine (API 2.2; absent or 1: one CPU and the UP kernel, more: the SMP kernel) */
	smp?: number;
}
/** One plugin in a variant stack, with its options. */
export interface VariantSpec {
	id: string;
	options?: Record<string, ParamValue>;
}
export interface Metric {
	name: string;
	value: number;
	unit: string;
	/** Optional per-iteration samples (bounded) for histograms. */
	samples?: number[];
}
export type Severity = "error" | "warning" | "info";
export interface Finding {
	severity: Severity;
	/** e.g. "fpu-corruption", "int-register-corruption", "blocked-signal-delivered", "delayed-signal", "lost-signal" */
	kind: string;
	message: string;
	/** Task, register, expected vs actual, the op/path and the plugin responsible, cycle, ... */
	evidence: Record<string, unknown>;
}
/** One op of a kernel path as the path inspector shows it. */
export interface PathOpStat {
	/** Kernel function or macro the op belongs to (e.g. "SAVE_ALL", "save_i387"). */
	fn: string;
	/** Op class (see @siglab/cpu-profiles OP_CLASSES). */
	op: string;
	/** Cycles of one occurrence of this op line (count × unit cost). */
	cycles: number;
	/** How many times the op line repeats within one path execution. */
	repeat: number;
	note?: string;
}
/** Per-path statistics: how often it ran, where its cycles went, and its ops. */
export interface PathStat {
	name: string;
	phase: string;
	/** Plugin that contributed or changed this path ("core" for the baseline). */
	origin: string;
	count: number;
	cycles: number;
	ops: PathOpStat[];
}
export interface TimelineEvent {
	/** pid of the task */
	task: number;
	kind: "user" | "kernel" | "handler" | "idle";
	/** path name or user activity */
	name: string;
	phase: string;
	start: number;
	end: number;
	/** the CPU it ran on (API 2.2; present only on an SMP machine) */
	cpu?: number;
}
export interface RunError {
	/** "compile" | "workload" | "budget" | "plugin" | "config" | "cancelled" | "internal" */
	kind: string;
	message: string;
	file?: string;
	line?: number;
	column?: number;
	task?: number;
	cycle?: number;
}
export interface RunResult {
	workload: string;
	cpu: CpuRef;
	variants: VariantSpec[];
	params: Record<string, ParamValue>;
	seed: number;
	metrics: Metric[];
	/** cycles charged to each phase, e.g. { "syscall.entry": 123, "signal.fpu_save": 456 } */
	phases: Record<string, number>;
	/** counters: syscalls.<name>, signals.delivered, switches, tlb.flushes, fpu.nm_traps, fpu.saves, bytes.copied, ... */
	counters: Record<string, number>;
	findings: Finding[];
	totalCycles: number;
	/** simulated seconds = totalCycles / (mhz * 1e6) */
	simSeconds: number;
	paths: PathStat[];
	timeline?: TimelineEvent[];
	/** Present when the run failed; metrics then hold what was reported before the failure. */
	error?: RunError;
}
export interface RunProgress {
	/** 0..1 where the workload reports it (iterations done), else undefined */
	fraction?: number;
	cycles: number;
	steps: number;
}
export interface SigInfo {
	signo: number;
	errno: number;
	code: number;
	pid?: number;
	addr?: number;
	band?: number;
	fd?: number;
	value?: number;
}
export interface SigAction {
	/** the workload's handler (opaque to plugins), or a default disposition */
	readonly handler: object | "default" | "ignore";
	flags: number;
	mask: Sigset;
}
export interface PendingSignal {
	sig: number;
	info: SigInfo;
	/** cycle at which it was queued */
	at: number;
}
/** struct _fpstate as a frame carries it (i387 view + the FXSR extension). */
export interface FrameFpState {
	cw: number;
	sw: number;
	tag: number;
	st: number[];
	magic: number;
	mxcsr?: number;
	xmm?: number[][];
}
export interface FrameSigContext {
	eax: number;
	ebx: number;
	ecx: number;
	edx: number;
	esi: number;
	edi: number;
	ebp: number;
	esp: number;
	eip: number;
	eflags: number;
	trapno: number;
	err: number;
	cr2: number;
	oldmask: number;
}
/** A signal frame on the user stack (struct sigframe / rt_sigframe); plugins keep per-frame state in slot(). */
export interface SignalFrame extends StateHolder {
	readonly kind: "sigframe" | "rt_sigframe";
	readonly address: number;
	readonly size: number;
	readonly sig: number;
	readonly sigcontext: FrameSigContext;
	/** the FP image save_i387 wrote (null: none); owned by the frame until sigreturn */
	fpImage: FpuRegs | null;
	/** the FP area as the handler sees it (null: none); a SignalFpuPolicy may set it, e.g. to null */
	fpstate: FrameFpState | null;
	/** uc_sigmask / oldmask + extramask, as a list of signals */
	sigmask: number[];
	/** the mask as the kernel wrote it */
	readonly savedBlocked: Sigset;
	readonly info: SigInfo | null;
	/** FXSR layout (xmm + mxcsr present) or fsave only */
	readonly fxsr: boolean;
	/** what the kernel wrote, to tell a handler's edits apart */
	readonly original: {
		sigcontext: FrameSigContext;
		fpstate: FrameFpState | null;
	};
	/** true when the frame carries an FP image (saved or written) */
	hasFp(): boolean;
	/** the FP view if it was materialised (only then can a handler have edited it) */
	materialisedView(): FrameFpState | null | undefined;
}
/** One CPU of the simulated machine: its privilege level, flags, control registers, FPU and TLB. */
export interface Cpu {
	/** API 2.2: smp_processor_id() of this CPU (0 on the UP kernel): its index in Kernel.cpus */
	readonly id?: number;
	/** API 2.2: this CPU's idle task (idle_task(cpu)); the CPU is idle when Kernel.currentOf(cpu) is it */
	readonly idle?: Task;
	cpl: number;
	IF: number;
	/** CR0.TS */
	TS: boolean;
	cr3: number;
	/** whose FPU state is live in the registers */
	fpuOwner: Task | null;
	readonly fpu: FpuRegs;
	readonly tlb: Tlb;
}
export type TaskState = "running" | "interruptible" | "zombie" | "dead";
/** task_struct: what a plugin may read and change (its own state goes in slot()). */
export interface Task extends StateHolder {
	readonly pid: number;
	readonly tgid: number;
	ppid: number;
	readonly name: string;
	state: TaskState;
	/** ticks left in this timeslice */
	counter: number;
	needResched: boolean;
	sigpending: boolean;
	/** 2.4 used_math */
	usedMath: boolean;
	/** 2.4 PF_USEDFPU: the registers hold this task's live FPU state */
	usedFpu: boolean;
	/** thread.i387 */
	readonly fpu: FpuRegs;
	readonly regs: UserRegs;
	blocked: Sigset;
	readonly pending: Sigset;
	readonly queue: PendingSignal[];
	mm: AddressSpace;
	readonly children: Task[];
	/** depth of signal handlers running in this task */
	handlerDepth: number;
	waitingOn: unknown;
	wakeReason: string;
	timeoutAt: number;
	/**
	 * The mask the program means when a library keeps it in user space (an M:N library's intended
	 * mask, a user-sigmask page): the blocked-signal checker honours it. null: task->blocked.
	 */
	userMask: {
		has(sig: number): boolean;
	} | null;
}
/** The kernel events checkers and plugins observe (and plugins may emit their own). */
export interface KernelEventMap {
	tick: [
		task: Task
	];
	/** a frame was built and the handler is about to run (before any FPU save) */
	"signal.deliver": [
		task: Task,
		frame: SignalFrame
	];
	/** state at interruption, before setup_frame touches anything */
	"signal.interrupt": [
		task: Task,
		frame: SignalFrame
	];
	/** sigreturn finished restoring the interrupted context */
	"signal.return": [
		task: Task,
		frame: SignalFrame
	];
	/** about to dequeue `sig` for delivery */
	"signal.dequeue": [
		task: Task,
		sig: number
	];
	"signal.queued": [
		task: Task,
		sig: number,
		queued: boolean
	];
	"switch.out": [
		task: Task
	];
	"switch.in": [
		task: Task
	];
	/** returning to user mode (subscribing slows every syscall: prefer the other events) */
	"return.user": [
		task: Task,
		intoHandler: boolean
	];
	/** a user-mode store completed */
	"user.store": [
		task: Task,
		addr: number
	];
	"run.end": [
	];
}
export type Arg<T extends unknown[], I extends number> = I extends keyof T ? T[I] : undefined;
export interface KernelEvents {
	on<K extends keyof KernelEventMap>(ev: K, h: (...args: KernelEventMap[K]) => void): void;
	has(ev: keyof KernelEventMap): boolean;
	emit<K extends keyof KernelEventMap>(ev: K, a?: Arg<KernelEventMap[K], 0>, b?: Arg<KernelEventMap[K], 1>, c?: Arg<KernelEventMap[K], 2>): void;
}
export interface KernelConfig {
	/** timer interrupts per second */
	hz: number;
	timesliceTicks: number;
	maxCycles: number;
	maxSteps: number;
	seed: number;
	timeline: boolean;
	/** API 2.2: the number of CPUs (absent in older hosts: 1) */
	cpus?: number;
}
/** kernel/signal.c */
export interface SignalFunctions {
	/** queue `sig` for `t` and wake it if unblocked; 0 or -errno */
	send_sig_info(sig: number, info: SigInfo, t: Task): number;
	/** a synchronous signal (a fault): unblocked and un-ignored first */
	force_sig_info(sig: number, info: SigInfo, t: Task): number;
	dequeue_signal(t: Task, mask: Sigset): {
		sig: number;
		info: SigInfo;
	} | null;
	recalc_sigpending(t: Task): void;
	/** the mask delivery must honour (task->blocked, or the SignalMaskStore's) */
	blockedOf(t: Task): Sigset;
}
/** arch/i386/kernel/i387.c */
export interface FpuFunctions {
	/** save the task's live FPU state to thread.i387 (runs pathFxsr or pathFsave) and set TS */
	unlazy_fpu(t: Task, pathFxsr: string, pathFsave: string): void;
	/** restore_i387 from the frame being returned from (the 2.4 code) */
	restore_i387(t: Task, frame: SignalFrame): void;
	/** #NM: math_state_restore through the run's SwitchFpuPolicy */
	do_device_not_available(t: Task): void;
	/** the FPU state the task sees in user mode (live registers or thread.i387) */
	userFpuView(t: Task): FpuRegs;
	fpstateFromRegs(f: FpuRegs): FrameFpState;
	regsFromFpstate(s: FrameFpState, into: FpuRegs): void;
	cloneFpstate(s: FrameFpState | null): FrameFpState | null;
	/** a copy of `src` from the run's pool of register files (give() it back when done) */
	take(src: FpuRegs): FpuRegs;
	/** a register file from the pool in the state fninit (+ the MXCSR reset value) leaves */
	blank(): FpuRegs;
	give(f: FpuRegs | null | undefined): void;
}
/** kernel/sched.c */
export interface SchedFunctions {
	/** sleep or give up the CPU: `yield* k.sched.schedule()` in a blocking syscall's generator */
	schedule(): Gen<void>;
	/** try_to_wake_up */
	wake_up(t: Task): void;
	add_to_runqueue(t: Task): void;
	del_from_runqueue(t: Task): void;
	/** the first timer tick at or after `cycle` (timeouts expire on ticks) */
	roundUpToTick(cycle: number): number;
}
/** arch/i386/mm/fault.c */
export interface MmFunctions {
	/** #PF: a hook may handle it, else SIGSEGV/SIGBUS with si_addr = addr */
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
/** An open file as the file table holds it (a pipe end, or a character device). */
export interface OpenFile {
	/** the character device behind it; null for a pipe end */
	readonly dev: "null" | "zero" | "disk" | null;
	readonly mode: "r" | "w" | "rw";
	/** O_NONBLOCK, O_ASYNC, ... */
	flags: number;
}
/** /dev/siglab-disk as drivers use it: requests go to the run's BlockDevice and complete by interrupt. */
export interface LatencyDevice {
	/** start a request of `bytes`; `done` runs in the completion interrupt with the result */
	submit(k: Kernel, bytes: number, done: (result: number) => void): void;
}
/** fs/ and drivers/ */
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
 */
export interface KernelPolicies {
	readonly entry: EntryMechanism;
	readonly signalFpu: SignalFpuPolicy;
	readonly switchFpu: SwitchFpuPolicy;
	readonly maskStore: SignalMaskStore;
	/** since 2.1 */
	readonly scheduler?: Scheduler;
	/** since 2.1 */
	readonly blockDevice?: BlockDevice;
}
/** A kernel path resolved once per run (Kernel.pathHandle): opaque, made only by the kernel. */
export interface PathHandle {
	readonly name: string;
	readonly id: number;
}
/** The simulated kernel of one run. Per-run plugin state goes in slot(). */
export interface Kernel extends StateHolder {
	readonly profile: ResolvedProfile;
	readonly config: KernelConfig;
	readonly cpu: Cpu;
	/** API 2.2: every CPU of the machine, by id (cpus[0] alone on the UP kernel) */
	readonly cpus?: readonly Cpu[];
	readonly events: KernelEvents;
	readonly tasks: ReadonlyMap<number, Task>;
	readonly runqueue: readonly Task[];
	readonly idle: Task;
	readonly current: Task;
	/** the ids of the plugins in this run's variant stack */
	readonly variantIds: readonly string[];
	/** simulated cycles so far */
	readonly cycles: number;
	readonly signal: SignalFunctions;
	readonly fpu: FpuFunctions;
	readonly sched: SchedFunctions;
	readonly mm: MmFunctions;
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
	/** run a kernel path once: charge its ops (an interrupt may land between them) */
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
	/** one workload step: enforces the run's step and cycle budgets */
	step(): void;
	/** add to a counter shown with the results */
	count(name: string, n?: number): void;
	/** deterministic random number in [0, 1) from the experiment's seed */
	random(): number;
	/** record a finding; repeats are folded into one with a count */
	report(f: Finding): void;
	/** queue a timer or device event at an absolute cycle */
	scheduleEvent(at: number, kind: "timer" | "device", fire: () => void): void;
}
/** How user mode enters and leaves the kernel for a system call (int $0x80 / SYSENTER / SYSCALL). */
export interface EntryMechanism {
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
/** What setup_frame does with the FPU state, and what sigreturn restores (save_i387/restore_i387). */
export interface SignalFpuPolicy {
	readonly id: string;
	saveToFrame(k: Kernel, task: Task, frame: SignalFrame, ka: SigAction): void;
	restoreFromFrame(k: Kernel, task: Task, frame: SignalFrame): void;
}
/** FPU handling at context switch and on #NM (lazy by default: TS set on switch, restore on trap). */
export interface SwitchFpuPolicy {
	readonly id: string;
	switchOut(k: Kernel, prev: Task): void;
	switchIn(k: Kernel, next: Task): void;
	/** #NM: math_state_restore */
	deviceNotAvailable(k: Kernel, task: Task): void;
}
/** Where the blocked mask lives (task->blocked by default; a user page with user-sigmask). */
export interface SignalMaskStore {
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
 */
export interface Scheduler {
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
/** The settings of /dev/siglab-disk that k.files.configureDisk takes (the core checks them). */
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
 */
export interface BlockDevice {
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
 * sigprocmask through a page the kernel reads at delivery, instead of a system call.
 */
export interface UserSigmaskService {
	sigprocmask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
}
/** A simulated operation: call it with `yield*`. */
export type Gen<T> = Generator<unknown, T, unknown>;
/** A thread's code, as the runtime calls it. */
export type ThreadBody = (t: RuntimeThread) => Gen<unknown>;
/**
 * The runtime thread a thread library or libc model works on: one task's user-mode context with
 * its system calls (each charges the entry, the syscall body and the exit work) and user work.
 */
export interface RuntimeThread {
	readonly kernel: Kernel;
	readonly task: Task;
	readonly pid: number;
	readonly tid: number;
	/** the run's libc model */
	readonly libc: LibcModel;
	getpid(): Gen<number>;
	gettimeofday(): Gen<{
		sec: number;
		usec: number;
	}>;
	sched_yield(): Gen<number>;
	read(fd: number, bytes: number): Gen<number>;
	write(fd: number, bytes: number): Gen<number>;
	pipe(): Gen<[
		number,
		number
	]>;
	fcntl(fd: number, cmd: number, arg?: number): Gen<number>;
	select(readFds: number[], writeFds: number[], timeoutNs?: number): Gen<{
		readable: number[];
		writable: number[];
	} | number>;
	mmap(bytes: number, prot: number): Gen<number>;
	sigprocmask(how: 0 | 1 | 2, set: number[]): Gen<number[] | number>;
	/** rt_sigprocmask with bit sets (for libraries that switch masks on every switch) */
	sigprocmaskSet(how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset | number>;
	sigpending(): Gen<number[]>;
	/** clone(CLONE_VM|...): a kernel thread running `body`; returns its tid */
	clone(body: ThreadBody): Gen<number>;
	/** wait4(pid or -1): the reaped pid or -errno */
	waitFor(pid: number): Gen<number>;
	/** any system call by number (the table includes plugins' syscalls) */
	syscall(nr: number, ...args: unknown[]): Gen<unknown>;
	load(addr: number): Gen<number>;
	store(addr: number, value?: number): Gen<void>;
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
/** A libc model, selected by a workload's `libc` id. Multi-valued: add with bind; ids are unique. */
export interface LibcModel {
	readonly id: string;
	readonly sseMemcpy: boolean;
	readonly sseThreshold: number;
	memcpy(t: RuntimeThread, bytes: number): Gen<void>;
	gettimeofday(t: RuntimeThread): Gen<{
		sec: number;
		usec: number;
	}>;
}
/**
 * API 2.2: the functions of a vDSO (see MmFunctions.map_vdso): user-mode code the kernel maps into
 * every process, which libc calls instead of the system call. Each runs on the calling thread in
 * user mode and charges its own paths (th.runUser); a timer tick may land between them.
 */
export interface Vdso {
	readonly id: string;
	/** __vdso_gettimeofday: the time of day from the simulated clock, without entering the kernel */
	gettimeofday(th: RuntimeThread): Gen<{
		sec: number;
		usec: number;
	}>;
}
export type UThreadState = "ready" | "running" | "waiting" | "done";
/** A user-level thread of an M:N or N:1 library. */
export interface UThread {
	readonly id: number;
	state: UThreadState;
	/** why it waits ("join", "fd", ...), for deadlock messages */
	waitingOn: string;
	result: number;
	readonly joiners: UThread[];
	/** the runtime thread its code runs with (the same kernel task as every other user thread) */
	readonly th: RuntimeThread;
	/** the library's per-thread data */
	mask: Sigset | null;
}
/** The library's side of a user-level switch, run in the scheduler's context. */
export interface UThreadHooks {
	/** `prev` just switched to the scheduler (it is ready, waiting or done) */
	returned(s: UserThreadScheduler, prev: UThread): Gen<void>;
	/** nothing is ready: wait for an event; false if nothing can ever wake a thread */
	idle(s: UserThreadScheduler): Gen<boolean>;
	/** switch from the scheduler into `next` (time stamps, mask install, register restore) */
	enter(s: UserThreadScheduler, next: UThread): Gen<void>;
}
export interface FdWait {
	ut: UThread;
	fd: number;
	write: boolean;
}
/** The user-level threads of one kernel task, multiplexed by a library (its own state: slot()). */
export interface UserThreadScheduler extends StateHolder {
	readonly task: Task;
	readonly library: string;
	readonly root: UThread;
	current: UThread;
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
/** A system call added to the table; reached by a workload's `t.syscall(nr, ...args)`. */
export interface SyscallContribution {
	nr: number;
	name: string;
	/**
	 * A plain function returns the result (>= 0 or -errno); with `blocking`, a generator function
	 * that may sleep with `yield* k.sched.schedule()`. `args` are plain data the workload passed.
	 */
	handler(k: Kernel, task: Task, args: unknown[]): unknown;
	blocking?: boolean;
	/** the path charged as the syscall's body (default "sys_ni_syscall") */
	path?: string;
}
export interface PathContribution {
	paths(): PathDef[];
}
export interface PathTransformContribution {
	transforms(): PathTransform[];
}
/** Called on #NM before the switch policy (lazy FPU frame variants). Return true if handled. */
export interface FpuTrapHook {
	onDeviceNotAvailable(k: Kernel, task: Task): boolean;
}
/** Called on #PF before the default handling. Return true if handled (the access is retried). */
export interface PageFaultHook {
	onPageFault(k: Kernel, task: Task, addr: number, write: boolean): boolean;
}
/** Subscribes to kernel events and reports findings; it must not change the simulation. */
export interface InvariantChecker {
	readonly id: string;
	attach(k: Kernel): void;
}
export interface CpuProfileContribution {
	profiles(): CpuProfileFile[];
}
/** Runs when a kernel is created for a run, before the first task exists. */
export interface KernelSetupContribution {
	setup(k: Kernel): void;
}
/** What pthread_create returns to the workload. */
export interface PthreadHandle {
	readonly tid: number;
}
/** A thread library (LinuxThreads 1:1, NGPT M:N, libc_r N:1). Single-valued: rebind it. */
export interface ThreadLibrary {
	readonly id: string;
	create(t: RuntimeThread, body: ThreadBody): Gen<PthreadHandle>;
	join(t: RuntimeThread, th: PthreadHandle): Gen<number>;
	yield(t: RuntimeThread): Gen<void>;
	read(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
	write(t: RuntimeThread, fd: number, bytes: number): Gen<number>;
	sigmask(t: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]>;
	self(t: RuntimeThread): number;
}
/** A token for values of type T (a symbol at run time). */
export type Token<T> = symbol & {
	readonly __bound?: T;
};
export declare const TOKENS: Readonly<{
	EntryMechanism: Token<EntryMechanism>;
	SignalFpuPolicy: Token<SignalFpuPolicy>;
	SwitchFpuPolicy: Token<SwitchFpuPolicy>;
	SignalMaskStore: Token<SignalMaskStore>;
	ThreadLibrary: Token<ThreadLibrary>;
	/** since plugin API 2.1 */
	Scheduler: Token<Scheduler>;
	/** since plugin API 2.1 */
	BlockDevice: Token<BlockDevice>;
	LibcModel: Token<LibcModel>;
	SyscallContribution: Token<SyscallContribution>;
	PathContribution: Token<PathContribution>;
	PathTransformContribution: Token<PathTransformContribution>;
	FpuTrapHook: Token<FpuTrapHook>;
	PageFaultHook: Token<PageFaultHook>;
	InvariantChecker: Token<InvariantChecker>;
	CpuProfileContribution: Token<CpuProfileContribution>;
	KernelSetupContribution: Token<KernelSetupContribution>;
	UserSigmask: Token<UserSigmaskService>;
}>;
export type ExtensionPointName = keyof typeof TOKENS;
/** The single-valued points: a plugin that binds one must `rebind` it and list it in `replaces`. */
export declare const SINGLE_VALUED: readonly ExtensionPointName[];
/** Services: bound by at most one plugin of a stack. */
export declare const SERVICES: readonly ExtensionPointName[];
export interface BindingTo<T> {
	/** one value for every run (it must hold no per-run state) */
	toConstantValue(value: T): unknown;
	/** a fresh value per run: use it for objects that keep per-run state (checkers) */
	toDynamicValue(make: (context: unknown) => T): unknown;
}
export interface ModuleLoadOptions {
	/** add a contribution to a multi-valued point (declared in the manifest's `contributes`) */
	bind<T>(token: Token<T>): BindingTo<T>;
	/** replace a single-valued point (declared in `contributes` and `replaces`) */
	rebind<T>(token: Token<T>): BindingTo<T>;
	isBound(token: Token<unknown>): boolean;
}
/** A plugin's module: what `createModule(options, api)` returns. */
export interface ContainerModule {
	readonly id: number;
}
export interface ContainerModuleConstructor {
	new (load: (options: ModuleLoadOptions) => void): ContainerModule;
}
export declare const ContainerModule: ContainerModuleConstructor;
/** Set (or with `set` null, read) the calling LWP's mask; returns the old mask. */
export declare function setMask(th: RuntimeThread, how: 0 | 1 | 2, set: number[] | null): Gen<number[]>;
/** setMask with bit sets: the rt_sigprocmask path without list conversions (the page ABI takes lists). */
export declare function setMaskSet(th: RuntimeThread, how: 0 | 1 | 2, set: Sigset | null): Gen<Sigset>;
/** Every signal but SIGKILL and SIGSTOP (sigfillset, as the kernel stores it). */
export declare const ALL_SIGNALS: readonly number[];
/** ALL_SIGNALS as a bit set (a fresh copy each call: sets are mutable). */
export declare function allSignals(): Sigset;
/** The mask after sigprocmask(how, set) on `old`: a new set, SIGKILL and SIGSTOP never in it. */
export declare function applyHowSet(old: Sigset, how: 0 | 1 | 2, set: Sigset): Sigset;
/**
 * Runs the user-mode path `path` on `t` (as `t.runUser(path)`) and returns what `read()` returns,
 * called after the path's ops and before a timer or device interrupt that fell due during them
 * lands: what the path's loads saw. An interrupt that was already due lands first, and `read()`
 * then follows the path. A seqlock reader (a vsyscall or vDSO gettimeofday) reads this way: the
 * interrupt that updates the data may land between its loads and its retry test, never inside
 * the loads. Same cycles and order as `yield* t.runUser(path)` with the read in its middle.
 * @since 2.3
 */
export declare function runUserAndRead<T>(t: RuntimeThread, path: string | PathHandle, read: () => T): Gen<T>;
export interface PluginOptionSpec {
	type: "boolean" | "number" | "string" | "enum";
	default: ParamValue;
	description: string;
	/** for enum */
	values?: string[];
	/** for number */
	min?: number;
	max?: number;
	unit?: string;
}
export interface PluginManifest {
	id: string;
	version: string;
	/** plugin-API version targeted ("major.minor"); another major, or a newer minor, is refused */
	apiVersion: string;
	displayName: string;
	description: string;
	options: Record<string, PluginOptionSpec>;
	/** every extension point the plugin binds */
	contributes: ExtensionPointName[];
	/** the single-valued points it replaces (two plugins replacing the same one conflict) */
	replaces?: ExtensionPointName[];
	/** the JavaScript entry (third-party plugins), relative to the plugin folder, e.g. "dist/index.cjs" */
	main?: string;
	/** named variant stacks this plugin offers (shown by `siglab list`, used with `--preset`) */
	presets?: Preset[];
}
/** Option values after validation against the manifest (defaults filled in). */
export type PluginOptions = Readonly<Record<string, ParamValue>>;
/** A named variant stack (shown by `siglab list`, used with `--preset`); in plugin.json's "presets". */
export interface Preset {
	/** e.g. "linux-2.5.53" */
	id: string;
	/** e.g. "Linux 2.5.53 + SYSENTER" */
	name: string;
	description: string;
	stack: {
		id: string;
		options?: Record<string, string | number | boolean>;
	}[];
}
/** What `require("@siglab/plugin-api")` returns (also passed to createModule): the API's values. */
export type PluginApi = typeof values;
/** The signature of a plugin's `createModule` export. */
export type CreateModule = (options: PluginOptions, api: PluginApi) => ContainerModule;
/**
 * A workload shipped with a plugin (shown in `siglab list` and the app's example list). A
 * third-party plugin ships them as .ts files in its examples/ folder.
 */
export interface ExampleWorkload {
	id: string;
	title: string;
	file: string;
	/** the workload's TypeScript source */
	source: string;
	/** plugins this example needs to show its point (e.g. sa_nofp_hazard -> sa-nofp) */
	suggestedVariants?: {
		id: string;
		options?: Record<string, string | number | boolean>;
	}[];
	/** API 2.2: the CPU the example is made for, when the suggested stack needs one (e.g. long mode); mhz 0 or absent: its default clock */
	suggestedCpu?: {
		id: string;
		mhz?: number;
	};
}
/** What a plugin's entry exports (a built-in plugin's module, a third-party plugin's main). */
export interface PluginModule<M = unknown> {
	/** plugin.json (the host validates it) */
	readonly manifest: M;
	readonly createModule: CreateModule;
	/** example workloads it ships (a third-party plugin may also use its examples/ folder) */
	readonly examples?: readonly ExampleWorkload[];
}
export interface HarnessOptions {
	/** your plugin(s): their entry's exports plus the manifest (plugin.json) */
	plugins?: PluginModule[];
	/** CPU profile and clock, "id" or "id@MHz" (default p4-northwood@2200) */
	cpu?: string;
	/** the variant stack: plugin ids (with options "id:key=value,...") or VariantSpecs; default the baseline */
	variant?: string | (string | VariantSpec)[];
	/** an example id (the core's, a built-in plugin's, or one your plugin ships), or a workload's source */
	workload: string | {
		file?: string;
		source: string;
	};
	params?: Record<string, ParamValue>;
	seed?: number;
	timeline?: boolean;
	/** extra CPU profiles (e.g. one you are writing) */
	profiles?: CpuProfileFile[];
	budget?: {
		maxSteps?: number;
		maxCycles?: number;
	};
}
/** The harness's entry: one run, in process; the result as `siglab run --json` prints it. */
export type RunWorkload = (o: HarnessOptions) => RunResult;

declare namespace values {
	export { ALL_SIGNALS, ContainerModule, EAGAIN, EBADF, ECHILD, EFAULT, EINTR, EINVAL, ENOENT, ENOMEM, ENOSYS, EPERM, EPIPE, ERESTARTNOHAND, ERESTARTNOINTR, ERESTARTSYS, ESRCH, FP_FRAME_BYTES_FSAVE, FP_FRAME_BYTES_FXSR, F_GETFL, F_SETFL, F_SETOWN, F_SETSIG, I386_XMM_REGS, NR, NR_NAME, NSIG, OP_CLASSES, OP_CLASS_IDS, O_ASYNC, O_NONBLOCK, PAGE_SHIFT, PAGE_SIZE, PLUGIN_API_VERSION, POLL_IN, POLL_OUT, PROT_EXEC, PROT_NONE, PROT_READ, PROT_WRITE, RT_SIGFRAME_BYTES, SA_NODEFER, SA_NOFP, SA_ONSTACK, SA_RESETHAND, SA_RESTART, SA_RESTORER, SA_SIGINFO, SEGV_ACCERR, SEGV_MAPERR, SERVICES, SIGFRAME_BYTES, SIGKILL, SIGRTMIN, SIGSTOP, SINGLE_VALUED, SI_QUEUE, SI_TKILL, SI_USER, SMP_OP_CLASSES, SMP_OP_CLASS_IDS, SYSCALL_EIP, Sigset, TOKENS, allSignals, applyHowSet, op, runUserAndRead, setMask, setMaskSet, stateKey };
}

export {};
