/**
 * The simulated kernel of one run: one CPU, its tasks, the scheduler, the event queue (timer ticks
 * and device completions) and the extension points plugins rebind. Subsystems (signals, FPU, mm,
 * pipes, scheduler) live in sibling files as functions over this object, named after Linux's.
 */
import type { ResolvedProfile } from "@siglab/cpu-profiles";
import type { Finding } from "../common/results.js";
import { CompiledPath, Executor } from "../exec/executor.js";
import { PhaseTable } from "../exec/phases.js";
import { PathRegistry } from "../exec/registry.js";
import { FpuPool, FpuRegs } from "../machine/fpu.js";
import { AddressSpace, PAGE_SHIFT, STACK_TOP, USER_CODE_BASE } from "../machine/memory.js";
import { Tlb } from "../machine/tlb.js";
import { hot } from "../machine/typed-arrays.js";
import { StateMap } from "./slots.js";
import type { FileFunctions, FpuFunctions, KernelPolicies, LatencyDevice, MmFunctions, SchedFunctions, SignalFunctions, Vdso } from "@siglab/plugin-api";
import type {
  BlockDevice,
  EntryMechanism,
  FpuTrapHook,
  PageFaultHook,
  Scheduler,
  SignalFpuPolicy,
  SignalMaskStore,
  SwitchFpuPolicy,
  SyscallContribution,
  UserSigmaskService,
} from "../plugin-api/extension-points.js";
import { fileFunctions, fpuFunctions, mmFunctions, schedFunctions, signalFunctions } from "./services.js";
import { EV, KernelEvents } from "./events.js";
import { TALLY_NAMES } from "./tallies.js";
import { markHostThrown } from "../common/host-thrown.js";
import { SignalStruct, Task } from "./task.js";
import { LineOwners, smp_send_reschedule } from "./smp.js";
import { RunList } from "./run-list.js";
import { isPathRef, pathRefCount, pathRefs, type PathRef } from "./path-refs.js";
import { Footprint, USER_FRAMES_BASE } from "./footprint.js";
import { KERNEL_TEXT_BASE, LARGE_PAGE_SHIFT } from "../machine/phys.js";
import type { MemoryHierarchy, Region } from "../machine/cache.js";
import { USER_PHASES } from "../exec/code-size.js";
import type { PathDef } from "../exec/path.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["kernel_tlb_refill", "restore_all_kernel", "try_to_wake_up"]);

/** What a generator yields to the run loop: "another task is current now". */
export const SWITCH = Object.freeze({ switch: true });
/** What a generator yields to the run loop on SMP: "let the CPUs behind this one catch up". */
export const SMP_SYNC = Object.freeze({ sync: true });

export class SimError extends Error {
  constructor(readonly kind: string, message: string, readonly task?: number) {
    super(message);
    markHostThrown(this);
  }
}

export interface KernelConfig {
  /** timer interrupts per second (2.4 i386: 100) */
  hz: number;
  /** ticks in a fresh timeslice (2.4: NICE_TO_TICKS(0) = 6 at HZ=100) */
  timesliceTicks: number;
  maxCycles: number;
  maxSteps: number;
  seed: number;
  timeline: boolean;
  /** CPUs of the machine (1: the UP kernel; more: the 2.4 SMP kernel, see smp.ts) */
  cpus: number;
}

/** The run's mechanisms, all of them (the plugin API's KernelPolicies lists the 2.1 ones as optional). */
export type CorePolicies = Required<KernelPolicies>;

export interface KernelDeps {
  entry: EntryMechanism;
  signalFpu: SignalFpuPolicy;
  switchFpu: SwitchFpuPolicy;
  maskStore: SignalMaskStore;
  scheduler: Scheduler;
  blockDevice: BlockDevice;
  syscalls: SyscallContribution[];
  fpuTrapHooks: FpuTrapHook[];
  pageFaultHooks: PageFaultHook[];
  /** Linux 2.4's own single-valued mechanisms */
  baseline: CorePolicies;
  userSigmask: UserSigmaskService | null;
}

export interface SimEvent {
  at: number;
  kind: "timer" | "device" | "ipi";
  seq: number;
  fire: () => void;
  /** an IPI: its cycles on the APIC bus or system bus (the target, halted, spends them in phase smp.ipi) */
  wire?: number;
}

/**
 * One CPU: its registers and TLB, what it runs (current, its own idle task), its clock and the
 * interrupts due to it. The kernel's `cpu`/`current`/`idle` are "this CPU" (smp_processor_id()):
 * the run loop points them at the CPU whose turn it is (Kernel.useCpu).
 */
