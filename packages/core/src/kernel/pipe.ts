/**
 * Pipes with blocking and wake-ups (fs/pipe.c), file descriptors, fcntl O_ASYNC/F_SETOWN/F_SETSIG
 * with SIGIO generation (fs/fcntl.c send_sigio) and select (fs/select.c).
 */
import { TALLY } from "./tallies.js";
import { DISK_PATH, DISK_RECORD_BYTES, submitToDisk } from "./device.js";
import { schedule } from "./sched.js";
import type { Kernel } from "./kernel.js";
import { send_sig_info, EAGAIN, EINVAL, ERESTARTSYS } from "./signal.js";
import type { Task } from "./task.js";
import { pathRefs } from "./path-refs.js";
import type { Region } from "../machine/cache.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["__wake_up", "add_wait_queue", "copy.pipe.io", "copy.pipe.io.setup", "dev_read", "dev_write", "pipe_read", "pipe_read.done", "pipe_write", "pipe_write.done", "remove_wait_queue", "select.done", "select.poll_fd", "send_sigio", "siglab_disk.record", "siglab_disk_read", "siglab_disk_write", "sys_close", "sys_fcntl", "sys_open", "sys_pipe", "sys_select"]);

export const PIPE_BUF = 4096;
export const EBADF = 9;
export const EPIPE = 32;
export const O_NONBLOCK = 0x800;
export const O_ASYNC = 0x2000;
export const F_GETFL = 3;
export const F_SETFL = 4;
export const F_SETOWN = 8;
export const F_SETSIG = 10;
export const POLL_IN = 1;
export const POLL_OUT = 2;

export class Pipe {
  len = 0;
  readers = 1;
  writers = 1;
  readonly readWait: Task[] = [];
  readonly writeWait: Task[] = [];
  /** its inode, pipe_inode_info and buffer page in physical memory (footprint.ts), once used */
  mem: { inode: Region; info: Region; page: Region } | null = null;
}

/** struct inode is 464 bytes in 2.4.16; the pipe code uses i_sem and i_pipe, a line or two of it */
const PIPE_INODE_HOT_BYTES = 64;
/** struct pipe_inode_info: wait queue head, base, len, start, readers, writers... (44 bytes UP) */
const PIPE_INFO_BYTES = 48;

/** The pipe's memory: the inode and pipe_inode_info from their slabs, the buffer a page of its own. */
function pipeMemory(k: Kernel, p: Pipe): NonNullable<Pipe["mem"]> {
  return (p.mem ??= { inode: k.foot.object("inode_cache", PIPE_INODE_HOT_BYTES), info: k.foot.object("pipe_inode_info", PIPE_INFO_BYTES), page: k.foot.page("pipe buffer") });
}

/**
 * The user buffer of a read or write: below the task's stack pointer (each thread its own), as a
 * program's local buffer would be.
 */
function userBuffer(k: Kernel, t: Task, bytes: number): Region {
  return k.foot.user(t.mm.asid, ((t.regs.esp - 0x2000 - bytes) & ~31) >>> 0, bytes);
}

/** The pipe's inode and pipe_inode_info (i_sem, the wait queue, len, start) read and written. */
function touchPipe(k: Kernel, p: Pipe): void {
  if (k.cpu.caches === null) return;
  const m = pipeMemory(k, p);
  k.touch(m.inode, true);
  k.touch(m.info, true);
}

/** copy_to_user / copy_from_user of `n` bytes between the pipe's page and the task's buffer. */
function pipeCopyTraffic(k: Kernel, t: Task, p: Pipe, n: number, toUser: boolean): void {
  if (k.cpu.caches === null || n <= 0) return;
  const page = pipeMemory(k, p).page;
  const buf = userBuffer(k, t, Math.min(n, 65536));
  const pipeBytes = k.foot.span(page, Math.min(n, PIPE_BUF));
  if (toUser) k.copyTraffic(pipeBytes, buf);
  else k.copyTraffic(buf, pipeBytes);
}

/** A struct file for a pipe end or a character device (/dev/null, /dev/zero, /dev/siglab-disk). */
export class File {
  flags = 0;
  owner = 0;
  signum = 0;
  refs = 1;
  constructor(readonly pipe: Pipe, readonly mode: "r" | "w" | "rw", readonly dev: "null" | "zero" | "disk" | null = null) {}
}

export const ENOENT = 2;

