// lat_sig install: lmbench's "Signal handler installation", ported from lmbench3's src/lat_sig.c
// (github.com/intel/lmbench @ f71f39757619bdb673df9d99e48da7d22324e0ec, the lmbench3.tar.gz import):
//
//   do_install():  while (iterations-- > 0) {
//                      sa.sa_handler = handler; sigemptyset(&sa.sa_mask); sa.sa_flags = 0;
//                      sigaction(SIGUSR1, &sa, &old);              -- rt_sigaction with act and oact
//                  }
//   main():        benchmp(NULL, do_install, ...); micro("Signal handler installation", get_n());
//
// Timing as in benchmp (src/lib_timing.c): the interval's time over get_n(), with the timing and
// loop overheads subtracted (rdtsc and an uncharged loop here). Reported in microseconds.
import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "lat_sig install",
  description: "lmbench lat_sig install: sigaction(SIGUSR1, &sa, &old) in a loop",
  params: { iterations: 20_000 },
  *main(t, { iterations }) {
    const handler = function* () {};
    let n = iterations;
    const start = t.rdtsc();
    t.loopBegin("sigaction"); // the timed loop, kept in the results with its count
    while (n-- > 0) yield* t.sigaction(SIGUSR1, handler, { flags: 0, mask: [] });
    const end = t.rdtsc();
    t.loopEnd("sigaction", iterations);
    const cycles = (end - start) / iterations;
    t.report("Signal handler installation", cycles / t.mhz, "us");
    t.report("sigaction", cycles, "cycles");
  },
});
