/**
 * The Completely Fair Scheduler of Linux 6.1-6.5 (kernel/sched/fair.c, kernel/sched/core.c),
 * reduced to what these workloads exercise: every task is SCHED_NORMAL at nice 0 in the root group
 * (weight NICE_0_LOAD, so calc_delta_fair(delta) = delta), one cfs_rq per CPU.
 *
 * - update_curr: the running task's vruntime grows by the nanoseconds it ran (sum_exec_runtime too).
 * - pick_next_entity: the leftmost entity of this CPU's cfs_rq (smallest vruntime; the running task
 *   competes with the tree) -- unless it is the skip buddy a sched_yield set and the second is
 *   within wakeup_gran of it (wakeup_preempt_entity(second, left) < 1).
 * - yield_task_fair: update_curr, then set_skip_buddy (nothing when it is alone on its run queue).
 * - place_entity: a woken task gets max(its vruntime, min_vruntime - sysctl_sched_latency / 2)
 *   (GENTLE_FAIR_SLEEPERS); a new task max(its vruntime, min_vruntime + sched_vslice) (START_DEBIT).
 * - check_preempt_wakeup: preempt when curr->vruntime - woken->vruntime > wakeup_gran.
 * - check_preempt_tick (the timer tick): resched when the task ran longer than its sched_slice
 *   (sysctl_sched_latency shared among its run queue's tasks, at least min_granularity each), or is
 *   a slice ahead of the leftmost.
 *
 * The tunables are the 6.x defaults (sysctl_sched_latency 6 ms, min_granularity 0.75 ms,
 * wakeup_granularity 1 ms), each × (1 + ilog2(min(ncpus, 8))) as get_update_sysctl_factor scales
 * them with the default SCHED_TUNABLESCALING_LOG: × 1 on one CPU, × 2 on two or three.
 *
 * SMP (the per-CPU run queues): each runnable task is on the cfs_rq of one CPU (its SchedEntity's
 * `cpu`; min_vruntime and the skip buddy per CPU, in k.slot); schedule() on a CPU picks only among
 * the tasks on that CPU's cfs_rq, and the tick accounts the task it interrupted on its CPU's.
 * select_task_rq_fair is reduced to what pinned workloads need: the woken (or new) task's previous
 * CPU if it may run there, else the first allowed idle CPU, else the first allowed CPU. Not
 * modelled: wake_affine, select_idle_sibling's scan of the LLC, SD_BALANCE_FORK's find_idlest_cpu,
 * and load balancing (periodic, idle and newidle): a task stays on its CPU's run queue until it
 * sleeps or its cpus_allowed excludes that CPU. A wake-up on another CPU's run queue is enqueued by
 * the waking CPU and preempts that CPU's task by resched_curr's reschedule IPI (the core's
 * smp_send_reschedule; 6.2+ queues a wake-up for an idle CPU on its wake list, ttwu_queue_wakelist,
 * and the function-call IPI enqueues it there: not modelled). A task whose cpus_allowed no longer
 * allows its run queue's CPU (sched_setaffinity) moves at the next schedule() or timer tick on any
 * CPU (6.x moves it at once, __set_cpus_allowed_ptr -> move_queued_task, or through the stopper
 * thread when it runs): dequeue, vruntime renormalised to the new cfs_rq's min_vruntime,
 * enqueue, check_preempt_curr there.
 *
 * Since 6.6 fair.c is EEVDF (lag and virtual deadlines; yield sets vruntime = deadline): not
 * modelled.
 */
import { op, stateKey, type Cpu, type Kernel, type PathDef, type PathTransform, type Scheduler, type Task } from "@siglab/plugin-api";
import { p, replace } from "./defs.js";

const SCHED_LATENCY_NS = 6_000_000;
const MIN_GRANULARITY_NS = 750_000;
const WAKEUP_GRANULARITY_NS = 1_000_000;
/** sched_nr_latency = 8 (fair.c: normalized latency / normalized min_granularity; not rescaled) */
const SCHED_NR_LATENCY = 8;

/** struct sched_entity, the fields the reduced policy uses (ns). */
export interface SchedEntity {
  vruntime: number;
  sum_exec_runtime: number;
  prev_sum_exec_runtime: number;
  /** cycle at which update_curr last accounted it while running (-1: not running) */
  exec_start: number;
  /** placed on a cfs_rq once (task_fork_fair's place_entity(initial)) */
  placed: boolean;
  /** in a sched_yield system call (set by the entry mechanism; do_sched_yield's yield_task_fair) */
  yielding: boolean;
  /** SMP: the CPU whose cfs_rq it is on (task_cpu), -1 before the scheduler placed it */
  cpu: number;
  /** SMP: enqueued (p->on_rq) -- from its wake-up until it sleeps */
  on_rq: boolean;
}

