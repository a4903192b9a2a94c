/**
 * The simulated kernel of one run (Linux 2.4's init/main.c start_kernel, as far as it assembles
 * one): its CPUs, tasks, run queue, events and the extension points plugins rebind, wired
 * together. Subsystems live in sibling files as functions over KernelCore (core.ts), named after
 * Linux's: this class holds their shared state and keeps the methods plugins and the runtime call,
 * each a step into its subsystem's file.
 */
import type { ResolvedProfile } from "@siglab/cpu-profiles";
import type { Finding } from "../common/results.js";
import { CompiledPath, Executor } from "../exec/executor.js";
import { PhaseTable } from "../exec/phases.js";
import { PathRegistry } from "../exec/registry.js";
import { FpuPool } from "../machine/fpu.js";
import { AddressSpace } from "../machine/memory.js";
import { Tlb } from "../machine/tlb.js";
import { hot } from "../machine/typed-arrays.js";
import { StateMap } from "./slots.js";
import type { FileFunctions, FpuFunctions, LatencyDevice, MmFunctions, SchedFunctions, SignalFunctions, Vdso } from "@siglab/plugin-api";
import type { SyscallContribution, UserSigmaskService } from "../plugin-api/extension-points.js";
import { fileFunctions, fpuFunctions, mmFunctions, schedFunctions, signalFunctions } from "./services.js";
import type { CorePolicies, HotPaths, KernelConfig, KernelCore, KernelDeps } from "./core.js";
import { Cpu, type SimEvent } from "./cpu.js";
import { KernelEvents } from "./events.js";
import { TALLY_NAMES } from "./tallies.js";
import type { SimError } from "./sim-error.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import { SignalStruct, Task } from "./task.js";
import { is_cpu_allowed, LineOwners, resched_cpu } from "./smp.js";
import { RunList } from "./run-list.js";
import type { PathRef } from "./path-refs.js";
import { PathTable } from "./path-table.js";
import { RunBudget } from "./budget.js";
import { do_timer, nextTickAfter, tickPhaseOf } from "./timer.js";
import { takeInterruptInKernel } from "./irq.js";
import { try_to_wake_up, wake_up_stopped } from "./sched.js";
import { Footprint } from "./footprint.js";
import type { Region } from "../machine/cache.js";
import { MemoryHierarchy } from "./memory-hierarchy.js";
import { FindingLog } from "./findings.js";
import { Random32 } from "../lib/random32.js";

export class Kernel extends StateMap implements KernelCore {
  readonly phases = new PhaseTable();
  readonly paths: PathRegistry;
  /** this CPU (smp_processor_id()): the one whose turn it is in the run loop */
  cpu: Cpu;
  /** every CPU of the machine (cpus[0] alone on the UP kernel) */
  readonly cpus: Cpu[];
  readonly ex: Executor;
  readonly events = new KernelEvents();
  get findings(): Finding[] {
    return this.findingLog.list;
  }
  readonly fpuPool = new FpuPool();
  readonly counters: Record<string, number> = Object.create(null);
  readonly tasks = new Map<number, Task>();
  /** runqueue_head and the tasks on it (run-list.ts); `runqueue` is its array view */
  readonly runList = new RunList<Task>();
  /** this CPU's idle task (idle_task(cpu)) */
  idle: Task;
  current: Task;
  readonly syscallTable = new Map<number, SyscallContribution>();
  /** the step and cycle budgets, cancellation and the error that ends the run (budget.ts) */
  readonly budget: RunBudget;
  /** the task whose pages this CPU's TLB was last refilled for (see Gate) */
  lastUser: Task | null = null;
  /** the number of CPUs (1: the UP kernel) */
  readonly ncpus: number;
  /** CR3 writes keep the TLB's entries tagged by address space (PCID; a kernel that uses it, k.mm.setPcid) */
  pcid = false;
  /** flush_tlb_range's invlpg ceiling in pages, a whole flush above it (6.x's tlb_single_page_flush_ceiling, k.mm.setTlbFlushCeiling) */
  tlbFlushCeiling = 0; // 0: every range flush is whole (i386 2.4: flush_tlb_range is flush_tlb_mm)
  /** the vDSO a plugin mapped (k.mm.map_vdso): libc's gettimeofday calls it instead of the system call */
  vdso: Vdso | null = null;
  /** whose KernelSetupContribution runs now ("plugin 'id'", or null: the core's), named by map_vdso's refusal */
  setupBy: string | null = null;
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
  /** the pid the next task gets (fork.ts) */
  nextPid = 1;
  private nextAsid = 1;
  private seq = 0;
  readonly cyclesPerTick: number;
  /** the cycle (mod cyclesPerTick) at which timer ticks come, drawn from the seed */
  readonly tickPhase: number;
  private readonly rng: Random32;
  /** cache lines of shared kernel data and the CPU that last wrote each (SMP; smp.ts) */
  readonly lines = new LineOwners();
  /** set when the run is over: workload code may no longer act */
  stopped = false;

