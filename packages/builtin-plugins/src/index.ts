/** The built-in plugins and the named variant stacks (presets) shipped with SigLab. */
import type { LoadedPlugin, VariantSpec } from "@siglab/core";
import saNofp from "@siglab/plugin-sa-nofp";
import libcR from "@siglab/plugin-libc-r";
import ngpt from "@siglab/plugin-ngpt";
import userSigmask from "@siglab/plugin-user-sigmask";
import aio from "@siglab/plugin-aio";
import lazyFpuFrame from "@siglab/plugin-lazy-fpu-frame";
import noCliExit from "@siglab/plugin-no-cli-exit";
import sysenter from "@siglab/plugin-sysenter";

export const BUILTIN_PLUGINS: LoadedPlugin[] = [saNofp, ngpt, libcR, userSigmask, aio, lazyFpuFrame, noCliExit, sysenter];

export interface Preset {
  id: string;
  name: string;
  description: string;
  stack: VariantSpec[];
}

export const PRESETS: Preset[] = [
  { id: "linux-2.4.18", name: "Linux 2.4.18 (i386)", description: "the baseline: int $0x80, cli in ret_from_sys_call, lazy FPU, eager FXSR signal frames", stack: [] },
  { id: "linux-2.5.53", name: "Linux 2.5.53 (+SYSENTER)", description: "SYSENTER/SYSEXIT through the vsyscall page (__kernel_vsyscall), iret after work or changed pt_regs, SYSENTER MSRs rewritten on every context switch; needs a CPU with SEP", stack: [{ id: "sysenter" }] },
  { id: "ngpt", name: "Linux 2.4.18 + NGPT 2.2 (M:N threads)", description: "pthreads from NGPT on one LWP: 3 gettimeofday + 4 rt_sigprocmask per user-level switch", stack: [{ id: "ngpt" }] },
  { id: "ngpt+user-sigmask", name: "Linux 2.4.18 + NGPT + user-space signal mask", description: "NGPT with the blocked mask in a user page the kernel reads: the mask syscalls become stores", stack: [{ id: "ngpt" }, { id: "user-sigmask" }] },
  { id: "libc-r", name: "Linux 2.4.18 + libc_r-style N:1 threads", description: "FreeBSD libc_r style threads: setjmp/longjmp switches, masks in user memory, no syscall per switch", stack: [{ id: "libc-r" }] },
];
