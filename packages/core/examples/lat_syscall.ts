// lat_syscall: the cost of a null system call — Andrew Morton's loop from the Jan 2002
// "syscall latency improvement" thread: int i = 100*1000*1000; while (i--) getpid();
// call=getppid gives lmbench's "null" call (Linus's SYSENTER figures were getppid too).
import { workload } from "siglab";

export default workload({
  name: "lat_syscall null",
  description: "getpid() (or getppid()) in a loop: int $0x80 entry, the body, ret_from_sys_call (cli + work test), iret",
  params: { iterations: 100_000, call: "getpid" },
  *main(t, { iterations, call }) {
    if (call !== "getpid" && call !== "getppid") throw new Error(`call must be getpid or getppid, not ${call}`);
    const syscall = call === "getppid" ? () => t.getppid() : () => t.getpid();
    yield* syscall(); // warm up: TLB and caches
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* syscall();
      if ((i & 0xffff) === 0) t.progress(i / iterations);
    }
    const cycles = (t.rdtsc() - start) / iterations;
    t.report(call, cycles, "cycles");
    t.report("null syscall", cycles / t.mhz, "us");
  },
});
