/** i386 system call numbers (include/asm-i386/unistd.h) for the syscalls the model implements. */
export const NR = {
  exit: 1,
  fork: 2,
  read: 3,
  write: 4,
  open: 5,
  close: 6,
  getpid: 20,
  kill: 37,
  pipe: 42,
  fcntl: 55,
  getppid: 64,
  gettimeofday: 78,
  mmap: 90,
  munmap: 91,
  wait4: 114,
  sigreturn: 119,
  clone: 120,
  mprotect: 125,
  _newselect: 142,
  sched_yield: 158,
  nanosleep: 162,
  rt_sigreturn: 173,
  rt_sigaction: 174,
  rt_sigprocmask: 175,
  rt_sigpending: 176,
  rt_sigtimedwait: 177,
  rt_sigqueueinfo: 178,
  rt_sigsuspend: 179,
  sigaltstack: 186,
  tkill: 238,
} as const;

export type SyscallName = keyof typeof NR;

export const NR_NAME: Record<number, string> = Object.fromEntries(Object.entries(NR).map(([n, v]) => [v, n]));
