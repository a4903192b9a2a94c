import type { PathDef } from "../../exec/path.js";
import { DEVICE_PATHS } from "./paths-device.js";
import { ENTRY_PATHS } from "./paths-entry.js";
import { FPU_PATHS } from "./paths-fpu.js";
import { SCHED_PATHS } from "./paths-sched.js";
import { PTRACE_PATHS } from "./paths-ptrace.js";
import { SIGNAL_PATHS } from "./paths-signal.js";
import { LINE_PATHS, SYSCALL_PATHS } from "./paths-syscalls.js";
import { CACHE_PATHS } from "./paths-cache.js";

/** Every kernel path of the Linux 2.4 i386 baseline. */
export const CORE_PATHS: readonly PathDef[] = [...ENTRY_PATHS, ...SIGNAL_PATHS, ...FPU_PATHS, ...SCHED_PATHS, ...SYSCALL_PATHS, ...DEVICE_PATHS, ...PTRACE_PATHS, ...LINE_PATHS, ...CACHE_PATHS];
