// gettimeofday through libc under a Linux 6.x kernel: with the vDSO (the linux6 default) the call
// never enters the kernel -- __vdso_gettimeofday reads the TSC with RDTSCP and converts it with
// the timekeeper's mult/shift from the vvar page -- and without it (vdso=off) it is the system
// call with every entry and exit mitigation. Compare
//   siglab run linux6_gettimeofday --cpu skylake --variant linux6
//   siglab run linux6_gettimeofday --cpu skylake --variant linux6:vdso=off
// The loop is lmbench's style (a timed loop of calls, rdtsc around it); the figure is one call.
import { workload } from "siglab";

export default workload({
  name: "gettimeofday: the vDSO against the system call",
  description: "libc gettimeofday() in a loop; compare --variant linux6 (vDSO) with linux6:vdso=off (the system call)",
  params: { iterations: 20_000 },
  *main(t, { iterations }) {
    yield* t.libc.gettimeofday(); // warm up
    const start = t.rdtsc();
    for (let n = 0; n < iterations; n++) yield* t.libc.gettimeofday();
    const cycles = (t.rdtsc() - start) / iterations;
    t.report("gettimeofday", (cycles / t.mhz) * 1000, "ns");
    t.report("gettimeofday cycles", cycles, "cycles");
  },
});
