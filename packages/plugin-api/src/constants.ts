/** Linux i386 ABI constants the simulated kernel and its plugins share (values as in Linux 2.4). */

// sa_flags
export const SA_SIGINFO = 0x4;
/** Andi Kleen's SA_NOFP (honoured only by the sa-nofp plugin) */
export const SA_NOFP = 0x02000000;
export const SA_RESTORER = 0x04000000;
export const SA_ONSTACK = 0x08000000;
export const SA_RESTART = 0x10000000;
export const SA_NODEFER = 0x40000000;
export const SA_RESETHAND = 0x80000000;

// si_code
export const SI_USER = 0;
export const SI_QUEUE = -1;
export const SI_TKILL = -6;
export const SEGV_MAPERR = 1;
export const SEGV_ACCERR = 2;
export const POLL_IN = 1;
export const POLL_OUT = 2;

// errno (kernel results are -errno)
export const EPERM = 1;
export const ENOENT = 2;
export const ESRCH = 3;
export const EINTR = 4;
export const EBADF = 9;
export const ECHILD = 10;
export const EAGAIN = 11;
export const ENOMEM = 12;
export const EFAULT = 14;
export const EINVAL = 22;
export const EPIPE = 32;
export const ENOSYS = 38;
export const ERESTARTSYS = 512;
export const ERESTARTNOINTR = 513;
export const ERESTARTNOHAND = 514;

// fcntl / open
export const O_NONBLOCK = 0x800;
export const O_ASYNC = 0x2000;
export const F_GETFL = 3;
export const F_SETFL = 4;
export const F_SETOWN = 8;
export const F_SETSIG = 10;

// memory
export const PAGE_SIZE = 4096;
export const PAGE_SHIFT = 12;
export const PROT_NONE = 0;
export const PROT_READ = 1;
export const PROT_WRITE = 2;
export const PROT_EXEC = 4;

// signal frames (i386 with FXSR)
export const SIGFRAME_BYTES = 732;
export const RT_SIGFRAME_BYTES = 892;
/** struct _fpstate with the FXSR part / fsave only */
export const FP_FRAME_BYTES_FXSR = 624;
export const FP_FRAME_BYTES_FSAVE = 112;
/** i386 signal frames carry XMM0-7 */
export const I386_XMM_REGS = 8;

/** EIP just after the `int $0x80` of the libc stub (a restarted syscall rewinds it by 2) */
export const SYSCALL_EIP = 0x08049002;
