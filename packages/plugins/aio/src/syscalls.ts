/**
 * The five AIO system calls (i386 numbers of 2.6: 245-249) as the model's workloads call them:
 *
 *   io_setup(nr)                              -> ctx id (the ring's user address) or -errno
 *   io_submit(ctx, iocbs[])                   -> number submitted, or -errno for the first iocb
 *   io_getevents(ctx, min_nr, nr, timeoutNs?) -> io_event[] (up to nr, one system call) or -errno
 *   io_destroy(ctx)                           -> 0 (waits for the requests in flight)
 *   io_cancel(ctx, iocb)                      -> -EAGAIN (the disk cannot cancel) or -EINVAL
 *
 * An iocb is { fd, opcode?: IOCB_CMD_PREAD (0) | IOCB_CMD_PWRITE (1), bytes, offset?, data? };
 * a `sigevent` field stands for the reserved field where POSIX signal notification would go.
 */
import type { Gen, Kernel, SyscallContribution, Task } from "@siglab/plugin-api";
import { aio_complete, aioState, KioCtx, lookup_ioctx, type IoEvent, type Kiocb } from "./kioctx.js";

export const NR_io_setup = 245;
export const NR_io_destroy = 246;
export const NR_io_getevents = 247;
export const NR_io_submit = 248;
export const NR_io_cancel = 249;

export const IOCB_CMD_PREAD = 0;
export const IOCB_CMD_PWRITE = 1;

const EINTR = 4, EBADF = 9, EAGAIN = 11, EFAULT = 14, EINVAL = 22;
const PROT_RW = 3;
const PAGE_SIZE = 4096;

function sys_io_setup(k: Kernel, t: Task, args: unknown[]): number {
  const nr = args[0];
  if (typeof nr !== "number" || !Number.isInteger(nr) || nr <= 0) return -EINVAL;
  const s = aioState(k);
  if (nr > s.aioMaxNr || s.aioNr + nr > s.aioMaxNr) return -EAGAIN;
  k.run("ioctx_alloc");
  // aio_setup_ring: (nr + 2) events and the header, rounded up to whole pages
  const pages = Math.ceil((32 + (nr + 2) * 32) / PAGE_SIZE);
  const addr = t.mm.mmapAnon(pages * PAGE_SIZE, PROT_RW);
  k.runN("aio_setup_ring.page", pages);
  k.run("aio_setup_ring.header");
  const ctx = new KioCtx(addr, t.mm, nr, pages);
  s.ctxs.set(addr, ctx);
  s.aioNr += nr;
  k.count("aio.contexts");
  return addr;
}

interface UserIocb {
  fd?: unknown;
  opcode?: unknown;
  bytes?: unknown;
  offset?: unknown;
  data?: unknown;
  sigevent?: unknown;
}

/** io_submit_one: 0 when the request was started, else -errno (nothing was started). */
function io_submit_one(k: Kernel, t: Task, ctx: KioCtx, iocb: UserIocb): number {
  k.run("io_submit_one");
  const s = aioState(k);
  const fd = typeof iocb.fd === "number" ? iocb.fd : -1;
  const opcode = iocb.opcode === undefined ? IOCB_CMD_PREAD : Number(iocb.opcode);
  const refuse = (kind: "sigevent" | "unsupported-file" | "unsupported-opcode", what: string): number => {
    s.refusals.push({ kind, pid: t.pid, fd, opcode, what, cycle: k.cycles });
    k.run("io_submit_one.einval");
    k.count("aio.einval");
    return -EINVAL;
  };
  // aio_reserved2 is where a sigevent would go ("TODO"): a non-zero reserved field is refused
  if (iocb.sigevent !== undefined && iocb.sigevent !== null && iocb.sigevent !== 0) return refuse("sigevent", "iocb asks for a completion signal, but the sigevent field is reserved");
  const bytes = iocb.bytes;
  if (typeof bytes !== "number" || !Number.isInteger(bytes) || bytes < 0) return -EINVAL;
  const f = k.files.file(t, fd);
  if (!f) return -EBADF;
  if (ctx.reqsActive >= ctx.avail()) return -EAGAIN;
  if (opcode !== IOCB_CMD_PREAD && opcode !== IOCB_CMD_PWRITE) return refuse("unsupported-opcode", `opcode ${opcode} has no aio method`);
  // only the disk driver has aio_read/aio_write; pipes and /dev/null, /dev/zero do not
  if (f.dev !== "disk") return refuse("unsupported-file", `fd ${fd} (${f.dev ? `/dev/${f.dev}` : "a pipe"}) has no f_op->${opcode === IOCB_CMD_PREAD ? "aio_read" : "aio_write"}`);
  const req: Kiocb = { obj: ctx.objFor(), data: typeof iocb.data === "number" ? iocb.data : 0, iocb };
  ctx.active.set(iocb, req);
  ctx.reqsActive++;
  k.count("aio.requests");
  k.files.disk().submit(k, bytes, (res) => aio_complete(k, ctx, req, res, 0));
  return 0;
}

