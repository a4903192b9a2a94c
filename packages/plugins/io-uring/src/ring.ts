/**
 * The io_uring instance (struct io_ring_ctx) and its rings (struct io_rings + the SQE array), which
 * live in pages mapped into the owner's address space: the program and the kernel read and write
 * the same words. Layout (io_uring/io_uring.c io_uring_fill_params, include/linux/io_uring_types.h
 * struct io_rings, include/uapi/linux/io_uring.h struct io_uring_sqe / io_uring_cqe), offsets from
 * the rings' address R, which the model returns as the ring "fd":
 *
 *   R+0  sq.head (kernel writes, smp_store_release)   R+4  sq.tail (program writes)
 *   R+8  cq.head (program writes)                     R+12 cq.tail (kernel writes, smp_store_release)
 *   R+16 sq_ring_mask  R+20 cq_ring_mask  R+24 sq_ring_entries  R+28 cq_ring_entries
 *   R+32 sq_dropped    R+36 sq_flags (IORING_SQ_NEED_WAKEUP 1, IORING_SQ_CQ_OVERFLOW 2)
 *   R+40 cq_flags      R+44 cq_overflow
 *   R+48 (model only) the SQE array's address: what mmap(IORING_OFF_SQES) would return
 *   R+64 cqes[cq_entries], 16 bytes each: +0 user_data, +8 res, +12 flags
 *   R+sqArrayOff  sq_array[sq_entries], u32 SQE indices (sqArrayOff = ALIGN(64 + 16 x cq_entries, 64))
 *
 * SQE (64 bytes) words the model reads: +0 opcode, +4 fd, +8 off, +16 addr, +24 len, +32 user_data.
 */
import { stateKey, type Kernel, type Task } from "@siglab/plugin-api";

export const PAGE_SIZE = 4096;
export const SQE_BYTES = 64;
export const CQE_BYTES = 16;
export const CQES_OFFSET = 64;

export const OFF = {
  sqHead: 0,
  sqTail: 4,
  cqHead: 8,
  cqTail: 12,
  sqRingMask: 16,
  cqRingMask: 20,
  sqRingEntries: 24,
  cqRingEntries: 28,
  sqDropped: 32,
  sqFlags: 36,
  cqFlags: 40,
  cqOverflow: 44,
  sqesAddr: 48,
  cqes: CQES_OFFSET,
} as const;

export const SQE = { opcode: 0, fd: 4, off: 8, addr: 16, len: 24, userData: 32 } as const;
export const CQE = { userData: 0, res: 8, flags: 12 } as const;

export const IORING_SQ_NEED_WAKEUP = 1;
export const IORING_SQ_CQ_OVERFLOW = 2;

/** A request in flight (struct io_kiocb). */
export interface IoKiocb {
  userData: number;
  res: number;
  /** the task whose task_work posts the CQE (req->tctx->task; the SQ thread with SQPOLL) */
  task: Task;
}

/** A task sleeping in io_cqring_wait. */
export interface CqWaiter {
  task: Task;
  /** iowq.cq_tail: the cq.head at the start of the wait + min_complete */
  minEvents: number;
}

/** The SQPOLL thread (struct io_sq_data + its task), on a CPU of its own (see sqpoll.ts). */
export interface SqThread {
  /** sq_thread_idle in cycles */
  readonly idleCycles: number;
  awake: boolean;
  /** the cycle it last found work (timeout = that + sq_thread_idle) */
  lastActive: number;
  /** the cycle it woke last (for its CPU time) */
  awakeSince: number;
  /** cycles it ran on its CPU, awake (spinning or working) */
  awakeCycles: number;
  /** cycles of its work (submission, task_work), op by op from the profile's costs */
  workCycles: number;
}

export class IoRing {
  readonly sqEntries: number;
  readonly cqEntries: number;
  readonly sqArrayOff: number;
  readonly ringBytes: number;
  readonly sqesBytes: number;
  /** ctx->cached_sq_head: the SQEs the kernel consumed */
  cachedSqHead = 0;
  /** ctx->cached_cq_tail */
  cachedCqTail = 0;
  /** CQEs that did not fit (IORING_FEAT_NODROP: ctx->cq_overflow_list) */
  readonly overflow: IoKiocb[] = [];
  inflight = 0;
  readonly cqWait: CqWaiter[] = [];
  readonly sq: SqThread | null;

