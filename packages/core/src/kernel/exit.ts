/**
 * Ending a task (kernel/exit.c): do_exit and what it tears down, and sys_wait4, which reports a
 * stopped child and reaps a zombie.
 */
import { markHostThrown } from "../common/host-thrown.js";
import { exit_mm } from "../mm/mmap.js";
import type { KernelCore } from "./core.js";
import { EV } from "./events.js";
import { pathRefs } from "./path-refs.js";
import { forget_tracees, parentOf, wake_up_parent } from "./ptrace.js";
import { del_from_runqueue, schedule } from "./sched.js";
import { send_sig_info } from "./signal.js";
import { PT_PTRACED, type Task } from "./task.js";
import type { Gen } from "./yields.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["__mmdrop", "do_exit", "exit_files", "exit_files.fd", "exit_notify", "exit_notify.task", "exit_sighand", "release_task", "sys_wait4", "sys_wait4.stopped"]);

const ECHILD = 10;
/** wait4 options (linux/wait.h) */
const WNOHANG = 1;
const WUNTRACED = 2;

/** Terminates the task's generator after do_exit (nothing after exit runs). */
export class TaskExit {
  constructor(readonly code: number) {
    markHostThrown(this);
  }
}

/** The children wait4 looks at: our own (unless another task traces them) and the tasks we trace. */
function waitableChildren(k: KernelCore, t: Task): Task[] {
  const out = t.children.filter((c) => c.tracer === null || c.tracer === t);
  for (const c of k.tasks.values()) if (c.tracer === t && !out.includes(c)) out.push(c);
  return out;
}

/**
 * sys_wait4 (kernel/exit.c): a stopped traced child (or any stopped child with WUNTRACED) is
 * reported once; a zombie is reaped (a tracee that is not our child goes back to its parent).
 * Returns the pid, 0 (WNOHANG, nothing yet) or -errno; the status word goes to t.lastStatus.
 */
export function* sys_wait4(k: KernelCore, t: Task, pid: number, options: number): Gen<number> {
  for (;;) {
    k.runRef(P["sys_wait4"]);
    const kids = waitableChildren(k, t).filter((c) => pid === -1 || c.pid === pid);
    if (!kids.length) return -ECHILD;
    for (const c of kids) {
      if (c.stopped && c.stopCode && (options & WUNTRACED || c.ptrace & PT_PTRACED)) {
        k.runRef(P["sys_wait4.stopped"]);
        t.lastStatus = ((c.stopCode & 0xff) << 8) | 0x7f;
        c.stopCode = 0;
        return c.pid;
      }
    }
    const z = kids.find((c) => c.state === "zombie");
    if (z) {
      t.lastReaped = z.exitCode;
      t.lastStatus = z.termSig ? z.termSig & 0x7f : (z.exitCode & 0xff) << 8;
      if (z.tracer === t && z.ppid !== t.pid) {
        // "p_opptr != p_pptr": back to the real parent, which reaps it
        z.tracer = null;
        z.ptrace = 0;
        const real = k.tasks.get(z.ppid);
        if (real) {
          send_sig_info(k, 17, { signo: 17, errno: 0, code: 1, pid: z.pid }, real);
          wake_up_parent(k, real);
        }
        return z.pid;
      }
      k.runRef(P["release_task"]);
      z.state = "dead";
      t.children.splice(t.children.indexOf(z), 1);
      k.tasks.delete(z.pid);
      return z.pid;
    }
    if (options & WNOHANG) return 0;
    t.state = "interruptible";
    t.wakeReason = "";
    t.waitingOn = "wait4";
    yield* schedule(k);
    if (t.sigpending) return -512; // -ERESTARTSYS
  }
}

/**
 * do_exit (kernel/exit.c 2.4): __exit_mm (the mm teardown when this is its last user: exit_mm in
 * mm/mmap.ts), __exit_files (close_files per open descriptor), __exit_fs, exit_sighand,
 * exit_notify (forget_original_parent walks every task; SIGCHLD to the parent + wake its wait4),
 * then schedule away forever (__mmdrop of the mm there).
 */
export function* do_exit(k: KernelCore, t: Task, code: number): Gen<never> {
  // observers read the task as it was (pending signals, mm, files) before anything is torn down
  if (k.events.hasListeners(EV["task.exit"])) k.events.fire(EV["task.exit"], t, code);
  k.runRef(P["do_exit"]);
  if (k.cpu.fpuOwner === t) k.cpu.fpuOwner = null;
  if (t.usedFpu) {
    t.usedFpu = false;
    k.cpu.TS = true;
  }
  exit_mm(k, t);
  k.runRef(P["exit_files"]);
  // the descriptors' references are only charged: a pipe end a child still holds at exit is not closed in the model
  k.runNRef(P["exit_files.fd"], t.files ? t.files.fds.filter((f) => f !== null).length : 0);
  k.runRef(P["exit_sighand"]);
  k.runRef(P["exit_notify"]);
  k.runNRef(P["exit_notify.task"], k.tasks.size);
  t.state = "zombie";
  t.exitCode = code;
  del_from_runqueue(k, t);
  // orphans are reparented to init (pid 1) or just dropped when init is gone; tracees are let go
  for (const c of t.children) c.ppid = 1;
  forget_tracees(k, t);
  const parent = parentOf(k, t);
  if (parent && parent.state !== "zombie" && parent.state !== "dead") {
    if (t.tgid !== t.pid && parent.tgid === t.tgid) {
      // a LinuxThreads thread: no SIGCHLD (clone exit signal 0 via the manager is not modelled)
    } else send_sig_info(k, 17, { signo: 17, errno: 0, code: 1, pid: t.pid }, parent);
    wake_up_parent(k, parent);
  } else {
    t.state = "dead";
    k.tasks.delete(t.pid);
  }
  if (t.mm.users === 0) k.runRef(P["__mmdrop"]);
  yield* schedule(k);
  throw new TaskExit(code);
}
