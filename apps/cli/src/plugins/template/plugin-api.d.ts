/**
 * @siglab/plugin-api 1.0 — the contract between SigLab and a third-party plugin's code.
 *
 * A plugin folder holds `plugin.json` (the manifest) and a CommonJS `main` that exports
 *
 *   createModule(options: PluginOptions, api: PluginApi): ContainerModule
 *
 * SigLab evaluates `main` inside its simulation sandbox, where `require("@siglab/plugin-api")`
 * returns the values declared here (the same object is passed as `api`). Nothing else can be
 * required: bundle your own dependencies into `main` and leave this module external.
 *
 * The kernel objects (Kernel, Task, ...) are declared as the part of the simulator that plugins
 * may use; the real objects have more members, which are not part of the contract. A test in
 * SigLab (apps/cli/test/plugins-api-sync.test.ts) keeps this file in sync with the simulator.
 */

// ---- versions ----------------------------------------------------------------------------------

/** The plugin-API version of the SigLab that loads the plugin (major.minor). */
export declare const PLUGIN_API_VERSION: "1.0";

// ---- ops and paths -----------------------------------------------------------------------------

/** The op classes a CPU profile gives a cost for (see docs/profiles.md). */
export type OpClass =
  | "int_gate" | "exception_entry" | "irq_entry" | "iret_user" | "iret_kernel" | "iret_if_change"
  | "sysenter" | "sysexit" | "syscall" | "sysret"
  | "cli" | "sti" | "pushf" | "popf" | "mov_sreg" | "mov_from_sreg" | "push" | "pop"
  | "alu" | "load" | "store" | "call" | "call_indirect" | "locked_op"
  | "put_user" | "copy_user_setup" | "copy_user_line" | "memcpy_line" | "sse_memcpy_line" | "tlb_miss" | "invlpg" | "slab_alloc"
  | "mov_cr3" | "read_cr0" | "write_cr0" | "clts" | "read_cr2" | "mov_dr" | "wrmsr" | "rdtsc"
  | "fsave" | "frstor" | "fxsave" | "fxrstor" | "xsave_chunk" | "xrstor_chunk" | "fninit" | "fnclex" | "fwait" | "fnstenv" | "fp_op"
  | "fxsr_convert_reg";

/** The phases of the core; a path may name a new phase (it is added to the run's phase table). */
export type CorePhase =
  | "user" | "syscall.entry" | "syscall.body" | "syscall.exit" | "signal.send" | "signal.frame" | "signal.fpu_save"
  | "signal.handler" | "signal.sigreturn" | "signal.fpu_restore" | "fpu.nm_trap" | "sched.schedule" | "sched.switch_mm"
  | "sched.switch_to" | "fault.page_fault" | "mm.mprotect" | "irq.timer" | "irq.device" | "pipe.io" | "libc" | "idle";

/** One line of a kernel path: an op class, attributed to the Linux function or macro it comes from. */
export interface OpLine {
  fn: string;
  op: OpClass;
  /** repeat count within one execution of the path (default 1) */
  n?: number;
  note?: string;
}

/** A kernel path: a named op list charged to one phase. */
export interface PathDef {
  name: string;
  phase: CorePhase | (string & {});
  ops: OpLine[];
  /** who defined it; set it to your plugin id so the path inspector shows it */
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

/** op("SAVE_ALL", "push", 9, "es, ds, eax, ...") */
export declare function op(fn: string, opClass: OpClass, n?: number, note?: string): OpLine;

// ---- findings ----------------------------------------------------------------------------------

export interface Finding {
  severity: "error" | "warning" | "info";
  /** e.g. "fpu-corruption"; prefix your own kinds with your plugin id */
  kind: string;
  message: string;
  /** task, register, expected vs actual, path, cycle, ...; repeats of kind+task+register+signal are folded */
  evidence: Record<string, unknown>;
}

// ---- the machine -------------------------------------------------------------------------------

export interface CpuFeatures {
  fxsr: boolean; sep: boolean; sse: boolean; sse2: boolean; avx: boolean; avx512: boolean;
  xsave: boolean; xsaveopt: boolean; xsaves: boolean; pcid: boolean; pge: boolean;
  syscall?: boolean; lm?: boolean;
}

/** The CPU profile of the run, resolved for its clock. */
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
  costs: Record<OpClass, number>;
}

/** The FPU/SSE register file with real values (x87 st as doubles, XMM as 32-bit lanes). */
export interface FpuRegs {
  readonly st: Float64Array;
  readonly xmm: Uint32Array;
  fcw: number;
  fsw: number;
  ftw: number;
  mxcsr: number;
  copyFrom(o: FpuRegs): void;
  clone(): FpuRegs;
  init(): void;
}

