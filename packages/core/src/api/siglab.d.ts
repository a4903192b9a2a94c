/**
 * SigLab workload API — the one contract that workloads are written against, that the runtime
 * implements, that Monaco uses for IntelliSense and that plugin authors extend.
 *
 *   import { workload, SIGUSR1 } from "siglab";
 *   export default workload({ name: "...", params: { iterations: 1000 }, *main(t, p) { ... } });
 *
 * Rule of thumb: anything that can enter the simulated kernel (a syscall, a user store that may
 * fault, an FPU instruction that may trap with #NM, user work that a timer tick may preempt) is a
 * generator and is called with `yield*`. Pure bookkeeping (rdtsc, report) is a plain call.
 * (getpid, getppid, kill and tkill return an iterator that behaves as such a generator: nothing
 * happens before `yield*` steps it, and `next`/`return`/`throw` work as a generator's do.)
 * Syscalls return the raw kernel result: a value >= 0, or -errno.
 */
declare module "siglab" {
  /** Opaque: what simulated code yields to the scheduler. Never construct one yourself. */
  export interface SimYield { readonly __siglabYield: unique symbol }
  /** A simulated operation returning T. Call it with `yield*`. */
  export type Sys<T = void> = Generator<SimYield, T, unknown>;

  // ---- signals (i386 numbering, Linux 2.4) ----------------------------------------------------
  export const SIGHUP: 1; export const SIGINT: 2; export const SIGQUIT: 3; export const SIGILL: 4;
  export const SIGTRAP: 5; export const SIGABRT: 6; export const SIGBUS: 7; export const SIGFPE: 8;
  export const SIGKILL: 9; export const SIGUSR1: 10; export const SIGSEGV: 11; export const SIGUSR2: 12;
  export const SIGPIPE: 13; export const SIGALRM: 14; export const SIGTERM: 15; export const SIGCHLD: 17;
  export const SIGCONT: 18; export const SIGSTOP: 19; export const SIGIO: 29;
  /** First real-time signal (queued, with siginfo). */
  export const SIGRTMIN: 32;
  export const SIGRTMAX: 63;

  // sa_flags
  export const SA_NOCLDSTOP: 0x00000001;
  export const SA_SIGINFO: 0x00000004;
  /** Andi Kleen's SA_NOFP: only honoured when the sa-nofp plugin is in the variant stack. */
  export const SA_NOFP: 0x02000000;
  export const SA_RESTORER: 0x04000000;
  export const SA_ONSTACK: 0x08000000;
  export const SA_RESTART: 0x10000000;
  export const SA_NODEFER: 0x40000000;
  export const SA_RESETHAND: 0x80000000;

  export const SIG_BLOCK: 0; export const SIG_UNBLOCK: 1; export const SIG_SETMASK: 2;
  export const PROT_NONE: 0; export const PROT_READ: 1; export const PROT_WRITE: 2; export const PROT_EXEC: 4;
  export const F_GETFL: 3; export const F_SETFL: 4; export const F_SETOWN: 8; export const F_SETSIG: 10;
  export const O_NONBLOCK: 0x800; export const O_ASYNC: 0x2000;
  export const EINTR: 4; export const EAGAIN: 11; export const EFAULT: 14; export const EINVAL: 22;
  export const EBADF: 9; export const ENOSYS: 38; export const ECHILD: 10; export const EPIPE: 32;
  export const ESRCH: 3; export const EPERM: 1; export const ENOMEM: 12; export const EIO: 5;

