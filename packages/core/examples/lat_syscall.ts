// lat_syscall: the cost of a null system call — Andrew Morton's loop from the Jan 2002
// "syscall latency improvement" thread: int i = 100*1000*1000; while (i--) getpid();
import { workload } from "siglab";

export default workload({
  name: "lat_syscall null",
  description: "getpid() in a loop: int $0x80 entry, sys_getpid, ret_from_sys_call (cli + work test), iret",
  params: { iterations: 100_000 },
  *main(t, { iterations }) {
    yield* t.getpid(); // warm up: TLB and caches
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.getpid();
      if ((i & 0xffff) === 0) t.progress(i / iterations);
    }
    const cycles = (t.rdtsc() - start) / iterations;
    t.report("getpid", cycles, "cycles");
    t.report("null syscall", cycles / t.mhz, "us");
  },
});
