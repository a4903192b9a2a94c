// User-mode Linux in 2002 ("tt" mode, the tracing thread): the UML kernel lives in the address
// space of every UML process, and a tracing thread ptrace()s them all. At a guest system call it
// nullifies the host call (orig_eax = __NR_getpid) and continues the process with SIGUSR2: the
// signal handler is the UML kernel's entry, sigreturn its exit. Every guest system call pays a
// signal delivery with its FPU save, a sigreturn, and the tracer's stops — the reason Andi Kleen
// offered SA_NOFP "for special things like UML", and Jeff Dike's worry that libc may touch FP
// registers in his handlers (handlerCopy > 0 with --variant sa-nofp shows it).
// Follows UML's tracer loop and do_syscall (arch/um/kernel/tt/tracer.c, tt/syscall_user.c): on
// SIGTRAP, GETREGS and POKEUSER orig_eax then PTRACE_CONT with SIGUSR2 (tracing off); other
// signals are passed on; SIGUSR1 is the kernel's set_user_mode request (OP_TRACE_ON: PTRACE_SYSCALL).
// The handler's own sigreturn is let through (docs/uml.md says why that is SigLab's reading).
import { workload, SIGSTOP, SIGTRAP, SIGUSR1, SIGUSR2, SA_NOFP, PTRACE_TRACEME, PTRACE_SYSCALL, PTRACE_CONT, PTRACE_GETREGS, PTRACE_POKEUSER, PTRACE_KILL, ORIG_EAX, __NR_getpid, __NR_sigreturn, WIFSTOPPED, WSTOPSIG } from "siglab";

const NR_exit = 1;

export default workload({
  name: "UML tt: the UML kernel is a signal handler in every process",
  description: "N guest getpid() calls: tracer stop, nullified host call, SIGUSR2 delivery into the UML kernel, sigreturn",
  libc: "glibc-modern", // a libc whose memcpy uses SSE (Jeff's worry)
  params: { syscalls: 1000, guestFpu: true, handlerCopy: 0, umlWork: 0 },
  *main(t, { syscalls, guestFpu, handlerCopy, umlWork }) {
    const h0 = t.rdtsc();
    for (let i = 0; i < 100; i++) yield* t.getpid();
    const native = (t.rdtsc() - h0) / 100;

    // UML's kernel memory is shared by the tracing thread and the processes (a MAP_SHARED physmem
    // file): these variables stand for the task struct fields they both read, uncharged
    let syscallNr = -1; // UPT_SYSCALL_NR(TASK_REGS(task)), written by the tracer's do_syscall
    let requestOp = 0; // task->thread.request.op (OP_TRACE_ON = 3)

    const guest = yield* t.fork(function* (g) {
      // syscall_handler_tt: the UML kernel's system-call entry
      yield* g.sigaction(
        SIGUSR2,
        function* (h) {
          if (handlerCopy > 0) yield* h.libc.memcpy(handlerCopy); // e.g. copying a syscall's arguments
          if (umlWork > 0) yield* h.compute(umlWork);
          h.frame.sigcontext.eax = syscallNr === __NR_getpid ? 1000 : -38; // SC_SET_SYSCALL_RETURN
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
