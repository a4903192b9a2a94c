// Seaman's second test: 10 threads each doing N read+write of 10,000 bytes (/dev/zero -> /dev/null)
// with a yield after each. NGPT's wrappers add fcntl+select / 4 x fcntl around every call.
import { workload } from "siglab";

export default workload({
  name: "NGPT read/write test",
  description: "10 threads x N (read 10,000 B + write 10,000 B + yield)",
  params: { threads: 10, iterations: 1_000, bytes: 10_000 },
  *main(t, { threads, iterations, bytes }) {
    const zero = yield* t.open("/dev/zero");
    const devnull = yield* t.open("/dev/null");
    const start = t.rdtsc();
    const handles = [];
    for (let i = 0; i < threads; i++) {
      handles.push(
        yield* t.pthread.create(function* (th) {
          for (let j = 0; j < iterations; j++) {
            yield* th.pthread.read(zero, bytes);
            yield* th.pthread.write(devnull, bytes);
            yield* th.pthread.yield();
          }
        }),
      );
    }
    for (const h of handles) yield* t.pthread.join(h);
    const cycles = t.rdtsc() - start;
    t.report("wall time", cycles / t.mhz / 1e6, "s");
    t.report("per iteration", cycles / (threads * iterations), "cycles");
  },
});
