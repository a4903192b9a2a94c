/**
 * Run one RunSpec: resolve the CPU profile and the variant stack, assemble the kernel from the
 * container, evaluate the workload through the host's sandbox, drive the tasks, collect results.
 * Pure TypeScript: the same code runs in a Node worker (CLI) and in a Web Worker (app).
 */
import { Container, type ContainerModule } from "inversify";
import { checkServiceOwners, checkSyscallSlots, checkUnique, guardedModule, type Owners } from "../di/plugin-binding.js";
import { resolveProfile, type CpuProfileFile, type ResolvedProfile } from "@siglab/cpu-profiles";
import type { ParamValue, RunSpec } from "../common/experiment.js";
import { emptyResult } from "../common/empty-result.js";
import type { RunError, RunProgress, RunResult } from "../common/results.js";
import { asWorkload, createSiglabModule, type WorkloadDef } from "../api/runtime-module.js";
import { coreModule } from "../di/core-module.js";
import { KernelAssembly } from "../di/kernel-assembly.js";
import { PathRegistry } from "../exec/registry.js";
import { CORE_PATHS } from "../arch/i386/paths/index.js";
import { SMP_PATHS, SMP_SCHEDULE_TAIL_PATHS } from "../arch/i386/paths/smp.js";
import { smpKernelPath } from "../arch/i386/paths/smp-kernel.js";
import { smp_next_cpu, smp_sync_horizon } from "../kernel/smp.js";
import { SMP_OP_CLASS_IDS } from "@siglab/plugin-api";
import { Kernel } from "../kernel/kernel.js";
import type { KernelConfig } from "../kernel/core.js";
import { SimError } from "../kernel/sim-error.js";
import type { Gen } from "../kernel/yields.js";
import { __schedule, add_to_runqueue } from "../kernel/sched.js";
import { hasNonTimerEvents, idleUntilEvent } from "../kernel/irq.js";
import { copy_process } from "../kernel/fork.js";
import type { Task } from "../kernel/task.js";
import { checkApiVersion, checkConflicts, resolveOptions, PluginError, type LoadedPlugin } from "../plugin-api/loaded-plugin.js";
import { Collector } from "../runtime/collector.js";
import { LoopRecorder } from "../runtime/loops.js";
import { syscallCounterName } from "../arch/i386/entry.js";
import { TaskExit } from "../kernel/exit.js";
import type { ThreadBody } from "../runtime/thread.js";
import { threadFacade } from "../runtime/facade.js";
import { thrownMessage } from "../runtime/sanitize.js";
import { paramValue } from "../common/param-values.js";
import { culprit } from "../host/blame.js";
import { isHostThrown, markHostThrown } from "../common/host-thrown.js";
import { ThreadImpl, type RuntimeShared } from "../runtime/thread.js";

export interface RunEnvironment {
  profiles: CpuProfileFile[];
  plugins: LoadedPlugin[];
  /** TypeScript -> JavaScript (CommonJS: `require("siglab")`, `exports.default`) */
  transpile(ts: string, file: string): string;
  /**
   * Evaluate the JavaScript in the host's sandbox with `require("siglab")` = siglabModule; returns
   * module.exports. `seed` seeds whatever randomness the sandbox offers (Math.random).
   */
  evaluate(js: string, file: string, siglabModule: Record<string, unknown>, ctx: { seed: number }): unknown;
  onProgress?(p: RunProgress): void;
  /** polled between steps: true (cancelled) or a reason to stop (e.g. a memory budget) */
  shouldCancel?(): boolean | string;
  /** The host's budget supervisor: foreign module code is evaluated, then the simulation runs. */
  onPhase?(phase: "evaluate" | "simulate"): void;
  /**
   * The equivalence oracle's reference mode: no fast paths (every kernel path steps op by op). A
   * test setting, not part of a RunSpec: a run's results must not depend on it.
   */
  exactPaths?: boolean;
}