export const SE = stateKey<SchedEntity>("linux6.se", () => ({ vruntime: 0, sum_exec_runtime: 0, prev_sum_exec_runtime: 0, exec_start: -1, placed: false, yielding: false, cpu: -1, on_rq: false }));

interface CfsRq {
  min_vruntime: number;
  /** the skip buddy (set_skip_buddy) */
  skip: Task | null;
}

/** struct cfs_rq of each CPU, by CPU id */
const CFS = stateKey<CfsRq[]>("linux6.cfs_rq", () => []);

/** rb_add_cached: the levels walked to insert into a red-black tree of n entities. */
function rbDepth(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(n + 1)));
}

/** The 6.x tunables for this machine (ns): the defaults × get_update_sysctl_factor. */
interface Tunables {
  latency: number;
  minGranularity: number;
  wakeupGranularity: number;
}

/** get_update_sysctl_factor, SCHED_TUNABLESCALING_LOG: 1 + ilog2(min(online CPUs, 8)). */
export function sysctlFactor(ncpus: number): number {
  return 1 + Math.floor(Math.log2(Math.min(Math.max(1, ncpus), 8)));
}

/** The SMP view of the kernel (plugin API 2.2): every CPU, what runs on each, resched_curr on another. */
interface SmpKernel {
  readonly cpus: readonly Cpu[];
  currentOf(c: Cpu): Task;
  resched_cpu(c: Cpu): void;
  is_cpu_allowed(t: Task, c: Cpu): boolean;
}

export class FairScheduler implements Scheduler {
  readonly id = "linux6:cfs";

  /** the machine's CPUs and the calls CFS needs on SMP; null on one CPU */
  private smp(k: Kernel): SmpKernel | null {
    const n = k.cpus?.length ?? k.config.cpus ?? 1;
    if (n <= 1) return null;
    if (!k.cpus || !k.currentOf || !k.resched_cpu || !k.is_cpu_allowed || k.cpu.id === undefined || k.cpu.idle === undefined) throw new Error("plugin 'linux6': CFS on an SMP run needs a host with plugin API 2.2's Kernel.cpus, currentOf, resched_cpu, is_cpu_allowed and Cpu.id, Cpu.idle (or run with sched=2.4)");
    return k as Kernel & SmpKernel;
  }

  private tunables(k: Kernel): Tunables {
    const f = sysctlFactor(k.cpus?.length ?? k.config.cpus ?? 1);
    return { latency: SCHED_LATENCY_NS * f, minGranularity: MIN_GRANULARITY_NS * f, wakeupGranularity: WAKEUP_GRANULARITY_NS * f };
  }

  private ns(k: Kernel, cycles: number): number {
    return (cycles * 1000) / k.profile.mhz;
  }

  /** the cfs_rq of CPU `cpu` */
  private rq(k: Kernel, cpu: number): CfsRq {
    const rqs = k.slot(CFS);
    return (rqs[cpu] ??= { min_vruntime: 0, skip: null });
  }

  /** the id of this CPU (smp_processor_id()) */
  private here(k: Kernel): number {
    return k.cpu.id ?? 0;
  }

  /** the CPU whose cfs_rq `t` is on (one CPU: 0) */
  private cpuOf(k: Kernel, t: Task): number {
    if ((k.cpus?.length ?? 1) <= 1) return 0;
    const c = t.slot(SE).cpu;
    return c >= 0 ? c : this.here(k);
  }

  /** the runnable tasks on CPU `cpu`'s cfs_rq, the running one included (rq->cfs.nr_running of them), in the core's queue order */
  private queued(k: Kernel, cpu: number): readonly Task[] {
    if ((k.cpus?.length ?? 1) <= 1) return k.runqueue;
    return k.runqueue.filter((t) => t.slot(SE).cpu === cpu);
  }

  /**
   * The entity's state, placed on its cfs_rq on first sight: the running task (the first one) at
   * min_vruntime; a new child by task_fork_fair's place_entity(initial): min_vruntime +
   * sched_vslice (START_DEBIT: a new task waits its turn rather than preempting its parent).
   */
  private se(k: Kernel, t: Task): SchedEntity {
    const se = t.slot(SE);
    if (!se.placed) {
      se.placed = true;
      const cpu = this.cpuOf(k, t);
      const cfs = this.rq(k, cpu);
      se.vruntime = t === k.current ? cfs.min_vruntime : Math.max(se.vruntime, cfs.min_vruntime + this.vslice(k, cpu));
    }
    return se;
  }

