/**
 * read and write (fs/read_write.c sys_read/sys_write) with the file operations they reach written
 * in: a pipe's (fs/pipe.c pipe_read/pipe_write, sleeping while the buffer is empty or full) and
 * the character devices' (drivers/).
 */
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import { schedule } from "../kernel/sched.js";
import { send_sig_info, EAGAIN, ERESTARTSYS } from "../kernel/signal.js";
import type { Task } from "../kernel/task.js";
import { sleepOn, unqueue, wakeAll } from "../kernel/wait.js";
import { devRead, devWrite } from "../drivers/mem.js";
import { diskRead, diskWrite } from "../drivers/siglab-disk.js";
import { kill_fasync, POLL_IN } from "./fcntl.js";
import { EBADF, filesOf, O_NONBLOCK } from "./file.js";
import { copyLines, EPIPE, PIPE_BUF, PIPE_INODE_LINES, pipeCopyTraffic, readersOf, touchPipe } from "./pipe.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["pipe_read", "pipe_read.done", "pipe_write", "pipe_write.done"]);

export function* sys_read(k: KernelCore, t: Task, fd: number, bytes: number): Generator<unknown, number, unknown> {
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

export function* sys_write(k: KernelCore, t: Task, fd: number, bytes: number): Generator<unknown, number, unknown> {
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
