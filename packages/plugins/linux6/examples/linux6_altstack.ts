// The modern sigaltstack hazard: an alternate signal stack sized with the old constant
// MINSIGSTKSZ (2048) or SIGSTKSZ (8192) from the uapi headers. Since AVX-512 the XSAVE area alone
// is 2.4-2.7 KB, so the x86-64 signal frame (xstate + 440-B rt_sigframe + alignment) no longer
// fits in 2048 bytes; with AMX it outgrows 8192 too. Linux 6.x's get_sigframe then refuses the
// frame ("overflowed sigaltstack") and the task dies with SIGSEGV. Under the linux6 plugin the
// run reports a sigaltstack-overflow finding on skylake-x / zen4 / zen5 (AVX-512) and none on
// skylake (AVX2: an 832-B XSAVE area). size=8192 fits on every modelled CPU.
//   siglab run linux6_altstack --cpu skylake-x --preset linux-6
//   siglab run linux6_altstack --cpu skylake --preset linux-6
import { workload, SIGUSR1, SA_ONSTACK, SA_SIGINFO } from "siglab";

export default workload({
  name: "sigaltstack of MINSIGSTKSZ and an AVX-512 frame",
  description: "an SA_ONSTACK handler on a 2048-byte altstack (the old MINSIGSTKSZ): the 6.x frame for an AVX-512 CPU does not fit",
  params: { size: 2048, signals: 4 },
  *main(t, { size, signals }) {
    yield* t.fpu.set("st0", 2.5); // the program uses the FPU/SSE state (every x86-64 program does)
    const r = yield* t.sigaltstack(size);
    if (r !== 0) throw new Error(`sigaltstack(${size}) returned ${r}`);
    let caught = 0;
    yield* t.sigaction(SIGUSR1, function* () {
      caught++;
    }, { flags: SA_ONSTACK | SA_SIGINFO });
    const me = yield* t.getpid();
    for (let i = 0; i < signals; i++) yield* t.kill(me, SIGUSR1);
    t.report("altstack size", size, "bytes");
    t.report("signals caught", caught, "signals");
  },
});
