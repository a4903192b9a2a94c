/**
 * The AIO context (struct kioctx) and its completion ring (struct aio_ring + io_events), which
 * lives in pages mapped into the owner's address space: the context id is the ring's address.
 * aio_complete writes an event at the tail (from the device interrupt); aio_read_evt takes one
 * from the head. Head and tail are mirrored into user memory, as the real ring is user-readable.
 */
import { stateKey, type Kernel, type Task } from "@siglab/plugin-api";

export const IO_EVENT_BYTES = 32;
export const AIO_RING_HEADER_BYTES = 32;
export const AIO_RING_MAGIC = 0xa10a10a1;
const PAGE_SIZE = 4096;

export interface IoEvent {
  /** the iocb's aio_data, returned untouched */
  data: number;
  /** the user iocb's address */
  obj: number;
  /** bytes transferred or -errno */
  res: number;
  res2: number;
}

/** A submitted request (struct kiocb). */
export interface Kiocb {
  obj: number;
  data: number;
  iocb: object;
}

/** Why io_submit refused an iocb (read by the limit checker). */
export interface AioRefusal {
  kind: "sigevent" | "unsupported-file" | "unsupported-opcode";
  pid: number;
  fd: number;
  opcode: number;
  what: string;
  cycle: number;
}

export class KioCtx {
  /** ring slots after rounding up to whole pages (the trusted info->nr) */
  readonly ringNr: number;
  readonly ringBytes: number;
  head = 0;
  tail = 0;
  reqsActive = 0;
  dead = false;
  readonly active = new Map<object, Kiocb>();
  readonly wait: Task[] = [];
  readonly destroyWait: Task[] = [];
  private nextObj = 0;

  constructor(readonly id: number, readonly mm: Task["mm"], readonly maxReqs: number, readonly pages: number) {
    this.ringBytes = pages * PAGE_SIZE;
    this.ringNr = (this.ringBytes - AIO_RING_HEADER_BYTES) / IO_EVENT_BYTES;
    const w = mm.words;
    w.set(id, id);
    w.set(id + 4, this.ringNr);
    w.set(id + 8, 0);
    w.set(id + 12, 0);
    w.set(id + 16, AIO_RING_MAGIC);
    w.set(id + 20, 1); // compat_features
    w.set(id + 24, 0); // incompat_features
    w.set(id + 28, AIO_RING_HEADER_BYTES);
  }

  /** aio_ring_avail: free slots; one stays empty so that head == tail means empty. */
  avail(): number {
    return (this.head + this.ringNr - 1 - this.tail) % this.ringNr;
  }

  /** A fresh user address for a submitted iocb (the model keeps iocbs as objects). */
  objFor(): number {
    this.nextObj = (this.nextObj + 1) % 0x100000;
    return (0x50000000 + this.nextObj * 64) >>> 0;
  }

  private slotAddr(i: number): number {
    return this.id + AIO_RING_HEADER_BYTES + i * IO_EVENT_BYTES;
  }

  /** Write one io_event at the tail (the caller charged aio_complete). */
  push(ev: IoEvent): void {
    const a = this.slotAddr(this.tail);
    const w = this.mm.words;
    w.set(a, ev.data);
    w.set(a + 8, ev.obj);
    w.set(a + 16, ev.res);
    w.set(a + 24, ev.res2);
    this.tail = (this.tail + 1) % this.ringNr;
    w.set(this.id + 12, this.tail);
  }

  /** Take the event at the head, or null when the ring is empty. */
  shift(): IoEvent | null {
    if (this.head === this.tail) return null;
    const a = this.slotAddr(this.head);
    const w = this.mm.words;
    const ev = { data: w.get(a) ?? 0, obj: w.get(a + 8) ?? 0, res: w.get(a + 16) ?? 0, res2: w.get(a + 24) ?? 0 };
    this.head = (this.head + 1) % this.ringNr;
    w.set(this.id + 8, this.head);
    return ev;
  }
}

/** Per-run AIO state (the kernel's AIO_STATE slot, set by the plugin's kernel setup). */
export class AioState {
  readonly ctxs = new Map<number, KioCtx>();
  /** aio_nr: events reserved by all contexts */
  aioNr = 0;
  readonly refusals: AioRefusal[] = [];
  constructor(readonly aioMaxNr: number) {}
}

export const AIO_STATE = stateKey<AioState | null>("aio.state", () => null);

export function aioState(k: Kernel): AioState {
  const s = k.peekSlot(AIO_STATE);
  if (!s) throw new Error("aio: the plugin's kernel setup did not run (AIO state missing)");
  return s;
}

/** lookup_ioctx: the context must belong to the caller's mm and not be dying. */
export function lookup_ioctx(k: Kernel, t: Task, id: unknown): KioCtx | null {
  k.run("lookup_ioctx");
  const ctx = typeof id === "number" ? aioState(k).ctxs.get(id) : undefined;
  return ctx && ctx.mm === t.mm && !ctx.dead ? ctx : null;
}

/**
 * aio_complete, in the device interrupt: write the io_event into the ring, drop the kiocb, wake
 * one io_getevents sleeper (exclusive wait) and, when the context is being destroyed, its waiter.
 */
export function aio_complete(k: Kernel, ctx: KioCtx, req: Kiocb, res: number, res2: number): void {
  k.run("aio_complete");
  ctx.push({ data: req.data, obj: req.obj, res, res2 });
  ctx.active.delete(req.iocb);
  ctx.reqsActive--;
  k.count("aio.events_completed");
  const w = ctx.wait.shift();
  if (w) {
    w.wakeReason = "aio";
    k.sched.wake_up(w);
  }
  if (ctx.reqsActive === 0) {
    for (const d of ctx.destroyWait.splice(0)) {
      d.wakeReason = "aio";
      k.sched.wake_up(d);
    }
  }
}