export class Cpu {
  /** the CPU's cycle counter while it is not the one executing (the executor holds the live one) */
  clock = 0;
  /** interrupts due to this CPU (timer ticks, device completions, IPIs), by time */
  readonly queue: SimEvent[] = [];
  current!: Task;
  idle!: Task;
  /** the task whose pages this CPU's TLB was last refilled for */
  lastUser: Task | null = null;
  /** schedule_data.last_schedule: when this CPU last scheduled (reschedule_idle prefers the oldest idle) */
  lastSchedule = 0;
  /** cpu_tlbstate[cpu].state: LAZY while a kernel thread (idle) borrows the previous mm */
  tlbLazy = false;
  cpl = 3;
  IF = 1;
  /** CR0.TS */
  TS = true;
  /** address space whose page tables CR3 points at */
  cr3 = 0;
  /** whose FPU state is live in the registers (null: none) */
  fpuOwner: Task | null = null;
  readonly fpu = new FpuRegs();
  /** this CPU's caches (null: the profile models none) */
  caches: MemoryHierarchy | null = null;
  constructor(readonly tlb: Tlb, readonly id = 0) {}
}

export class Kernel extends StateMap {
  readonly phases = new PhaseTable();
  readonly paths: PathRegistry;
  /** this CPU (smp_processor_id()): the one whose turn it is in the run loop */
  cpu: Cpu;
  /** every CPU of the machine (cpus[0] alone on the UP kernel) */
  readonly cpus: Cpu[];
  readonly ex: Executor;
  readonly events = new KernelEvents();
  readonly fpuPool = new FpuPool();
  readonly findings: Finding[] = [];
  readonly counters: Record<string, number> = Object.create(null);
  readonly tasks = new Map<number, Task>();
  /** runqueue_head and the tasks on it (run-list.ts); `runqueue` is its array view */
  readonly runList = new RunList<Task>();
  /** this CPU's idle task (idle_task(cpu)) */
  idle: Task;
  current: Task;
  readonly syscallTable = new Map<number, SyscallContribution>();
  steps = 0;
  /** budgets, copied out of the config for the per-step check */
  private readonly maxSteps: number;
  private readonly maxCycles: number;
  /** the task whose pages this CPU's TLB was last refilled for (see Gate) */
  lastUser: Task | null = null;
  /** the number of CPUs (1: the UP kernel) */
  readonly ncpus: number;
  /** CR3 writes keep the TLB's entries tagged by address space (PCID; a kernel that uses it, k.mm.setPcid) */
  pcid = false;
  /**
   * flush_tlb_range invalidates page by page (invlpg) up to this many pages, and flushes the whole
   * TLB above it (6.x's tlb_single_page_flush_ceiling; a kernel sets it with k.mm.setTlbFlushCeiling).
   * 0: every range flush is a full one (i386 2.4: flush_tlb_range is flush_tlb_mm).
   */
  tlbFlushCeiling = 0;
  /** the vDSO a plugin mapped (k.mm.map_vdso): libc's gettimeofday calls it instead of the system call */
  vdso: Vdso | null = null;
  /** /dev/siglab-disk was used (its timing can no longer be configured), and its view for plugins */
  diskInUse = false;
  diskView: LatencyDevice | undefined;
  /** ids of user-level threads: above any pid, numbered per run */
  nextUThreadId = 0x10000;
  /** the kernel's functions for plugins (Linux's names, bound to this run) */
  readonly signal: SignalFunctions;
  readonly fpu: FpuFunctions;
  readonly sched: SchedFunctions;
  readonly mm: MmFunctions;
  readonly files: FileFunctions;
  /** the mechanisms in force, and 2.4's own (for variants to delegate to) */
  readonly policies: CorePolicies;
  readonly baseline: CorePolicies;
  /** the user-space signal mask service, when a plugin of the stack provides one */
  readonly userSigmask: UserSigmaskService | null;
  /** plugins that changed the mechanism, for evidence in findings */
  readonly variantIds: string[] = [];
  private nextPid = 1;
  private nextAsid = 1;
  private seq = 0;
  readonly cyclesPerTick: number;
  /** the cycle (mod cyclesPerTick) at which timer ticks come, drawn from the seed */
  readonly tickPhase: number;
  private rng: number;
  #cancelCheck: (() => boolean | string) | undefined;
  /** cache lines of shared kernel data and the CPU that last wrote each (SMP; smp.ts) */
  readonly lines = new LineOwners();
  /** where the kernel's objects lie in physical memory, for the caches (footprint.ts) */
  readonly foot: Footprint;
  /** set when the run is over: workload code may no longer act */
  stopped = false;
  /** a violation that ends the run (see stopWith) */
  stopError: SimError | null = null;