  // ptrace requests (Linux 2.4 i386) and the registers' byte offsets in struct user (PEEKUSER/POKEUSER)
  export const PTRACE_TRACEME: 0; export const PTRACE_PEEKTEXT: 1; export const PTRACE_PEEKDATA: 2;
  export const PTRACE_PEEKUSER: 3; export const PTRACE_POKETEXT: 4; export const PTRACE_POKEDATA: 5;
  export const PTRACE_POKEUSER: 6; export const PTRACE_CONT: 7; export const PTRACE_KILL: 8;
  export const PTRACE_GETREGS: 12; export const PTRACE_SETREGS: 13; export const PTRACE_ATTACH: 16;
  export const PTRACE_DETACH: 17; export const PTRACE_SYSCALL: 24; export const PTRACE_SETOPTIONS: 0x4200;
  /** PTRACE_SETOPTIONS: syscall stops report SIGTRAP | 0x80 */
  export const PTRACE_O_TRACESYSGOOD: 1;
  export const EBX: 0; export const ECX: 4; export const EDX: 8; export const ESI: 12; export const EDI: 16;
  export const EBP: 20; export const EAX: 24; export const ORIG_EAX: 44; export const EIP: 48;
  export const EFL: 56; export const UESP: 60;
  /** syscall numbers a tracer writes into orig_eax (asm-i386/unistd.h) */
  export const __NR_getpid: 20; export const __NR_getppid: 64; export const __NR_sigreturn: 119; export const __NR_rt_sigreturn: 173;
  /** wait4/waitpid options */
  export const WNOHANG: 1; export const WUNTRACED: 2;
  /** <sys/wait.h> over waitpid's status word */
  export function WIFEXITED(status: number): boolean;
  export function WEXITSTATUS(status: number): number;
  export function WIFSIGNALED(status: number): boolean;
  export function WTERMSIG(status: number): number;
  export function WIFSTOPPED(status: number): boolean;
  export function WSTOPSIG(status: number): number;

  /**
   * struct user_regs_struct: what PTRACE_GETREGS copies out and PTRACE_SETREGS copies in. SigLab
   * keeps syscall arguments out of the registers (ebx..ebp hold the program's values); the
   * segment words read as the flat user selectors and keep them.
   */
  export interface UserRegsStruct {
    ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number; eax: number;
    xds: number; xes: number; xfs: number; xgs: number;
    /** the syscall number at a syscall stop; a tracer "nullifies" a syscall by rewriting it */
    orig_eax: number;
    eip: number; xcs: number; eflags: number; esp: number; xss: number;
  }

  /** siginfo_t as the kernel fills it (128 bytes on i386). */
  export interface SigInfo {
    signo: number;
    errno: number;
    /** SI_USER (0) for kill(), SI_TKILL (-6), SEGV_ACCERR (2), POLL_IN (1), SI_QUEUE (-1), ... */
    code: number;
    pid?: number;
    /** faulting address for SIGSEGV/SIGBUS/SIGFPE */
    addr?: number;
    /** SIGIO/F_SETSIG: band and fd */
    band?: number;
    fd?: number;
    /** sigqueue value */
    value?: number;
  }

  export type IntReg = "eax" | "ebx" | "ecx" | "edx" | "esi" | "edi" | "ebp";
  /** x87 stack registers st0..st7 hold one number; XMM/YMM/ZMM hold 32-bit lanes. */
  export type FpuReg =
    | "st0" | "st1" | "st2" | "st3" | "st4" | "st5" | "st6" | "st7"
    | "xmm0" | "xmm1" | "xmm2" | "xmm3" | "xmm4" | "xmm5" | "xmm6" | "xmm7"
    | "xmm8" | "xmm9" | "xmm10" | "xmm11" | "xmm12" | "xmm13" | "xmm14" | "xmm15"
    | "ymm0" | "ymm1" | "ymm2" | "ymm3" | "ymm4" | "ymm5" | "ymm6" | "ymm7"
    | "mxcsr" | "fcw";

  /** The i387 view of the FP image in a signal frame (`struct _fpstate`), editable by handlers. */
  export interface FrameFpState {
    cw: number;
    sw: number;
    tag: number;
    /** st0..st7 as numbers (the 80-bit values, modelled as doubles) */
    st: number[];
    /** the raw FXSR part (absent on CPUs without FXSR) */
    mxcsr?: number;
    xmm?: number[][];
    /** 0x0000 = FXSR part follows, 0xffff = only fsave data */
    magic: number;
  }