  /** sched_vslice: sched_slice of a nice-0 entity on CPU `cpu`'s cfs_rq, in virtual time (= real time at nice 0) */
  private vslice(k: Kernel, cpu: number): number {
    const nr = Math.max(1, this.queued(k, cpu).length);
    const tun = this.tunables(k);
    const period = nr > SCHED_NR_LATENCY ? nr * tun.minGranularity : tun.latency;
    return period / nr;
  }

  /** update_curr: account the running task's time since exec_start (t runs on this CPU). */
  private update_curr(k: Kernel, t: Task): void {
    if (t === k.idle) return;
    k.run("update_curr");
    const se = this.se(k, t);
    const now = k.cycles;
    if (se.exec_start >= 0 && now > se.exec_start) {
      const delta = this.ns(k, now - se.exec_start);
      se.sum_exec_runtime += delta;
      se.vruntime += delta; // calc_delta_fair at NICE_0_LOAD
    }
    se.exec_start = now;
    this.update_min_vruntime(k, this.cpuOf(k, t));
  }

  /** update_min_vruntime: monotonic, the smaller of curr's and the leftmost's vruntime. */
  private update_min_vruntime(k: Kernel, cpu: number): void {
    const cfs = this.rq(k, cpu);
    let v = Infinity;
    for (const p of this.queued(k, cpu)) v = Math.min(v, this.se(k, p).vruntime);
    if (v !== Infinity) cfs.min_vruntime = Math.max(cfs.min_vruntime, v);
  }

  /** wakeup_preempt_entity(curr, se): 1 when curr is more than wakeup_gran ahead of se, -1 when not ahead. */
  private wakeup_preempt_entity(k: Kernel, curr: Task, se: Task): number {
    const vdiff = this.se(k, curr).vruntime - this.se(k, se).vruntime;
    if (vdiff <= 0) return -1;
    return vdiff > this.tunables(k).wakeupGranularity ? 1 : 0; // wakeup_gran: calc_delta_fair(gran) at nice 0
  }

  /** the leftmost runnable entity of CPU `cpu`'s cfs_rq (entity_before: strictly smaller vruntime; ties keep queue order) */
  private leftmost(k: Kernel, cpu: number, except: Task | null): Task | null {
    let best: Task | null = null;
    let v = Infinity;
    for (const p of this.queued(k, cpu)) {
      if (p === except) continue;
      const pv = this.se(k, p).vruntime;
      if (pv < v) {
        v = pv;
        best = p;
      }
    }
    return best;
  }

  /** may `t` run on CPU `cpu`? (is_cpu_allowed: its cpus_allowed) */
  private allowed(s: SmpKernel, t: Task, cpu: number): boolean {
    return s.is_cpu_allowed(t, s.cpus[cpu]!);
  }

  /** the CPU `t` runs on now, or null (task_on_cpu) */
  private runningOn(s: SmpKernel, t: Task): Cpu | null {
    for (const c of s.cpus) if (s.currentOf(c) === t) return c;
    return null;
  }

  /**
   * select_task_rq_fair, reduced to what pinned workloads need: the task's previous CPU (its
   * cfs_rq's; a task no cfs_rq had yet, a new child, its parent's: this CPU) if it may run there;
   * else the first allowed CPU that is idle (available_idle_cpu: running its idle task, nothing
   * queued); else the first allowed CPU. No wake_affine, no select_idle_sibling scan, no
   * find_idlest_cpu for a new task.
   */
  private select_task_rq(k: Kernel, s: SmpKernel, t: Task): number {
    const se = t.slot(SE);
    const prev = se.cpu >= 0 ? se.cpu : this.here(k);
    if (this.allowed(s, t, prev)) return prev;
    let first = -1;
    for (const c of s.cpus) {
      const id = c.id!;
      if (!this.allowed(s, t, id)) continue;
      if (first < 0) first = id;
      if (s.currentOf(c) === c.idle && !this.queued(k, id).some((q) => q !== t)) return id;
    }
    return first >= 0 ? first : prev;
  }