  /** the run's paths by name and handle (path-table.ts) */
  private readonly table: PathTable;
  /** the baseline entry/exit paths, resolved once (after plugins' transforms) */
  readonly hot: HotPaths;
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
    this.budget = new RunBudget(config);
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
    this.table = new PathTable(this.paths, this.phases, this.ex);
    this.memory = new MemoryHierarchy(this, this.paths);
    this.ex.ensurePhases(this.phases.names.length);
    this.hot = { system_call: this.path("system_call"), ret_from_sys_call: this.path("ret_from_sys_call"), restore_all: this.path("restore_all"), iret_sti: this.path("iret_sti"), sys_getpid: this.path("sys_getpid") };
    this.ex.irqHook = () => takeInterruptInKernel(this);
    if (config.timeline) this.ex.timeline = [];
    this.cyclesPerTick = Math.round((profile.mhz * 1e6) / config.hz);
    this.rng = new Random32(config.seed);
    for (const s of deps.syscalls) this.syscallTable.set(s.nr, s);
    const idleMm = new AddressSpace<SignalFrameK>(0);
    for (const c of this.cpus) {
      // one idle task per CPU (pid 0 on each, as 2.4's init_tasks), with init_mm
      c.idle = c.current = new Task(0, 0, 0, idleMm, new SignalStruct(), this.ncpus > 1 ? `swapper/${c.id}` : "swapper");
      c.idle.processor = c.id;
      c.idle.mem = this.foot.task(c.idle.name);
      c.cpl = 0;
    }
    this.idle = this.cpu.idle;
    this.current = this.idle;
    this.tickPhase = tickPhaseOf(config.seed, this.cyclesPerTick);
    for (const c of this.cpus) this.scheduleEvent(nextTickAfter(this, 0, c), "timer", () => do_timer(this, c), c);
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

  /** API 2.2: resched_curr(cpu_rq(c)) (smp.ts). */
  resched_cpu(c: Cpu): void {
    resched_cpu(this, c);
  }

  /** API 2.2: is_cpu_allowed (smp.ts). */
  is_cpu_allowed(t: Task, c: Cpu): boolean {
    return is_cpu_allowed(this, t, c);
  }

  // ---- paths (path-table.ts) and counting ------------------------------------------------------

  /** Path by name (compiled for this profile, cached). */
  path(name: string): CompiledPath {
    return this.table.get(name);
  }

  run(name: string | PathRef): void {
    this.ex.run(typeof name === "string" ? this.table.get(name) : this.table.resolve(name));
  }

  /** API 2.2: a handle of path `name`, valid in this kernel only (PathTable.handle). */
  pathHandle(name: string): PathRef {
    return this.table.handle(name);
  }

  runN(name: string | PathRef, n: number): void {
    this.ex.runN(typeof name === "string" ? this.table.get(name) : this.table.resolve(name), n);
  }