  /** The interrupted context saved in the frame (`struct sigcontext`), editable by handlers. */
  export interface FrameSigContext {
    eax: number; ebx: number; ecx: number; edx: number; esi: number; edi: number; ebp: number;
    esp: number; eip: number; eflags: number;
    trapno: number; err: number; cr2: number;
    /** blocked mask (signals 1..31) at interruption */
    oldmask: number;
  }

  /** A signal frame on the user stack (`struct sigframe` 732 B / `struct rt_sigframe` 892 B). */
  export interface SignalFrame {
    readonly kind: "sigframe" | "rt_sigframe";
    readonly address: number;
    readonly size: number;
    readonly sigcontext: FrameSigContext;
    /** null when the kernel saved no FP state (never-used FPU, SA_NOFP, lazy variants). */
    readonly fpstate: FrameFpState | null;
    /** rt frames: uc_sigmask, as a list of blocked signal numbers; editable */
    sigmask: number[];
  }

  /** A jump buffer from setjmp/sigsetjmp. */
  export interface JmpBuf { readonly __jmpbuf: unique symbol }

  export type SigHandler = (h: HandlerContext) => Sys<void>;
  export type ThreadBody = (t: Thread) => Sys<void | number>;

  export interface SigactionOptions {
    /** SA_* flags OR-ed together */
    flags?: number;
    /** sa_mask: signals blocked during the handler */
    mask?: number[];
  }

  export interface SelectResult { readable: number[]; writable: number[] }

  export interface PthreadHandle { readonly tid: number }

  /** The thread library chosen by the variant stack (LinuxThreads 1:1 by default). */
  export interface Pthreads {
    /** Library id: "linuxthreads", "ngpt", "libc_r", ... */
    readonly library: string;
    /**
     * pthread_create: LinuxThreads makes a kernel task with clone(CLONE_VM|CLONE_FS|CLONE_FILES|
     * CLONE_SIGHAND); M:N and N:1 libraries (ngpt, libc-r) make a user-level thread and switch to it
     * in user space. Returns the handle (its `tid`).
     */
    create(body: ThreadBody): Sys<PthreadHandle>;
    /** pthread_join: waits for the thread to end; returns its body's return value (a number). */
    join(th: PthreadHandle): Sys<number>;
    /** sched_yield as the library does it: a syscall (LinuxThreads) or a user-level switch with the library's own syscalls (NGPT: 3 gettimeofday + 4 rt_sigprocmask). */
    yield(): Sys<void>;
    /** read through the library's wrapper (NGPT: fcntl(F_GETFL) + select + read; LinuxThreads: the cancellation wrapper). Returns bytes or -errno. */
    read(fd: number, bytes: number): Sys<number>;
    /** write through the library's wrapper (NGPT: 2 fcntl + write + 2 fcntl). Returns bytes or -errno. */
    write(fd: number, bytes: number): Sys<number>;
    /** pthread_sigmask: the thread's mask (an rt_sigprocmask for 1:1 threads, user-level state for M:N); returns the old mask. */
    sigmask(how: 0 | 1 | 2, set: number[]): Sys<number[]>;
    /** pthread_self: the calling thread's id. */
    self(): number;
  }

  /** The libc model chosen by the variant stack. */
  export interface Libc {
    /** true when memcpy uses SSE registers above `sseThreshold` bytes (modern glibc) */
    readonly sseMemcpy: boolean;
    readonly sseThreshold: number;
    /**
     * memcpy of `bytes` bytes in user space, charged per cache line; with SSE (modern glibc, above
     * `sseThreshold`) it uses and clobbers xmm0-xmm3, so it may trap #NM and, in an SA_NOFP
     * handler, corrupt the interrupted program's registers.
     */
    memcpy(bytes: number): Sys<void>;
    /** gettimeofday through libc: the syscall (sys_gettimeofday, with rdtsc in do_gettimeoffset), or a plugin's vsyscall. */
    gettimeofday(): Sys<{ sec: number; usec: number }>;
  }