  /**
   * A queued task (not running) moves to CPU `to`'s cfs_rq (move_queued_task): deactivate_task,
   * set_task_cpu (migrate_task_rq_fair: vruntime relative to the old cfs_rq's min_vruntime, made
   * absolute on the new one's), activate_task, check_preempt_curr there.
   */
  private migrate(k: Kernel, s: SmpKernel, t: Task, to: number): void {
    const se = this.se(k, t);
    const from = se.cpu;
    k.run("dequeue_task_fair");
    k.count("linux6.cfs.migrations");
    if (from >= 0) se.vruntime += this.rq(k, to).min_vruntime - this.rq(k, from).min_vruntime;
    se.cpu = to;
    se.on_rq = true;
    k.run("enqueue_task_fair");
    const target = s.cpus[to]!;
    k.runN("rb_add_cached.level", rbDepth(this.queued(k, to).length - 1));
    this.check_preempt(k, s, target, t);
  }

  /**
   * Queued tasks no scheduler call has placed yet (the first task, or one a plugin put on the run
   * queue) get a cfs_rq; queued tasks whose cpus_allowed excludes their cfs_rq's CPU move
   * (sched_setaffinity; see the header). Tasks running on a CPU are left to that CPU's schedule().
   */
  private fixPlacement(k: Kernel, s: SmpKernel): void {
    for (const t of k.runqueue) {
      const se = t.slot(SE);
      if (se.cpu >= 0 && this.allowed(s, t, se.cpu)) continue;
      if (this.runningOn(s, t)) continue;
      if (se.cpu < 0) {
        se.cpu = this.select_task_rq(k, s, t);
        se.on_rq = true;
      } else this.migrate(k, s, t, this.select_task_rq(k, s, t));
    }
  }

  pick_next_task(k: Kernel, prev: Task): Task {
    const s = this.smp(k);
    const cpu = this.here(k);
    const cfs = this.rq(k, cpu);
    if (prev !== k.idle) {
      const se = this.se(k, prev);
      // do_sched_yield -> yield_task_fair (alone on the run queue: nothing to do): update_curr, set_skip_buddy
      const yielded = se.yielding && this.queued(k, cpu).length > 1;
      se.yielding = false;
      this.update_curr(k, prev);
      se.exec_start = -1;
      if (yielded) {
        cfs.skip = prev;
        k.count("linux6.cfs.skip_buddy");
      }
      if (!k.runqueue.includes(prev)) {
        // prev went to sleep: deactivate_task -> dequeue_task_fair (the running entity is not in the tree)
        k.run("dequeue_task_fair");
        se.on_rq = false;
      } else {
        // put_prev_task_fair -> put_prev_entity: prev stays runnable and goes back into the tree
        k.run("put_prev_entity");
        k.runN("rb_add_cached.level", rbDepth(this.queued(k, cpu).length));
        // SMP: prev may no longer run here (sched_setaffinity): it moves to a CPU it may run on
        if (s && !this.allowed(s, prev, cpu)) this.migrate(k, s, prev, this.select_task_rq(k, s, prev));
      }
    }
    if (s) this.fixPlacement(k, s);
    const rq = this.queued(k, cpu);
    if (!rq.length) {
      cfs.skip = null;
      return k.idle;
    }
    k.run("pick_next_task_fair");
    const left = this.leftmost(k, cpu, null)!;
    let next = left;
    if (cfs.skip === left) {
      // pick_next_entity: avoid the skip buddy if the second is not too far behind in fairness
      const second = this.leftmost(k, cpu, left);
      if (second && this.wakeup_preempt_entity(k, second, left) < 1) next = second;
    }
    cfs.skip = null; // clear_buddies
    // set_next_entity: out of the tree (__dequeue_entity), the new slice starts
    k.run("set_next_entity");
    const se = this.se(k, next);
    se.exec_start = k.cycles;
    se.prev_sum_exec_runtime = se.sum_exec_runtime;
    // min_vruntime once per pick. After a fair prev, update_curr(prev) above did it, and nothing since
    // changes the queue or a vruntime (k.run only charges; leftmost places no new entity), so a
    // second update_min_vruntime here changed nothing. From idle no update_curr ran: min_vruntime
    // catches up here (dropping this changes lat_ctx and lat_pipe), and the min over the queue is
    // the leftmost's vruntime (leftmost placed every entity), so no rescan.
    if (prev === k.idle) cfs.min_vruntime = Math.max(cfs.min_vruntime, this.se(k, left).vruntime);
    return next;
  }

