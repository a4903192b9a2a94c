/**
 * Pipes (fs/pipe.c): sys_pipe, the pipe's buffer limit, the copies in and out of it and the read
 * ends that asked for SIGIO. Reads and writes are fs/read-write.ts's, select's fs/select.ts's.
 */
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import { TALLY } from "../kernel/tallies.js";
import type { Task } from "../kernel/task.js";
import { File, filesOf, O_ASYNC, Pipe, type FileTable } from "./file.js";
import type { Region } from "../machine/cache.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["copy.pipe.io", "copy.pipe.io.setup", "sys_pipe"]);

export const PIPE_BUF = 4096;
export const EPIPE = 32;

export function sys_pipe(k: KernelCore, t: Task): [number, number] {
  k.runRef(P["sys_pipe"]);
  const p = new Pipe();
  const ft = filesOf(t);
  return [ft.alloc(new File(p, "r")), ft.alloc(new File(p, "w"))];
}

/** SMP: lines of the pipe's inode a read or write writes (i_sem, pipe_inode_info, its wait queue heads). */
export const PIPE_INODE_LINES = 2;

/** copy_to_user / copy_from_user of `bytes` between a user buffer and the pipe's (or a device's) */
export function copyLines(k: KernelCore, bytes: number): void {
  k.runRef(P["copy.pipe.io.setup"]);
  k.runNRef(P["copy.pipe.io"], Math.ceil(bytes / k.profile.cacheLineBytes));
  k.tally(TALLY.bytes_copied, bytes);
}

/** struct inode is 464 bytes in 2.4.16; the pipe code uses i_sem and i_pipe, a line or two of it */
const PIPE_INODE_HOT_BYTES = 64;
/** struct pipe_inode_info: wait queue head, base, len, start, readers, writers... (44 bytes UP) */
const PIPE_INFO_BYTES = 48;

/** The pipe's memory: the inode and pipe_inode_info from their slabs, the buffer a page of its own. */
function pipeMemory(k: KernelCore, p: Pipe): NonNullable<Pipe["mem"]> {
  return (p.mem ??= { inode: k.foot.object("inode_cache", PIPE_INODE_HOT_BYTES), info: k.foot.object("pipe_inode_info", PIPE_INFO_BYTES), page: k.foot.page("pipe buffer") });
}

/**
 * The user buffer of a read or write: below the task's stack pointer (each thread its own), as a
 * program's local buffer would be.
 */
function userBuffer(k: KernelCore, t: Task, bytes: number): Region {
  return k.foot.user(t.mm.asid, ((t.regs.esp - 0x2000 - bytes) & ~31) >>> 0, bytes);
}

/** The pipe's inode and pipe_inode_info (i_sem, the wait queue, len, start) read and written. */
export function touchPipe(k: KernelCore, p: Pipe): void {
  if (k.cpu.caches === null) return;
  const m = pipeMemory(k, p);
  k.touch(m.inode, true);
  k.touch(m.info, true);
}

/** copy_to_user / copy_from_user of `n` bytes between the pipe's page and the task's buffer: their lines through the caches. */
export function pipeCopyTraffic(k: KernelCore, t: Task, p: Pipe, n: number, toUser: boolean): void {
  if (k.cpu.caches === null || n <= 0) return;
  const page = pipeMemory(k, p).page;
  const buf = userBuffer(k, t, Math.min(n, 65536));
  const pipeBytes = k.foot.span(page, Math.min(n, PIPE_BUF));
  if (toUser) k.copyTraffic(pipeBytes, buf);
  else k.copyTraffic(buf, pipeBytes);
}

/** The read ends of a pipe with O_ASYNC set, across all tasks' file tables (for send_sigio). */
export function readersOf(k: KernelCore, p: Pipe): [number, File][] {
  const out: [number, File][] = [];
  const seen = new Set<File>();
  for (const t of k.tasks.values()) {
    const ft = t.files as FileTable | null;
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
