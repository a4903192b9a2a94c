/** Linux i386 ABI constants the simulated kernel and its plugins share (values as in Linux 2.4). */

// sa_flags

/**
 * sa_flags: the handler takes three arguments (signal, siginfo, ucontext) and the kernel builds
 * an `rt_sigframe` instead of a `sigframe`.
 * @category Constants
 */
export const SA_SIGINFO = 0x4;
/**
 * sa_flags: Andi Kleen's SA_NOFP proposal — the handler promises not to touch the FPU, so the
 * kernel may skip saving the FPU state into the frame (honoured only by the sa-nofp plugin).
 * @category Constants
 */
export const SA_NOFP = 0x02000000;
/**
 * sa_flags: `sa_restorer` holds the address sigreturn starts from (glibc always sets it; without
 * it the frame's retcode is used).
 * @category Constants
 */
export const SA_RESTORER = 0x04000000;
/**
 * sa_flags: run the handler on the alternate signal stack (sigaltstack) when one is set up.
 * @category Constants
 */
export const SA_ONSTACK = 0x08000000;
/**
 * sa_flags: a system call the signal interrupted is restarted after the handler (ERESTARTSYS
 * becomes a restart instead of EINTR).
 * @category Constants
 */
export const SA_RESTART = 0x10000000;
/**
 * sa_flags: the signal is not added to the mask while its own handler runs (it may nest).
 * @category Constants
 */
export const SA_NODEFER = 0x40000000;
/**
 * sa_flags: the disposition goes back to the default once the handler has been entered (one shot).
 * @category Constants
 */
export const SA_RESETHAND = 0x80000000;

// si_code

/**
 * si_code: sent by kill() (or raise) from user space.
 * @category Constants
 */
export const SI_USER = 0;
/**
 * si_code: sent by sigqueue() (rt_sigqueueinfo) with a value.
 * @category Constants
 */
export const SI_QUEUE = -1;
/**
 * si_code: sent by tkill() to one thread.
 * @category Constants
 */
export const SI_TKILL = -6;
/**
 * si_code of SIGSEGV: the address is not mapped.
 * @category Constants
 */
export const SEGV_MAPERR = 1;
/**
 * si_code of SIGSEGV: the address is mapped, but the access is not allowed (a protection fault).
 * @category Constants
 */
export const SEGV_ACCERR = 2;
/**
 * si_code of SIGIO (and an F_SETSIG signal): input is available on `si_fd`.
 * @category Constants
 */
export const POLL_IN = 1;
/**
 * si_code of SIGIO (and an F_SETSIG signal): output is possible on `si_fd`.
 * @category Constants
 */
export const POLL_OUT = 2;

// errno (kernel results are -errno)

/**
 * errno: operation not permitted. System calls return `-EPERM`.
 * @category Constants
 */
export const EPERM = 1;
/**
 * errno: no such file or directory.
 * @category Constants
 */
export const ENOENT = 2;
/**
 * errno: no such process (e.g. kill of a pid that does not exist or has exited).
 * @category Constants
 */
export const ESRCH = 3;
/**
 * errno: interrupted system call — a signal handler ran and the call is not restarted.
 * @category Constants
 */
export const EINTR = 4;
/**
 * errno: bad file descriptor.
 * @category Constants
 */
export const EBADF = 9;
/**
 * errno: no child process to wait for.
 * @category Constants
 */
export const ECHILD = 10;
/**
 * errno: try again — a non-blocking call would block, or a queue is full.
 * @category Constants
 */
export const EAGAIN = 11;
/**
 * errno: out of memory.
 * @category Constants
 */
export const ENOMEM = 12;
/**
 * errno: bad address (a user pointer the kernel cannot access).
 * @category Constants
 */
export const EFAULT = 14;
/**
 * errno: invalid argument.
 * @category Constants
 */
export const EINVAL = 22;
/**
 * errno: write to a pipe whose read end is closed (SIGPIPE is sent too).
 * @category Constants
 */
export const EPIPE = 32;
/**
 * errno: no such system call — what an unused slot of the table (sys_ni_syscall) returns.
 * @category Constants
 */
export const ENOSYS = 38;
/**
 * Kernel-internal result: a signal interrupted the call; restart it if the handler has
 * SA_RESTART (or there is no handler), else return EINTR. Never seen by user space.
 * @category Constants
 */
export const ERESTARTSYS = 512;
/**
 * Kernel-internal result: a signal interrupted the call; always restart it after the handler.
 * @category Constants
 */
export const ERESTARTNOINTR = 513;
/**
 * Kernel-internal result: restart the call only when no handler ran (else EINTR).
 * @category Constants
 */
export const ERESTARTNOHAND = 514;

// fcntl / open

/**
 * File status flag: non-blocking I/O (read/write return -EAGAIN instead of sleeping).
 * @category Constants
 */
export const O_NONBLOCK = 0x800;
/**
 * File status flag: signal-driven I/O (SIGIO, or the F_SETSIG signal, to the F_SETOWN owner when
 * the file becomes readable or writable).
 * @category Constants
 */
export const O_ASYNC = 0x2000;
/**
 * fcntl command: get the file status flags (O_NONBLOCK, O_ASYNC, ...).
 * @category Constants
 */
export const F_GETFL = 3;
/**
 * fcntl command: set the file status flags.
 * @category Constants
 */
export const F_SETFL = 4;
/**
 * fcntl command: the process that receives SIGIO for the file.
 * @category Constants
 */
export const F_SETOWN = 8;
/**
 * fcntl command: the signal sent instead of SIGIO (an RT signal queues one per event, with si_fd).
 * @category Constants
 */
export const F_SETSIG = 10;

// memory

/**
 * Bytes in a page (i386: 4 KB).
 * @category Constants
 */
export const PAGE_SIZE = 4096;
/**
 * log2(PAGE_SIZE): an address shifted right by it is its page number.
 * @category Constants
 */
export const PAGE_SHIFT = 12;
/**
 * mmap/mprotect protection: no access.
 * @category Constants
 */
export const PROT_NONE = 0;
/**
 * mmap/mprotect protection bit: readable.
 * @category Constants
 */
export const PROT_READ = 1;
/**
 * mmap/mprotect protection bit: writable.
 * @category Constants
 */
export const PROT_WRITE = 2;
/**
 * mmap/mprotect protection bit: executable.
 * @category Constants
 */
export const PROT_EXEC = 4;

// signal frames (i386 with FXSR)

/**
 * Bytes of a `struct sigframe` (a handler without SA_SIGINFO) on the user stack, FP state included.
 * @category Constants
 */
export const SIGFRAME_BYTES = 732;
/**
 * Bytes of a `struct rt_sigframe` (a handler with SA_SIGINFO: siginfo and ucontext), FP state included.
 * @category Constants
 */
export const RT_SIGFRAME_BYTES = 892;
/**
 * Bytes of a frame's `struct _fpstate` with the FXSR part (x87 view + fxsave image).
 * @category Constants
 */
export const FP_FRAME_BYTES_FXSR = 624;
/**
 * Bytes of a frame's `struct _fpstate` on a CPU without FXSR (the fsave image only).
 * @category Constants
 */
export const FP_FRAME_BYTES_FSAVE = 112;
/**
 * XMM registers an i386 signal frame carries (xmm0-xmm7).
 * @category Constants
 */
export const I386_XMM_REGS = 8;

/**
 * EIP just after the `int $0x80` of the libc stub: where user mode resumes after a system call
 * (a restarted call rewinds it by 2 bytes, to the `int $0x80`).
 * @category Constants
 */
export const SYSCALL_EIP = 0x08049002;