  update_process_times(k: Kernel, p: Task): void {
    const s = this.smp(k);
    if (s) this.fixPlacement(k, s);
    if (p === k.idle || !k.runqueue.includes(p)) return;
    // scheduler_tick -> task_tick_fair -> entity_tick: update_curr, check_preempt_tick
    const cpu = this.here(k);
    k.run("task_tick_fair");
    this.update_curr(k, p);
    const se = this.se(k, p);
    const ideal = this.vslice(k, cpu); // sched_slice at nice 0
    const delta_exec = se.sum_exec_runtime - se.prev_sum_exec_runtime;
    if (delta_exec > ideal) {
      this.resched_curr(k, p);
      return;
    }
    if (delta_exec < this.tunables(k).minGranularity) return;
    const left = this.leftmost(k, cpu, p);
    if (left && se.vruntime - this.se(k, left).vruntime > ideal) this.resched_curr(k, p);
  }

  /**
   * After a switch 6.x runs finish_task_switch (finish_lock_switch, the lazy mm's mmdrop: charged
   * in linux6's switch_to path) and nothing like 2.4's __schedule_tail: a preempted prev is not
   * offered to another CPU (it stays on its cfs_rq; moving it is the load balancer's work). Owning
   * the tail keeps the core from running 2.4's on SMP.
   */
  schedule_tail(_k: Kernel, _prev: Task, _yielded: boolean): void {}

  reschedule_idle(k: Kernel, p: Task): void {
    const s = this.smp(k);
    if (s) return this.wake_smp(k, s, p);
    // activate_task -> enqueue_task_fair -> enqueue_entity: update_curr, place_entity, __enqueue_entity
    k.run("enqueue_task_fair");
    const cur = k.current;
    if (cur !== k.idle) this.update_curr(k, cur);
    const se = this.se(k, p);
    const cfs = this.rq(k, 0);
    // place_entity(cfs_rq, se, 0): GENTLE_FAIR_SLEEPERS gives a sleeper half a latency of credit
    se.vruntime = Math.max(se.vruntime, cfs.min_vruntime - this.tunables(k).latency / 2);
    k.runN("rb_add_cached.level", rbDepth(k.runqueue.length - 1));
    // check_preempt_curr -> check_preempt_wakeup
    k.run("check_preempt_wakeup");
    if (cur === k.idle) {
      this.resched_curr(k, cur); // check_preempt_curr_idle: the idle task always gives way
      return;
    }
    if (cur !== p && this.wakeup_preempt_entity(k, cur, p) === 1) {
      k.count("linux6.cfs.wakeup_preemptions");
      this.resched_curr(k, cur);
    }
  }

  /**
   * try_to_wake_up (or wake_up_new_task) on SMP: select_task_rq, enqueue on that CPU's cfs_rq,
   * check_preempt_curr against the task running there (by IPI when it is another CPU).
   */
  private wake_smp(k: Kernel, s: SmpKernel, p: Task): void {
    const se0 = p.slot(SE);
    // already queued (ttwu_runnable): it stays on its cfs_rq (moving it would be the load
    // balancer's work)
    if (se0.on_rq && k.runqueue.includes(p)) return;
    const to = this.select_task_rq(k, s, p);
    const isNew = !se0.placed;
    // migrate_task_rq_fair: a sleeper's vruntime moves relative to min_vruntime
    if (!isNew && se0.cpu >= 0 && se0.cpu !== to) se0.vruntime += this.rq(k, to).min_vruntime - this.rq(k, se0.cpu).min_vruntime;
    se0.cpu = to;
    se0.on_rq = true;
    const target = s.cpus[to]!;
    const local = target === k.cpu;
    // activate_task -> enqueue_task_fair -> enqueue_entity: update_curr (of this CPU's task only:
    // another CPU's runs on that CPU's clock, so its vruntime is as of its last accounting there)
    k.run("enqueue_task_fair");
    const cur = s.currentOf(target);
    if (local && cur !== k.idle) this.update_curr(k, cur);
    const se = this.se(k, p); // a new task: task_fork_fair's placement (START_DEBIT) on that cfs_rq
    if (!isNew) se.vruntime = Math.max(se.vruntime, this.rq(k, to).min_vruntime - this.tunables(k).latency / 2);
    k.runN("rb_add_cached.level", rbDepth(this.queued(k, to).length - 1));
    this.check_preempt(k, s, target, p);
  }

