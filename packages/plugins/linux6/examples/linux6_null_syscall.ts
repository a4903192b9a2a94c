// What the mitigations of a Linux 6.x kernel cost on a null system call: lmbench's lat_syscall
// null (getppid in a loop), reported in cycles and microseconds. Run it under the linux6 plugin
// with a mitigation switched on and off to see its price, e.g.
//   siglab run linux6_null_syscall --cpu skylake --variant linux6            (auto: PTI, IBRS, VERW)
//   siglab run linux6_null_syscall --cpu skylake --variant linux6:pti=off
//   siglab run linux6_null_syscall --cpu skylake --variant linux6:pti=off,spectreV2=off,verw=off
// The counters linux6.mitigation.* say which mitigations the run had.
import { workload } from "siglab";

export default workload({
  name: "null syscall under a 6.x kernel's mitigations",
  description: "getppid() in a loop (lmbench lat_syscall null); compare --variant linux6 with its pti/spectreV2/verw/retbleedUntrain options switched off",
  params: { iterations: 20_000 },
  *main(t, { iterations }) {
    yield* t.getppid(); // warm up
    const start = t.rdtsc();
    for (let n = 0; n < iterations; n++) yield* t.getppid();
    const cycles = (t.rdtsc() - start) / iterations;
    t.report("Simple syscall", cycles / t.mhz, "us");
    t.report("getppid", cycles, "cycles");
  },
});
