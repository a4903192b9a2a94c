/**
 * i386 system call numbers (include/asm-i386/unistd.h) of the system calls the simulated kernel
 * implements; a workload reaches any of them with `t.syscall(nr, ...)`. A plugin adds a system
 * call in an unused slot (SyscallContribution) — slots that are not here are sys_ni_syscall
 * (-ENOSYS) unless a plugin of the run takes them.
 * @category Constants
 */
export const NR = {
  /** exit(status): end the calling task. */
  exit: 1,
  /** fork(): a child process with a copy of the address space (copy on write). */
  fork: 2,
  /** read(fd, buf, count): read from a pipe end or a device; may sleep. */
  read: 3,
  /** write(fd, buf, count): write to a pipe end or a device; may sleep. */
  write: 4,
  /** open(path, flags): open a device (/dev/null, /dev/zero, /dev/siglab-disk). */
  open: 5,
  /** close(fd). */
  close: 6,
  /** getpid(): the caller's process id (its thread group's id). */
  getpid: 20,
  /** kill(pid, sig): send a signal to a process. */
  kill: 37,
  /** pipe(fds): a pipe's read and write ends. */
  pipe: 42,
  /** fcntl(fd, cmd, arg): F_GETFL, F_SETFL, F_SETOWN, F_SETSIG. */
  fcntl: 55,
  /** getppid(): the parent's process id. */
  getppid: 64,
  /** gettimeofday(tv, tz): the time of day from the simulated clock. */
  gettimeofday: 78,
  /** mmap(addr, len, prot, flags, fd, off): anonymous memory. */
  mmap: 90,
  /** munmap(addr, len). */
  munmap: 91,
  /** wait4(pid, status, options, rusage): wait for a child to exit and reap it. */
  wait4: 114,
  /** sigreturn(): return from a handler of a `sigframe` (restores the interrupted context). */
  sigreturn: 119,
  /** clone(flags, stack): a new task sharing what the flags say (threads: CLONE_VM|CLONE_SIGHAND|...). */
  clone: 120,
  /** mprotect(addr, len, prot): change the protection of pages (flushes their TLB entries). */
  mprotect: 125,
  /** select(n, readfds, writefds, exceptfds, timeout): wait until fds are ready or the timeout passes. */
  _newselect: 142,
  /** sched_yield(): give up the CPU to another runnable task. */
  sched_yield: 158,
  /** nanosleep(req, rem): sleep for a time (woken on the tick after it expires, or by a signal). */
  nanosleep: 162,
  /** rt_sigreturn(): return from a handler of an `rt_sigframe`. */
  rt_sigreturn: 173,
  /** rt_sigaction(sig, act, oact, size): set or read a signal's disposition. */
  rt_sigaction: 174,
  /** rt_sigprocmask(how, set, oset, size): change or read the blocked mask. */
  rt_sigprocmask: 175,
  /** rt_sigpending(set, size): the pending signals that are blocked. */
  rt_sigpending: 176,
  /** rt_sigtimedwait(set, info, timeout, size): dequeue a pending signal of the set, sleeping until one comes. */
  rt_sigtimedwait: 177,
  /** rt_sigqueueinfo(pid, sig, info): send a signal with a value (SI_QUEUE). */
  rt_sigqueueinfo: 178,
  /** rt_sigsuspend(mask, size): set the mask and sleep until a signal is handled. */
  rt_sigsuspend: 179,
  /** sigaltstack(ss, oss): the alternate signal stack (SA_ONSTACK handlers run on it). */
  sigaltstack: 186,
  /** tkill(tid, sig): send a signal to one thread. */
  tkill: 238,
} as const;

/**
 * The name of a system call the simulated kernel implements (a key of NR).
 * @category Constants
 */
export type SyscallName = keyof typeof NR;

/**
 * System call number -> name, for the calls in NR (e.g. `NR_NAME[20]` is "getpid").
 * @category Constants
 */
export const NR_NAME: Record<number, string> = Object.fromEntries(Object.entries(NR).map(([n, v]) => [v, n]));
