/**
 * schedule(), switch_mm, the run queue, wake-ups and sched_yield of Linux 2.4 (kernel/sched.c).
 * Which task runs next is the run's Scheduler's choice (an extension point); the baseline one is
 * 2.4's goodness().
 */
import { EV } from "./events.js";
import { TALLY } from "./tallies.js";
import type { Scheduler } from "@siglab/plugin-api";
import { PAGE_SHIFT } from "../machine/memory.js";
import { Tlb } from "../machine/tlb.js";
import { __switch_to } from "../arch/i386/process.js";
import type { KernelCore } from "./core.js";
import { SimError } from "./sim-error.js";
import { SWITCH } from "./yields.js";
import { ownTask } from "./own.js";
import { canSchedule, cpuVmMask, PROC_CHANGE_PENALTY, reschedule_idle_smp, setCpuVmMask } from "./smp.js";
import { Task } from "./task.js";
import { pathRefs } from "./path-refs.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["__schedule_tail", "__schedule_tail.resched", "goodness", "handler.tlb_refill", "recalculate_counters", "recalculate_counters.task", "schedule", "schedule.finish", "schedule.switch", "switch_mm", "sys_sched_yield", "sys_sched_yield.yield", "try_to_wake_up", "user_tlb_refill"]);

/** SMP: lines of a task_struct the wake-up and schedule() write (state, run_list, counter, processor, need_resched). */
export const TASK_STRUCT_LINES = 2;

/**
 * Linux 2.4's scheduling policy, the baseline Scheduler: schedule()'s goodness() loop over the
 * run queue, recalculate_counters when every runnable task used its slice, the timer tick's
 * counter-- (update_process_times) and try_to_wake_up's preemption test (reschedule_idle).
 */
export class Goodness24Scheduler implements Scheduler {
  readonly id = "core:goodness-2.4";

  /** 2.4 goodness(): -1 for a yielder, else counter (+1 same mm) + 20 - nice; 0 when counter is 0. */
  goodness(p: Task, prev: Task): number {
    if (p.sched_yield) return -1;
    if (p.counter === 0) return 0;
    return p.counter + (p.mm === prev.mm ? 1 : 0) + 20 - p.nice;
  }

  /** for_each_task: p->counter = (p->counter >> 1) + NICE_TO_TICKS(p->nice) */
  recalculate_counters(k: KernelCore): void {
    k.runRef(P["recalculate_counters"]);
    // for_each_task walks the whole task list (the idle task, init_task, included)
    k.runNRef(P["recalculate_counters.task"], k.tasks.size + 1);
    for (const t of k.tasks.values()) t.counter = (t.counter >> 1) + k.config.timesliceTicks;
  }

  /** SMP goodness(p, this_cpu, this_mm): + PROC_CHANGE_PENALTY on the CPU the task last ran on. */
  goodnessOn(p: Task, cpuId: number, mm: Task["mm"]): number {
    if (p.sched_yield) return -1;
    if (p.counter === 0) return 0;
    return p.counter + (p.processor === cpuId ? PROC_CHANGE_PENALTY : 0) + (p.mm === mm ? 1 : 0) + 20 - p.nice;
  }

  /** The best goodness on the run queue (the first of equals); idle when the queue is empty. */
  pick_next_task(k: KernelCore, prev: Task): Task {
    let next: Task = k.idle;
    let c = -1000;
    const smp = k.ncpus > 1;
    const head = k.runList.head;
    for (;;) {
      k.runNRef(P["goodness"], k.nrRunning); // one goodness() evaluation per runnable task
      // list_for_each(tmp, &runqueue_head)
      for (let n = head.next; n !== head; n = n.next) {
        const p = n.task!;
        // goodness() reads p->counter, nice, policy, mm, processor: every runnable task's first lines
        if (p.mem !== null) k.touch(p.mem.fields.goodness);
        // SMP: can_schedule skips a task another CPU runs
        if (smp && !canSchedule(k, p)) continue;
        const w = smp ? this.goodnessOn(p, k.cpu.id, prev.mm) : this.goodness(p, prev);
        if (w > c) {
          c = w;
          next = p;
        }
      }
      if (c !== 0) return next;
      // every runnable task used its slice: recalculate all counters
      this.recalculate_counters(k);
      c = -1000;
    }
  }

