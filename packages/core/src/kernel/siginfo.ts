/** siginfo_t as the kernel queues and delivers it (include/asm-i386/siginfo.h). */
export interface SigInfoK {
  signo: number;
  errno: number;
  code: number;
  pid?: number;
  addr?: number;
  band?: number;
  fd?: number;
  value?: number;
}
