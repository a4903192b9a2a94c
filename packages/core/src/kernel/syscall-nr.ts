/** Syscall numbers live in the plugin API; the core adds the ones no plugin needs yet (asm-i386/unistd.h). */
export { NR, NR_NAME, type SyscallName } from "@siglab/plugin-api";

/** Numbers the core implements beyond the plugin API's NR table. */
export const CORE_NR = Object.freeze({ ptrace: 26, waitpid: 7, sched_setaffinity: 241, sched_getaffinity: 242 });
export const CORE_NR_NAME: Readonly<Record<number, string>> = Object.freeze({ 26: "ptrace", 7: "waitpid", 241: "sched_setaffinity", 242: "sched_getaffinity" });
/** NR_syscalls of 2.4 i386: entry.S sends larger numbers (and negative ones, unsigned) to badsys / tracesys_exit */
export const NR_SYSCALLS = 256;