  /** update_process_times: the interrupted task's slice shrinks by a tick (not the idle task's) */
  update_process_times(k: KernelCore, p: Task): void {
    if (p !== k.idle && --p.counter <= 0) {
      p.counter = 0;
      p.needResched = true;
    }
  }

  /**
   * reschedule_idle on UP: preemption_goodness(current, p) = goodness(p) - goodness(current), both
   * against current's mm (so current gets the same-mm bonus and p gets it only when it shares the
   * mm); the idle task always gives way.
   */
  reschedule_idle(k: KernelCore, p: Task): void {
    if (k.ncpus > 1) return reschedule_idle_smp(k, p, (q, cpu, mm) => this.goodnessOn(q, cpu.id, mm));
    const cur = k.current;
    if (cur === k.idle || this.goodness(p, cur) - this.goodness(cur, cur) > 0) cur.needResched = true;
  }
}

// ---- the run queue (runqueue_head, the tasks' run_list) and wake-ups --------------------------

/** task_on_runqueue */
export function task_on_runqueue(k: KernelCore, t: Task): boolean {
  return k.runList.has(t.run_list);
}

/** add_to_runqueue (at the tail, as this kernel has always queued a woken task); no-op when queued */
export function add_to_runqueue(k: KernelCore, t: Task): void {
  if (!k.runList.has(t.run_list)) k.runList.addTail(t.run_list);
}

/** del_from_runqueue: list_del; no-op when not queued */
export function del_from_runqueue(k: KernelCore, t: Task): void {
  if (k.runList.has(t.run_list)) k.runList.del(t.run_list);
}

/** move_last_runqueue: list_del + list_add_tail */
export function move_last_runqueue(k: KernelCore, t: Task): void {
  del_from_runqueue(k, t);
  k.runList.addTail(t.run_list);
}

/** try_to_wake_up: make `t` runnable; preempt the current task if it is idle. */
export function try_to_wake_up(k: KernelCore, t: Task): void {
  if (t.state !== "interruptible" || t.stopped) return;
  k.run(P["try_to_wake_up"]);
  // SMP: runqueue_lock and the woken task_struct were last written on other CPUs
  k.lines.touch(k, k.runList.head, 1);
  k.lines.touch(k, t, TASK_STRUCT_LINES);
  t.state = "running";
  t.waitingOn = null;
  add_to_runqueue(k, t);
  // reschedule_idle: whether the woken task preempts the current one is the Scheduler's call
  k.deps.scheduler.reschedule_idle(k, t);
}

/** wake_up_process of a stopped task (a tracer's continue, detach or kill; SIGKILL). */
export function wake_up_stopped(k: KernelCore, t: Task): void {
  if (!t.stopped) return;
  t.stopped = false;
  try_to_wake_up(k, t);
}

/** The run's Scheduler's choice: a task on the run queue, or the idle task; anything else is refused. */
function pickNextTask(k: KernelCore, prev: Task): Task {
  const s = k.deps.scheduler;
  // read once: what runs is what is compared (a Proxy could answer differently the second time)
  const pick = s.pick_next_task;
  const next = ownTask(pick.call(s, k, prev));
  // every Scheduler's choice is checked, 2.4's own too: membership of the run list is O(1)
  if (next !== k.idle && !(next instanceof Task && task_on_runqueue(k, next))) {
    const what = next instanceof Task ? `task ${next.pid} (${next.state})` : "something that is not a task";
    throw new SimError("plugin", `the Scheduler '${String(s.id)}' picked ${what}, which is not on the run queue`);
  }
  if (next !== prev && !canSchedule(k, next)) throw new SimError("plugin", `the Scheduler '${String(s.id)}' picked task ${next.pid}, which another CPU is running`);
  return next;
}