  /** check_preempt_curr on CPU `target`'s run queue for the task `p` just enqueued there. */
  private check_preempt(k: Kernel, s: SmpKernel, target: Cpu, p: Task): void {
    k.run("check_preempt_wakeup");
    const cur = s.currentOf(target);
    if (cur === target.idle) {
      this.resched(k, s, target); // check_preempt_curr_idle: the idle task always gives way
      return;
    }
    if (cur !== p && this.wakeup_preempt_entity(k, cur, p) === 1) {
      k.count("linux6.cfs.wakeup_preemptions");
      this.resched(k, s, target);
    }
  }

  /** resched_curr(cpu_rq(target)): here as on one CPU; another CPU by the reschedule IPI. */
  private resched(k: Kernel, s: SmpKernel, target: Cpu): void {
    if (target === k.cpu) return this.resched_curr(k, s.currentOf(target));
    if (s.currentOf(target).needResched) return;
    k.run("resched_curr.remote");
    s.resched_cpu(target);
  }

  private resched_curr(k: Kernel, t: Task): void {
    if (t.needResched) return;
    k.run("resched_curr");
    t.needResched = true;
  }
}

const RQ_CLOCK = "update_rq_clock -> sched_clock_cpu -> native_sched_clock: rdtsc_ordered() (RDTSCP on these CPUs; no op class, charged as rdtsc) then cyc2ns's mul/shift";

