// lat_sig catch: install a handler, then kill(getpid(), SIGUSR1) in a loop (lmbench "Signal handler
// overhead"). lmbench's timing code uses floating point, so the task has an FPU context (used_math):
// every delivery converts and copies the 624-byte FP image into the frame (save_i387) and sigreturn
// copies it back — even though the loop itself does not touch the FPU (set useFpuInLoop to add an
// FP instruction per iteration, which then also pays an #NM trap and fxrstor each time).
import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "lat_sig catch",
  description: "signal delivery + empty handler + sigreturn, with live FPU state in the interrupted loop",
  params: { iterations: 20_000, useFpu: true, useFpuInLoop: false },
  *main(t, { iterations, useFpu, useFpuInLoop }) {
    let caught = 0;
    yield* t.sigaction(SIGUSR1, function* () {
      caught++;
    });
    if (useFpu) yield* t.fpu.set("st0", 1.5); // the timing code's floating point
    const pid = yield* t.getpid();
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.kill(pid, SIGUSR1);
      if (useFpuInLoop) yield* t.fpu.ops(2);
    }
    const cycles = (t.rdtsc() - start) / iterations;
    if (caught !== iterations) throw new Error(`caught ${caught} of ${iterations} signals`);
    t.report("signal round trip", cycles, "cycles");
    t.report("signal catch", cycles / t.mhz, "us");
  },
});
