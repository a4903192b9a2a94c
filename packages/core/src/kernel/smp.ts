/**
 * Linux 2.4's SMP mechanisms (kernel/sched.c, arch/i386/kernel/smp.c, include/asm-i386/
 * mmu_context.h): reschedule_idle choosing a CPU and the reschedule IPI, TLB shootdowns with lazy
 * TLB, kick of a task running on another CPU, and the cost of cache lines that another CPU wrote.
 *
 * How N CPUs run in one simulation: each CPU has its own clock. The run loop always resumes the CPU
 * that is furthest behind (smp_next_cpu); a CPU that runs ahead of another CPU's next action stops
 * at its next user-mode instruction boundary (Executor.syncAt) and lets it catch up. Kernel paths
 * between two such boundaries run as a unit: another CPU sees their effects at the boundary, so
 * cross-CPU ordering is exact to within one system call.
 */
import { TALLY } from "./tallies.js";
import type { AddressSpace } from "../machine/memory.js";
import { Tlb } from "../machine/tlb.js";
import type { CacheLines, KernelCore } from "./core.js";
import type { Cpu } from "./cpu.js";
import { SimError } from "./sim-error.js";
import { Task } from "./task.js";

/** include/asm-i386/smp.h: goodness() bonus for staying on the CPU the task last ran on */
export const PROC_CHANGE_PENALTY = 15;

/** The CPUs this mm is loaded on (mm->cpu_vm_mask). */
const vmMask = new WeakMap<AddressSpace, number>();

export function cpuVmMask(mm: AddressSpace): number {
  return vmMask.get(mm) ?? 0;
}

export function setCpuVmMask(mm: AddressSpace, m: number): void {
  vmMask.set(mm, m);
}

/** The CPU `t` runs on now, or null (task_has_cpu). */
export function cpuRunning(k: KernelCore, t: Task): Cpu | null {
  for (const c of k.cpus) if (k.currentOf(c) === t) return c;
  return null;
}

/** can_schedule(p, this_cpu): allowed on this CPU (cpus_allowed) and not running on another one. */
export function canSchedule(k: KernelCore, p: Task): boolean {
  if (k.ncpus === 1) return true;
  if ((p.cpusAllowed & (1 << k.cpu.id)) === 0) return false;
  const c = cpuRunning(k, p);
  return c === null || c === k.cpu;
}

/** can_schedule(p, cpu) as reschedule_idle asks it of another CPU, for a task not running. */
function allowedOn(p: Task, c: Cpu): boolean {
  return (p.cpusAllowed & (1 << c.id)) !== 0;
}

/**
 * sched_setaffinity (nr 241). Vanilla 2.4.22 only reserves the number (sys_ni_syscall); SigLab
 * implements it as 2.5.8 introduced it (and vendors backported it to 2.4): the new mask must name
 * an online CPU (else -EINVAL); a task running on a CPU it no longer allows is told to reschedule
 * (an IPI when that is another CPU), and __schedule_tail's reschedule_idle moves it.
 */
export function sys_sched_setaffinity(k: KernelCore, caller: Task, pid: number, mask: number): number {
  k.run("sys_sched_setaffinity");
  const online = (1 << k.ncpus) - 1;
  const m = mask & online;
  if (m === 0) return -22; // EINVAL
  const t = pid === 0 ? caller : k.tasks.get(pid);
  if (!t || t.state === "zombie" || t.state === "dead") return -3; // ESRCH
  t.cpusAllowed = m;
  const c = cpuRunning(k, t);
  if (c && !allowedOn(t, c)) {
    t.needResched = true;
    if (c !== k.cpu) smp_send_reschedule(k, c);
  }
  return 0;
}

/** sched_getaffinity (nr 242): the mask of `pid` (0: the caller) limited to the online CPUs. */
export function sys_sched_getaffinity(k: KernelCore, caller: Task, pid: number): number {
  k.run("sys_sched_getaffinity");
  const t = pid === 0 ? caller : k.tasks.get(pid);
  if (!t) return -3;
  return t.cpusAllowed & ((1 << k.ncpus) - 1);
}

/**
 * resched_curr(cpu_rq(c)) (plugin API 2.2): need_resched on the task running on CPU `c`, and the
 * reschedule IPI when `c` is another CPU (nothing when need_resched is set already: an IPI is on
 * its way or the CPU will reschedule anyway).
 */
export function resched_cpu(k: KernelCore, c: Cpu): void {
  if (!k.cpus.includes(c)) throw new SimError("plugin", "resched_cpu: not a CPU of this machine");
  const t = k.currentOf(c);
  if (t.needResched) return;
  t.needResched = true;
  if (c !== k.cpu) smp_send_reschedule(k, c);
}

/** is_cpu_allowed (plugin API 2.2): CPU `c` is in `t`'s cpus_allowed. */
export function is_cpu_allowed(k: KernelCore, t: Task, c: Cpu): boolean {
  if (!(t instanceof Task) || !k.cpus.includes(c)) throw new SimError("plugin", `is_cpu_allowed: expected a task and a CPU of this machine, got ${t instanceof Task ? "a task" : typeof t} and ${k.cpus.includes(c) ? "a CPU" : typeof c}`);
  return (t.cpusAllowed & (1 << c.id)) !== 0;
}

