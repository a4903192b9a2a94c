/** sigset_t (include/asm-i386/signal.h) lives in the plugin API (plugins build and test masks too). */
export { Sigset, NSIG, SIGKILL, SIGSTOP, SIGRTMIN } from "@siglab/plugin-api";
