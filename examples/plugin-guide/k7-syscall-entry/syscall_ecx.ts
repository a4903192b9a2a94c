// syscall_ecx: do the registers a program holds survive its system calls? SYSCALL puts the return
// address in ecx: the k7-syscall-entry plugin's default stub saves ecx in ebp and restores it (and
// ebp from the stack), stub=naive does not. Every `signalEvery`-th call is a kill() of ourselves,
// whose signal is delivered on the way out: the handler makes a system call of its own, and its
// sigreturn goes back into the stub.
import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "ecx and ebp across system calls",
  description: "Set ecx and ebp, make `iterations` system calls (some interrupted by a signal handler), count the calls after which both still hold their values.",
  params: { iterations: 200, signalEvery: 10 },
  *main(t, { iterations, signalEvery }) {
    let caught = 0;
    yield* t.sigaction(SIGUSR1, function* (h) {
      caught++;
      yield* h.getpid();
    });
    const ECX = 0x1234567, EBP = 0x7654321;
    t.regs.set("ecx", ECX);
    t.regs.set("ebp", EBP);
    let ecxKept = 0, ebpKept = 0;
    for (let i = 0; i < iterations; i++) {
      if (i % signalEvery === 0) yield* t.kill(t.pid, SIGUSR1);
      else yield* t.getpid();
      if (t.regs.get("ecx") === ECX) ecxKept++;
      if (t.regs.get("ebp") === EBP) ebpKept++;
    }
    t.report("ecx kept", ecxKept / iterations, "fraction");
    t.report("ebp kept", ebpKept / iterations, "fraction");
    t.report("ecx at the end", t.regs.get("ecx"), "value");
    t.report("signals caught", caught, "signals");
  },
});