/** smp_send_reschedule: an IPI to `target`, taken there ipi_delivery cycles later. */
export function smp_send_reschedule(k: KernelCore, target: Cpu): void {
  k.run("smp_send_reschedule");
  k.count("smp.ipi.reschedule");
  const wire = ipiDelivery(k);
  k.scheduleEvent(k.cycles + wire, "ipi", () => {}, target, wire);
}

function ipiDelivery(k: KernelCore): number {
  return k.profile.costs.ipi_delivery ?? NaN;
}

/** send_now_idle: wake an idle CPU (no IPI to this CPU, nor when one is already on its way). */
function sendNowIdle(k: KernelCore, c: Cpu): void {
  k.run("smp.reschedule_idle.mark");
  const idle = c.idle;
  const was = idle.needResched;
  idle.needResched = true;
  if (c !== k.cpu && !was) smp_send_reschedule(k, c);
}

/**
 * reschedule_idle on SMP: the woken task's last CPU if it is idle; else the idle CPU that has been
 * idle longest; else the CPU whose task `p` preempts most (preemption_goodness), told by IPI.
 */
export function reschedule_idle_smp(k: KernelCore, p: Task, goodness: (p: Task, cpu: Cpu, mm: Task["mm"]) => number): void {
  k.run("smp.reschedule_idle");
  const best = k.cpus[p.processor] ?? k.cpus[0]!;
  if (allowedOn(p, best) && k.currentOf(best) === best.idle) return sendNowIdle(k, best);
  let oldestIdle = Infinity;
  let target: Cpu | null = null;
  let maxPrio = 0;
  for (const c of k.cpus) {
    k.run("smp.reschedule_idle.cpu");
    if (!allowedOn(p, c)) continue;
    const tsk = k.currentOf(c);
    if (tsk === c.idle) {
      if (c.lastSchedule < oldestIdle) {
        oldestIdle = c.lastSchedule;
        target = c;
      }
    } else if (oldestIdle === Infinity) {
      const prio = goodness(p, c, tsk.mm) - goodness(tsk, c, tsk.mm);
      if (prio > maxPrio) {
        maxPrio = prio;
        target = c;
      }
    }
  }
  if (!target) return;
  if (oldestIdle !== Infinity) return sendNowIdle(k, target);
  k.run("smp.reschedule_idle.mark");
  k.currentOf(target).needResched = true;
  if (target !== k.cpu) smp_send_reschedule(k, target);
}

/**
 * signal_wake_up's SMP part: a task running on another CPU gets a reschedule IPI so that it
 * notices the signal at its next return to user mode (2.4 calls this a kick).
 */
export function kick_if_running(k: KernelCore, t: Task): void {
  if (k.ncpus === 1) return;
  const c = cpuRunning(k, t);
  if (c && c !== k.cpu) {
    k.count("smp.kicks");
    smp_send_reschedule(k, c);
  }
}

/**
 * flush_tlb_mm / flush_tlb_range of i386 2.4: reload %cr3 here if this CPU runs the mm, and send
 * every other CPU in mm->cpu_vm_mask an INVALIDATE_TLB_VECTOR IPI, spinning until each has
 * flushed (or, borrowing the mm lazily, left it). Returns how many CPUs were sent the IPI.
 */
export function flush_tlb_mm(k: KernelCore, mm: AddressSpace): number {
  if (k.cpu.cr3 === mm.asid) {
    k.cpu.tlb.flushAll();
    k.tally(TALLY.tlb_flushes);
  }
  return shootdown(k, mm, null);
}

/**
 * flush_tlb_page: invlpg here if this CPU runs the mm (the caller's path charges it), and the
 * other CPUs in cpu_vm_mask flush that page by IPI. Returns how many CPUs were sent the IPI.
 */
export function flush_tlb_page(k: KernelCore, mm: AddressSpace, addr: number): number {
  const page = addr >>> 12;
  if (k.cpu.cr3 === mm.asid) k.cpu.tlb.invalidate(Tlb.key(mm.asid, page));
  return shootdown(k, mm, [page]);
}

/**
 * flush_tlb_range after PTEs of `pages` changed. i386 2.4 (k.tlbFlushCeiling 0): flush_tlb_mm, a
 * full flush. A kernel with a single-page flush ceiling (6.x's flush_tlb_mm_range,
 * tlb_single_page_flush_ceiling): up to that many pages, invlpg each page here if this CPU runs
 * the mm (the caller's paths charge it) and on the other CPUs in cpu_vm_mask by IPI, so only those
 * pages' entries go; above it, the full flush. Returns how many CPUs were sent the IPI.
 */
export function flush_tlb_range(k: KernelCore, mm: AddressSpace, pages: readonly number[]): number {
  if (pages.length === 0 || pages.length > k.tlbFlushCeiling) return flush_tlb_mm(k, mm);
  if (k.cpu.cr3 === mm.asid) {
    for (const page of pages) k.cpu.tlb.invalidate(Tlb.key(mm.asid, page));
    k.count("tlb.page_flushes", pages.length);
  }
  return shootdown(k, mm, pages);
}