/** open() of the character devices the model has. */
export function sys_open(k: Kernel, t: Task, path: string): number {
  k.runRef(P["sys_open"]);
  const dev = path === "/dev/null" ? "null" : path === "/dev/zero" ? "zero" : path === DISK_PATH ? "disk" : null;
  if (!dev) return -ENOENT;
  return filesOf(t).alloc(new File(new Pipe(), "rw", dev));
}

/** Per-process file table (shared by CLONE_FILES threads). */
export class FileTable {
  readonly fds: (File | null)[] = [null, null, null];
  alloc(f: File): number {
    let i = this.fds.indexOf(null, 3);
    if (i < 0) {
      i = this.fds.length;
      this.fds.push(f);
    } else this.fds[i] = f;
    return i;
  }
  get(fd: number): File | null {
    return this.fds[fd] ?? null;
  }
  clone(): FileTable {
    const c = new FileTable();
    c.fds.length = 0;
    for (const f of this.fds) {
      if (f && !f.dev) {
        f.refs++;
        if (f.mode === "r") f.pipe.readers++;
        else f.pipe.writers++;
      }
      c.fds.push(f);
    }
    return c;
  }
}

export function filesOf(t: Task): FileTable {
  let ft = t.files;
  if (!ft) {
    ft = new FileTable();
    t.files = ft;
  }
  return ft;
}

export function sys_pipe(k: Kernel, t: Task): [number, number] {
  k.runRef(P["sys_pipe"]);
  const p = new Pipe();
  const ft = filesOf(t);
  return [ft.alloc(new File(p, "r")), ft.alloc(new File(p, "w"))];
}

/** SMP: lines of the pipe's inode a read or write writes (i_sem, pipe_inode_info, its wait queue heads). */
const PIPE_INODE_LINES = 2;

function wakeAll(k: Kernel, q: Task[]): void {
  k.runRef(P["__wake_up"]);
  while (q.length) {
    const w = q.shift()!;
    w.wakeReason = "data";
    k.wakeUp(w);
  }
}

/** kill_fasync -> send_sigio: one signal per event (F_SETSIG queues an RT signal with si_fd). */
function kill_fasync(k: Kernel, f: File, fd: number, band: number): void {
  if (!(f.flags & O_ASYNC) || !f.owner) return;
  k.runRef(P["send_sigio"]);
  const t = k.tasks.get(f.owner);
  if (!t) return;
  const sig = f.signum || 29;
  const info = f.signum ? { signo: sig, errno: 0, code: band, band, fd } : { signo: 29, errno: 0, code: 0x80 };
  const r = send_sig_info(k, sig, info, t);
  if (r === -EAGAIN) send_sig_info(k, 29, { signo: 29, errno: 0, code: 0x80 }, t); // queue overflow: plain SIGIO
  k.count("signals.sigio");
}

function sleepOn(k: Kernel, t: Task, q: Task[]): void {
  k.runRef(P["add_wait_queue"]);
  t.state = "interruptible";
  t.wakeReason = "";
  q.push(t);
}

function unqueue(k: Kernel, t: Task, q: Task[]): void {
  const i = q.indexOf(t);
  if (i >= 0) q.splice(i, 1);
  k.runRef(P["remove_wait_queue"]);
}

function copyLines(k: Kernel, bytes: number): void {
  k.runRef(P["copy.pipe.io.setup"]);
  k.runNRef(P["copy.pipe.io"], Math.ceil(bytes / k.profile.cacheLineBytes));
  k.tally(TALLY.bytes_copied, bytes);
}

export function* sys_read(k: Kernel, t: Task, fd: number, bytes: number): Generator<unknown, number, unknown> {
  const f = filesOf(t).get(fd);
  if (f?.dev === "disk") return yield* diskRead(k, t, f, bytes);
  if (f?.dev) return devRead(k, f, bytes);
  if (!f || f.mode !== "r") return -EBADF;
  const p = f.pipe;
  k.runRef(P["pipe_read"]);
  touchPipe(k, p);
  k.lines.touch(k, p, PIPE_INODE_LINES);
  while (p.len === 0) {
    if (p.writers === 0) return 0;
    if (f.flags & O_NONBLOCK) return -EAGAIN;
    sleepOn(k, t, p.readWait);
    yield* schedule(k);
    unqueue(k, t, p.readWait);
    if (t.sigpending) return -ERESTARTSYS;
  }
  const n = Math.min(bytes, p.len);
  pipeCopyTraffic(k, t, p, n, true);
  copyLines(k, n);
  k.lines.touch(k, p.readWait, Math.ceil(n / k.profile.cacheLineBytes)); // the buffer's lines the writer filled
  p.len -= n;
  k.runRef(P["pipe_read.done"]);
  if (p.writeWait.length) wakeAll(k, p.writeWait);
  return n;
}

