/**
 * Open files (include/linux/fs.h struct file, include/linux/file.h files_struct, fs/file_table.c,
 * kernel/fork.c copy_files): a file is a pipe end or a character device, and points to the model's
 * one kind of inode, a pipe's buffer (a device file has an empty one of its own). A task holds its
 * files_struct as Task.files without looking inside; only fs/ reads it.
 */
import type { FilesStruct, Task } from "../kernel/task.js";
import type { Region } from "../machine/cache.js";

export const EBADF = 9;
export const O_NONBLOCK = 0x800;
export const O_ASYNC = 0x2000;

/** pipe_inode_info: the buffer's fill and the pipe's ends, and the tasks sleeping on each side. */
export class Pipe {
  len = 0;
  readers = 1;
  writers = 1;
  readonly readWait: Task[] = [];
  readonly writeWait: Task[] = [];
  /** its inode, pipe_inode_info and buffer page in physical memory (fs/pipe.ts pipeMemory), once used */
  mem: { inode: Region; info: Region; page: Region } | null = null;
}

/** A struct file for a pipe end or a character device (/dev/null, /dev/zero, /dev/siglab-disk). */
export class File {
  flags = 0;
  owner = 0;
  signum = 0;
  refs = 1;
  constructor(readonly pipe: Pipe, readonly mode: "r" | "w" | "rw", readonly dev: "null" | "zero" | "disk" | null = null) {}
}

/** Per-process file table (shared by CLONE_FILES threads). */
export class FileTable implements FilesStruct {
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

/** current->files, made on first use (Task.files; fs/ alone sets it). */
export function filesOf(t: Task): FileTable {
  let ft = t.files as FileTable | null;
  if (!ft) {
    ft = new FileTable();
    t.files = ft;
  }
  return ft;
}
