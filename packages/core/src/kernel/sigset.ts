/** sigset_t lives in the plugin API (plugins build and test masks too). */
export { Sigset, NSIG, SIGKILL, SIGSTOP, SIGRTMIN } from "@siglab/plugin-api";