export const DEFAULT_BUDGET = { maxCycles: 2e12, maxSteps: 200_000_000 };

class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    markHostThrown(this);
  }
}

function pickProfile(env: RunEnvironment, extra: CpuProfileFile[], spec: RunSpec): ResolvedProfile {
  // plugin-contributed profiles first, so a plugin may shadow nothing silently: ids must be unique
  const files = [...extra, ...env.profiles];
  const f = files.find((p) => p.id === spec.cpu.id);
  if (!f) {
    const ids = files.map((p) => p.id);
    throw new ConfigError(`unknown CPU profile '${spec.cpu.id}' (available: ${ids.join(", ")})`);
  }
  // a clock of 0 asks for the profile's default (e.g. a profile a plugin contributes, unknown before the run)
  return resolveProfile(f, spec.cpu.mhz > 0 ? spec.cpu.mhz : undefined);
}

function pickPlugins(env: RunEnvironment, spec: RunSpec): { plugin: LoadedPlugin; options: Record<string, ParamValue> }[] {
  const twice = spec.variants.find((v, i) => spec.variants.findIndex((w) => w.id === v.id) !== i);
  if (twice) throw new PluginError(`plugin '${twice.id}' appears twice in the variant stack`);
  const out = spec.variants.map((v) => {
    const plugin = env.plugins.find((p) => p.manifest.id === v.id);
    if (!plugin) throw new PluginError(`unknown plugin '${v.id}' (available: ${env.plugins.map((p) => p.manifest.id).join(", ") || "none"})`);
    checkApiVersion(plugin.manifest);
    return { plugin, options: resolveOptions(plugin.manifest, v.options) };
  });
  checkConflicts(out.map((o) => o.plugin.manifest));
  checkServiceOwners(out.map((o) => o.plugin.manifest));
  return out;
}

function evaluateWorkload(env: RunEnvironment, spec: RunSpec): WorkloadDef {
  const js = env.transpile(spec.workload.source, spec.workload.file);
  env.onPhase?.("evaluate");
  const mod = env.evaluate(js, spec.workload.file, createSiglabModule(), { seed: spec.seed });
  const def = asWorkload(mod, spec.workload.file);
  env.onPhase?.("simulate");
  return def;
}

/**
 * A task's user-mode program in stages — ret_from_fork (a forked child), the body, exit() with
 * what the body returned — that resume() steps one after the other (Task.gen, then Task.genNext)
 * instead of one generator that yield*s them: every resume and every switch out of every task then
 * passes one generator level fewer (a kernel switch is a yield through the whole stack).
 */
function startProgram(task: Task, th: ThreadImpl, body: ThreadBody, fromFork: boolean): void {
  const exit = (rv: unknown): Gen<unknown> => th.exit(typeof rv === "number" ? rv : 0);
  const run = (): Gen<unknown> => {
    task.genNext = exit;
    return asIterator(body(th));
  };
  task.gen = fromFork ? th.retFromFork() : null;
  task.genNext = run;
}

/**
 * The body's result as resume() steps it: a generator as it is; anything else (a thread body that
 * is no generator function) through yield*, which is what a generator yield*ing it would see.
 */
function asIterator(g: Gen<unknown>): Gen<unknown> {
  if (Object.prototype.toString.call(g) === "[object Generator]") return g;
  return (function* () {
    return yield* g;
  })();
}

function alive(k: Kernel): Task[] {
  return [...k.tasks.values()].filter((t) => t.state === "running" || t.state === "interruptible");
}

