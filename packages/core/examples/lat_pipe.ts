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

// lmbench3's handle_scheduler (src/lib_sched.c) with LMBENCH_SCHED = `sched`: DEFAULT leaves placement
// to the scheduler; SINGLE pins every process to CPU 0; UNIQUE gives benchmark process `childno`'s
// process `benchproc` CPU childno * (nbenchprocs + 1) + benchproc (mod the CPUs), through
// sched_setaffinity (run with --smp to have CPUs to place them on). sched_pin reads the affinity
// mask once into static variables: a forked child keeps the parent's copy (the mask from before
// the parent pinned itself), so it picks its CPU among all of them, not the parent's one CPU.
interface SchedStatics { cpumask: number }
function* handle_scheduler(t: { sched_getaffinity(pid?: number): Generator<unknown, number, unknown>; sched_setaffinity(pid: number, mask: number): Generator<unknown, number, unknown> }, statics: SchedStatics, sched: string, childno: number, benchproc: number, nbenchprocs: number) {
  if (sched === "DEFAULT") return;
  if (sched !== "SINGLE" && sched !== "UNIQUE") throw new Error(`sched must be DEFAULT, SINGLE or UNIQUE (LMBENCH_SCHED), not ${sched}`);
  if (statics.cpumask === 0) statics.cpumask = yield* t.sched_getaffinity(0);
  let ncpus = 0;
  for (let m = statics.cpumask; m > 0; m >>= 1) ncpus += m & 1;
  const cpu = sched === "SINGLE" ? 0 : (childno * (nbenchprocs + 1) + benchproc) % ncpus;
  // the cpu-th CPU of the mask
  let bit = 0;
  for (let j = 0; bit < 32; bit++) if (statics.cpumask & (1 << bit) && j++ >= cpu) break;
  yield* t.sched_setaffinity(0, 1 << bit);
}

export default workload({
  name: "lat_pipe",
  description: "lmbench lat_pipe: round trip of a 1-byte token between two processes over two pipes",
  params: { iterations: 5_000, sched: "DEFAULT" },
  *main(t, { iterations, sched }) {
    const statics: SchedStatics = { cpumask: 0 }; // lib_sched.c's static cpumask, inherited by fork
    yield* handle_scheduler(t, statics, sched, 0, 0, 1); // initialize(): the parent
    const warm = 8;
    const [p1r, p1w] = yield* t.pipe();
    const [p2r, p2w] = yield* t.pipe();
    const trips = 1 + warm + iterations;
    yield* t.fork(function* (c) {
      yield* handle_scheduler(c, statics, sched, 0, 1, 1); // the writer child
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
    t.loopBegin("round trip: write + read"); // the timed loop, kept in the results with its count
    yield* doit(iterations);
    const end = t.rdtsc();
    t.loopEnd("round trip: write + read", iterations);
    const rtt = (end - start) / iterations;
    yield* t.wait();
    t.report("Pipe latency", rtt / t.mhz, "us");
    t.report("pipe round trip", rtt, "cycles");
  },
});