export function* sys_write(k: Kernel, t: Task, fd: number, bytes: number): Generator<unknown, number, unknown> {
  const ft = filesOf(t);
  const f = ft.get(fd);
  if (f?.dev === "disk") return diskWrite(k, f, fd, bytes);
  if (f?.dev) return devWrite(k, f, bytes);
  if (!f || f.mode !== "w") return -EBADF;
  const p = f.pipe;
  k.runRef(P["pipe_write"]);
  touchPipe(k, p);
  k.lines.touch(k, p, PIPE_INODE_LINES);
  let written = 0;
  while (written < bytes) {
    if (p.readers === 0) {
      send_sig_info(k, 13, { signo: 13, errno: 0, code: 0 }, t);
      return written || -EPIPE;
    }
    const free = PIPE_BUF - p.len;
    if (free === 0) {
      if (f.flags & O_NONBLOCK) return written || -EAGAIN;
      if (p.readWait.length) wakeAll(k, p.readWait);
      sleepOn(k, t, p.writeWait);
      yield* schedule(k);
      unqueue(k, t, p.writeWait);
      if (t.sigpending) return written || -ERESTARTSYS;
      continue;
    }
    const n = Math.min(free, bytes - written);
    pipeCopyTraffic(k, t, p, n, false);
    copyLines(k, n);
    k.lines.touch(k, p.readWait, Math.ceil(n / k.profile.cacheLineBytes)); // the buffer's lines, last read on the reader's CPU
    p.len += n;
    written += n;
    k.runRef(P["pipe_write.done"]);
    if (p.readWait.length) wakeAll(k, p.readWait);
    // readers that asked for SIGIO on the other end
    for (const [rfd, rf] of readersOf(k, p)) kill_fasync(k, rf, rfd, POLL_IN);
  }
  return written;
}

/** The read ends of a pipe with O_ASYNC set, across all tasks' file tables (for send_sigio). */
function readersOf(k: Kernel, p: Pipe): [number, File][] {
  const out: [number, File][] = [];
  const seen = new Set<File>();
  for (const t of k.tasks.values()) {
    const ft = t.files;
    if (!ft) continue;
    ft.fds.forEach((f, fd) => {
      if (f && f.pipe === p && f.mode === "r" && f.flags & O_ASYNC && !seen.has(f)) {
        seen.add(f);
        out.push([fd, f]);
      }
    });
  }
  return out;
}

/** read_zero: clear_user of the buffer; read_null: EOF. */
function devRead(k: Kernel, f: File, bytes: number): number {
  k.runRef(P["dev_read"]);
  if (f.dev === "null") return 0;
  k.runRef(P["copy.pipe.io.setup"]);
  k.runNRef(P["copy.pipe.io"], Math.ceil(bytes / k.profile.cacheLineBytes));
  k.tally(TALLY.bytes_copied, bytes);
  return bytes;
}

/**
 * write() on /dev/siglab-disk starts one request of `bytes` and returns at once (the data goes by
 * DMA). Its completion interrupt makes a 32-byte record readable, wakes readers and sends
 * SIGIO (or the F_SETSIG signal with si_fd) to the owner, as a 2.4 driver does with kill_fasync.
 */
function diskWrite(k: Kernel, f: File, fd: number, bytes: number): number {
  k.runRef(P["siglab_disk_write"]);
  if (!(bytes > 0)) return -EINVAL;
  submitToDisk(k, bytes, () => {
    k.runRef(P["siglab_disk.record"]);
    f.pipe.len += DISK_RECORD_BYTES;
    if (f.pipe.readWait.length) wakeAll(k, f.pipe.readWait);
    kill_fasync(k, f, fd, POLL_IN);
  });
  return bytes;
}

