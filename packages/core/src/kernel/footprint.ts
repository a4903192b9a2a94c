/**
 * Where the kernel's objects lie in physical memory and what each kernel path touches of them, so
 * each CPU's caches (machine/cache.ts) lose and regain the lines a real 2.4 kernel would (issue 29).
 * No Linux counterpart: the simulator's own bookkeeping of include/linux/sched.h's layout.
 *
 * The layout follows Linux 2.4.16 (L2416, offsets compiled from its headers: research for issue 29,
 * §9): each task's task_struct sits at the bottom of an 8 KB, 8 KB-aligned block whose top is the
 * kernel stack (`union task_union`, `alloc_task_struct()` = `__get_free_pages(GFP_KERNEL, 1)`), so
 * every task's stack top and every task's first lines fall in the same cache sets. The UP and the
 * SMP kernels' structs differ (per-CPU arrays, spinlocks), so the offsets depend on the kernel.
 */
import { MemoryHierarchy, Region } from "../machine/cache.js";
import { PhysAlloc } from "../machine/phys.js";
import type { CacheGeometry } from "@siglab/cpu-profiles";
import type { PathDef } from "../exec/path.js";
import { codeBytes } from "../exec/code-size.js";
import { KERNEL_TEXT_BYTES } from "./text-sizes.generated.js";

/** The hot field groups of a task_struct: [offset, bytes] on the UP kernel and on the SMP kernel. */
const TASK_FIELDS = {
  /** state, flags, sigpending, addr_limit, exec_domain, need_resched, ptrace, lock_depth (0-31): entry, exit and signal tests */
  state: { up: [0, 32], smp: [0, 32] },
  /** counter, nice, policy, mm, processor, cpus_*, run_list.next (32-63): "all fields in a single cacheline that are needed for the goodness() loop in schedule()" (sched.h) */
  goodness: { up: [32, 32], smp: [32, 32] },
  /** run_list.prev, sleep_time, next_task, prev_task, active_mm (64-83): the run queue's list and switch_mm */
  sched: { up: [64, 20], smp: [64, 20] },
  /** pid, pgrp, tgid, p_pptr (124-155): getpid, kill's lookup */
  ids: { up: [124, 32], smp: [124, 32] },
  /** thread.esp0, eip, esp, fs, gs, debugreg, cr2/trap_no/error_code (thread at 624 UP / 880 SMP) */
  thread: { up: [624, 64], smp: [880, 64] },
  /** thread.i387: the 512-byte FPU save area (688-1199 UP / 944-1455 SMP) */
  i387: { up: [688, 512], smp: [944, 512] },
  /** sigmask_lock, sig, blocked, pending, sas_ss_sp/size, notifier (1360-1423 UP / 1616-1679 SMP) */
  signal: { up: [1360, 64], smp: [1616, 64] },
} as const;
export type TaskField = keyof typeof TASK_FIELDS;

/** The bytes at the top of the kernel stack a system call uses: pt_regs (60) and the C call chain under it. */
const KSTACK_TOP_BYTES = 192;
const TASK_UNION_BYTES = 8192;
/** struct k_sigaction: sa_handler, sa_flags, sa_restorer, sa_mask (include/asm-i386/signal.h) */
const K_SIGACTION_BYTES = 20;
/** struct signal_struct: count, action[64], siglock (1284 UP / 1288 SMP bytes) */
const SIGNAL_STRUCT_BYTES = 1288;
/** struct mm_struct (128 bytes UP) and struct vm_area_struct (2.4.16: 64 bytes), research §9.3 */
const MM_STRUCT_BYTES = 128;
const VMA_BYTES = 64;
/** user pages: from 256 MB up, a 64 MB window per address space (24 windows, reused modulo) */
export const USER_FRAMES_BASE = 0x10000000;
const USER_WINDOW_BYTES = 0x04000000;
const USER_WINDOWS = 24;

