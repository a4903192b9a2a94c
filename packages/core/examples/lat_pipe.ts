// lat_pipe: lmbench's "Pipe latency", ported from lmbench3's src/lat_pipe.c
// (github.com/intel/lmbench @ f71f39757619bdb673df9d99e48da7d22324e0ec, the lmbench3.tar.gz import).
//
//   initialize():  pipe(p1); pipe(p2); fork():
//                    child:  writer(p2[1], p1[0]): for (;;) { read(r, &c, 1); write(w, &c, 1); }
//                    parent: "one time around to make sure both processes are started":
//                            write(p1[1], &c, 1); read(p2[0], &c, 1);
//   doit():        while (iterations-- > 0) { write(p1[1], &c, 1); read(p2[0], &c, 1); }
//   main():        benchmp(initialize, doit, cleanup, SHORT, ...); micro("Pipe latency", get_n());
//
// The figure is the whole round trip (two pipe transfers of one byte and two context switches),
// per iteration, in microseconds; nothing is subtracted. Timing as in benchmp (src/lib_timing.c):
// rdtsc instead of gettimeofday, uncharged loop; a short untimed interval runs first. lmbench's
// cleanup kills the writer with SIGKILL; here it leaves its loop and exits after the last round trip.
import { workload } from "siglab";

export default workload({
  name: "lat_pipe",
  description: "lmbench lat_pipe: round trip of a 1-byte token between two processes over two pipes",
  params: { iterations: 5_000 },
  *main(t, { iterations }) {
    const warm = 8;
    const [p1r, p1w] = yield* t.pipe();
    const [p2r, p2w] = yield* t.pipe();
    const trips = 1 + warm + iterations;
    yield* t.fork(function* (c) {
      // writer(p2[1], p1[0])
      yield* c.close(p1w);
      yield* c.close(p2r);
      for (let k = 0; k < trips; k++) {
        yield* c.read(p1r, 1);
        yield* c.write(p2w, 1);
      }
      yield* c.exit(0);
    });
    yield* t.close(p1r);
    yield* t.close(p2w);
    function* doit(n: number) {
      while (n-- > 0) {
        yield* t.write(p1w, 1);
        yield* t.read(p2r, 1);
      }
    }
    yield* doit(1); // one time around to make sure both processes are started
    yield* doit(warm);
    const start = t.rdtsc();
    yield* doit(iterations);
    const rtt = (t.rdtsc() - start) / iterations;
    yield* t.wait();
    t.report("Pipe latency", rtt / t.mhz, "us");
    t.report("pipe round trip", rtt, "cycles");
  },
});
