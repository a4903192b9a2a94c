// lat_ctx -s 0 2: two processes pass a token through two pipes; the pipe overhead measured in one
// process is subtracted, as lmbench does, leaving the context switch.
import { workload } from "siglab";

export default workload({
  name: "lat_ctx 2p/0K",
  description: "token ring of 2 processes over pipes, minus the single-process pipe overhead",
  params: { iterations: 5_000 },
  *main(t, { iterations }) {
    // overhead: one process writes the token to its own pipe and reads it back
    const [r0, w0] = yield* t.pipe();
    const o0 = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.write(w0, 4);
      yield* t.read(r0, 4);
    }
    const overhead = (t.rdtsc() - o0) / iterations;

    const [ra, wa] = yield* t.pipe(); // parent -> child
    const [rb, wb] = yield* t.pipe(); // child -> parent
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
    const perPass = (t.rdtsc() - start) / iterations;
    yield* t.wait();
    // each pass is two switches and two write+read pairs
    const ctx = (perPass - 2 * overhead) / 2;
    t.report("context switch", ctx / t.mhz, "us");
    t.report("context switch cycles", ctx, "cycles");
    t.report("pipe overhead", overhead, "cycles");
  },
});