  export interface Fpu {
    /** Write a register (x87 st: one number; xmm: 4 lanes; ymm: 8 lanes; mxcsr/fcw: one number). */
    set(reg: FpuReg, value: number | number[]): Sys<void>;
    /** Read a register. */
    get(reg: FpuReg): Sys<number[]>;
    /** `n` FP arithmetic instructions that leave the registers' values unchanged. */
    ops(n?: number): Sys<void>;
  }

  /** The integer user registers as they are saved in pt_regs / a signal frame's sigcontext. */
  export interface Regs {
    /** Set a register (the value a handler, ptrace or sigreturn will see). */
    set(reg: IntReg, value: number): void;
    /** Read a register. */
    get(reg: IntReg): number;
  }

  /** How a named loop's figure is derived (t.loopEnd). */
  export interface LoopEndOptions {
    /**
     * The loop whose per-iteration figure this one subtracts, as lmbench subtracts an overhead loop
     * (lat_sig catch: the kill(me, 0) loop): the figure is this loop's cycles ÷ its count, less the
     * overhead loop's figure (itself net of its own overhead). That loop must have ended before;
     * every section of a loop names the same overhead.
     */
    overhead?: string;
  }

  /** A thread of the simulated program: its system calls, user-mode work, registers and reporting. */
  export interface Thread {
    /** getpid() without a syscall: the thread group's id. */
    readonly pid: number;
    /** This thread's task id (a LinuxThreads thread has its own; user-level threads share their LWP's). */
    readonly tid: number;
    /** The run's parameters (the workload's defaults, overridden by --param / the app). */
    readonly params: Readonly<Record<string, number | string | boolean>>;
    /** The x87/SSE register file (lazy FPU: the first use after a switch traps #NM). */
    readonly fpu: Fpu;
    /** The integer user registers. */
    readonly regs: Regs;
    /** The program's libc model (`libc` in the workload definition). */
    readonly libc: Libc;
    /** The thread library of the variant stack. */
    readonly pthread: Pthreads;

    /** The simulated CPU's time-stamp counter, in cycles (charges one rdtsc). */
    rdtsc(): number;
    /** CPU clock in MHz (cycles per microsecond). */
    readonly mhz: number;
    /** `cycles` of user-mode work; a timer tick may preempt it. */
    compute(cycles: number): Sys<void>;