/**
 * The synchronous part of schedule(): pick next, switch to it. Returns the task now current.
 * Callers in generator context use `yield* schedule(k)`.
 */
export function __schedule(k: KernelCore): Task {
  const prev = k.current;
  k.runRef(P["schedule"]);
  k.lines.touch(k, k.runList.head, 1); // runqueue_lock (SMP: last taken on another CPU)
  if (prev !== k.idle && prev.state === "interruptible" && prev.sigpending && !prev.stopped) prev.state = "running"; // TASK_STOPPED is not woken by signals
  if (prev !== k.idle && prev.state !== "running") del_from_runqueue(k, prev);
  prev.needResched = false;
  let next = pickNextTask(k, prev);
  // prev keeps the CPU when nothing else can run, unless it may no longer run here (cpus_allowed)
  if (next === k.idle && prev !== k.idle && prev.state === "running" && (k.ncpus === 1 || (prev.cpusAllowed & (1 << k.cpu.id)) !== 0)) next = prev;
  k.runRef(P["schedule.finish"]);
  const yielded = prev.sched_yield;
  prev.sched_yield = false;
  if (next === prev) return prev;
  next.processor = k.cpu.id;
  k.lines.touch(k, next, TASK_STRUCT_LINES);
  k.cpu.lastSchedule = k.cycles; // sched_data->last_schedule = get_cycles() (SMP)
  k.runRef(P["schedule.switch"]);
  contextSwitch(k, prev, next);
  // the post-switch tail is the Scheduler's when it has one (its kernel's: 6.x has no
  // __schedule_tail), else 2.4's
  const s = k.deps.scheduler;
  if (typeof s.schedule_tail === "function") s.schedule_tail(k, prev, yielded);
  else if (k.ncpus > 1) __schedule_tail(k, prev, yielded);
  return next;
}

/**
 * __schedule_tail (SMP, Linux 2.4): a task switched out while still runnable (preempted, not
 * yielding) may go to another CPU at once: reschedule_idle finds it an idle one. The core runs it
 * after every switch on SMP unless the run's Scheduler has its own schedule_tail.
 */
export function __schedule_tail(k: KernelCore, prev: Task, yielded: boolean): void {
  k.runRef(P["__schedule_tail"]);
  if (prev === k.cpus[prev.processor]?.idle || yielded || prev.state !== "running" || prev.stopped) return;
  k.runRef(P["__schedule_tail.resched"]);
  k.deps.scheduler.reschedule_idle(k, prev);
}

/** switch_mm (include/asm-i386/mmu_context.h, inlined in schedule()), then switch_to (arch/i386/process.ts) */
export function contextSwitch(k: KernelCore, prev: Task, next: Task): void {
  k.tally(TALLY.sched_switches);
  touchSwitch(k, prev, next);
  k.events.fire(EV["switch.out"], prev);
  if (next === k.idle) {
    // kernel threads (idle) borrow the previous mm: no CR3 load (enter_lazy_tlb on SMP)
    k.cpu.tlbLazy = true;
  } else {
    k.cpu.tlbLazy = false;
    // switch_mm: a new mm, or (SMP) the same one after leave_mm took this CPU off it
    if (k.cpu.cr3 !== next.mm.asid) {
      if (k.ncpus > 1) {
        // clear_bit(cpu, &prev->cpu_vm_mask): no more flush IPIs for the mm this CPU leaves
        const old = k.mmOfAsid(k.cpu.cr3);
        if (old) setCpuVmMask(old, cpuVmMask(old) & ~(1 << k.cpu.id));
      }
      k.runRef(P["switch_mm"]);
      k.cpu.cr3 = next.mm.asid;
      if (k.pcid) k.count("tlb.pcid_switches"); // the entries are tagged with their address space: they stay
      else {
        k.cpu.tlb.flushAll();
        k.tally(TALLY.tlb_flushes);
      }
    }
    if (k.ncpus > 1) setCpuVmMask(next.mm, cpuVmMask(next.mm) | (1 << k.cpu.id));
  }
  __switch_to(k, prev, next);
  k.events.fire(EV["switch.in"], next);
}