export function runWorkload(spec: RunSpec, env: RunEnvironment): RunResult {
  const started: RunResult = emptyResult(spec);
  let k: Kernel | undefined;
  const loops = new LoopRecorder();
  const collector = new Collector((f) => {
    if (k) env.onProgress?.({ fraction: f, cycles: k.cycles, steps: k.steps });
  });
  try {
    checkSeed(spec.seed);
    // --- the variant stack, wired into one container ---------------------------------------
    const stack = pickPlugins(env, spec);
    const container = new Container({ jitless: true });
    container.load(coreModule);
    const owners: Owners = new WeakMap();
    for (const { plugin, options } of stack) {
      let m: ContainerModule;
      try {
        m = plugin.module(options);
      } catch (e) {
        throw new PluginError(`plugin '${plugin.manifest.id}' failed to load: ${hostError(e)?.message ?? thrownMessage(e)}`);
      }
      // loading runs the plugin's module: a refusal names the plugin and the point already
      container.load(guardedModule(plugin.manifest, m, owners));
    }
    container.bind(KernelAssembly).toSelf();
    const a = container.get(KernelAssembly);
    const syscalls = a.syscalls.getContributions();
    checkUnique(syscalls, (s) => s.nr, "system call number", owners);
    checkSyscallSlots(syscalls, owners);
    checkUnique(a.libcs.getContributions(), (l) => l.id, "libc model", owners);
    const profile = pickProfile(env, a.profiles.getContributions().flatMap((c) => c.profiles()), spec);
    const ncpus = checkSmp(spec.cpu.smp, profile);
    started.cpu = ncpus > 1 ? { id: profile.id, mhz: profile.mhz, smp: ncpus } : { id: profile.id, mhz: profile.mhz };
    const refusal = a.entry.checkCpu(profile);
    if (refusal) throw new PluginError(refusal);

    // --- the workload ----------------------------------------------------------------------
    const def = evaluateWorkload(env, spec);
    const params: Record<string, number | string | boolean> = { ...(def.params ?? {}) };
    for (const [key, v] of Object.entries(spec.params)) {
      if (!Object.prototype.hasOwnProperty.call(params, key)) throw new ConfigError(`${spec.workload.file}: unknown parameter '${key}' (parameters: ${Object.keys(params).join(", ") || "none"})`);
      const checked = paramValue(spec.workload.file, key, params[key]!, v);
      if ("problem" in checked) throw new ConfigError(checked.problem);
      params[key] = checked.value;
    }
    started.params = params;
    const libcId = def.libc ?? "glibc-2.2";
    const libc = a.libcs.getContributions().find((l) => l.id === libcId);
    if (!libc) throw new ConfigError(`${spec.workload.file}: unknown libc model '${libcId}' (libc models: ${a.libcs.getContributions().map((l) => l.id).join(", ")}; a plugin of the variant stack may add others)`);

    // --- the kernel -------------------------------------------------------------------------
    const hz = def.hz ?? 100;
    const config: KernelConfig = {
      hz,
      timesliceTicks: Math.max(1, Math.round((6 * hz) / 100)),
      maxCycles: spec.budget?.maxCycles ?? DEFAULT_BUDGET.maxCycles,
      maxSteps: spec.budget?.maxSteps ?? DEFAULT_BUDGET.maxSteps,
      seed: spec.seed,
      timeline: spec.timeline === true,
      cpus: ncpus,
    };
    k = new Kernel(
      profile,
      config,
      {
        entry: a.entry,
        signalFpu: a.signalFpu,
        switchFpu: a.switchFpu,
        maskStore: a.maskStore,
        scheduler: a.scheduler,
        blockDevice: a.blockDevice,
        syscalls,
        fpuTrapHooks: a.fpuTrapHooks.getContributions(),
        pageFaultHooks: a.pageFaultHooks.getContributions(),
        baseline: a.baseline,
        userSigmask: a.userSigmask.getContributions()[0] ?? null,
      },
      (phases) => {
        const reg = new PathRegistry(phases, profile);
        reg.defineAll(CORE_PATHS);
        if (ncpus > 1) reg.defineAll([...SMP_PATHS, ...SMP_SCHEDULE_TAIL_PATHS]);
        for (const c of a.paths.getContributions()) reg.defineAll(c.paths());
        for (const c of a.transforms.getContributions()) for (const t of c.transforms()) reg.applyTransform(t);
        // CONFIG_SMP: every lock and atomic of every kernel path is lock-prefixed
        if (ncpus > 1) reg.rebuildAll(smpKernelPath);
        reg.compileAll();
        return reg;
      },
    );
    k.variantIds.push(...stack.map((s) => s.plugin.manifest.id));
    if (ncpus > 1) k.ex.timelineCpus = true;
    if (spec.timelineLimit !== undefined) k.ex.timelineLimit = checkTimelineLimit(spec.timelineLimit);
    k.setCancelCheck(env.shouldCancel);
    if (env.exactPaths) k.ex.exact = true;
    for (const c of a.checkers.getContributions()) c.attach(k);
    for (const s of a.setups.getContributions()) {
      const by = owners.get(s);
      k.setupBy = by === undefined ? null : `plugin '${by}'`;
      s.setup(k);
    }
    k.setupBy = null;
    const kernel = k;

    const shared: RuntimeShared = {
      k,
      collector,
      loops,
      params: Object.freeze(params),
      threads: a.threads,
      libc,
      memcpySeq: 0,
      userStructs: new WeakMap(),
      spawn(_parent, task, body, fromFork) {
        const th = new ThreadImpl(shared, task);
        startProgram(task, th, body, fromFork);
        add_to_runqueue(kernel, task);
        // do_fork's wake_up_process: on UP the child never preempts (its goodness equals the
        // parent's, both with half the counter); on SMP reschedule_idle finds it an idle CPU
        if (kernel.ncpus > 1 && kernel.current !== kernel.idle) kernel.deps.scheduler.reschedule_idle(kernel, task);
      },
    };
    const init = copy_process(k, null, { shareVm: false, shareSighand: false, name: def.name || spec.workload.id });
    const mainBody: ThreadBody = (t) => def.main(threadFacade(t), shared.params as Record<string, number | string | boolean>) as Gen<unknown>;
    shared.spawn(new ThreadImpl(shared, init), init, mainBody, false);
    if (ncpus > 1) driveSmp(k);
    else drive(k);
  } catch (e) {
    // from here on workload code may not act (an error's getters must not run the simulation on)
    if (k) k.stopped = true;
    started.error = toRunError(e, spec, k, thirdPartyOrigins(env));
  }
  // nothing foreign code left behind (a promise job) may add to the results any more
  collector.close();
  if (k) {
    k.stopped = true;
    k.events.emit("run.end");
    collector.finish();
    started.metrics = collector.metrics;
    started.totalCycles = k.elapsedCycles;
    started.simSeconds = k.elapsedCycles / (k.profile.mhz * 1e6);
    for (let i = 0; i < k.phases.names.length; i++) {
      const c = k.ex.phaseCycles[i];
      if (c) started.phases[k.phases.names[i]!] = c;
    }
    for (let nr = 0; nr < k.syscallCounts.length; nr++) if (k.syscallCounts[nr]) k.count(syscallCounterName(k, nr), k.syscallCounts[nr]);
    k.foldTallies();
    const counters: Record<string, number> = {};
    for (const key of Object.keys(k.counters).sort()) counters[key] = k.counters[key]!;
    counters["tlb.misses.total"] = k.cpus.reduce((n, c) => n + c.tlb.misses, 0);
    // a timeline is bounded: say how much of it is missing rather than stop without a word
    if (k.ex.timelineDropped) counters["timeline.dropped"] = k.ex.timelineDropped;
    started.counters = counters;
    started.findings = k.findings;
    started.paths = k.paths.all().filter((p) => p.count > 0).map((p) => p.stat(k!.phases.names));
    if (k.ex.timeline) started.timeline = k.ex.timeline;
    const named = loops.stats(k.phases.names);
    if (named.length) started.loops = named;
    if (collector.log.length) (started as RunResult & { log?: string[] }).log = collector.log;
  } else {
    started.metrics = collector.metrics;
  }
  return started;
}

