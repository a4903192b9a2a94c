// lat_syscall null: lmbench's "Simple syscall", ported from lmbench3's src/lat_syscall.c
// (github.com/intel/lmbench @ f71f39757619bdb673df9d99e48da7d22324e0ec, the lmbench3.tar.gz import):
//
//   do_getppid():  while (iterations-- > 0) { getppid(); }         -- one getppid() per iteration
//   main():        benchmp(NULL, do_getppid, ...); micro("Simple syscall", get_n());
//
// benchmp (src/lib_timing.c) times each interval with gettimeofday and subtracts the timing and
// loop overheads (t_overhead(), get_n() * l_overhead()): here rdtsc reads the simulated cycle
// counter directly and the loop's own bookkeeping is not charged, which is what those two
// subtractions leave. The reported figure is total time / iterations, in microseconds.
//
// call=getpid gives instead Andrew Morton's loop from the Jan 2002 "syscall latency improvement"
// thread (int i = 100*1000*1000; while (i--) getpid();), which the P3 calibration figures measured;
// it is reported in cycles only (it is not an lmbench figure).
import { workload } from "siglab";

export default workload({
  name: "lat_syscall null",
  description: "lmbench lat_syscall null: getppid() in a loop (int $0x80 entry, the body, ret_from_sys_call, iret); call=getpid for Morton's getpid loop",
  params: { iterations: 100_000, call: "getppid" },
  *main(t, { iterations, call }) {
    if (call !== "getpid" && call !== "getppid") throw new Error(`call must be getppid (lmbench's null call) or getpid, not ${call}`);
    const syscall = call === "getppid" ? () => t.getppid() : () => t.getpid();
    yield* syscall(); // warm up: TLB and caches (benchmp's first intervals do the same)
    let n = iterations;
    const start = t.rdtsc();
    t.loopBegin(call); // the timed loop, kept in the results with its count
    while (n-- > 0) {
      yield* syscall();
      if ((n & 0xffff) === 0) t.progress(1 - n / iterations);
    }
    const end = t.rdtsc();
    t.loopEnd(call, iterations);
    const cycles = (end - start) / iterations;
    if (call === "getppid") t.report("Simple syscall", cycles / t.mhz, "us");
    t.report(call, cycles, "cycles");
  },
});