  // hot paths, resolved once
  private readonly P = new Map<string, CompiledPath>();
  /**
   * The core handles' paths by handle id, resolved on first use: dense from the start (null until
   * resolved), so a load is an element load whatever order the handles are first used in.
   */
  private readonly byRef: (CompiledPath | null)[] = Array.from({ length: pathRefCount() }, () => null);
  /** the handles pathHandle made, by -1 - id, their paths, and each name's handle */
  private readonly handles: PathRef[] = [];
  private readonly handlePaths: CompiledPath[] = [];
  private readonly handleByName = new Map<string, PathRef>();
  /** the baseline entry/exit paths, resolved once (after plugins' transforms) */
  readonly hot: { system_call: CompiledPath; ret_from_sys_call: CompiledPath; restore_all: CompiledPath; iret_sti: CompiledPath; sys_getpid: CompiledPath };
  /** syscalls by number (folded into counters["syscalls.<name>"] at the end of the run) */
  readonly syscallCounts = hot(new Float64Array(512));
  /** the hot paths' counters by slot (tallies.ts), folded into `counters` at the end of the run */
  readonly tallies = hot(new Float64Array(TALLY_NAMES.length));
  private readonly tallied = hot(new Uint8Array(TALLY_NAMES.length));
  /** signals queued in all tasks' queues (2.4's nr_queued_signals, against max_queued_signals) */
  queuedSignals = 0;

  constructor(
    readonly profile: ResolvedProfile,
    readonly config: KernelConfig,
    readonly deps: KernelDeps,
    paths: PathRegistry | ((phases: PhaseTable) => PathRegistry),
  ) {
    super();
    this.paths = typeof paths === "function" ? paths(this.phases) : paths;
    this.signal = signalFunctions(this);
    this.fpu = fpuFunctions(this);
    this.sched = schedFunctions(this);
    this.mm = mmFunctions(this);
    this.files = fileFunctions(this);
    this.policies = Object.freeze({ entry: deps.entry, signalFpu: deps.signalFpu, switchFpu: deps.switchFpu, maskStore: deps.maskStore, scheduler: deps.scheduler, blockDevice: deps.blockDevice });
    this.baseline = deps.baseline;
    this.userSigmask = deps.userSigmask;
    this.ncpus = Math.max(1, config.cpus | 0);
    this.cpus = [];
    this.foot = new Footprint(profile.caches, this.ncpus > 1);
    for (let i = 0; i < this.ncpus; i++) {
      const c = new Cpu(new Tlb(profile.dtlbEntries, profile.features.pge), i);
      c.caches = this.foot.cachesFor(i);
      this.cpus.push(c);
    }
    this.cpu = this.cpus[0]!;
    this.ex = new Executor(this.cpu, this.phases, profile);
    if (profile.caches) this.layOutText();
    this.ex.ensurePhases(this.phases.names.length);
    this.hot = { system_call: this.path("system_call"), ret_from_sys_call: this.path("ret_from_sys_call"), restore_all: this.path("restore_all"), iret_sti: this.path("iret_sti"), sys_getpid: this.path("sys_getpid") };
    this.ex.irqHook = () => this.takeInterruptInKernel();
    if (config.timeline) this.ex.timeline = [];
    this.cyclesPerTick = Math.round((profile.mhz * 1e6) / config.hz);
    this.maxSteps = config.maxSteps;
    this.maxCycles = config.maxCycles;
    this.rng = (config.seed >>> 0) || 0x9e3779b9;
    for (const s of deps.syscalls) this.syscallTable.set(s.nr, s);
    const idleMm = new AddressSpace(0);
    for (const c of this.cpus) {
      // one idle task per CPU (pid 0 on each, as 2.4's init_tasks), with init_mm
      c.idle = c.current = new Task(0, 0, 0, idleMm, new SignalStruct(), this.ncpus > 1 ? `swapper/${c.id}` : "swapper");
      c.idle.processor = c.id;
      c.idle.mem = this.foot.task(c.idle.name);
      c.cpl = 0;
    }
    this.idle = this.cpu.idle;
    this.current = this.idle;
    // where the run starts within a timer period. A real process starts at a random phase of the
    // tick, so which ticks land in a measured loop varies from run to run; seed s starts at phase
    // frac((s - 1) * golden ratio): seed 1 on a tick boundary, consecutive seeds (--repeat)
    // spread evenly over the period (a Weyl sequence)
    this.tickPhase = Math.floor((((config.seed >>> 0) - 1) * GOLDEN_RATIO_FRACTION % 1 + 1) % 1 * this.cyclesPerTick);
    for (const c of this.cpus) this.scheduleEvent(this.nextTickAfter(0, c), "timer", () => this.timerTick(c), c);
  }