    // -- system calls --------------------------------------------------------------------------
    /** getpid (nr 20): the null syscall — entry, `return current->tgid`, exit. */
    getpid(): Sys<number>;
    /** getppid (nr 64): lmbench's null syscall (reads p_opptr: the real parent, even while traced). */
    getppid(): Sys<number>;
    /** gettimeofday (nr 78): do_gettimeofday with an rdtsc; `usec` from the simulated clock. */
    gettimeofday(): Sys<{ sec: number; usec: number }>;
    /** sched_yield (nr 158): 2.4's SCHED_YIELD + move_last_runqueue when another task can run. Returns 0. */
    sched_yield(): Sys<number>;
    /**
     * sched_setaffinity (nr 241): the CPUs task `pid` (0: this one) may run on, a bit per CPU (bit 0
     * = CPU 0). Vanilla 2.4.22 only reserves the number; SigLab implements it as 2.5.8 introduced it
     * (vendors backported it to 2.4). A task running on a CPU it no longer allows moves at its next
     * reschedule. Returns 0, -EINVAL (no online CPU in the mask) or -ESRCH. Meaningful with `--smp`.
     */
    sched_setaffinity(pid: number, mask: number): Sys<number>;
    /** sched_getaffinity (nr 242): the CPU mask of `pid` (0: this task), or -ESRCH. */
    sched_getaffinity(pid?: number): Sys<number>;
    /** kill (nr 37): send_sig_info to the task `pid` (SI_USER); sig 0 only checks that it exists. Returns 0, -ESRCH or -EINVAL. */
    kill(pid: number, sig: number): Sys<number>;
    /** tkill (nr 238): a signal to one thread (SI_TKILL). */
    tkill(tid: number, sig: number): Sys<number>;
    /** rt_sigqueueinfo-style queueing of an RT signal with a value */
    sigqueue(pid: number, sig: number, value: number): Sys<number>;
    /**
     * rt_sigaction (nr 174): install a handler (a generator function run in user mode on a signal
     * frame, returning through sigreturn), "default" or "ignore". `opts.flags` are SA_* (SA_SIGINFO
     * builds an rt_sigframe with siginfo; SA_RESTART restarts interrupted slow syscalls; SA_NOFP
     * needs the sa-nofp plugin). Returns 0 or -EINVAL (SIGKILL, SIGSTOP, out of range).
     */
    sigaction(sig: number, handler: SigHandler | "default" | "ignore", opts?: SigactionOptions): Sys<number>;
    /** rt_sigprocmask (nr 175): SIG_BLOCK / SIG_UNBLOCK / SIG_SETMASK; returns the old mask as a list of signals, or -errno */
    sigprocmask(how: 0 | 1 | 2, set: number[]): Sys<number[] | number>;
    /** rt_sigpending (nr 176): the signals pending and blocked. */
    sigpending(): Sys<number[]>;
    /** rt_sigsuspend (nr 179): sleep with `mask` until a signal is delivered; returns -EINTR after its handler. */
    sigsuspend(mask: number[]): Sys<number>;
    /** rt_sigtimedwait: the dequeued siginfo, or -EAGAIN on timeout / -EINTR */
    sigtimedwait(set: number[], timeoutNs?: number): Sys<SigInfo | number>;
    /** sigaltstack (nr 186): a `size`-byte alternate stack for SA_ONSTACK handlers (-ENOMEM below MINSIGSTKSZ = 2048). */
    sigaltstack(size: number): Sys<number>;
    /** pipe (nr 42): [read end, write end]; a 4 KB pipe buffer with wait queues (fs/pipe.c). */
    pipe(): Sys<[number, number]>;
    /**
     * open() a character device: "/dev/null" (writes are discarded), "/dev/zero" (reads clear the
     * buffer) or "/dev/siglab-disk" (a device with latency: write(fd, n) starts a request and returns
     * at once; its completion interrupt makes a 32-byte record readable and, with O_ASYNC + F_SETOWN,
     * sends SIGIO or the F_SETSIG signal with si_fd; read() returns whole records)
     */
    open(path: "/dev/null" | "/dev/zero" | "/dev/siglab-disk"): Sys<number>;
    /** read (nr 3): bytes read (data copied per cache line), 0 at EOF, or -errno; sleeps on an empty pipe (restartable). */
    read(fd: number, bytes: number): Sys<number>;
    /** write (nr 4): bytes written, or -errno (-EPIPE, -EAGAIN with O_NONBLOCK); sleeps on a full pipe. */
    write(fd: number, bytes: number): Sys<number>;
    /** close (nr 6): 0 or -EBADF. */
    close(fd: number): Sys<number>;
    /** fcntl (nr 55): F_GETFL, F_SETFL (O_NONBLOCK, O_ASYNC), F_SETOWN, F_SETSIG. */
    fcntl(fd: number, cmd: number, arg?: number): Sys<number>;
    /** select (nr 142): the ready fds, 0 on timeout, or -EINTR; timeouts are tick based (schedule_timeout). */
    select(readFds: number[], writeFds: number[], timeoutNs?: number): Sys<SelectResult | number>;
    /** mmap (nr 90): anonymous private pages with PROT_* protections; returns the address or -errno. */
    mmap(bytes: number, prot: number): Sys<number>;
    /**
     * mprotect (nr 125): 2.4's mprotect_fixup (splits or merges vmas), change_protection (each PTE
     * rewritten with a locked xchg) and flush_tlb_range (a full CR3 reload: the working set refills).
     * An unchanged range costs neither. Returns 0, -EINVAL (unaligned) or -ENOMEM (not mapped).
     */
    mprotect(addr: number, bytes: number, prot: number): Sys<number>;
    /** munmap (nr 91): do_munmap (zap_pte_range per page) and a TLB flush. */
    munmap(addr: number, bytes: number): Sys<number>;
    /**
     * fork(): the child runs `child` in a copy-on-write copy of the address space (2.4's
     * copy_page_range: writable pages are shared write-protected; the first write by either side
     * takes a page fault and do_wp_page copies or reuses the page). Both sides write their stack
     * page right after the fork. Returns the child's pid.
     */
    fork(child: ThreadBody): Sys<number>;
    /** clone(CLONE_VM|...): a thread sharing this address space; returns its tid */
    clone(body: ThreadBody): Sys<number>;
    /** wait4(-1): reaps one child; `status` is its exit code (a traced child's stop reports as waitpid does) */
    wait(): Sys<{ pid: number; status: number } | number>;
    /**
     * waitpid(pid, options) = wait4(pid, &status, options): `status` is the kernel's word — test it
     * with WIFEXITED/WEXITSTATUS, WIFSIGNALED/WTERMSIG, WIFSTOPPED/WSTOPSIG. A stopped child is
     * reported once if it is traced (or with WUNTRACED); WNOHANG returns 0 when nothing is ready.
     */
    waitpid(pid: number, options?: number): Sys<{ pid: number; status: number } | number>;

