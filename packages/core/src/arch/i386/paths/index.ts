/** The op tables of the Linux 2.4 i386 kernel paths (arch/i386, kernel/, mm/, fs/), one file per area. */
import type { PathDef } from "../../../exec/path.js";
import { DEVICE_PATHS } from "./device.js";
import { ENTRY_PATHS } from "./entry.js";
import { FPU_PATHS } from "./fpu.js";
import { SCHED_PATHS } from "./sched.js";
import { PTRACE_PATHS } from "./ptrace.js";
import { SIGNAL_PATHS } from "./signal.js";
import { LINE_PATHS, SYSCALL_PATHS } from "./syscalls.js";
import { CACHE_PATHS } from "./cache.js";

/** Every kernel path of the Linux 2.4 i386 baseline. */
export const CORE_PATHS: readonly PathDef[] = [...ENTRY_PATHS, ...SIGNAL_PATHS, ...FPU_PATHS, ...SCHED_PATHS, ...SYSCALL_PATHS, ...DEVICE_PATHS, ...PTRACE_PATHS, ...LINE_PATHS, ...CACHE_PATHS];
