// lat_sig install: the cost of installing a signal handler (lmbench "Signal handler installation").
import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "lat_sig install",
  description: "rt_sigaction() in a loop",
  params: { iterations: 20_000 },
  *main(t, { iterations }) {
    const handler = function* () {};
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) yield* t.sigaction(SIGUSR1, handler);
    const cycles = (t.rdtsc() - start) / iterations;
    t.report("sigaction", cycles, "cycles");
    t.report("signal install", cycles / t.mhz, "us");
  },
});