    // -- ptrace (Linux 2.4 i386; see docs/uml.md) ------------------------------------------------
    /** PTRACE_TRACEME: the parent becomes this process's tracer. */
    ptrace(request: 0): Sys<number>;
    /** PTRACE_PEEKTEXT/PEEKDATA (addr: a user address) and PTRACE_PEEKUSER (addr: a byte offset such as ORIG_EAX). */
    ptrace(request: 1 | 2 | 3, pid: number, addr: number): Sys<{ readonly word: number } | number>;
    /** PTRACE_POKETEXT/POKEDATA/POKEUSER: write `data` (a word) at `addr`. */
    ptrace(request: 4 | 5 | 6, pid: number, addr: number, data: number): Sys<number>;
    /** PTRACE_CONT / PTRACE_SYSCALL / PTRACE_DETACH: resume the stopped tracee, delivering `sig` (0: none). */
    ptrace(request: 7 | 24 | 17, pid: number, addr?: number, sig?: number): Sys<number>;
    /** PTRACE_KILL / PTRACE_ATTACH (attach sends the tracee SIGSTOP). */
    ptrace(request: 8 | 16, pid: number): Sys<number>;
    /** PTRACE_GETREGS: the tracee's registers (it must be stopped). */
    ptrace(request: 12, pid: number): Sys<UserRegsStruct | number>;
    /** PTRACE_SETREGS: write the tracee's registers (from an object PTRACE_GETREGS returned, possibly edited). */
    ptrace(request: 13, pid: number, addr: number, regs: UserRegsStruct): Sys<number>;
    /** PTRACE_SETOPTIONS: PTRACE_O_TRACESYSGOOD. */
    ptrace(request: 0x4200, pid: number, addr: number, options: number): Sys<number>;
    /** exit (nr 1): do_exit — the task becomes a zombie, its parent (or tracer) gets SIGCHLD and its wait4 wakes. */
    exit(code?: number): Sys<never>;
    /** nanosleep (nr 162): sleep until the first timer tick after `ns` (2.4 timeouts are jiffies); -EINTR if a signal came. */
    nanosleep(ns: number): Sys<number>;
    /** Any syscall by number (plugins add syscalls, e.g. io_setup). Args are plain numbers or arrays. */
    syscall(nr: number, ...args: unknown[]): Sys<unknown>;

