/**
 * The runtime values of the "siglab" module that workloads import (the types are in siglab.d.ts).
 * Hosts hand this object to the sandboxed workload as `require("siglab")`.
 */
export const WORKLOAD_MARK = "__siglabWorkload";

export const SIGLAB_CONSTANTS = Object.freeze({
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGBUS: 7, SIGFPE: 8,
  SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17,
  SIGCONT: 18, SIGSTOP: 19, SIGIO: 29, SIGRTMIN: 32, SIGRTMAX: 63,
  SA_NOCLDSTOP: 0x1, SA_SIGINFO: 0x4, SA_NOFP: 0x02000000, SA_RESTORER: 0x04000000, SA_ONSTACK: 0x08000000,
  SA_RESTART: 0x10000000, SA_NODEFER: 0x40000000, SA_RESETHAND: 0x80000000,
  SIG_BLOCK: 0, SIG_UNBLOCK: 1, SIG_SETMASK: 2,
  PROT_NONE: 0, PROT_READ: 1, PROT_WRITE: 2, PROT_EXEC: 4,
  F_GETFL: 3, F_SETFL: 4, F_SETOWN: 8, F_SETSIG: 10, O_NONBLOCK: 0x800, O_ASYNC: 0x2000,
  EINTR: 4, EAGAIN: 11, EFAULT: 14, EINVAL: 22, EBADF: 9, ENOSYS: 38, ECHILD: 10, EPIPE: 32,
  ESRCH: 3, EPERM: 1, ENOMEM: 12, EIO: 5,
  // ptrace (asm-i386/ptrace.h, linux/ptrace.h) and wait4 options
  PTRACE_TRACEME: 0, PTRACE_PEEKTEXT: 1, PTRACE_PEEKDATA: 2, PTRACE_PEEKUSER: 3, PTRACE_POKETEXT: 4,
  PTRACE_POKEDATA: 5, PTRACE_POKEUSER: 6, PTRACE_CONT: 7, PTRACE_KILL: 8, PTRACE_GETREGS: 12,
  PTRACE_SETREGS: 13, PTRACE_ATTACH: 16, PTRACE_DETACH: 17, PTRACE_SYSCALL: 24, PTRACE_SETOPTIONS: 0x4200,
  PTRACE_O_TRACESYSGOOD: 1,
  // byte offsets of the registers in struct user (PEEKUSER/POKEUSER): 4 × the word's index
  EBX: 0, ECX: 4, EDX: 8, ESI: 12, EDI: 16, EBP: 20, EAX: 24, ORIG_EAX: 44, EIP: 48, EFL: 56, UESP: 60,
  WNOHANG: 1, WUNTRACED: 2,
  __NR_getpid: 20, __NR_getppid: 64, __NR_sigreturn: 119, __NR_rt_sigreturn: 173,
});

/** The <sys/wait.h> macros over wait4's status word. */
export const WAIT_MACROS = Object.freeze({
  WIFEXITED: (s: number): boolean => (s & 0x7f) === 0,
  WEXITSTATUS: (s: number): number => (s >> 8) & 0xff,
  WIFSIGNALED: (s: number): boolean => (s & 0x7f) !== 0 && (s & 0x7f) !== 0x7f,
  WTERMSIG: (s: number): number => s & 0x7f,
  WIFSTOPPED: (s: number): boolean => (s & 0xff) === 0x7f,
  WSTOPSIG: (s: number): number => (s >> 8) & 0xff,
});

export interface WorkloadDef {
  name: string;
  description?: string;
  params: Record<string, number | string | boolean>;
  libc?: string;
  hz?: number;
  main: (t: unknown, p: Record<string, number | string | boolean>) => Generator<unknown, unknown, unknown>;
  [WORKLOAD_MARK]?: true;
}

export function workload(def: WorkloadDef): WorkloadDef {
  if (!def || typeof def !== "object") throw new TypeError("workload(def): expected an object");
  return Object.freeze({ ...def, [WORKLOAD_MARK]: true as const });
}

export function createSiglabModule(): Record<string, unknown> {
  return Object.freeze({ ...SIGLAB_CONSTANTS, ...WAIT_MACROS, workload });
}

/**
 * Check that an evaluated module's default export is a workload and copy what the runner needs
 * into a plain object of its own (read once, while module code may still run: the runner never
 * reads the workload's object again). Throws a clear error naming the file.
 */
export function asWorkload(mod: unknown, file: string): WorkloadDef {
  const def = (mod && typeof mod === "object" && "default" in (mod as object) ? (mod as { default: unknown }).default : mod) as WorkloadDef | undefined;
  if (!def || typeof def !== "object") throw new Error(`${file}: the module has no default export; write \`export default workload({ ... })\``);
  const main = def.main;
  if (typeof main !== "function") throw new Error(`${file}: the workload has no main generator function (\`*main(t, params) { ... }\`)`);
  if (Object.prototype.toString.call(main) !== "[object GeneratorFunction]") throw new Error(`${file}: main must be a generator function: write \`*main(t, params) { ... }\``);
  const name = def.name === undefined ? undefined : def.name;
  if (name !== undefined && (typeof name !== "string" || name.length > 200)) throw new Error(`${file}: name must be a string of at most 200 characters`);
  const description = def.description;
  if (description !== undefined && (typeof description !== "string" || description.length > 10_000)) throw new Error(`${file}: description must be a string of at most 10,000 characters`);
  const params: Record<string, number | string | boolean> = {};
  const given = def.params;
  if (given !== undefined) {
    if (typeof given !== "object" || given === null) throw new Error(`${file}: params must be an object of defaults`);
    const keys = Object.keys(given);
    if (keys.length > 100) throw new Error(`${file}: at most 100 parameters`);
    for (const key of keys) {
      const v = (given as Record<string, unknown>)[key];
      if (typeof v !== "number" && typeof v !== "string" && typeof v !== "boolean") throw new Error(`${file}: parameter '${key}' must default to a number, string or boolean`);
      if (key.length > 100 || (typeof v === "string" && v.length > 1000)) throw new Error(`${file}: parameter '${key}' is too long`);
      params[key] = v;
    }
  }
  const libc = def.libc;
  if (libc !== undefined && typeof libc !== "string") throw new Error(`${file}: libc must be a libc model id (a string)`);
  const hz = def.hz;
  if (hz !== undefined && (typeof hz !== "number" || !Number.isInteger(hz) || hz < 1 || hz > 10_000)) throw new Error(`${file}: hz must be an integer from 1 to 10000`);
  const out: WorkloadDef = { name: name ?? "", params, main };
  if (description !== undefined) out.description = description;
  if (libc !== undefined) out.libc = libc;
  if (hz !== undefined) out.hz = hz;
  return out;
}