/** The run loop: resume the current task's generator; idle until an event when nothing runs. */
function drive(k: Kernel): void {
  __schedule(k); // from the idle task to init
  for (;;) {
    const cur = k.current;
    if (cur === k.idle) {
      const live = alive(k);
      if (!live.length) return;
      const canWake = k.nrRunning > 0 || hasNonTimerEvents(k) || live.some((t) => t.timeoutAt >= 0);
      if (!canWake) {
        throw new SimError("deadlock", `deadlock: every task is asleep and nothing can wake them (${live.map((t) => `pid ${t.pid} in ${String(t.waitingOn ?? "sleep")}`).join(", ")})`);
      }
      if (!k.nrRunning) idleUntilEvent(k);
      if (k.ex.cycles > k.config.maxCycles) throw new SimError("budget", `cycle budget exhausted: ${k.ex.cycles} > ${k.config.maxCycles} simulated cycles`);
      if (k.nrRunning) __schedule(k);
      continue;
    }
    resume(k, cur);
  }
}

/**
 * The SMP machine: N CPUs of one profile under the 2.4 SMP kernel. Runs until every task exited;
 * the CPU furthest behind always goes next (smp.ts).
 */
function driveSmp(k: Kernel): void {
  __schedule(k); // CPU 0 boots into init; the others idle until reschedule_idle sends them work
  for (;;) {
    const c = smp_next_cpu(k);
    if (!c) throw new SimError("internal", "no CPU can act and tasks are alive");
    k.useCpu(c);
    k.ex.syncAt = smp_sync_horizon(k);
    if (k.ex.cycles > k.config.maxCycles) throw new SimError("budget", `cycle budget exhausted: ${k.ex.cycles} > ${k.config.maxCycles} simulated cycles`);
    const cur = k.current;
    if (cur === k.idle) {
      const live = alive(k);
      if (!live.length) return idleToTheEnd(k);
      if (k.cpus.every((p) => k.currentOf(p) === p.idle && !p.idle.needResched) && !k.nrRunning && !hasNonTimerEvents(k) && !live.some((t) => t.timeoutAt >= 0)) {
        throw new SimError("deadlock", `deadlock: every task is asleep and nothing can wake them (${live.map((t) => `pid ${t.pid} in ${String(t.waitingOn ?? "sleep")}`).join(", ")})`);
      }
      // cpu_idle: hlt until an interrupt; then schedule() if someone asked (reschedule_idle)
      if (!cur.needResched || c.queue.some((e) => e.kind === "ipi")) idleUntilEvent(k);
      if (cur.needResched) __schedule(k);
      continue;
    }
    resume(k, cur);
  }
}

