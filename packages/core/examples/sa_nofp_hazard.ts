// The SA_NOFP hazard (Linus, Aug 2002: "This will break _horribly_ when (if) glibc starts using
// SSE2 for things like memcpy()"). The program has live SSE state; its SIGUSR1 handler promises
// not to use FP (SA_NOFP) but calls memcpy, which modern glibc does with SSE registers.
// Run it with --variant sa-nofp to see the corruption; with handlerMemcpy=false it is clean.
import { workload, SIGUSR1, SA_NOFP } from "siglab";

export default workload({
  name: "SA_NOFP hazard",
  description: "an SA_NOFP handler that calls an SSE memcpy",
  libc: "glibc-modern",
  params: { iterations: 100, handlerMemcpy: true, bytes: 4096 },
  *main(t, { iterations, handlerMemcpy, bytes }) {
    yield* t.sigaction(
      SIGUSR1,
      function* (h) {
        if (handlerMemcpy) yield* h.libc.memcpy(bytes);
      },
      { flags: SA_NOFP },
    );
    const pid = yield* t.getpid();
    let intact = 0;
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.fpu.set("xmm0", [i, 2 * i, 3 * i, 4 * i]);
      yield* t.kill(pid, SIGUSR1);
      const x = yield* t.fpu.get("xmm0");
      if (x.join() === [i, 2 * i, 3 * i, 4 * i].join()) intact++;
    }
    t.report("signal round trip", (t.rdtsc() - start) / iterations, "cycles");
    t.report("xmm0 intact after signal", intact / iterations, "fraction");
  },
});