export interface Tlb {
  readonly capacity: number;
  flushes: number;
  misses: number;
  /** touch a page; true on a miss */
  touch(key: number): boolean;
  /** CR3 reload without PCID */
  flushAll(): void;
}

export interface Cpu {
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

/** A task's address space: page protections and the sparse word values user stores wrote. */
export interface AddressSpace {
  readonly asid: number;
  /** page number -> prot bits (PROT_READ 1 | PROT_WRITE 2 | PROT_EXEC 4); absent = not mapped */
  readonly pages: Map<number, number>;
  /** word values by address (what t.load reads and t.store writes) */
  readonly words: Map<number, number>;
  /** tasks sharing it (threads) */
  users: number;
  protOf(addr: number): number | undefined;
  map(start: number, len: number, prot: number): void;
}

// ---- signals -----------------------------------------------------------------------------------

/** A 64-signal sigset_t (signal n is bit n-1). */
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
  firstUnblocked(blocked: Sigset): number;
  anyUnblocked(blocked: Sigset): boolean;
  toList(): number[];
  dropUnblockable(): void;
  static of(list: readonly number[]): Sigset;
}

export interface SigInfoK {
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
  handler: ((th: unknown, frame: never) => Generator<unknown, void, unknown>) | "default" | "ignore";
  flags: number;
  mask: Sigset;
}

export interface PendingSignal {
  sig: number;
  info: SigInfoK;
  /** cycle at which it was queued */
  at: number;
}

/** struct _fpstate as a frame carries it (i387 view + FXSR extension). */
export interface FrameFpStateK {
  cw: number;
  sw: number;
  tag: number;
  st: number[];
  magic: number;
  mxcsr?: number;
  xmm?: number[][];
}

export interface FrameSigContextK {
  eax: number; ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number;
  esp: number; eip: number; eflags: number;
  trapno: number; err: number; cr2: number; oldmask: number;
}

/** A signal frame on the user stack (struct sigframe / rt_sigframe). */
export interface SignalFrameK {
  readonly kind: "sigframe" | "rt_sigframe";
  readonly address: number;
  readonly size: number;
  readonly sig: number;
  readonly sigcontext: FrameSigContextK;
  /** the FP area (null: none). A SignalFpuPolicy may set it, e.g. to null for "no FP state". */
  fpstate: FrameFpStateK | null;
  sigmask: number[];
  readonly savedBlocked: Sigset;
  readonly info: SigInfoK | null;
  /** plugins may park per-frame state here */
  readonly ext: Record<string, unknown>;
}

// ---- tasks and the kernel ----------------------------------------------------------------------

export type TaskState = "running" | "interruptible" | "zombie" | "dead";

/** Integer user registers as saved in pt_regs. */
export interface UserRegs {
  eax: number; ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number;
  esp: number; eip: number; eflags: number;
}

/** task_struct: what a plugin may read and change. */
export interface Task {
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
  /** per-task state for plugins: use keys prefixed with your plugin id */
  readonly ext: Record<string, unknown>;
  waitingOn: unknown;
  wakeReason: string;
  timeoutAt: number;
}

/** The kernel events checkers and plugins may observe. */
export interface KernelEventMap {
  tick: [task: Task];
  /** a frame was built and the handler is about to run (before any FPU save) */
  "signal.deliver": [task: Task, frame: SignalFrameK];
  /** state at interruption, before setup_frame touches anything */
  "signal.interrupt": [task: Task, frame: SignalFrameK];
  /** sigreturn finished restoring the interrupted context */
  "signal.return": [task: Task, frame: SignalFrameK];
  /** about to dequeue `sig` for delivery */
  "signal.dequeue": [task: Task, sig: number];
  "signal.queued": [task: Task, sig: number, queued: boolean];
  "switch.out": [task: Task];
  "switch.in": [task: Task];
  /** returning to user mode (subscribing slows every syscall: prefer the other events) */
  "return.user": [task: Task, intoHandler: boolean];
  "run.end": [];
}

export interface KernelEvents {
  on<K extends keyof KernelEventMap>(ev: K, h: (...args: KernelEventMap[K]) => void): void;
  has(ev: keyof KernelEventMap): boolean;
}

export interface KernelConfig {
  hz: number;
  timesliceTicks: number;
  maxCycles: number;
  maxSteps: number;
  seed: number;
  timeline: boolean;
}

