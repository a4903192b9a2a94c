/**
 * open and close (fs/open.c): open() of the character devices the model has, close() of any
 * descriptor (the last reader or writer of a pipe wakes the other side).
 */
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import type { Task } from "../kernel/task.js";
import { wakeAll } from "../kernel/wait.js";
import { DISK_PATH } from "../drivers/siglab-disk.js";
import { EBADF, File, filesOf, Pipe } from "./file.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["sys_close", "sys_open"]);

export const ENOENT = 2;

/** open() of the character devices the model has. */
export function sys_open(k: KernelCore, t: Task, path: string): number {
  k.runRef(P["sys_open"]);
  const dev = path === "/dev/null" ? "null" : path === "/dev/zero" ? "zero" : path === DISK_PATH ? "disk" : null;
  if (!dev) return -ENOENT;
  return filesOf(t).alloc(new File(new Pipe(), "rw", dev));
}

export function sys_close(k: KernelCore, t: Task, fd: number): number {
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
