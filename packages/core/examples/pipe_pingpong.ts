// The other half of McVoy's comparison: the same ping-pong through pipes.
import { workload } from "siglab";

export default workload({
  name: "pipe ping-pong",
  description: "two processes exchange a byte through two pipes",
  params: { iterations: 2_000, bytes: 1 },
  *main(t, { iterations, bytes }) {
    const [ra, wa] = yield* t.pipe();
    const [rb, wb] = yield* t.pipe();
    yield* t.fork(function* (c) {
      for (let i = 0; i < iterations; i++) {
        yield* c.read(ra, bytes);
        yield* c.write(wb, bytes);
      }
    });
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.write(wa, bytes);
      yield* t.read(rb, bytes);
    }
    const rtt = (t.rdtsc() - start) / iterations;
    yield* t.wait();
    t.report("pipe ping-pong round trip", rtt / t.mhz, "us");
    t.report("pipe round trip cycles", rtt, "cycles");
  },
});