/** The simulated kernel of one run (one CPU). */
export interface Kernel {
  readonly profile: ResolvedProfile;
  readonly config: KernelConfig;
  readonly cpu: Cpu;
  readonly events: KernelEvents;
  readonly tasks: Map<number, Task>;
  readonly runqueue: Task[];
  readonly idle: Task;
  current: Task;
  /** counters shown with the results; prefer count() */
  readonly counters: Record<string, number>;
  /** per-run state for plugins: use keys prefixed with your plugin id */
  readonly ext: Record<string, unknown>;
  /** the ids of the plugins in this run's variant stack */
  readonly variantIds: string[];
  /** simulated cycles so far */
  readonly cycles: number;
  /** run a kernel path once: charge its ops (a timer interrupt may land between them) */
  run(path: string): void;
  /** run a one-op path n times (data-dependent work: lines copied, registers converted, ...) */
  runN(path: string, n: number): void;
  /** add to a counter (shown with the results) */
  count(name: string, n?: number): void;
  /** deterministic random number in [0, 1) from the experiment's seed (never use Math.random) */
  random(): number;
  /** record a finding; repeats are folded into one with a count */
  report(f: Finding): void;
  /** queue a timer or device event at an absolute cycle */
  scheduleEvent(at: number, kind: "timer" | "device", fire: () => void): void;
  /** try_to_wake_up */
  wakeUp(t: Task): void;
  addToRunqueue(t: Task): void;
  delFromRunqueue(t: Task): void;
  /** the mask delivery must honour (task->blocked, or a SignalMaskStore's) */
  blockedOf(t: Task): Sigset;
  recalcSigpending(t: Task): void;
}

// ---- extension points --------------------------------------------------------------------------

/** How user mode enters and leaves the kernel for a system call. Single-valued: rebind it. */
export interface EntryMechanism {
  readonly id: string;
  /** null if usable on this CPU, else the reason (e.g. "CPU has no SEP") */
  checkCpu(profile: ResolvedProfile): string | null;
  enter(k: Kernel, task: Task): void;
  /** test the work flags on the way out; true when there is work */
  exitTest(k: Kernel, task: Task): boolean;
  /** kernel -> user; `mustIret` when pt_regs were changed (signal frame, sigreturn) */
  leave(k: Kernel, task: Task, mustIret: boolean): void;
}

/** What setup_frame does with the FPU state and what sigreturn restores. Single-valued. */
export interface SignalFpuPolicy {
  readonly id: string;
  saveToFrame(k: Kernel, task: Task, frame: SignalFrameK, ka: SigAction): void;
  restoreFromFrame(k: Kernel, task: Task, frame: SignalFrameK): void;
}

/** FPU handling at context switch and on #NM. Single-valued. */
export interface SwitchFpuPolicy {
  readonly id: string;
  switchOut(k: Kernel, prev: Task): void;
  switchIn(k: Kernel, next: Task): void;
  deviceNotAvailable(k: Kernel, task: Task): void;
}

/** Where the blocked mask lives. Single-valued. */
export interface SignalMaskStore {
  readonly id: string;
  effectiveBlocked(k: Kernel, task: Task): Sigset;
}

/** A system call added to (or replacing an entry of) the table; reached by `t.syscall(nr, ...)`. */
export interface SyscallContribution {
  nr: number;
  name: string;
  /** a plain function returns the result (>= 0 or -errno); with `blocking`, a generator that may `yield* sched.schedule(k)` */
  handler: (k: Kernel, task: Task, args: unknown[]) => unknown;
  blocking?: boolean;
  /** path charged as the syscall body (default "sys_ni_syscall") */
  path?: string;
}

export interface PathContribution {
  paths(): PathDef[];
}

export interface PathTransformContribution {
  transforms(): PathTransform[];
}

/** Called on #NM before the switch policy. Return true if handled. */
export interface FpuTrapHook {
  onDeviceNotAvailable(k: Kernel, task: Task): boolean;
}

/** Called on #PF before the default handling. Return true if handled (the access is retried). */
export interface PageFaultHook {
  onPageFault(k: Kernel, task: Task, addr: number, write: boolean): boolean;
}

/** Subscribes to kernel events and reports findings; must not change the simulation. */
export interface InvariantChecker {
  readonly id: string;
  attach(k: Kernel): void;
}

export interface CostEntry {
  cycles: number;
  kind: "sourced" | "derived" | "fitted" | "estimated";
  source: string;
  fittedTo?: string[];
  unavailable?: boolean;
  relativeTo?: { op: OpClass; factor?: number; plus?: number };
  inheritedFrom?: string;
}