/** The fair class's paths the policy above runs (kernel/sched/fair.c, 6.1-6.5). */
export function fairPaths(): PathDef[] {
  const LOAD_AVG = op("update_load_avg", "alu", 10, "PELT: __update_load_avg_se and the cfs_rq's sums (a decay step when a 1024-µs period has passed); estimated instruction count");
  return [
    p("update_curr", "sched.schedule", [
      op("update_curr", "load", 2, "now = rq_clock_task(rq_of(cfs_rq)); curr->exec_start"),
      op("update_curr", "alu", 5, "delta_exec = now - curr->exec_start (> 0?); max exec_max; vruntime += calc_delta_fair(delta_exec, curr): NICE_0_LOAD, no multiply"),
      op("update_curr", "store", 3, "curr->exec_start = now; curr->sum_exec_runtime += delta_exec; curr->vruntime"),
      op("update_min_vruntime", "alu", 5, "min of curr's and the leftmost's vruntime; min_vruntime only grows"),
      op("cgroup_account_cputime", "alu", 4, "account_group_exec_runtime, cgroup_account_cputime (root group; estimated count)"),
    ]),
    p("pick_next_task_fair", "sched.schedule", [
      op("__pick_next_task", "alu", 3, "prev is a fair task and rq->nr_running == rq->cfs.h_nr_running: the fair class directly"),
      op("pick_next_task_fair", "alu", 2, "sched_fair_runnable(rq)? (no CONFIG_FAIR_GROUP_SCHED walk: the root group)"),
      op("pick_next_entity", "load", 3, "__pick_first_entity: rb_first_cached (the leftmost is cached); cfs_rq->skip, cfs_rq->next"),
      op("pick_next_entity", "alu", 3, "entity_before(curr, left)?; the skip buddy's wakeup_preempt_entity(second, left)"),
      op("clear_buddies", "alu", 2, "cfs_rq->next/last/skip == se? clear"),
    ]),
    p("set_next_entity", "sched.schedule", [
      op("__dequeue_entity", "alu", 8, "rb_erase_cached of the picked entity (a leaf or near one: a few pointer updates and recolourings; estimated)"),
      LOAD_AVG,
      op("set_next_entity", "store", 3, "update_stats_curr_start: se->exec_start = rq_clock_task; cfs_rq->curr = se; se->prev_sum_exec_runtime = se->sum_exec_runtime"),
    ]),
    p("put_prev_entity", "sched.schedule", [
      op("put_prev_task_fair", "call", 1, "put_prev_task(rq, prev) -> put_prev_entity (update_curr when on_rq: charged as update_curr)"),
      op("put_prev_entity", "alu", 2, "prev->on_rq: check_spread; __enqueue_entity(cfs_rq, prev)"),
      LOAD_AVG,
      op("put_prev_entity", "store", 1, "cfs_rq->curr = NULL"),
    ]),
    p("rb_add_cached.level", "sched.schedule", [
      op("rb_add_cached", "load", 1, "one level of the tree walk: the node's entity"),
      op("__entity_less", "alu", 2, "entity_before(a, b): (s64)(a->vruntime - b->vruntime) < 0; go left or right"),
    ]),
    p("dequeue_task_fair", "sched.schedule", [
      op("deactivate_task", "store", 1, "p->on_rq = 0 (DEQUEUE_SLEEP)"),
      op("dequeue_task_fair", "alu", 3, "for_each_sched_entity: dequeue_entity (update_curr charged as update_curr); clear_buddies"),
      LOAD_AVG,
      op("account_entity_dequeue", "store", 3, "cfs_rq->nr_running--, cfs_rq->load; rq->cfs.h_nr_running--"),
      op("dequeue_task_fair", "alu", 3, "se == cfs_rq->curr: not in the tree, no rb_erase; util_est_update; hrtick_update"),
    ]),
    p("enqueue_task_fair", "sched.schedule", [
      op("activate_task", "alu", 2, "enqueue_task(rq, p, ENQUEUE_WAKEUP); p->on_rq = TASK_ON_RQ_QUEUED"),
      op("enqueue_task_fair", "alu", 3, "util_est_enqueue; for_each_sched_entity: enqueue_entity (root group)"),
      op("enqueue_entity", "alu", 2, "renorm; update_curr(cfs_rq) (charged as update_curr)"),
      LOAD_AVG,
      op("place_entity", "alu", 5, "vruntime = cfs_rq->min_vruntime - (sysctl_sched_latency >> 1) (GENTLE_FAIR_SLEEPERS); se->vruntime = max_vruntime(se->vruntime, vruntime)"),
      op("account_entity_enqueue", "store", 3, "cfs_rq->nr_running++, cfs_rq->load; rq->cfs.h_nr_running++"),
    ]),
    p("check_preempt_wakeup", "sched.schedule", [
      op("check_preempt_curr", "alu", 2, "p->sched_class == rq->curr->sched_class: check_preempt_wakeup"),
      op("check_preempt_wakeup", "alu", 6, "se == pse?; test_tsk_need_resched(curr)?; find_matching_se; update_curr (charged as update_curr); wakeup_preempt_entity(se, pse): vdiff = curr->vruntime - pse->vruntime > wakeup_gran(se) (1 ms)?"),
    ]),
    p("resched_curr", "sched.schedule", [
      op("resched_curr", "locked_op", 1, "set_tsk_need_resched(curr): a lock-prefixed bts on the thread flags"),
      op("resched_curr", "alu", 2, "cpu == smp_processor_id(): set_preempt_need_resched(), no IPI"),
    ]),
    p("resched_curr.remote", "sched.schedule", [
      op("resched_curr", "alu", 2, "test_tsk_need_resched(curr)?; cpu != smp_processor_id()"),
      op("set_nr_and_not_polling", "locked_op", 1, "fetch_or(&ti->flags, _TIF_NEED_RESCHED): a lock-prefixed cmpxchg loop; not polling: smp_send_reschedule(cpu) follows"),
    ]),
    p("task_tick_fair", "irq.timer", [
      op("scheduler_tick", "locked_op", 1, "rq_lock(rq): raw_spin_lock (CONFIG_SMP in every distribution kernel)"),
      op("scheduler_tick", "rdtsc", 1, RQ_CLOCK),
      op("scheduler_tick", "alu", 4, "update_rq_clock: delta = clock - rq->clock; curr->sched_class->task_tick(rq, curr, 0)"),
      op("entity_tick", "alu", 2, "update_curr (charged as update_curr); update_load_avg follows"),
      LOAD_AVG,
      op("check_preempt_tick", "alu", 8, "ideal_runtime = sched_slice(); delta_exec = sum_exec_runtime - prev_sum_exec_runtime > ideal?; >= min_granularity: curr->vruntime - leftmost->vruntime > ideal?"),
      op("scheduler_tick", "store", 1, "rq_unlock(rq)"),
    ]),
  ];
}

/**
 * The core's scheduler paths as 6.x runs them (kernel/sched/core.c): schedule() and __schedule(),
 * try_to_wake_up, do_sched_yield. The core's mechanics (which path runs when) stay.
 */
