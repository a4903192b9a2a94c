// lat_sig catch: install a handler, then kill(getpid(), SIGUSR1) in a loop (lmbench "Signal handler
// overhead"). lmbench's timing loop uses floating point, so the task owns live FPU state: every
// delivery saves it into the frame (save_i387) and the next FP use after sigreturn traps (#NM).
import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "lat_sig catch",
  description: "signal delivery + empty handler + sigreturn, with live FPU state in the interrupted loop",
  params: { iterations: 20_000, useFpu: true },
  *main(t, { iterations, useFpu }) {
    let caught = 0;
    yield* t.sigaction(SIGUSR1, function* () {
      caught++;
    });
    if (useFpu) yield* t.fpu.set("st0", 1.5);
    const pid = yield* t.getpid();
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.kill(pid, SIGUSR1);
      if (useFpu) yield* t.fpu.ops(2); // the timing loop's floating point
    }
    const cycles = (t.rdtsc() - start) / iterations;
    if (caught !== iterations) throw new Error(`caught ${caught} of ${iterations} signals`);
    t.report("signal round trip", cycles, "cycles");
    t.report("signal catch", cycles / t.mhz, "us");
  },
});