  /**
   * The local timer of CPU `c` is skewed by (c + 1)/(n + 1) of a period on SMP (setup_APIC_timer
   * spreads the CPUs' ticks so their interrupts do not collide); the UP kernel's tick is IRQ0's.
   */
  private tickSkew(c: Cpu): number {
    return this.ncpus > 1 ? Math.floor((this.cyclesPerTick * (c.id + 1)) / (this.ncpus + 1)) : 0;
  }

  /**
   * Make `c` this CPU: the executor's clock, registers, current and idle task become c's. The run
   * loop calls it before it resumes a task on c; kernel code always acts on "this CPU".
   */
  useCpu(c: Cpu): void {
    const was = this.cpu;
    if (c === was) return;
    was.clock = this.ex.cycles;
    was.current = this.current;
    was.lastUser = this.lastUser;
    this.cpu = c;
    this.ex.cpu = c;
    this.ex.mem = c.caches;
    this.ex.cycles = c.clock;
    this.ex.nextEvent = c.queue.length ? c.queue[0]!.at : Infinity;
    this.ex.timelineTask = c.current.pid;
    this.ex.timelineCpu = c.id;
    this.current = c.current;
    this.idle = c.idle;
    this.lastUser = c.lastUser;
  }

  /** The clock of CPU `c` (the executor's for this CPU). */
  clockOf(c: Cpu): number {
    return c === this.cpu ? this.ex.cycles : c.clock;
  }

  /** The task running on CPU `c` (cpu_curr(c)). */
  currentOf(c: Cpu): Task {
    return c === this.cpu ? this.current : c.current;
  }

  /**
   * resched_curr(cpu_rq(c)) (plugin API 2.2): need_resched on the task running on CPU `c`, and the
   * reschedule IPI when `c` is another CPU (nothing when need_resched is set already: an IPI is on
   * its way or the CPU will reschedule anyway).
   */
  resched_cpu(c: Cpu): void {
    if (!this.cpus.includes(c)) throw new SimError("plugin", "resched_cpu: not a CPU of this machine");
    const t = this.currentOf(c);
    if (t.needResched) return;
    t.needResched = true;
    if (c !== this.cpu) smp_send_reschedule(this, c);
  }

  /** is_cpu_allowed (plugin API 2.2): CPU `c` is in `t`'s cpus_allowed. */
  is_cpu_allowed(t: Task, c: Cpu): boolean {
    if (!(t instanceof Task) || !this.cpus.includes(c)) throw new SimError("plugin", `is_cpu_allowed: expected a task and a CPU of this machine, got ${t instanceof Task ? "a task" : typeof t} and ${this.cpus.includes(c) ? "a CPU" : typeof c}`);
    return (t.cpusAllowed & (1 << c.id)) !== 0;
  }

  /** The first timer tick after cycle `c` (ticks come every cyclesPerTick, at tickPhase). */
  nextTickAfter(c: number, cpu: Cpu = this.cpu): number {
    const cpt = this.cyclesPerTick;
    const phase = this.tickPhase + this.tickSkew(cpu);
    return phase + (Math.floor((c - phase) / cpt) + 1) * cpt;
  }

  /** schedule_timeout's wake-up: the first tick at or after `at`. */
  tickAtOrAfter(at: number): number {
    const cpt = this.cyclesPerTick;
    // the timer list runs on CPU 0's tick
    const phase = this.tickPhase + this.tickSkew(this.cpus[0]!);
    return phase + Math.ceil((at - phase) / cpt) * cpt;
  }

  /** Path by name (compiled for this profile, cached). */
  path(name: string): CompiledPath {
    let p = this.P.get(name);
    if (!p) {
      p = this.paths.get(name);
      this.P.set(name, p);
      this.ex?.ensurePhases(this.phases.names.length);
    }
    return p;
  }

  run(name: string | PathRef): void {
    this.ex.run(typeof name === "string" ? this.path(name) : this.resolve(name));
  }

  /**
   * API 2.2: a handle of path `name`, valid in this kernel only: run/runN/runUser* resolve it with
   * an array load instead of the lookup by name. Resolved (and an unknown name refused) now.
   */
  pathHandle(name: string): PathRef {
    // not a name: the unknown-path error run() gives it (path() throws)
    if (typeof name !== "string") this.path(typeof name === "object" || typeof name === "function" ? `(${name === null ? "null" : "an object"}, not a path name)` : String(name));
    let h = this.handleByName.get(name);
    if (h) return h;
    const p = this.path(name);
    // negative ids: apart from the core's handles (path-refs.ts), which index byRef
    h = Object.freeze({ name, id: -1 - this.handles.length });
    this.handles.push(h);
    this.handlePaths.push(p);
    this.handleByName.set(name, h);
    return h;
  }

  runN(name: string | PathRef, n: number): void {
    this.ex.runN(typeof name === "string" ? this.path(name) : this.resolve(name), n);
  }

