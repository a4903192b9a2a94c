// vgettimeofday: gettimeofday through the vsyscall page (the vsyscall-gettimeofday plugin's
// "glibc-vsyscall" libc): its cost per call, and whether time ever goes backwards when a timer
// tick lands inside a read. Delete the `libc` line to run the same loop on the default libc
// (glibc 2.2, whose gettimeofday is the system call).
import { workload, type Sys } from "siglab";

const HZ = 100;

export default workload({
  name: "gettimeofday through the vsyscall page",
  description: "Back-to-back libc gettimeofday calls (cycles per call), then reads across timer ticks, each between two gettimeofday system calls: steps back in time, and values outside the system call's.",
  libc: "glibc-vsyscall",
  hz: HZ,
  params: { calls: 20_000, ticks: 60, readsPerTick: 3 },
  *main(t, { calls, ticks, readsPerTick }) {
    const us = (tv: { sec: number; usec: number }) => tv.sec * 1e6 + tv.usec;
    function* cyclesPerCall(call: () => Sys<unknown>, n: number) {
      yield* call(); // warm up
      const start = t.rdtsc();
      for (let i = 0; i < n; i++) yield* call();
      return (t.rdtsc() - start) / n;
    }
    const libcCall = yield* cyclesPerCall(() => t.libc.gettimeofday(), calls);
    const sysCall = yield* cyclesPerCall(() => t.gettimeofday(), 1000);
    t.report("gettimeofday", libcCall, "cycles");
    t.report("gettimeofday system call", sysCall, "cycles");

    // run up to a timer tick (one every mhz * 1e6 / HZ cycles) so that it lands inside the second
    // libc read, at a different point each time; each libc value must lie between the system
    // call's values before and after it
    const tick = (t.mhz * 1e6) / HZ;
    const read = sysCall + libcCall + sysCall;
    let last = 0, backwards = 0, outside = 0;
    for (let i = 0; i < ticks; i++) {
      const now = t.rdtsc();
      const next = Math.ceil((now + 10 * read) / tick) * tick;
      yield* t.compute(next - now - read - sysCall - libcCall * ((2 * i) / ticks - 0.5));
      for (let j = 0; j < readsPerTick; j++) {
        const before = us(yield* t.gettimeofday());
        const v = us(yield* t.libc.gettimeofday());
        const after = us(yield* t.gettimeofday());
        if (v < last) backwards++;
        if (v < before || v > after) outside++;
        last = v;
      }
    }
    t.report("backwards steps", backwards, "count");
    t.report("outside the system call's values", outside, "count");
  },
});