  constructor(
    readonly id: number,
    readonly sqes: number,
    readonly mm: Task["mm"],
    /** the task that set the ring up: the SQ thread submits with its files (ctx->sq_data's task) */
    readonly owner: Task,
    sqEntries: number,
    sqIdleCycles: number | null,
    now: number,
  ) {
    this.sqEntries = sqEntries;
    this.cqEntries = 2 * sqEntries;
    this.sqArrayOff = Math.ceil((CQES_OFFSET + CQE_BYTES * this.cqEntries) / 64) * 64;
    this.ringBytes = Math.ceil((this.sqArrayOff + 4 * sqEntries) / PAGE_SIZE) * PAGE_SIZE;
    this.sqesBytes = Math.ceil((SQE_BYTES * sqEntries) / PAGE_SIZE) * PAGE_SIZE;
    this.sq = sqIdleCycles === null ? null : { idleCycles: sqIdleCycles, awake: true, lastActive: now, awakeSince: now, awakeCycles: 0, workCycles: 0 };
    const w = mm.words;
    for (const k of Object.values(OFF)) w.set(id + k, 0);
    w.set(id + OFF.sqRingMask, sqEntries - 1);
    w.set(id + OFF.cqRingMask, this.cqEntries - 1);
    w.set(id + OFF.sqRingEntries, sqEntries);
    w.set(id + OFF.cqRingEntries, this.cqEntries);
    w.set(id + OFF.sqesAddr, sqes);
  }

  word(off: number): number {
    return this.mm.words.get(this.id + off) ?? 0;
  }

  setWord(off: number, v: number): void {
    this.mm.words.set(this.id + off, v);
  }

  /** io_sqring_entries: smp_load_acquire(&rings->sq.tail) - cached_sq_head, at most sq_entries. */
  sqEntriesReady(): number {
    const tail = this.word(OFF.sqTail) >>> 0;
    return Math.min(Math.max(0, (tail - this.cachedSqHead) >>> 0), this.sqEntries);
  }

  /**
   * io_get_sqe: the SQE the next sq_array slot names, or null when the index is out of range (the
   * kernel drops it and counts sq_dropped).
   */
  nextSqe(): { opcode: number; fd: number; len: number; off: number; userData: number } | null {
    const slot = this.cachedSqHead++ & (this.sqEntries - 1);
    const idx = this.word(this.sqArrayOff + 4 * slot) >>> 0;
    if (idx >= this.sqEntries) {
      this.setWord(OFF.sqDropped, this.word(OFF.sqDropped) + 1);
      return null;
    }
    const a = this.sqes + idx * SQE_BYTES;
    const w = this.mm.words;
    return { opcode: w.get(a + SQE.opcode) ?? 0, fd: w.get(a + SQE.fd) ?? 0, len: w.get(a + SQE.len) ?? 0, off: w.get(a + SQE.off) ?? 0, userData: w.get(a + SQE.userData) ?? 0 };
  }

  /** io_commit_sqring: smp_store_release(&rings->sq.head, cached_sq_head). */
  commitSq(): void {
    this.setWord(OFF.sqHead, this.cachedSqHead >>> 0);
  }

  /** CQEs in the ring the program has not consumed: cached_cq_tail - cq.head (what io_cqring_events reads). */
  cqEventsUser(): number {
    return (this.word(OFF.cqTail) - this.word(OFF.cqHead)) >>> 0;
  }

  /** io_get_cqe + io_fill_cqe_req: false when the CQ ring is full (the request goes to overflow). */
  fillCqe(req: IoKiocb): boolean {
    const head = this.word(OFF.cqHead) >>> 0;
    if (((this.cachedCqTail - head) >>> 0) >= this.cqEntries) return false;
    const a = this.id + CQES_OFFSET + (this.cachedCqTail & (this.cqEntries - 1)) * CQE_BYTES;
    const w = this.mm.words;
    w.set(a + CQE.userData, req.userData);
    w.set(a + CQE.res, req.res);
    w.set(a + CQE.flags, 0);
    this.cachedCqTail = (this.cachedCqTail + 1) >>> 0;
    return true;
  }

  /** io_commit_cqring: smp_store_release(&rings->cq.tail, cached_cq_tail). */
  commitCq(): void {
    this.setWord(OFF.cqTail, this.cachedCqTail);
  }

  setSqFlag(bit: number, on: boolean): void {
    const f = this.word(OFF.sqFlags);
    this.setWord(OFF.sqFlags, on ? f | bit : f & ~bit);
  }
}

/** Per-run io_uring state (the kernel's slot, set by the plugin's kernel setup). */
export class UringState {
  readonly rings = new Map<number, IoRing>();
  /** SQPOLL rings by the address of their sq.tail word (the SQ thread watches it) */
  readonly sqTails = new Map<number, IoRing>();
  readonly refusals: { pid: number; what: string; cycle: number }[] = [];
}

export const URING_STATE = stateKey<UringState | null>("io-uring.state", () => null);

/** The task_work io_complete_rw queued on a task (tctx->task_list), with the ring of each request. */
export const TASK_WORK = stateKey<{ ring: IoRing; req: IoKiocb }[]>("io-uring.task_list", () => []);

export function uringState(k: Kernel): UringState {
  const s = k.peekSlot(URING_STATE);
  if (!s) throw new Error("plugin 'io-uring': the plugin's kernel setup did not run (io_uring state missing)");
  return s;
}

/** fdget + io_is_uring_fops: the ring must belong to the caller's address space. */
export function ringOf(k: Kernel, t: Task, fd: unknown): IoRing | null {
  const r = typeof fd === "number" ? uringState(k).rings.get(fd) : undefined;
  return r && r.mm === t.mm ? r : null;
}