  /**
   * @internal `run` for the core's own call sites, which pass only path-refs.ts handles: the
   * resolved path without run's check of what a plugin may pass (a miss still resolves through it).
   */
  runRef(r: PathRef): void {
    this.ex.run(this.compiled(r));
  }

  /** @internal `runN` for the core's own call sites (see runRef). */
  runNRef(r: PathRef, n: number): void {
    this.ex.runN(this.compiled(r), n);
  }

  /**
   * A core handle's resolved path. The methods above are reachable by plugins too: anything that
   * is not a resolved slot (a forged `{ id: "length" }` reads an array property) takes resolve's
   * checked way and is an unknown path, never a host TypeError.
   */
  private compiled(r: PathRef): CompiledPath {
    const id = typeof r === "object" && r !== null ? r.id : -1;
    // a whole number below byRef's length indexes a resolved path or null, nothing else
    const c = id >>> 0 === id && id < this.byRef.length ? this.byRef[id]! : null;
    return c !== null ? c : this.resolve(r);
  }

  /** A handle's path, resolved on first use in this run (path-refs.ts); anything else a plugin passes is an unknown path. */
  private resolve(r: PathRef): CompiledPath {
    if (typeof r === "object" && r !== null) {
      const id = r.id;
      // a handle pathHandle made (this kernel's own: another run's is an unknown path)
      if (typeof id === "number" && id < 0 && this.handles[-1 - id] === r) return this.handlePaths[-1 - id]!;
    }
    if (!isPathRef(r)) return this.path(typeof r === "object" || typeof r === "function" ? `(${r === null ? "null" : "an object"}, not a path name)` : String(r));
    const c = r.id < this.byRef.length ? this.byRef[r.id] : null;
    if (c) return c;
    const p = this.path(r.name);
    if (r.id < this.byRef.length) this.byRef[r.id] = p;
    return p;
  }

  count(name: string, n = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + n;
  }

  /** `count` for the core's hot paths: slot `i` of tallies.ts's TALLY. */
  tally(i: number, n = 1): void {
    this.tallies[i] += n;
    this.tallied[i] = 1;
  }

  /** Add the tallies into `counters` under their names (once, at the end of the run). */
  foldTallies(): void {
    for (let i = 0; i < TALLY_NAMES.length; i++) {
      if (this.tallied[i]) this.count(TALLY_NAMES[i]!, this.tallies[i]!);
      this.tallies[i] = 0;
      this.tallied[i] = 0;
    }
  }

  get cycles(): number {
    return this.ex.cycles;
  }

  /** The latest clock of any CPU: the machine's elapsed time. */
  get elapsedCycles(): number {
    let m = this.ex.cycles;
    for (const c of this.cpus) if (c !== this.cpu && c.clock > m) m = c.clock;
    return m;
  }

  /** Deterministic PRNG (xorshift32) seeded from the experiment. */
  random(): number {
    let x = this.rng;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    this.rng = x;
    return x / 4294967296;
  }

  setCancelCheck(f: (() => boolean | string) | undefined): void {
    this.#cancelCheck = f;
  }

  private pollCancel(): void {
    const c = this.#cancelCheck!();
    if (c === true) throw (this.stopError = new SimError("cancelled", "run cancelled"));
    if (typeof c === "string" && c) throw (this.stopError = new SimError("budget", c));
  }

  /**
   * Ends the run with an error at the next step: for a violation found where throwing would be
   * swallowed (a `finally` on a generator that foreign code stepped by hand).
   */
  stopWith(kind: string, message: string): void {
    this.stopError ??= new SimError(kind, message, this.current.pid);
  }

