// User-mode Linux's jail mode (2002): tt mode (see uml_tt) with the UML kernel's memory
// write-protected while guest code runs, so a guest cannot scribble on its kernel. Every entry into
// the UML kernel unprotects it and every exit protects it again: two mprotect calls per guest
// system call, each rewriting the kernel's page-table entries and flushing the TLB — the "jail
// mode mprotect performance horrors" Jeff Dike's separate kernel process (uml_skas) would end.
// kernelPages is the protected region (default 512 pages = 2 MB, about the text and data of a 2.4
// UML vmlinux; an estimate, not a measured size: sweep it).
// Follows the same tracer loop as uml_tt (arch/um/kernel/tt/tracer.c, tt/syscall_user.c), plus
// the protect/unprotect of the kernel on entry and exit (docs/uml.md).
import { workload, PROT_READ, PROT_WRITE, SIGSTOP, SIGTRAP, SIGUSR1, SIGUSR2, SA_NOFP, PTRACE_TRACEME, PTRACE_SYSCALL, PTRACE_CONT, PTRACE_GETREGS, PTRACE_POKEUSER, PTRACE_KILL, ORIG_EAX, __NR_getpid, __NR_sigreturn, WIFSTOPPED, WSTOPSIG } from "siglab";

const NR_exit = 1;

export default workload({
  name: "UML jail: tt mode with the UML kernel write-protected from the guest",
  description: "N guest getpid() calls as in tt mode, plus an mprotect of the UML kernel's memory on every kernel entry and exit",
  libc: "glibc-modern", // a libc whose memcpy uses SSE (Jeff's worry)
  params: { syscalls: 1000, guestFpu: true, handlerCopy: 0, umlWork: 0, kernelPages: 512 },
  *main(t, { syscalls, guestFpu, handlerCopy, umlWork, kernelPages }) {
    const h0 = t.rdtsc();
    for (let i = 0; i < 100; i++) yield* t.getpid();
    const native = (t.rdtsc() - h0) / 100;

    // UML's kernel memory is shared by the tracing thread and the processes (a MAP_SHARED physmem
    // file): these variables stand for the task struct fields they both read, uncharged
    let syscallNr = -1; // UPT_SYSCALL_NR(TASK_REGS(task)), written by the tracer's do_syscall
    let requestOp = 0; // task->thread.request.op (OP_TRACE_ON = 3)

    // the UML kernel's memory, mapped in every UML process (protected while the guest runs)
    const kernelBytes = kernelPages * 4096;
    const kernelMem = yield* t.mmap(kernelBytes, PROT_READ);

    const guest = yield* t.fork(function* (g) {
      // syscall_handler_tt: the UML kernel's system-call entry
      yield* g.sigaction(
        SIGUSR2,
        function* (h) {
          yield* h.mprotect(kernelMem, kernelBytes, PROT_READ | PROT_WRITE); // unprotect on kernel entry
          yield* h.store(kernelMem, syscallNr); // the kernel writes its own data again
          if (handlerCopy > 0) yield* h.libc.memcpy(handlerCopy); // e.g. copying a syscall's arguments
          if (umlWork > 0) yield* h.compute(umlWork);
          h.frame.sigcontext.eax = syscallNr === __NR_getpid ? 1000 : -38; // SC_SET_SYSCALL_RETURN
          yield* h.mprotect(kernelMem, kernelBytes, PROT_READ); // protect again before user mode
          // set_user_mode: ask the tracer to trace system calls again (os_usr1_process(getpid()))
          requestOp = 3;
          yield* h.kill(h.pid, SIGUSR1);
        },
        { flags: SA_NOFP }, // honoured when the sa-nofp plugin is in the variant stack
      );
      yield* g.ptrace(PTRACE_TRACEME);
      yield* g.kill(g.pid, SIGSTOP);
      if (guestFpu) {
        // a guest with live FP state: x87 on every CPU, SSE where the CPU has it
        yield* g.fpu.set("st0", 1.5);
        try {
          yield* g.fpu.set("xmm0", [1, 2, 3, 4]);
        } catch {
          // no SSE registers on this CPU (a Pentium, a K6)
        }
      }
      const start = g.rdtsc();
      for (let i = 0; i < syscalls; i++) {
        const pid = yield* g.getpid();
        if (pid !== 1000) throw new Error(`the guest's getpid returned ${pid}, not the UML kernel's answer`);
      }
      g.report("per guest syscall", (g.rdtsc() - start) / syscalls / g.mhz, "us");
      g.report("per guest syscall cycles", (g.rdtsc() - start) / syscalls, "cycles");
    });

    // the tracing thread
    let w = yield* t.waitpid(guest);
    yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
    let inSigreturn = false;
    let handled = 0;
    for (;;) {
      w = yield* t.waitpid(guest);
      if (typeof w === "number" || !WIFSTOPPED(w.status)) break;
      const sig = WSTOPSIG(w.status);
      if (sig === SIGTRAP) {
        if (inSigreturn) {
          inSigreturn = false; // the exit stop of the kernel's own sigreturn: back in guest code
          yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
          continue;
        }
        // do_syscall: read the registers, record the call in the task, nullify it
        const regs = yield* t.ptrace(PTRACE_GETREGS, guest);
        if (typeof regs === "number") throw new Error(`PTRACE_GETREGS: ${regs}`);
        if (regs.orig_eax === __NR_sigreturn) {
          inSigreturn = true; // the UML kernel leaving through its handler's sigreturn
          yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
          continue;
        }
        if (regs.orig_eax === NR_exit) {
          yield* t.ptrace(PTRACE_KILL, guest);
          yield* t.waitpid(guest);
          break;
        }
        syscallNr = regs.orig_eax;
        yield* t.ptrace(PTRACE_POKEUSER, guest, ORIG_EAX, __NR_getpid);
        handled++;
        yield* t.ptrace(PTRACE_CONT, guest, 0, SIGUSR2); // tracing off while the kernel runs
      } else if (sig === SIGUSR1 && requestOp === 3) {
        requestOp = 0; // do_proc_op(OP_TRACE_ON): the process goes back to user mode, traced
        yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
      } else {
        yield* t.ptrace(PTRACE_CONT, guest, 0, sig); // SIGUSR2 and the rest: passed on
      }
    }
    t.report("guest syscalls handled", handled, "calls");
    t.report("host getpid", native / t.mhz, "us");
  },
});