/** At the end of an SMP run every CPU has been idle up to the last one's clock (the machine's time). */
function idleToTheEnd(k: Kernel): void {
  const end = k.elapsedCycles;
  const idle = k.path("idle").phaseIdx;
  for (const c of k.cpus) {
    k.useCpu(c);
    if (k.ex.cycles < end) k.ex.chargeRaw(idle, end - k.ex.cycles);
  }
}

/** --smp: 1 to 8 CPUs, and a profile that gives the SMP costs (IPIs, cache-line transfers). */
function checkSmp(smp: unknown, profile: ResolvedProfile): number {
  if (smp === undefined) return 1;
  if (typeof smp !== "number" || !Number.isInteger(smp) || smp < 1 || smp > MAX_CPUS) throw new ConfigError(`smp must be an integer from 1 to ${MAX_CPUS} (CPUs of the machine), got ${String(smp)}`);
  if (smp > 1) {
    const missing = SMP_OP_CLASS_IDS.filter((op) => !Number.isFinite(profile.costs[op]));
    if (missing.length) throw new ConfigError(`CPU profile '${profile.id}' gives no cost for ${missing.join(", ")}: it cannot run an SMP machine (smp ${smp})`);
  }
  return smp;
}

const MAX_CPUS = 8;

/** RunSpec.timelineLimit: 1 to 10,000,000 events (a timeline is held in memory). */
function checkTimelineLimit(n: unknown): number {
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 10_000_000) throw new ConfigError(`timelineLimit must be an integer from 1 to 10000000 (timeline events), got ${String(n)}`);
  return n;
}