  /**
   * @internal `run` for the core's own call sites, which pass only path-refs.ts handles: the
   * resolved path without run's check of what a plugin may pass (a miss still resolves through it).
   */
  runRef(r: PathRef): void {
    this.ex.run(this.table.compiled(r));
  }

  /** @internal `runN` for the core's own call sites (see runRef). */
  runNRef(r: PathRef, n: number): void {
    this.ex.runN(this.table.compiled(r), n);
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

  /** Deterministic PRNG (xorshift32, lib/random32.ts) seeded from the experiment. */
  random(): number {
    return this.rng.next();
  }

  // ---- budgets (budget.ts) ---------------------------------------------------------------------

  /** workload steps (API calls) so far */
  get steps(): number {
    return this.budget.steps;
  }

  /** a violation that ends the run (see stopWith) */
  get stopError(): SimError | null {
    return this.budget.stopError;
  }

  setCancelCheck(f: (() => boolean | string) | undefined): void {
    this.budget.setCancelCheck(f);
  }

  /** Ends the run with an error at the next step (RunBudget.stopWith). */
  stopWith(kind: string, message: string): void {
    this.budget.stopWith(this, kind, message);
  }

  /** One workload step (API call): enforces the step and cycle budgets and cancellation. */
  step(): void {
    this.budget.step(this);
  }

  // ---- tasks (fork.ts) -------------------------------------------------------------------------

  /** The address space whose page tables have this asid (null: none, e.g. swapper_pg_dir). */
  mmOfAsid(asid: number): AddressSpace<SignalFrameK> | null {
    for (const t of this.tasks.values()) if (t.mm.asid === asid) return t.mm;
    return null;
  }

  newAsid(): number {
    return this.nextAsid++;
  }

  // ---- the memory hierarchy (footprint.ts, memory-hierarchy.ts) ------------------------------

  /** where the kernel's objects lie in physical memory, for the caches (footprint.ts) */
  readonly foot: Footprint;
  private readonly memory: MemoryHierarchy;

  touch(r: Region, write = false): void {
    this.memory.touch(r, write);
  }

  copyTraffic(src: Region | null, dst: Region | null): void {
    this.memory.copyTraffic(src, dst);
  }

  // ---- time and interrupts (timer.ts, irq.ts) --------------------------------------------------

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

  /** True when an interrupt is due now (the runtime polls this at user-mode op boundaries). */
  interruptDue(): boolean {
    return this.ex.cycles >= this.ex.dueAt; // cycles >= nextEvent || cycles > syncAt
  }

  /** Cycles until the next event (user-mode work is split there). */
  cyclesToNextEvent(): number {
    // past the SMP horizon by a cycle at least, so that the run always moves on
    return Math.min(this.ex.nextEvent, this.ex.syncAt + 1) - this.ex.cycles;
  }

  // ---- run queue and wake-ups (sched.ts) -------------------------------------------------------

  /** The runnable tasks in run-queue order (an array view, made when read after a change; writing to it changes nothing). */
  get runqueue(): readonly Task[] {
    return this.runList.toArray();
  }

  /** nr_running: the tasks on the run queue */
  get nrRunning(): number {
    return this.runList.length;
  }

  /** try_to_wake_up: make `t` runnable; preempt the current task if it is idle. */
  wakeUp(t: Task): void {
    try_to_wake_up(this, t);
  }

  /** wake_up_process of a stopped task (a tracer's continue, detach or kill; SIGKILL). */
  wakeStopped(t: Task): void {
    wake_up_stopped(this, t);
  }

  // ---- findings and signal masks ---------------------------------------------------------------

  private readonly findingLog = new FindingLog();

  /** Record a finding; repeats of the same kind/task/register are folded into one with a count. */
  report(f: Finding): void {
    if (!this.findingLog.add(f, this.cycles)) this.count("findings.dropped");
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