export interface SourcedNumber {
  value: number;
  kind: "sourced" | "derived" | "fitted" | "estimated";
  source: string;
  inheritedFrom?: string;
}

/** A CPU profile file (see docs/profiles.md for the format and its rules). */
export interface CpuProfileFile {
  id: string;
  name: string;
  vendor: string;
  description: string;
  inherits?: string;
  abstract?: boolean;
  inheritedFrom?: string[];
  cpuid?: { family: number; model?: number; source: string };
  featureNotes?: Partial<Record<keyof CpuFeatures, string>>;
  notes?: string[];
  clock: { defaultMhz: number; minMhz: number; maxMhz: number; presets: number[] };
  features: CpuFeatures;
  geometry: {
    cacheLineBytes: SourcedNumber;
    dtlbEntries: SourcedNumber;
    l1dKB: SourcedNumber;
    l2KB: SourcedNumber;
    xmmRegs: SourcedNumber;
    xsaveBytes: SourcedNumber;
    l2dtlbEntries?: SourcedNumber;
  };
  costs: Record<OpClass, CostEntry>;
}

export interface CpuProfileContribution {
  profiles(): CpuProfileFile[];
}

/** A workload shipped with a plugin (third-party plugins may also put .ts files in examples/). */
export interface ExampleWorkload {
  id: string;
  title: string;
  file: string;
  source: string;
  suggestedVariants?: { id: string; options?: Record<string, string | number | boolean> }[];
}

export interface ExampleWorkloadContribution {
  examples(): ExampleWorkload[];
}

/** Runs when a kernel is created for a run, before the first task exists. */
export interface KernelSetupContribution {
  setup(k: Kernel): void;
}

/**
 * The inversify tokens. Single-valued points (EntryMechanism, SignalFpuPolicy, SwitchFpuPolicy,
 * SignalMaskStore, ThreadLibrary) are replaced with `rebind` and must be listed in the manifest's
 * `replaces`; the others are added to with `bind`. ThreadLibrary and LibcModel are not typed in
 * plugin API 1.0.
 */
export declare const TOKENS: {
  readonly EntryMechanism: symbol;
  readonly SignalFpuPolicy: symbol;
  readonly SwitchFpuPolicy: symbol;
  readonly SignalMaskStore: symbol;
  readonly ThreadLibrary: symbol;
  readonly LibcModel: symbol;
  readonly SyscallContribution: symbol;
  readonly PathContribution: symbol;
  readonly PathTransformContribution: symbol;
  readonly FpuTrapHook: symbol;
  readonly PageFaultHook: symbol;
  readonly InvariantChecker: symbol;
  readonly CpuProfileContribution: symbol;
  readonly ExampleWorkloadContribution: symbol;
  readonly KernelSetupContribution: symbol;
  readonly KernelConfig: symbol;
};

export type ExtensionPointName = keyof typeof TOKENS;

// ---- inversify (the part a plugin uses) --------------------------------------------------------

export interface BindingTo<T> {
  toConstantValue(value: T): unknown;
  /** a fresh value per resolution: use it for objects that hold per-run state (checkers) */
  toDynamicValue(make: (context: unknown) => T): unknown;
}

export interface ContainerModuleLoadOptions {
  /** add a contribution (multi-valued points) */
  bind<T>(token: symbol): BindingTo<T>;
  /** replace a single-valued point */
  rebind<T>(token: symbol): BindingTo<T>;
  isBound(token: symbol): boolean;
}

export declare class ContainerModule {
  constructor(load: (options: ContainerModuleLoadOptions) => void);
}

// ---- i386 system call numbers ------------------------------------------------------------------

export declare const NR: {
  readonly exit: 1; readonly fork: 2; readonly read: 3; readonly write: 4; readonly open: 5; readonly close: 6;
  readonly getpid: 20; readonly kill: 37; readonly pipe: 42; readonly fcntl: 55; readonly getppid: 64;
  readonly gettimeofday: 78; readonly mmap: 90; readonly munmap: 91; readonly wait4: 114; readonly sigreturn: 119;
  readonly clone: 120; readonly mprotect: 125; readonly _newselect: 142; readonly sched_yield: 158;
  readonly nanosleep: 162; readonly rt_sigreturn: 173; readonly rt_sigaction: 174; readonly rt_sigprocmask: 175;
  readonly rt_sigpending: 176; readonly rt_sigtimedwait: 177; readonly rt_sigqueueinfo: 178;
  readonly rt_sigsuspend: 179; readonly sigaltstack: 186; readonly tkill: 238;
};

// ---- kernel functions (Linux's names) ----------------------------------------------------------