/** A task's memory: its 8 KB task_union and the field groups the kernel touches. */
export class TaskMemory {
  readonly fields: Record<TaskField, Region>;
  readonly kstack: Region;
  constructor(readonly base: number, smp: boolean, name: string) {
    const f = {} as Record<TaskField, Region>;
    for (const [k, v] of Object.entries(TASK_FIELDS) as [TaskField, { up: readonly number[]; smp: readonly number[] }][]) {
      const [off, bytes] = smp ? v.smp : v.up;
      f[k] = new Region(base + off!, bytes!, `${name} task_struct.${k}`);
    }
    this.fields = f;
    this.kstack = new Region(base + TASK_UNION_BYTES - KSTACK_TOP_BYTES, KSTACK_TOP_BYTES, `${name} kernel stack`);
  }
}

/** A signal_struct (the handler table), in a slab page of its own. */
export class SigactionMemory {
  private readonly actions: Region[] = [];
  constructor(readonly base: number) {}
  /** sig->action[sig - 1] */
  action(sig: number): Region {
    return (this.actions[sig] ??= new Region(this.base + 4 + (sig - 1) * K_SIGACTION_BYTES, K_SIGACTION_BYTES, `sig->action[${sig - 1}]`));
  }
}

/** The run's physical layout and each CPU's caches. Null caches: the profile models none. */
export class Footprint {
  readonly phys = new PhysAlloc();
  /** runqueue_head and the runqueue_lock line (kernel/sched.c's static data) */
  readonly runqueue: Region;
  /** sys_call_table (256 entries of 4 bytes) */
  readonly syscallTable: Region;
  /** a sigqueue entry from its slab (kmem_cache_alloc hands back the one last freed) */
  readonly sigqueue: Region;

  /** each slab cache's current page and next free offset (mm/slab.c, much simplified) */
  private readonly slabs = new Map<string, { page: number; next: number; colour: number }>();

  constructor(readonly geometry: CacheGeometry | undefined, readonly smp: boolean) {
    this.runqueue = new Region(this.phys.staticData(32), 32, "runqueue_head");
    this.syscallTable = new Region(this.phys.staticData(1024), 1024, "sys_call_table");
    this.sigqueue = this.object("sigqueue", 20);
  }

  /** The caches of CPU `cpu`, or null when the profile models none. */
  cachesFor(cpu: number): MemoryHierarchy | null {
    const g = this.geometry;
    return g ? new MemoryHierarchy({ l1i: g.l1i, l1d: g.l1d, l2: g.l2, l2Exclusive: g.l2Exclusive, l1dWriteAllocate: g.l1dWriteAllocate }, cpu) : null;
  }

  /** alloc_task_struct(): an 8 KB-aligned pair of pages */
  task(name: string): TaskMemory {
    return new TaskMemory(this.phys.pages(2, 2), this.smp, name);
  }

  signalStruct(): SigactionMemory {
    return new SigactionMemory(this.object("signal_act", SIGNAL_STRUCT_BYTES).base);
  }

  /** `bytes` at the start of a fresh page (a pipe's buffer page, a page frame of user memory) */
  page(name: string, bytes = 4096): Region {
    return new Region(this.phys.pages(1), bytes, name);
  }

  /**
   * A kernel object of `bytes` from the slab cache `cache` (struct inode, pipe_inode_info, a
   * sigqueue...): objects of one cache are packed in its pages at the L1 line size
   * (SLAB_HWCACHE_ALIGN), and each new slab page starts at the next colour (a 32-byte step: 2.4's
   * slab colouring spreads the slabs' first objects over the cache sets).
   */
  object(cache: string, bytes: number): Region {
    const size = Math.ceil(bytes / 32) * 32;
    let s = this.slabs.get(cache);
    if (!s || s.next + size > 4096) {
      const colour = s ? (s.colour + 32) % 256 : 0;
      s = { page: this.phys.pages(1), next: colour, colour };
      this.slabs.set(cache, s);
    }
    const at = s.page + s.next;
    s.next += size;
    return new Region(at, bytes, cache);
  }

