// lat_pipe: two processes ping-pong a word through two pipes (lmbench "Pipe latency": the round trip).
import { workload } from "siglab";

export default workload({
  name: "lat_pipe",
  description: "round trip of a 4-byte token between two processes over two pipes",
  params: { iterations: 5_000 },
  *main(t, { iterations }) {
    const [ra, wa] = yield* t.pipe();
    const [rb, wb] = yield* t.pipe();
    yield* t.fork(function* (c) {
      for (let i = 0; i < iterations; i++) {
        yield* c.read(ra, 4);
        yield* c.write(wb, 4);
      }
    });
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.write(wa, 4);
      yield* t.read(rb, 4);
    }
    const rtt = (t.rdtsc() - start) / iterations;
    yield* t.wait();
    t.report("pipe latency", rtt / t.mhz, "us");
    t.report("pipe round trip", rtt, "cycles");
  },
});