export declare namespace signal {
  const SA_SIGINFO: 0x4;
  const SA_NOFP: 0x02000000;
  const SA_RESTORER: 0x04000000;
  const SA_ONSTACK: 0x08000000;
  const SA_RESTART: 0x10000000;
  const SA_NODEFER: 0x40000000;
  const SA_RESETHAND: 0x80000000;
  const SI_USER: 0;
  const SI_QUEUE: -1;
  const SI_TKILL: -6;
  const EINTR: 4;
  const EAGAIN: 11;
  const ESRCH: 3;
  const EINVAL: 22;
  const EFAULT: 14;
  const ENOMEM: 12;
  /** queue `sig` for `t` and wake it if unblocked; 0 or -errno */
  function send_sig_info(k: Kernel, sig: number, info: SigInfoK, t: Task): number;
  /** a synchronous signal (fault): unblocked and un-ignored first */
  function force_sig_info(k: Kernel, sig: number, info: SigInfoK, t: Task): number;
  function dequeue_signal(k: Kernel, t: Task, mask: Sigset): { sig: number; info: SigInfoK } | null;
  function sys_kill(k: Kernel, sender: Task, pid: number, sig: number, code?: number): number;
}

export declare namespace i387 {
  /** i386 signal frames carry XMM0-7 */
  const I386_XMM_REGS: 8;
  const FP_FRAME_BYTES_FXSR: 624;
  const FP_FRAME_BYTES_FSAVE: 112;
  /** save the task's live FPU state to thread.i387 (runs pathFxsr or pathFsave) and set TS */
  function unlazy_fpu(k: Kernel, t: Task, pathFxsr: string, pathFsave: string): void;
  function fpstateFromRegs(k: Kernel, f: FpuRegs): FrameFpStateK;
  function regsFromFpstate(k: Kernel, s: FrameFpStateK, into: FpuRegs): void;
  function cloneFpstate(s: FrameFpStateK | null): FrameFpStateK | null;
  /** #NM: math_state_restore through the run's SwitchFpuPolicy */
  function do_device_not_available(k: Kernel, t: Task): void;
  /** the FPU state the task sees in user mode (live registers or thread.i387) */
  function userFpuView(k: Kernel, t: Task): FpuRegs;
  /** the baseline save_i387/restore_i387 (delegate to it for the cases you do not change) */
  class I387SignalFpu implements SignalFpuPolicy {
    readonly id: string;
    saveToFrame(k: Kernel, t: Task, frame: SignalFrameK): void;
    restoreFromFrame(k: Kernel, t: Task, frame: SignalFrameK): void;
  }
  /** the baseline lazy FPU switching */
  class LazySwitchFpu implements SwitchFpuPolicy {
    readonly id: string;
    switchOut(k: Kernel, prev: Task): void;
    switchIn(): void;
    deviceNotAvailable(k: Kernel, t: Task): void;
  }
}

export declare namespace sched {
  /** pick the next task and switch to it (no yield: use schedule() from a blocking syscall) */
  function __schedule(k: Kernel): Task;
  /** sleep: `yield* sched.schedule(k)` inside a blocking syscall handler */
  function schedule(k: Kernel): Generator<unknown, void, unknown>;
  function sys_sched_yield(k: Kernel, t: Task): number;
  function pageOf(addr: number): number;
}

// ---- the entry point ---------------------------------------------------------------------------

/** Option values after validation against the manifest (defaults filled in). */
export type PluginOptions = Record<string, number | string | boolean>;

/** What `require("@siglab/plugin-api")` returns (also passed to createModule). */
export interface PluginApi {
  readonly PLUGIN_API_VERSION: typeof PLUGIN_API_VERSION;
  readonly ContainerModule: typeof ContainerModule;
  readonly TOKENS: typeof TOKENS;
  readonly op: typeof op;
  readonly Sigset: typeof Sigset;
  readonly NR: typeof NR;
  readonly signal: typeof signal;
  readonly i387: typeof i387;
  readonly sched: typeof sched;
}

/** The signature of your `createModule` export. */
export type CreateModule = (options: PluginOptions, api: PluginApi) => ContainerModule;

/** plugin.json */
export interface PluginManifest {
  id: string;
  version: string;
  apiVersion: string;
  displayName: string;
  description: string;
  options: Record<string, PluginOptionSpec>;
  contributes: ExtensionPointName[];
  replaces?: ExtensionPointName[];
  main?: string;
}

export interface PluginOptionSpec {
  type: "boolean" | "number" | "string" | "enum";
  default: number | string | boolean;
  description: string;
  values?: string[];
  min?: number;
  max?: number;
  unit?: string;
}
