/**
 * Pipes (fs/pipe.c): sys_pipe, the pipe's buffer limit, the copies in and out of it and the read
 * ends that asked for SIGIO. Reads and writes are fs/read-write.ts's, select's fs/select.ts's.
 */
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import { TALLY } from "../kernel/tallies.js";
import type { Task } from "../kernel/task.js";
import { File, filesOf, O_ASYNC, Pipe, type FileTable } from "./file.js";

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
