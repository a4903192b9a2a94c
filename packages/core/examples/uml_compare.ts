// The thread's question in one run: how should User-mode Linux enter its kernel? The three designs
// of the 2002 thread, one after the other, each with a fresh guest making the same getpid() calls:
//   tt   — the UML kernel is a SIGUSR2 handler in the guest; a tracing thread nullifies each host
//          call and sends the signal (a signal delivery, a sigreturn and the tracer's stops);
//   jail — tt, plus an mprotect of the UML kernel's memory on every kernel entry and exit;
//   skas — the UML kernel is its own process and ptraces the guest (two stops per call).
// Run it on the P4 and the PIII, with and without sa-nofp (tt and jail ask for SA_NOFP). Each design
// alone, with its own phase breakdown and inspector paths: uml_tt, uml_jail, uml_skas (docs/uml.md).
import { workload, PROT_READ, PROT_WRITE, SIGSTOP, SIGTRAP, SIGUSR1, SIGUSR2, SA_NOFP, PTRACE_TRACEME, PTRACE_SYSCALL, PTRACE_CONT, PTRACE_GETREGS, PTRACE_SETREGS, PTRACE_POKEUSER, PTRACE_KILL, ORIG_EAX, __NR_getpid, __NR_sigreturn, WIFSTOPPED, WSTOPSIG, type Thread, type Sys } from "siglab";

const NR_exit = 1;
const UML_PID = 1000;

export default workload({
  name: "UML: tt vs jail vs skas",
  description: "one guest getpid() under each of the three UML designs of the 2002 thread, per guest syscall",
  libc: "glibc-modern",
  params: { syscalls: 500, guestFpu: true, handlerCopy: 0, kernelPages: 512 },
  *main(t, { syscalls, guestFpu, handlerCopy, kernelPages }) {
    const h0 = t.rdtsc();
    for (let i = 0; i < 100; i++) yield* t.getpid();
    const hostGetpid = (t.rdtsc() - h0) / 100 / t.mhz;

    /** A guest: N getpid() calls, each answered by the UML kernel (UML_PID); returns cycles per call. */
    function* guestLoop(g: Thread): Sys<number> {
      if (guestFpu) {
        yield* g.fpu.set("st0", 1.5); // live FP state: x87 on every CPU, SSE where there is SSE
        try {
          yield* g.fpu.set("xmm0", [1, 2, 3, 4]);
        } catch {
          // no SSE registers on this CPU
        }
      }
      const start = g.rdtsc();
      for (let i = 0; i < syscalls; i++) {
        const pid = yield* g.getpid();
        if (pid !== UML_PID) throw new Error(`the guest's getpid returned ${pid}`);
      }
      return (g.rdtsc() - start) / syscalls;
    }
    let perCall = 0; // written by each guest before it exits (it stands for a pipe back: uncharged)

    // ---- tt and jail: the UML kernel is a signal handler; a tracing thread drives the guest ----
    function* ttMode(jail: boolean): Sys<void> {
      const kernelBytes = kernelPages * 4096;
      const kernelMem = jail ? yield* t.mmap(kernelBytes, PROT_READ) : 0;
      let syscallNr = -1;
      let requestOp = 0;
      const guest = yield* t.fork(function* (g) {
        yield* g.sigaction(SIGUSR2, function* (h) {
          if (jail) yield* h.mprotect(kernelMem, kernelBytes, PROT_READ | PROT_WRITE);
          if (jail) yield* h.store(kernelMem, syscallNr);
          if (handlerCopy > 0) yield* h.libc.memcpy(handlerCopy);
          h.frame.sigcontext.eax = syscallNr === __NR_getpid ? UML_PID : -38;
          if (jail) yield* h.mprotect(kernelMem, kernelBytes, PROT_READ);
          requestOp = 3;
          yield* h.kill(h.pid, SIGUSR1);
        }, { flags: SA_NOFP });
        yield* g.ptrace(PTRACE_TRACEME);
        yield* g.kill(g.pid, SIGSTOP);
        perCall = yield* guestLoop(g);
      });
      yield* t.waitpid(guest);
      yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
      let inSigreturn = false;
      for (;;) {
        const w = yield* t.waitpid(guest);
        if (typeof w === "number" || !WIFSTOPPED(w.status)) break;
        const sig = WSTOPSIG(w.status);
        if (sig === SIGTRAP && inSigreturn) {
          inSigreturn = false;
          yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
        } else if (sig === SIGTRAP) {
          const regs = yield* t.ptrace(PTRACE_GETREGS, guest);
          if (typeof regs === "number") throw new Error(`PTRACE_GETREGS: ${regs}`);
          if (regs.orig_eax === __NR_sigreturn) {
            inSigreturn = true;
            yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
          } else if (regs.orig_eax === NR_exit) {
            yield* t.ptrace(PTRACE_KILL, guest);
            yield* t.waitpid(guest);
            break;
          } else {
            syscallNr = regs.orig_eax;
            yield* t.ptrace(PTRACE_POKEUSER, guest, ORIG_EAX, __NR_getpid);
            yield* t.ptrace(PTRACE_CONT, guest, 0, SIGUSR2);
          }
        } else if (sig === SIGUSR1 && requestOp === 3) {
          requestOp = 0;
          yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
        } else yield* t.ptrace(PTRACE_CONT, guest, 0, sig);
      }
    }

    // ---- skas: the UML kernel is the tracer process ----------------------------------------
    function* skasMode(): Sys<void> {
      const guest = yield* t.fork(function* (g) {
        yield* g.ptrace(PTRACE_TRACEME);
        yield* g.kill(g.pid, SIGSTOP);
        perCall = yield* guestLoop(g);
      });
      yield* t.waitpid(guest);
      let regs = yield* t.ptrace(PTRACE_GETREGS, guest);
      if (typeof regs === "number") throw new Error(`PTRACE_GETREGS: ${regs}`);
      for (;;) {
        yield* t.ptrace(PTRACE_SETREGS, guest, 0, regs);
        yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
        const w = yield* t.waitpid(guest);
        if (typeof w === "number" || !WIFSTOPPED(w.status)) break;
        regs = yield* t.ptrace(PTRACE_GETREGS, guest);
        if (typeof regs === "number") throw new Error(`PTRACE_GETREGS: ${regs}`);
        const nr = regs.orig_eax;
        if (nr === NR_exit) {
          yield* t.ptrace(PTRACE_KILL, guest);
          yield* t.waitpid(guest);
          break;
        }
        yield* t.ptrace(PTRACE_POKEUSER, guest, ORIG_EAX, __NR_getpid);
        yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
        yield* t.waitpid(guest);
        regs = { ...regs, eax: nr === __NR_getpid ? UML_PID : -38 };
      }
    }

    t.mark("tt");
    yield* ttMode(false);
    t.report("tt per guest syscall", perCall / t.mhz, "us");
    t.mark("jail");
    yield* ttMode(true);
    t.report("jail per guest syscall", perCall / t.mhz, "us");
    t.mark("skas");
    yield* skasMode();
    t.report("skas per guest syscall", perCall / t.mhz, "us");
    t.report("host getpid", hostGetpid, "us");
  },
});