export function fairTransforms(): PathTransform[] {
  return [
    replace("schedule", [
      op("schedule", "alu", 3, "sched_submit_work(tsk): tsk->__state?; not a worker; blk_flush_plug"),
      op("__schedule", "alu", 3, "cpu = smp_processor_id(); rq = cpu_rq(cpu); prev = rq->curr; schedule_debug(prev) (stack-end magic)"),
      op("__schedule", "cli", 1, "local_irq_disable()"),
      op("rcu_note_context_switch", "alu", 3, "rcu_qs(): this CPU passed a quiescent state"),
      op("__schedule", "locked_op", 1, "rq_lock(rq): raw_spin_rq_lock (CONFIG_SMP in every distribution kernel)"),
      op("__schedule", "load", 2, "smp_mb__after_spinlock(); prev_state = READ_ONCE(prev->__state)"),
      op("update_rq_clock", "rdtsc", 1, RQ_CLOCK),
      op("update_rq_clock", "alu", 5, "delta = sched_clock_cpu(cpu) - rq->clock; rq->clock += delta; update_rq_clock_task"),
      op("__schedule", "alu", 2, "prev_state && !signal_pending_state(): deactivate_task (dequeue_task_fair)"),
    ]),
    replace("schedule.finish", [
      op("__schedule", "locked_op", 1, "clear_tsk_need_resched(prev): a lock-prefixed and on the thread flags"),
      op("__schedule", "store", 1, "clear_preempt_need_resched()"),
      op("__schedule", "alu", 1, "likely(prev != next)?"),
      op("__schedule", "store", 1, "rq_unlock_irq / finish_lock_switch: raw_spin_rq_unlock (a plain store)"),
      op("__schedule", "sti", 1, "local_irq_enable() (after a switch: in finish_task_switch)"),
    ]),
    replace("schedule.switch", [
      op("__schedule", "store", 3, "rq->nr_switches++; RCU_INIT_POINTER(rq->curr, next); ++*switch_count"),
      op("psi_task_switch", "alu", 12, "CONFIG_PSI: the task-state change of prev and next in the root group's psi_group_cpu (estimated instruction count)"),
      op("prepare_task_switch", "alu", 4, "sched_info_switch; perf and preempt-notifier static keys off; prepare_task: WRITE_ONCE(next->on_cpu, 1)"),
      op("context_switch", "alu", 3, "arch_start_context_switch; membarrier_switch_mm; next->mm: switch_mm_irqs_off follows"),
    ]),
    replace("try_to_wake_up", [
      op("try_to_wake_up", "alu", 2, "preempt_disable(); p == current?"),
      op("try_to_wake_up", "locked_op", 1, "raw_spin_lock_irqsave(&p->pi_lock, flags)"),
      op("try_to_wake_up", "alu", 4, "ttwu_state_match(p, state); smp_rmb(); p->on_rq? (ttwu_runnable); smp_cond_load_acquire(&p->on_cpu, !VAL)"),
      op("select_task_rq", "alu", 3, "p->nr_cpus_allowed > 1? select_task_rq_fair (else cpumask_any)"),
      op("ttwu_queue", "locked_op", 1, "rq_lock(rq): raw_spin_rq_lock"),
      op("ttwu_queue", "rdtsc", 1, RQ_CLOCK),
      op("ttwu_do_activate", "alu", 2, "activate_task (enqueue_task_fair); check_preempt_curr (check_preempt_wakeup)"),
      op("ttwu_do_wakeup", "store", 1, "WRITE_ONCE(p->__state, TASK_RUNNING)"),
      op("try_to_wake_up", "store", 2, "rq_unlock; raw_spin_unlock_irqrestore(&p->pi_lock): plain stores"),
    ]),
    replace("sys_sched_yield", [
      op("do_sched_yield", "cli", 1, "this_rq_lock_irq: local_irq_disable()"),
      op("do_sched_yield", "locked_op", 1, "rq_lock(rq)"),
      op("do_sched_yield", "store", 1, "schedstat_inc(rq->yld_count)"),
      op("do_sched_yield", "call_indirect", 1, "current->sched_class->yield_task(rq): yield_task_fair"),
      op("yield_task_fair", "alu", 2, "rq->nr_running == 1? (alone: return; do_sched_yield's unlock and schedule() are then not charged: the core's 2.4 sys_sched_yield does not reschedule a task that is alone)"),
    ]),
    replace("sys_sched_yield.yield", [
      op("yield_task_fair", "alu", 2, "clear_buddies(cfs_rq, se); curr->policy != SCHED_BATCH"),
      op("update_rq_clock", "rdtsc", 1, RQ_CLOCK),
      op("yield_task_fair", "alu", 3, "update_curr(cfs_rq) (its accounting is charged when schedule() puts prev); rq_clock_skip_update"),
      op("set_skip_buddy", "store", 1, "cfs_rq->skip = se"),
      op("do_sched_yield", "store", 2, "preempt_disable(); rq_unlock_irq(rq): a plain store, then sti"),
      op("do_sched_yield", "sti", 1, "local_irq_enable"),
      op("do_sched_yield", "alu", 1, "sched_preempt_enable_no_resched(); schedule()"),
    ]),
  ];
}