/** schedule() from generator context: yields to the run loop when another task became current. */
export function* schedule(k: KernelCore): Generator<unknown, void, unknown> {
  const me = k.current;
  if (__schedule(k) === me) return;
  let resumed = false;
  try {
    yield SWITCH;
    resumed = true;
  } finally {
    switchedBack(k, me, resumed);
  }
}

/**
 * After `yield SWITCH` in schedule() (or a caller that writes schedule() out to save a generator
 * level, as ret_from_sys_call's loop does): only the run loop resumes a switched-out task, and
 * only when it is current again; a generator resumed (or returned/thrown into) by other code would
 * corrupt the kernel. Call it from the `finally` of the yield.
 */
export function switchedBack(k: KernelCore, me: Task, resumed: boolean): void {
  if (!resumed || k.current !== me) k.stopWith("workload", `task ${me.pid} was resumed out of turn (a simulated call stepped, returned or thrown into by hand)`);
  if (resumed && k.current !== me) throw new SimError("workload", `task ${me.pid} was resumed while task ${k.current.pid} runs`, me.pid);
}

/** First touch of the task's hot user pages after return to user mode (TLB refill after CR3). */
export function touchHotPages(k: KernelCore, t: Task): void {
  const tlb = k.cpu.tlb;
  for (let i = 0; i < t.hotPages.length; i++) {
    if (tlb.touch(Tlb.key(t.mm.asid, t.hotPages[i]!))) {
      k.run(t.handlerDepth > 0 ? P["handler.tlb_refill"] : P["user_tlb_refill"]);
      k.count("tlb.misses");
    }
  }
}

/** sys_sched_yield (2.4): SCHED_YIELD + move_last_runqueue + need_resched when others can run. */
export function sys_sched_yield(k: KernelCore, t: Task): number {
  k.runRef(P["sys_sched_yield"]);
  // nr_pending: UP counts the others on the run queue; SMP subtracts every CPU running a task
  if (k.ncpus > 1 ? k.nrRunning - k.cpus.filter((c) => k.currentOf(c) !== c.idle).length > 0 : othersRunnable(k, t)) {
    k.runRef(P["sys_sched_yield.yield"]);
    t.sched_yield = true;
    t.needResched = true;
    move_last_runqueue(k, t);
  }
  return 0;
}

/** UP nr_pending: another runnable task on the run queue (a loop: no closure per sched_yield) */
function othersRunnable(k: KernelCore, t: Task): boolean {
  const head = k.runList.head;
  for (let n = head.next; n !== head; n = n.next) if (n.task !== t && n.task!.state === "running") return true;
  return false;
}

export function pageOf(addr: number): number {
  return addr >>> PAGE_SHIFT;
}

/**
 * What schedule() and switch_to touch of memory (footprint.ts): the run queue, both tasks'
 * scheduling fields (state, counter, mm, run_list), prev's thread.esp/eip written and next's read,
 * and next's kernel stack, which switch_to pops from.
 */
function touchSwitch(k: KernelCore, prev: Task, next: Task): void {
  if (k.cpu.caches === null) return;
  k.touch(k.foot.runqueue, true);
  const p = prev.mem, n = next.mem;
  if (p !== null) {
    k.touch(p.fields.state, true);
    k.touch(p.fields.sched, true);
    k.touch(p.fields.thread, true);
  }
  if (n !== null) {
    k.touch(n.fields.state, true);
    k.touch(n.fields.goodness, true);
    k.touch(n.fields.sched, true);
    k.touch(n.fields.thread);
    k.touch(n.kstack);
  }
}