    // -- memory ----------------------------------------------------------------------------------
    /**
     * A user store of a word at `addr` (a TLB refill after a flush): a write to a read-only page
     * raises #PF → do_page_fault → SIGSEGV (SEGV_ACCERR, si_addr); an unmapped page SEGV_MAPERR.
     * After the handler the store is retried, as the CPU restarts the faulting instruction.
     */
    store(addr: number, value?: number): Sys<void>;
    /** A user load of the word at `addr` (0 if never written); an unmapped page faults like store. */
    load(addr: number): Sys<number>;

    // -- non-local jumps -------------------------------------------------------------------------
    /**
     * setjmp/sigsetjmp: runs `body(jb)`; returns {jumped:false,value} when body returns,
     * {jumped:true,value} after longjmp(jb, value). With `saveMask` (sigsetjmp(jb, 1)) the signal
     * mask is saved, and a longjmp restores it with a real rt_sigprocmask.
     */
    setjmp<T>(body: (jb: JmpBuf) => Sys<T>, saveMask?: boolean): Sys<{ jumped: boolean; value: T | number }>;
    /** longjmp/siglongjmp out of any depth, including a signal handler (the kernel never sees it). */
    longjmp(jb: JmpBuf, value?: number): never;

    // -- reporting -------------------------------------------------------------------------------
    /** A result metric (tables, charts, bundles); costs nothing simulated. At most 10,000 per run. */
    report(name: string, value: number, unit: string): void;
    /** One sample of a per-iteration metric (the app's histogram); at most 10,000 per metric and 200,000 per run. */
    sample(name: string, value: number): void;
    /** A named point on the timeline (with --timeline / the app's timeline view). */
    mark(label: string): void;
    /**
     * Starts timing the loop `name` (put it right after the rdtsc that starts your interval): the
     * run result keeps each named loop's cycles, by phase, and its count, so per-iteration figures
     * divide each loop by its own count. Costs nothing simulated; at most 100 names per run.
     *
     *   const start = t.rdtsc(); t.loopBegin("catch");
     *   while (--n > 0) yield* t.kill(me, SIGUSR1);
     *   const cycles = t.rdtsc() - start; t.loopEnd("catch", iterations, { overhead: "send" });
     */
    loopBegin(name: string): void;
    /**
     * Ends the loop `name` begun with loopBegin (put it right after the rdtsc that ends your
     * interval; a handler may end a loop the thread began). `count` is what a per-iteration figure
     * divides its cycles by (a number above 0). Sections timed under one name add up, cycles and counts.
     */
    loopEnd(name: string, count: number, opts?: LoopEndOptions): void;
    /** Tell the UI how far the workload is (0..1). */
    progress(fraction: number): void;
    /** A line in the run's log (strings as they are, other values as JSON); costs nothing simulated. */
    log(...args: unknown[]): void;
  }

  /** What a signal handler receives: the thread, plus the signal, its siginfo and its frame. */
  export interface HandlerContext extends Thread {
    readonly sig: number;
    /** present for SA_SIGINFO handlers */
    readonly info: SigInfo | null;
    readonly frame: SignalFrame;
  }

  export interface WorkloadDefinition<P extends Record<string, number | string | boolean>> {
    name: string;
    description?: string;
    /** Default parameters (overridable with --param key=value). */
    params: P;
    /**
     * The program's libc model: "glibc-2.2" (2002: integer memcpy, the default), "glibc-modern"
     * (SSE memcpy), or the id of one a plugin of the variant stack adds.
     */
    libc?: "glibc-2.2" | "glibc-modern" | (string & {});
    /** Timer interrupts per second (default 100, as on i386 Linux 2.4). */
    hz?: number;
    /** The initial thread of the initial process. */
    main(t: Thread, params: P): Sys<void | number>;
  }

  export interface Workload<P extends Record<string, number | string | boolean>> extends WorkloadDefinition<P> {
    readonly __siglabWorkload: true;
  }

  export function workload<P extends Record<string, number | string | boolean>>(def: WorkloadDefinition<P>): Workload<P>;
}