/** read() on the disk: whole completion records; sleeps until one is there (unless O_NONBLOCK). */
function* diskRead(k: Kernel, t: Task, f: File, bytes: number): Generator<unknown, number, unknown> {
  k.runRef(P["siglab_disk_read"]);
  const p = f.pipe;
  if (bytes < DISK_RECORD_BYTES) return -EINVAL;
  while (p.len === 0) {
    if (f.flags & O_NONBLOCK) return -EAGAIN;
    sleepOn(k, t, p.readWait);
    yield* schedule(k);
    unqueue(k, t, p.readWait);
    if (t.sigpending) return -ERESTARTSYS;
  }
  const n = Math.min(p.len, bytes - (bytes % DISK_RECORD_BYTES));
  copyLines(k, n);
  p.len -= n;
  return n;
}

/** write_null: returns count without touching the data; /dev/zero likewise. */
function devWrite(k: Kernel, _f: File, bytes: number): number {
  k.runRef(P["dev_write"]);
  return bytes;
}

export function sys_close(k: Kernel, t: Task, fd: number): number {
  k.runRef(P["sys_close"]);
  const ft = filesOf(t);
  const f = ft.get(fd);
  if (!f) return -EBADF;
  ft.fds[fd] = null;
  if (f.dev) return 0;
  if (f.mode === "r") f.pipe.readers--;
  else f.pipe.writers--;
  if (f.mode === "w" && f.pipe.writers === 0) wakeAll(k, f.pipe.readWait);
  if (f.mode === "r" && f.pipe.readers === 0) wakeAll(k, f.pipe.writeWait);
  return 0;
}

export function sys_fcntl(k: Kernel, t: Task, fd: number, cmd: number, arg: number): number {
  k.runRef(P["sys_fcntl"]);
  const f = filesOf(t).get(fd);
  if (!f) return -EBADF;
  switch (cmd) {
    case F_GETFL:
      return f.flags;
    case F_SETFL:
      f.flags = arg & (O_NONBLOCK | O_ASYNC);
      return 0;
    case F_SETOWN:
      f.owner = arg;
      return 0;
    case F_SETSIG:
      if (arg < 0 || arg > 64) return -EINVAL;
      f.signum = arg;
      return 0;
    default:
      return -EINVAL;
  }
}

// /dev/zero and /dev/null are always ready (their poll returns POLLIN|POLLOUT)
function alwaysReady(f: File): boolean {
  return f.dev === "null" || f.dev === "zero";
}
function readable(f: File): boolean {
  return alwaysReady(f) || f.pipe.len > 0 || f.pipe.writers === 0;
}
function writable(f: File): boolean {
  // the disk queues every write (its records are not a pipe's buffer)
  return alwaysReady(f) || f.dev === "disk" || f.pipe.len < PIPE_BUF || f.pipe.readers === 0;
}

/** select(): poll each fd; sleep on all their wait queues until one is ready, a signal, or timeout. */
export function* sys_select(k: Kernel, t: Task, rfds: number[], wfds: number[], timeoutNs: number | undefined): Generator<unknown, { readable: number[]; writable: number[] } | number, unknown> {
  k.runRef(P["sys_select"]);
  const ft = filesOf(t);
  for (const fd of [...rfds, ...wfds]) if (!ft.get(fd)) return -EBADF;
  const deadline = timeoutNs === undefined ? -1 : k.cycles + Math.ceil((timeoutNs * k.profile.mhz) / 1000);
  for (;;) {
    const r = rfds.filter((fd) => { k.runRef(P["select.poll_fd"]); return readable(ft.get(fd)!); });
    const w = wfds.filter((fd) => { k.runRef(P["select.poll_fd"]); return writable(ft.get(fd)!); });
    if (r.length || w.length || timeoutNs === 0 || (deadline >= 0 && k.cycles >= deadline)) {
      k.runRef(P["select.done"]);
      return { readable: r, writable: w };
    }
    const queues = [...rfds.map((fd) => ft.get(fd)!.pipe.readWait), ...wfds.map((fd) => ft.get(fd)!.pipe.writeWait)];
    for (const q of queues) sleepOn(k, t, q);
    if (deadline >= 0) t.timeoutAt = roundUpToTick(k, deadline);
    yield* schedule(k);
    t.timeoutAt = -1;
    for (const q of queues) unqueue(k, t, q);
    if (t.sigpending) return -ERESTARTSYS;
  }
}

/** schedule_timeout sleeps are tick based: wake at the first tick at or after the deadline. */
export function roundUpToTick(k: Kernel, at: number): number {
  return k.tickAtOrAfter(at);
}