function shootdown(k: KernelCore, mm: AddressSpace, page: readonly number[] | null): number {
  if (k.ncpus === 1) return 0;
  const others = k.cpus.filter((c) => c !== k.cpu && (cpuVmMask(mm) & (1 << c.id)) !== 0);
  if (!others.length) return 0;
  flush_tlb_others(k, mm, others, page);
  return others.length;
}

/** flush_tlb_others: IPI, the targets' handlers, and the sender's wait for the last of them. */
function flush_tlb_others(k: KernelCore, mm: AddressSpace, targets: Cpu[], page: readonly number[] | null): void {
  k.run("flush_tlb_others");
  k.count("smp.tlb_shootdowns");
  k.count("smp.ipi.invalidate", targets.length);
  const sent = k.cycles;
  const handler = k.path("invalidate_interrupt").cost;
  let last = sent;
  for (const c of targets) {
    // the target takes the interrupt when it arrives (or when it next enables interrupts: not
    // modelled, nor a target that is itself spinning with IF=0); the sender waits for its ack
    const lazy = c.tlbLazy;
    const work = lazy ? k.path("leave_mm").cost : page === null ? k.path("invalidate_interrupt.flush").cost : k.path("invalidate_interrupt.invlpg").cost * page.length;
    const done = sent + ipiDelivery(k) + handler + work;
    if (done > last) last = done;
    k.scheduleEvent(sent + ipiDelivery(k), "ipi", () => smp_invalidate_interrupt(k, mm, page), c, ipiDelivery(k));
  }
  // while (flush_cpumask) cpu_relax(): the wait is spent spinning
  const spin = k.path("flush_tlb_others.wait").cost;
  if (last > k.cycles && spin > 0) k.runN("flush_tlb_others.wait", Math.ceil((last - k.cycles) / spin));
  k.run("flush_tlb_others.done");
}

/** INVALIDATE_TLB_VECTOR on this CPU: flush if it runs the mm, leave_mm if it only borrows it. */
function smp_invalidate_interrupt(k: KernelCore, mm: AddressSpace, page: readonly number[] | null): void {
  k.run("invalidate_interrupt");
  if (k.cpu.cr3 !== mm.asid) return;
  if (k.cpu.tlbLazy) {
    // leave_mm: off the mm's cpu_vm_mask (no more flush IPIs); the next switch_mm reloads %cr3
    k.run("leave_mm");
    setCpuVmMask(mm, cpuVmMask(mm) & ~(1 << k.cpu.id));
    k.cpu.cr3 = 0;
    k.cpu.tlb.flushAll();
    k.count("smp.leave_mm");
    return;
  }
  if (page !== null) {
    // one invlpg per page of the range (flush_tlb_page: one)
    for (const p of page) {
      k.run("invalidate_interrupt.invlpg");
      k.cpu.tlb.invalidate(Tlb.key(mm.asid, p));
    }
    return;
  }
  k.run("invalidate_interrupt.flush");
  k.cpu.tlb.flushAll();
  k.tally(TALLY.tlb_flushes);
}

/**
 * Shared kernel data written by one CPU and then used by another moves between the caches: charge
 * `lines` cache-line transfers when `obj` (owner tracked in `owners`) was last written elsewhere.
 */
export class LineOwners implements CacheLines {
  private readonly owner = new WeakMap<object, number>();
  touch(k: KernelCore, obj: object, lines: number): void {
    if (k.ncpus === 1) return;
    const was = this.owner.get(obj);
    const me = k.cpu.id;
    if (was !== undefined && was !== me && lines > 0) {
      k.runN("smp.cacheline_transfer", lines);
      k.count("smp.cacheline_transfers", lines);
    }
    this.owner.set(obj, me);
  }
}

/**
 * The run loop's choice on SMP: the CPU to resume next, the one furthest behind. A busy CPU acts at
 * its clock; an idle one at its next interrupt. Null when no CPU can ever act again.
 */
export function smp_next_cpu(k: KernelCore): Cpu | null {
  let best: Cpu | null = null;
  let at = Infinity;
  for (const c of k.cpus) {
    const t = actsAt(k, c);
    if (t < at) {
      at = t;
      best = c;
    }
  }
  return best;
}

/** When CPU `c` acts next. */
function actsAt(k: KernelCore, c: Cpu): number {
  if (k.currentOf(c) !== c.idle) return k.clockOf(c);
  // an idle CPU halts until an interrupt; it schedules at once only when it asked itself (no IPI coming)
  if (c.idle.needResched && !c.queue.some((e) => e.kind === "ipi")) return k.clockOf(c);
  return c.queue.length ? Math.max(c.queue[0]!.at, k.clockOf(c)) : Infinity;
}

/** The horizon of this CPU: the earliest moment another CPU acts (see Executor.syncAt). */
export function smp_sync_horizon(k: KernelCore): number {
  let h = Infinity;
  for (const c of k.cpus) {
    if (c === k.cpu) continue;
    const t = actsAt(k, c);
    if (t < h) h = t;
  }
  return h;
}
