/** The kernel's and the library's extra work for a mask kept in a user page (op lists). */
import { op, type PathDef } from "@siglab/plugin-api";

export const USER_SIGMASK_PATHS: PathDef[] = [
  {
    name: "user_sigmask.get_user",
    phase: "signal.send",
    origin: "user-sigmask",
    ops: [
      op("recalc_sigpending/dequeue_signal", "load", 1, "tsk->sigmask_uptr"),
      op("recalc_sigpending/dequeue_signal", "put_user", 2, "__get_user(umask.sig[0..1], tsk->sigmask_uptr): the kernel reads the user mask"),
      op("recalc_sigpending/dequeue_signal", "alu", 2, "blocked = tsk->blocked | umask"),
    ],
  },
  {
    name: "user_sigmask.put_user",
    phase: "signal.send",
    origin: "user-sigmask",
    ops: [op("user_sigmask_park", "put_user", 1, "__put_user(parked != 0, &upage->pending): tell the library a signal waits")],
  },
  {
    name: "sys_user_sigmask_register",
    phase: "syscall.body",
    origin: "user-sigmask",
    ops: [
      op("sys_user_sigmask", "alu", 6, "access_ok(VERIFY_WRITE, uptr, 12); find_vma"),
      op("sys_user_sigmask", "store", 1, "current->sigmask_uptr = uptr"),
    ],
  },
  {
    name: "sys_user_sigmask_collect",
    phase: "syscall.body",
    origin: "user-sigmask",
    ops: [op("sys_user_sigmask_collect", "cli", 1, "spin_lock_irq(&current->sigmask_lock)"), op("recalc_sigpending", "alu", 4), op("sys_user_sigmask_collect", "sti", 1)],
  },
  {
    name: "user_sigmask.lib",
    phase: "libc",
    origin: "user-sigmask",
    ops: [op("sigprocmask (user page)", "alu", 4, "SIG_BLOCK / SIG_UNBLOCK / SIG_SETMASK on the loaded words; did it unblock anything?")],
  },
];
