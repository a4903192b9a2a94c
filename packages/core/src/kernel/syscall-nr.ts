/** i386 system call numbers live in the plugin API (plugins add syscalls next to them). */
export { NR, NR_NAME, type SyscallName } from "@siglab/plugin-api";