  /**
   * User memory of address space `asid` at virtual `vaddr`: each address space's pages get physical
   * frames in a 64 MB window of their own, at the page's place in it (the page number's low 14
   * bits), so a range is contiguous, keeps its page offset (what a virtually indexed L1 sees) and
   * two processes' pages do not share frames. Regions are cached per address space and address.
   */
  user(asid: number, vaddr: number, bytes: number): Region {
    const key = vaddr * 8192 + Math.min(bytes, 8191);
    // a signal frame's setup and its sigreturn ask for the same region, delivery after delivery
    if (key === this.lastUserKey && asid === this.lastUserAsid) return this.lastUser!;
    this.lastUserAsid = asid;
    this.lastUserKey = key;
    return (this.lastUser = this.userRegion(asid, key, vaddr, bytes));
  }
  /** the last region user() returned, and its address space and key */
  private lastUser: Region | null = null;
  private lastUserAsid = -1;
  private lastUserKey = -1;

  private userRegion(asid: number, key: number, vaddr: number, bytes: number): Region {
    let m = this.userRegions.get(asid);
    if (!m) this.userRegions.set(asid, (m = new Map()));
    let r = m.get(key);
    if (!r) {
      const base = USER_FRAMES_BASE + (asid % USER_WINDOWS) * USER_WINDOW_BYTES + ((vaddr >>> 12) & 0x3fff) * 4096 + (vaddr & 4095);
      m.set(key, (r = new Region(base, bytes, `user memory of mm ${asid} at ${vaddr.toString(16)}`)));
    }
    return r;
  }
  private readonly userRegions = new Map<number, Map<number, Region>>();

  /**
   * An address space's kernel objects: its mm_struct (mmap_sem, the mmap cache, page_table_lock)
   * and the vm_area_struct a fault or an mprotect looks up (a slab object each).
   */
  mmOf(mm: object): { mm: Region; vma: Region } {
    let m = this.mms.get(mm);
    if (!m) this.mms.set(mm, (m = { mm: this.object("mm_struct", MM_STRUCT_BYTES), vma: this.object("vm_area_struct", VMA_BYTES) }));
    return m;
  }
  private readonly mms = new WeakMap<object, { mm: Region; vma: Region }>();

  /** The first `bytes` of region `r` (e.g. the part of a pipe's page a copy moves), cached. */
  span(r: Region, bytes: number): Region {
    const key = r.base * 8192 + Math.min(bytes, 8191);
    let s = this.spans.get(key);
    if (!s) this.spans.set(key, (s = new Region(r.base, Math.max(1, Math.min(bytes, r.bytes)), r.name)));
    return s;
  }
  private readonly spans = new Map<number, Region>();

  /**
   * The kernel text a path runs: one region per Linux function its ops name, laid out once per run
   * in first-use order with its real size (text-sizes.generated.ts: Linux 2.4.16 built as gcc
   * 2.95 inlined); a function gcc inlined is its caller's text; a name with no measured size (a
   * macro, a label) takes the size of the ops the path gives it (code-size.ts).
   */
  functionsOf(def: PathDef): Region[] | null {
    const out: Region[] = [];
    for (const l of def.ops) {
      const r = this.textOf(l.fn, def);
      if (r !== null && !out.includes(r)) out.push(r);
    }
    return out.length ? out : null;
  }

  private textOf(fn: string, def: PathDef): Region | null {
    let r = this.text.get(fn);
    if (r !== undefined) return r;
    let name = fn;
    let size = KERNEL_TEXT_BYTES[name];
    for (let i = 0; i < 4 && size !== undefined && typeof size !== "number"; i++) {
      name = size.in;
      size = KERNEL_TEXT_BYTES[name];
    }
    if (name !== fn) {
      r = this.textOf(name, def);
      this.text.set(fn, r);
      return r;
    }
    const bytes = typeof size === "number" ? size : codeBytes({ ...def, ops: def.ops.filter((l) => l.fn === fn) });
    r = bytes > 0 ? new Region(this.phys.text(bytes), bytes, fn) : null;
    this.text.set(fn, r);
    return r;
  }
  private readonly text = new Map<string, Region | null>();
}

export { SIGNAL_STRUCT_BYTES };
