// lat_ctx -s 0 2: lmbench's context switch time, ported from lmbench3's src/lat_ctx.c
// (github.com/intel/lmbench @ f71f39757619bdb673df9d99e48da7d22324e0ec, the lmbench3.tar.gz import).
//
//   main():   state.procs = max procs; benchmp(initialize_overhead, benchmark_overhead, ...);
//             state.overhead = gettime() / get_n();      fprintf("size=%dk ovr=%.2f", ...)
//             benchmp(initialize, benchmark, ...);
//             time = gettime() / get_n() / procs - overhead;   fprintf("%d %.2f", procs, time)
//   benchmark_overhead():  i = 0; while (iterations-- > 0) {
//                              write(p[i][1], &msg, 4); read(p[i][0], &msg, 4);
//                              if (++i == procs) i = 0; bread(data, size); }
//   initialize():  create_pipes(p, procs); create_daemons(): fork procs-1 children, child i runs
//                  doit(p[i-1][0], p[i][1]): for (;;) { read(rd, &msg, 4); bread(); write(wr, &msg, 4); }
//                  then "once around the loop": write(p[0][1]); read(p[procs-1][0]).
//   benchmark():   while (iterations-- > 0) { write(p[0][1], &msg, 4); read(p[procs-1][0], &msg, 4); bread(); }
//
// So one pass of the ring is `procs` switches and `procs` write+read pairs; the overhead is one
// write+read pair measured in a single process (rotating over the same `procs` pipes), and the
// reported switch time is pass / procs - overhead. Only -s 0 is ported (bread of 0 bytes is nothing).
// Timing as in benchmp (src/lib_timing.c): rdtsc instead of gettimeofday, uncharged loop; a short
// untimed interval of each benchmark runs first (benchmp's growing first intervals). lmbench's
// cleanup kills the daemons with SIGKILL; here they leave their loop and exit after the last pass.
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
  name: "lat_ctx 2p/0K",
  description: "lmbench lat_ctx -s 0 2: a token ring of `procs` processes over pipes, per switch, minus the single-process pipe overhead",
  params: { iterations: 5_000, procs: 2, sched: "DEFAULT" },
  *main(t, { iterations, procs, sched }) {
    const statics: SchedStatics = { cpumask: 0 }; // lib_sched.c's static cpumask, inherited by fork
    if (!(procs >= 2) || procs !== Math.floor(procs)) throw new Error(`procs must be an integer >= 2, not ${procs}`);
    const warm = 8;

    // benchmp(initialize_overhead, benchmark_overhead): create_pipes(), then write+read on each pipe in turn
    const p: [number, number][] = [];
    for (let j = 0; j < procs; j++) p.push(yield* t.pipe());
    function* overheadLoop(n: number) {
      let i = 0;
      while (n-- > 0) {
        yield* t.write(p[i]![1], 4);
        yield* t.read(p[i]![0], 4);
        if (++i === procs) i = 0;
      }
    }
    yield* overheadLoop(warm);
    const o0 = t.rdtsc();
    t.loopBegin("overhead: write + read"); // a named loop: the results keep its cycles by phase and its count
    yield* overheadLoop(iterations);
    const o1 = t.rdtsc();
    t.loopEnd("overhead: write + read", iterations);
    const overhead = (o1 - o0) / iterations;
    // cleanup_overhead(): close the pipes
    for (const [r, w] of p) {
      yield* t.close(r);
      yield* t.close(w);
    }

    // benchmp(initialize, benchmark): fresh pipes and procs - 1 daemons
    yield* handle_scheduler(t, statics, sched, 0, 0, procs - 1);
    const q: [number, number][] = [];
    for (let j = 0; j < procs; j++) q.push(yield* t.pipe());
    const passes = 1 + warm + iterations; // once around, the warm-up interval, the timed interval
    for (let i = 1; i < procs; i++) {
      const rd = q[i - 1]![0], wr = q[i]![1];
      yield* t.fork(function* (c) {
        yield* handle_scheduler(c, statics, sched, 0, i, procs - 1);
        // doit(p[i-1][0], p[i][1])
        for (let k = 0; k < passes; k++) {
          yield* c.read(rd, 4);
          yield* c.write(wr, 4);
        }
        yield* c.exit(1);
      });
    }
    function* ring(n: number) {
      while (n-- > 0) {
        yield* t.write(q[0]![1], 4);
        yield* t.read(q[procs - 1]![0], 4);
      }
    }
    yield* ring(1); // create_daemons: once around the loop
    yield* ring(warm);
    const start = t.rdtsc();
    t.loopBegin("ring: context switch");
    yield* ring(iterations);
    const end = t.rdtsc();
    // per switch (procs of them per pass), less the overhead loop's figure: the reported ctxsw
    t.loopEnd("ring: context switch", iterations * procs, { overhead: "overhead: write + read" });
    const pass = (end - start) / iterations;
    for (let i = 1; i < procs; i++) yield* t.wait();

    const ctx = pass / procs - overhead;
    t.report(`${procs}p/0K ctxsw`, ctx / t.mhz, "us");
    t.report("size=0k ovr", overhead / t.mhz, "us");
    t.report("context switch cycles", ctx, "cycles");
    t.report("pipe overhead", overhead, "cycles");
  },
});