/** Resume the current task's code until it yields to the run loop (or exits). */
function resume(k: Kernel, cur: Task): void {
  let gen = cur.gen;
  let value: unknown;
  for (;;) {
    try {
      if (gen) {
        const r = gen.next();
        if (k.stopError) throw k.stopError;
        if (!r.done) return;
        value = r.value;
      }
      // the stage ended (or none started yet): the next one runs at once, as after a yield*
      const next = cur.genNext;
      if (!next) throw new SimError("internal", gen ? `task ${cur.pid} returned without exit()` : `task ${cur.pid} has no code to run`);
      cur.genNext = null;
      gen = cur.gen = next(value);
    } catch (e) {
      if (isTaskExit(e) && !k.stopError) return;
      throw k.stopError ?? e;
    }
  }
}

/** A seed is an unsigned 32-bit integer (it seeds xorshift32 generators). */
export function checkSeed(seed: unknown): void {
  if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new ConfigError(`seed must be an unsigned 32-bit integer (0..4294967295), got ${typeof seed === "number" ? seed : typeof seed}`);
  }
}

function toRunError(e: unknown, spec: RunSpec, k: Kernel | undefined, plugins: ReadonlyMap<string, string>): RunError {
  const cycle = k?.cycles;
  const task = k && k.current !== k.idle ? k.current.pid : undefined;
  const own = hostError(e);
  if (own instanceof SimError) {
    const err: RunError = { kind: own.kind, message: own.message, file: spec.workload.file };
    if (cycle !== undefined) err.cycle = cycle;
    const tid = own.task ?? task;
    if (tid !== undefined) err.task = tid;
    return err;
  }
  if (own instanceof PluginError) return { kind: "plugin", message: own.message };
  if (own instanceof ConfigError) return { kind: "config", message: own.message, file: spec.workload.file };
  const msg = thrownMessage(e);
  const who = culprit(e, plugins, spec.workload.file);
  if (who?.kind === "plugin") {
    const err: RunError = { kind: "plugin", message: `plugin '${who.id}' threw${who.fn ? ` in ${who.fn}` : ""} (${who.file}:${who.line}:${who.column})${cycle !== undefined ? ` at cycle ${cycle}` : ""}: ${msg}`, file: who.file, line: who.line, column: who.column };
    if (cycle !== undefined) err.cycle = cycle;
    if (task !== undefined) err.task = task;
    return err;
  }
  const err: RunError = { kind: k ? "workload" : "config", message: k ? `${spec.workload.file}: task ${task ?? "?"} threw at cycle ${cycle}: ${msg}` : msg, file: spec.workload.file };
  if (who) {
    err.line = who.line;
    err.column = who.column;
  }
  if (cycle !== undefined) err.cycle = cycle;
  if (task !== undefined) err.task = task;
  return err;
}

/** Folders of the third-party plugins a run may load (their frames name them in errors). */
function thirdPartyOrigins(env: RunEnvironment): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of env.plugins) if (!p.builtin && p.origin) m.set(p.origin, p.manifest.id);
  return m;
}

/** Asked without touching the value (a thrown proxy's traps must not run inside the run loop). */
function isTaskExit(e: unknown): boolean {
  return isHostThrown(e) && e instanceof TaskExit;
}

/** `e` if it is one of the simulator's own errors (asked without running a thrown proxy's traps). */
function hostError(e: unknown): SimError | PluginError | ConfigError | null {
  if (!isHostThrown(e)) return null;
  return e instanceof SimError || e instanceof PluginError || e instanceof ConfigError ? e : null;
}
