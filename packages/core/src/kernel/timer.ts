/**
 * The timer interrupt and time (kernel/timer.c: do_timer, update_process_times, the timer list;
 * arch/i386/kernel/time.c and apic.c: IRQ0 and the local APIC timers). Ticks come every
 * cyclesPerTick at a phase drawn from the run's seed; schedule_timeout sleeps end on a tick.
 */
import type { KernelCore } from "./core.js";
import type { Cpu } from "./cpu.js";
import { EV } from "./events.js";
import { pathRefs } from "./path-refs.js";
import { schedule } from "./sched.js";
import type { Task } from "./task.js";
import type { Gen } from "./yields.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["sys_nanosleep"]);

/** (sqrt(5) - 1) / 2: consecutive multiples are as evenly spread over [0, 1) as any sequence can be */
const GOLDEN_RATIO_FRACTION = 0.6180339887498949;

/**
 * Where the run starts within a timer period. A real process starts at a random phase of the
 * tick, so which ticks land in a measured loop varies from run to run; seed s starts at phase
 * frac((s - 1) * golden ratio): seed 1 on a tick boundary, consecutive seeds (--repeat) spread
 * evenly over the period (a Weyl sequence).
 */
export function tickPhaseOf(seed: number, cyclesPerTick: number): number {
  return Math.floor(((((seed >>> 0) - 1) * GOLDEN_RATIO_FRACTION) % 1 + 1) % 1 * cyclesPerTick);
}

/**
 * The local timer of CPU `c` is skewed by (c + 1)/(n + 1) of a period on SMP (setup_APIC_timer
 * spreads the CPUs' ticks so their interrupts do not collide); the UP kernel's tick is IRQ0's.
 */
function tickSkew(k: KernelCore, c: Cpu): number {
  return k.ncpus > 1 ? Math.floor((k.cyclesPerTick * (c.id + 1)) / (k.ncpus + 1)) : 0;
}

/** The first timer tick after cycle `c` (ticks come every cyclesPerTick, at tickPhase). */
export function nextTickAfter(k: KernelCore, c: number, cpu: Cpu = k.cpu): number {
  const cpt = k.cyclesPerTick;
  const phase = k.tickPhase + tickSkew(k, cpu);
  return phase + (Math.floor((c - phase) / cpt) + 1) * cpt;
}

/** schedule_timeout's wake-up: the first tick at or after `at`. */
export function tickAtOrAfter(k: KernelCore, at: number): number {
  const cpt = k.cyclesPerTick;
  // the timer list runs on CPU 0's tick
  const phase = k.tickPhase + tickSkew(k, k.cpus[0]!);
  return phase + Math.ceil((at - phase) / cpt) * cpt;
}

/** schedule_timeout sleeps are tick based: wake at the first tick at or after the deadline. */
export function roundUpToTick(k: KernelCore, at: number): number {
  return tickAtOrAfter(k, at);
}

/**
 * IRQ0's do_timer: the next tick, expired timeouts, the Scheduler's timeslice accounting. On SMP
 * each CPU's local APIC timer runs update_process_times for its own current task; the global
 * part (jiffies, the timer list) runs on CPU 0's.
 */
export function do_timer(k: KernelCore, c: Cpu): void {
  k.scheduleEvent(nextTickAfter(k, k.ex.cycles, c), "timer", () => do_timer(k, c), c);
  const t = k.current;
  // wake sleepers whose timeout expired (schedule_timeout is tick based)
  if (c.id === 0) for (const s of k.tasks.values()) {
    if (s.state === "interruptible" && s.timeoutAt >= 0 && s.timeoutAt <= k.ex.cycles) {
      s.timeoutAt = -1;
      s.wakeReason = "timeout";
      k.wakeUp(s);
    }
  }
  k.deps.scheduler.update_process_times(k, t);
  k.events.fire(EV.tick, t);
}

/** sys_nanosleep: schedule_timeout until the tick at or after the deadline; -EINTR when a signal woke it first. */
export function* sys_nanosleep(k: KernelCore, t: Task, ns: number): Gen<number> {
  k.runRef(P["sys_nanosleep"]);
  t.timeoutAt = roundUpToTick(k, k.cycles + Math.ceil((ns * k.profile.mhz) / 1000));
  t.state = "interruptible";
  t.wakeReason = "";
  yield* schedule(k);
  const interrupted = t.timeoutAt >= 0;
  t.timeoutAt = -1;
  return interrupted ? -4 : 0;
}
