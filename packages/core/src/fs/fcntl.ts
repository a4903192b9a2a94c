/**
 * fcntl (fs/fcntl.c): F_GETFL/F_SETFL (O_NONBLOCK, O_ASYNC), F_SETOWN and F_SETSIG, and the SIGIO
 * an O_ASYNC file sends its owner (kill_fasync -> send_sigio; F_SETSIG queues an RT signal with si_fd).
 */
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import { send_sig_info, EAGAIN, EINVAL } from "../kernel/signal.js";
import type { Task } from "../kernel/task.js";
import { EBADF, File, filesOf, O_ASYNC, O_NONBLOCK } from "./file.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["send_sigio", "sys_fcntl"]);

export const F_GETFL = 3;
export const F_SETFL = 4;
export const F_SETOWN = 8;
export const F_SETSIG = 10;
export const POLL_IN = 1;
export const POLL_OUT = 2;

/** kill_fasync -> send_sigio: one signal per event (F_SETSIG queues an RT signal with si_fd). */
export function kill_fasync(k: KernelCore, f: File, fd: number, band: number): void {
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

export function sys_fcntl(k: KernelCore, t: Task, fd: number, cmd: number, arg: number): number {
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
