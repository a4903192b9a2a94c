// User-mode Linux, the design Jeff Dike proposed in the 2002 thread (what became skas): the UML
// kernel is a process of its own that ptrace()s the guest. A guest system call stops the guest
// (PTRACE_SYSCALL), the UML kernel reads its registers, nullifies the host call, lets it finish,
// runs the call itself and writes the result back with PTRACE_SETREGS: "one context switch at the
// start of a system call and one at the end, as opposed to a signal delivery and sigreturn".
// Follows UML's skas loop (arch/um/kernel/skas/process.c userspace() and handle_trap(): SETREGS,
// PTRACE_SYSCALL, waitpid, GETREGS, POKEUSER orig_eax = __NR_getpid, PTRACE_SYSCALL, waitpid).
// Compare with uml_tt and uml_jail (docs/uml.md; `pnpm siglab suite uml`).
import { workload, SIGSTOP, PTRACE_TRACEME, PTRACE_SYSCALL, PTRACE_GETREGS, PTRACE_SETREGS, PTRACE_POKEUSER, PTRACE_KILL, ORIG_EAX, __NR_getpid, WIFSTOPPED } from "siglab";

const NR_exit = 1;

export default workload({
  name: "UML skas: a separate kernel process ptraces the guest",
  description: "N guest getpid() calls answered by a UML kernel process through ptrace (2 stops per call)",
  params: { syscalls: 1000, guestFpu: true, umlWork: 0 },
  *main(t, { syscalls, guestFpu, umlWork }) {
    // the host's own getpid, for scale
    const h0 = t.rdtsc();
    for (let i = 0; i < 100; i++) yield* t.getpid();
    const native = (t.rdtsc() - h0) / 100;

    const guest = yield* t.fork(function* (g) {
      yield* g.ptrace(PTRACE_TRACEME);
      yield* g.kill(g.pid, SIGSTOP); // wait for the UML kernel to take over
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

    // the UML kernel process: userspace() and handle_trap()
    let w = yield* t.waitpid(guest);
    let regs = yield* t.ptrace(PTRACE_GETREGS, guest);
    if (typeof regs === "number") throw new Error(`PTRACE_GETREGS: ${regs}`);
    let handled = 0;
    for (;;) {
      yield* t.ptrace(PTRACE_SETREGS, guest, 0, regs); // restore_registers
      yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
      w = yield* t.waitpid(guest);
      if (typeof w === "number" || !WIFSTOPPED(w.status)) break; // the guest exited
      regs = yield* t.ptrace(PTRACE_GETREGS, guest); // save_registers
      if (typeof regs === "number") throw new Error(`PTRACE_GETREGS: ${regs}`);
      const nr = regs.orig_eax;
      if (nr === NR_exit) {
        // the guest's exit(): the UML kernel ends the host process (os_kill_ptraced_process)
        yield* t.ptrace(PTRACE_KILL, guest);
        yield* t.waitpid(guest);
        break;
      }
      // handle_trap: nullify the host call, then run it to its end
      yield* t.ptrace(PTRACE_POKEUSER, guest, ORIG_EAX, __NR_getpid);
      yield* t.ptrace(PTRACE_SYSCALL, guest, 0, 0);
      yield* t.waitpid(guest);
      // handle_syscall: the UML kernel runs the guest's call (its getpid: the guest's UML pid)
      if (umlWork > 0) yield* t.compute(umlWork);
      regs = { ...regs, eax: nr === __NR_getpid ? 1000 : -38 };
      handled++;
    }
    t.report("guest syscalls handled", handled, "calls");
    t.report("host getpid", native / t.mhz, "us");
  },
});