  /** One workload step (API call): enforces the step and cycle budgets and cancellation. */
  step(): void {
    const s = ++this.steps;
    if (this.stopError) throw this.stopError;
    // budget errors are sticky: a workload that catches one cannot go on simulating
    if (s > this.maxSteps) throw (this.stopError = new SimError("budget", `step budget exhausted after ${this.config.maxSteps} workload steps (runaway workload?)`, this.current.pid));
    if (this.ex.cycles > this.maxCycles) throw (this.stopError = new SimError("budget", `cycle budget exhausted: ${this.ex.cycles} > ${this.config.maxCycles} simulated cycles (runaway workload?)`, this.current.pid));
    if ((s & 0xfff) === 0 && this.#cancelCheck) this.pollCancel();
  }

  // ---- tasks ---------------------------------------------------------------------------------

  /** The address space whose page tables have this asid (null: none, e.g. swapper_pg_dir). */
  mmOfAsid(asid: number): AddressSpace | null {
    for (const t of this.tasks.values()) if (t.mm.asid === asid) return t.mm;
    return null;
  }

  newAsid(): number {
    return this.nextAsid++;
  }

  // ---- the memory hierarchy (footprint.ts, machine/cache.ts) ---------------------------------

  /** Kernel text for every compiled path (in compile order) and the paths that charge a code miss. */
  private layOutText(): void {
    const layout = (d: PathDef): Region[] | null => (USER_PHASES.has(d.phase) || d.phase.startsWith("cache.") || d.phase === "tlb.refill" ? null : this.foot.functionsOf(d));
    for (const c of this.paths.all()) c.code = layout(c.def);
    this.paths.codeLayout = layout;
    const decode = Number.isFinite(this.profile.costs.decode_line) ? this.path("icache.decode") : null;
    this.ex.codeMiss = { l2: this.path("icache.l2"), memory: this.path("icache.memory"), decode };
    this.ex.mem = this.cpu.caches;
    if (!this.profile.features.pge) this.ex.kernelTextTlb = () => {
      if (this.cpu.tlb.touchKernel(KERNEL_TEXT_BASE >>> LARGE_PAGE_SHIFT)) this.runRef(P["kernel_tlb_refill"]);
    };
    this.dcacheL2 = this.path("dcache.l2");
    this.dcacheMem = this.path("dcache.memory");
    this.copyL2 = this.path("copy.l2_lines");
    this.copyMem = this.path("copy.memory_lines");
  }
  /** the CPU keeps no global pages (the Pentium): CR3 writes drop the kernel's translations too */
  private readonly pgeLess = !this.profile.features.pge;
  private dcacheL2: CompiledPath | null = null;
  private dcacheMem: CompiledPath | null = null;
  private copyL2: CompiledPath | null = null;
  private copyMem: CompiledPath | null = null;

  /**
   * The kernel (or user code) reads, or writes, `r` on this CPU: the lines its L1D lost come back
   * from L2 or memory, charged at their latency. Nothing when the profile models no caches.
   */
  touch(r: Region, write = false): void {
    if (this.pgeLess && r.base < USER_FRAMES_BASE && this.cpu.tlb.touchKernel(r.base >>> LARGE_PAGE_SHIFT)) this.runRef(P["kernel_tlb_refill"]);
    const m = this.cpu.caches;
    if (m === null || r.seenD === m.l1d.changes) return;
    if (m.touchData(r, write) === 0) return;
    if (m.fromL2 !== 0) this.ex.runN(this.dcacheL2!, m.fromL2);
    if (m.fromMemory !== 0) this.ex.runN(this.dcacheMem!, m.fromMemory);
  }

  /**
   * A bulk copy from `src` to `dst` (copy_to_user, copy_from_user, a page copy; either may be null
   * when its memory is not modelled): the lines neither L1 holds move at the transfer rate of the
   * level they come from (the copy's misses overlap). A written line from memory moves twice (the
   * read for ownership and, later, its write-back); without write allocation (the Pentium) it goes
   * to memory once and stays out of L1. The per-line L1 cost is the caller's own path.
   */
  copyTraffic(src: Region | null, dst: Region | null): void {
    const m = this.cpu.caches;
    if (m === null) return;
    let l2 = 0, mem = 0;
    if (src !== null && src.seenD !== m.l1d.changes && m.touchData(src) > 0) {
      l2 += m.fromL2;
      mem += m.fromMemory;
    }
    if (dst !== null && dst.seenD !== m.l1d.changes) {
      if (m.shape.l1dWriteAllocate) {
        if (m.touchData(dst, true) > 0) {
          l2 += m.fromL2;
          mem += 2 * m.fromMemory;
        }
      } else mem += m.linesMissing(dst);
    }
    this.ex.runN(this.copyL2!, l2);
    this.ex.runN(this.copyMem!, mem);
  }

  createTask(parent: Task | null, opts: { shareVm: boolean; shareSighand: boolean; name: string }): Task {
    const pid = this.nextPid++;
    const mm = parent ? (opts.shareVm ? parent.mm : parent.mm.cloneInto(this.newAsid())) : new AddressSpace(this.newAsid());
    if (parent && opts.shareVm) mm.users++;
    const sig = parent ? (opts.shareSighand ? parent.sig : parent.sig.clone()) : new SignalStruct();
    const t = new Task(pid, opts.shareVm && parent ? parent.tgid : pid, parent ? parent.pid : 0, mm, sig, opts.name);
    t.mem = this.foot.task(opts.name);
    sig.mem ??= this.foot.signalStruct();
    t.counter = this.config.timesliceTicks;
    t.processor = this.cpu.id; // copied from the parent's task_struct
    if (parent) {
      t.blocked.set(parent.blocked);
      t.cpusAllowed = parent.cpusAllowed; // do_fork's *p = *current: the affinity is inherited
      t.regs.copyFrom(parent.regs);
      t.usedMath = parent.usedMath;
      if (parent.usedMath) {
        // copy_thread: the child's i387 area is the parent's current state (unlazy_fpu first)
        const live = this.cpu.fpuOwner === parent && parent.usedFpu ? this.cpu.fpu : parent.fpu;
        t.fpu.copyFrom(live);
      }
      parent.children.push(t);
      if (opts.shareVm) t.regs.esp = STACK_TOP - 0x100000 * (pid % 32) - 16; // thread stack below the parent's
    }
    // code page and stack page: touched on every return to user mode
    t.hotPages = [USER_CODE_BASE >>> PAGE_SHIFT, (t.regs.esp - 4) >>> PAGE_SHIFT];
    this.tasks.set(pid, t);
    return t;
  }

  // ---- events and interrupts ------------------------------------------------------------------

  /** An interrupt due to CPU `cpu` (this CPU by default) at cycle `at` of that CPU's clock. */
  scheduleEvent(at: number, kind: SimEvent["kind"], fire: () => void, cpu: Cpu = this.cpu, wire?: number): void {
    const ev: SimEvent = { at, kind, seq: this.seq++, fire };
    if (wire !== undefined) ev.wire = wire;
    const q = cpu.queue;
    let i = q.length;
    while (i > 0 && (q[i - 1]!.at > at || (q[i - 1]!.at === at && q[i - 1]!.seq > ev.seq))) i--;
    q.splice(i, 0, ev);
    if (cpu === this.cpu) this.ex.nextEvent = q[0]!.at;
    // another CPU will act at `at`: this one must not run past it unsynchronised (see smp.ts)
    else if (at < this.ex.syncAt) this.ex.syncAt = at;
  }

  get nextEventAt(): number {
    return this.ex.nextEvent;
  }

  /** True when an interrupt is due now (the runtime polls this at user-mode op boundaries). */
  interruptDue(): boolean {
    return this.ex.cycles >= this.ex.dueAt; // cycles >= nextEvent || cycles > syncAt
  }

  /** Any events other than the periodic tick? (to detect deadlock) */
  hasNonTimerEvents(): boolean {
    return this.cpus.some((c) => c.queue.some((e) => e.kind !== "timer"));
  }

  /** Fire every event that is due (the interrupt handlers' bodies). Returns how many fired. */
  private fireDue(): number {
    let n = 0;
    const q = this.cpu.queue;
    while (q.length && q[0]!.at <= this.ex.cycles) {
      const ev = q.shift()!;
      this.ex.nextEvent = q.length ? q[0]!.at : Infinity;
      this.run(ev.kind === "timer" ? (this.ncpus > 1 ? "smp_apic_timer_interrupt" : "IRQ0x00_interrupt") : ev.kind === "ipi" ? "reschedule_interrupt" : "device_interrupt");
      this.count(ev.kind === "timer" ? "irq.timer" : ev.kind === "ipi" ? "irq.ipi" : "irq.device");
      ev.fire();
      n++;
    }
    return n;
  }

  /** Interrupt taken at an op boundary of a kernel path (IF=1): runs and returns to the path. */
  takeInterruptInKernel(): void {
    const IF = this.cpu.IF, cpl = this.cpu.cpl;
    this.cpu.cpl = 0;
    this.fireDue();
    this.run(P["restore_all_kernel"]);
    this.cpu.IF = IF;
    this.cpu.cpl = cpl;
  }

  /** Interrupt taken in user mode: runs the handlers; the caller then runs the exit work. */
  takeInterruptInUser(): void {
    this.cpu.cpl = 0;
    this.cpu.IF = 0;
    this.fireDue();
  }

  /**
   * IRQ0's do_timer: the next tick, expired timeouts, the Scheduler's timeslice accounting. On SMP
   * each CPU's local APIC timer runs update_process_times for its own current task; the global
   * part (jiffies, the timer list) runs on CPU 0's.
   */
  private timerTick(c: Cpu): void {
    this.scheduleEvent(this.nextTickAfter(this.ex.cycles, c), "timer", () => this.timerTick(c), c);
    const t = this.current;
    // wake sleepers whose timeout expired (schedule_timeout is tick based)
    if (c.id === 0) for (const s of this.tasks.values()) {
      if (s.state === "interruptible" && s.timeoutAt >= 0 && s.timeoutAt <= this.ex.cycles) {
        s.timeoutAt = -1;
        s.wakeReason = "timeout";
        this.wakeUp(s);
      }
    }
    this.deps.scheduler.update_process_times(this, t);
    this.events.fire(EV.tick, t);
  }

  /** Advance an idle CPU to the next event. Returns false when nothing can ever happen again. */
  idleUntilEvent(): boolean {
    const q = this.cpu.queue;
    if (!q.length) return false;
    const ev = q[0]!;
    const at = ev.at;
    const halted = at > this.ex.cycles;
    if (halted) {
      // an IPI that reaches a halted CPU: the part of the wait it spent on the wire is its own phase
      const idle = at - this.ex.cycles;
      const wire = ev.wire !== undefined ? Math.min(idle, ev.wire) : 0;
      if (idle > wire) this.ex.chargeRaw(this.path("idle").phaseIdx, idle - wire);
      if (wire > 0) this.ex.chargeRaw(this.phases.id("smp.ipi"), wire);
    }
    this.cpu.cpl = 0;
    this.cpu.IF = 1;
    // the SMP kernel's idle CPU leaves hlt for the interrupt (default_idle: sti; hlt)
    if (halted && this.ncpus > 1) this.run("hlt_exit");
    this.fireDue();
    return true;
  }

  /** Cycles until the next event (user-mode work is split there). */
  cyclesToNextEvent(): number {
    // past the SMP horizon by a cycle at least, so that the run always moves on
    return Math.min(this.ex.nextEvent, this.ex.syncAt + 1) - this.ex.cycles;
  }

  // ---- run queue ------------------------------------------------------------------------------

  /** The runnable tasks in run-queue order (an array view, made when read after a change; writing to it changes nothing). */
  get runqueue(): readonly Task[] {
    return this.runList.toArray();
  }

  /** nr_running: the tasks on the run queue */
  get nrRunning(): number {
    return this.runList.length;
  }

  /** task_on_runqueue */
  onRunqueue(t: Task): boolean {
    return this.runList.has(t.run_list);
  }

  /** add_to_runqueue (at the tail, as this kernel has always queued a woken task); no-op when queued */
  addToRunqueue(t: Task): void {
    if (!this.runList.has(t.run_list)) this.runList.addTail(t.run_list);
  }

  /** del_from_runqueue: list_del; no-op when not queued */
  delFromRunqueue(t: Task): void {
    if (this.runList.has(t.run_list)) this.runList.del(t.run_list);
  }

  /** move_last_runqueue: list_del + list_add_tail */
  moveLastRunqueue(t: Task): void {
    this.delFromRunqueue(t);
    this.runList.addTail(t.run_list);
  }

  /** try_to_wake_up: make `t` runnable; preempt the current task if it is idle. */
  wakeUp(t: Task): void {
    if (t.state !== "interruptible" || t.stopped) return;
    this.run(P["try_to_wake_up"]);
    // SMP: runqueue_lock and the woken task_struct were last written on other CPUs
    this.lines.touch(this, this.runList.head, 1);
    this.lines.touch(this, t, TASK_STRUCT_LINES);
    t.state = "running";
    t.waitingOn = null;
    this.addToRunqueue(t);
    // reschedule_idle: whether the woken task preempts the current one is the Scheduler's call
    this.deps.scheduler.reschedule_idle(this, t);
  }

  /** wake_up_process of a stopped task (a tracer's continue, detach or kill; SIGKILL). */
  wakeStopped(t: Task): void {
    if (!t.stopped) return;
    t.stopped = false;
    this.wakeUp(t);
  }

  private readonly findingIndex = new Map<string, Finding>();

  /** Record a finding; repeats of the same kind/task/register are folded into one with a count. */
  report(f: Finding): void {
    const ev = f.evidence;
    const key = `${f.kind}|${String(ev["task"] ?? "")}|${String(ev["register"] ?? "")}|${String(ev["signal"] ?? "")}`;
    const prev = this.findingIndex.get(key);
    if (prev) {
      prev.evidence["occurrences"] = ((prev.evidence["occurrences"] as number) ?? 1) + 1;
      prev.evidence["lastCycle"] = this.cycles;
      return;
    }
    if (this.findings.length >= 200) {
      this.count("findings.dropped");
      return;
    }
    f.evidence["occurrences"] = 1;
    this.findingIndex.set(key, f);
    this.findings.push(f);
  }

  /** The mask delivery must honour (task->blocked, or the user-sigmask page). */
  blockedOf(t: Task) {
    return this.deps.maskStore.effectiveBlocked(this, t);
  }

  /** recalc_sigpending */
  recalcSigpending(t: Task): void {
    t.sigpending = t.pending.anyUnblocked(this.blockedOf(t));
  }
}

/** SMP: lines of a task_struct the wake-up and schedule() write (state, run_list, counter, processor, need_resched). */
export const TASK_STRUCT_LINES = 2;

/** (sqrt(5) - 1) / 2: consecutive multiples are as evenly spread over [0, 1) as any sequence can be */
const GOLDEN_RATIO_FRACTION = 0.6180339887498949;