function sys_io_submit(k: Kernel, t: Task, args: unknown[]): number {
  const [id, iocbs] = args;
  if (!Array.isArray(iocbs)) return -EFAULT;
  const ctx = lookup_ioctx(k, t, id);
  if (!ctx) return -EINVAL;
  let i = 0;
  let ret = 0;
  for (; i < iocbs.length; i++) {
    const iocb = iocbs[i] as unknown;
    if (!iocb || typeof iocb !== "object") {
      ret = -EFAULT;
      break;
    }
    ret = io_submit_one(k, t, ctx, iocb as UserIocb);
    if (ret) break;
  }
  k.run("sys_io_submit.done");
  return i ? i : ret;
}

/** read_events: up to nr events from the ring in this one call; sleeps until min_nr (or timeout). */
function* sys_io_getevents(k: Kernel, t: Task, args: unknown[]): Gen<IoEvent[] | number> {
  const [id, minArg, nrArg, timeoutNs] = args;
  k.run("sys_io_getevents");
  const min = Number(minArg), nr = Number(nrArg);
  if (!Number.isInteger(min) || !Number.isInteger(nr) || min < 0 || nr < 0 || min > nr) return -EINVAL;
  if (timeoutNs !== undefined && (typeof timeoutNs !== "number" || !(timeoutNs >= 0))) return -EINVAL;
  const ctx = lookup_ioctx(k, t, id);
  if (!ctx) return -EINVAL;
  const events: IoEvent[] = [];
  const readEvt = (): IoEvent | null => {
    const ev = ctx.shift();
    k.run(ev ? "aio_read_evt" : "aio_read_evt.empty");
    return ev;
  };
  // fast path: what is already in the ring
  while (events.length < nr) {
    const ev = readEvt();
    if (!ev) break;
    events.push(ev);
  }
  if (events.length && min <= events.length) return done(k, events);
  if (nr === 0) return events;
  k.run("read_events.sleep");
  let timedOut = timeoutNs === 0;
  if (timeoutNs !== undefined && !timedOut) t.timeoutAt = k.sched.roundUpToTick(k.cycles + Math.ceil(((timeoutNs as number) * k.profile.mhz) / 1000));
  let ret = 0;
  while (events.length < nr) {
    const ev = readEvt();
    if (ev) {
      events.push(ev);
      continue;
    }
    if (events.length && min <= events.length) break;
    if (timedOut) break;
    yield* sleepOn(k, t, ctx.wait, "io_getevents");
    if (t.wakeReason === "timeout") timedOut = true;
    if (t.sigpending) {
      ret = -EINTR;
      break;
    }
  }
  t.timeoutAt = -1;
  k.run("read_events.wake");
  return events.length ? done(k, events) : ret || events;
}

/** Sleep (TASK_INTERRUPTIBLE) on wait queue `q` until woken; the caller re-checks its condition. */
function* sleepOn(k: Kernel, t: Task, q: Task[], what: string): Gen<void> {
  q.push(t);
  t.state = "interruptible";
  t.wakeReason = "";
  t.waitingOn = what;
  yield* k.sched.schedule();
  const i = q.indexOf(t);
  if (i >= 0) q.splice(i, 1);
}

function done(k: Kernel, events: IoEvent[]): IoEvent[] {
  k.count("aio.events_read", events.length);
  k.count("aio.getevents_returns");
  return events;
}

/** io_destroy: unlink, wait for the requests in flight (wait_for_all_aios), unmap the ring. */
function* sys_io_destroy(k: Kernel, t: Task, args: unknown[]): Gen<number> {
  const ctx = lookup_ioctx(k, t, args[0]);
  if (!ctx) return -EINVAL;
  k.run("sys_io_destroy");
  ctx.dead = true;
  // TASK_UNINTERRUPTIBLE in Linux; the model sleeps interruptibly and re-checks
  while (ctx.reqsActive > 0) yield* sleepOn(k, t, ctx.destroyWait, "io_destroy");
  k.run("aio_free_ring");
  t.mm.unmap(ctx.id, ctx.ringBytes);
  const s = aioState(k);
  s.ctxs.delete(ctx.id);
  s.aioNr -= ctx.maxReqs;
  return 0;
}

function sys_io_cancel(k: Kernel, t: Task, args: unknown[]): number {
  const [id, iocb] = args;
  const ctx = lookup_ioctx(k, t, id);
  if (!ctx) return -EINVAL;
  // the disk's requests have no ki_cancel method once started
  return iocb && typeof iocb === "object" && ctx.active.has(iocb) ? -EAGAIN : -EINVAL;
}

export const AIO_SYSCALLS: SyscallContribution[] = [
  { nr: NR_io_setup, name: "io_setup", path: "sys_io_setup", handler: sys_io_setup },
  { nr: NR_io_destroy, name: "io_destroy", blocking: true, handler: sys_io_destroy },
  { nr: NR_io_getevents, name: "io_getevents", blocking: true, handler: sys_io_getevents },
  { nr: NR_io_submit, name: "io_submit", path: "sys_io_submit", handler: sys_io_submit },
  { nr: NR_io_cancel, name: "io_cancel", path: "sys_io_cancel", handler: sys_io_cancel },
];
