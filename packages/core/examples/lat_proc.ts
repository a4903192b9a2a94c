// lat_proc fork: lmbench's "Process fork+exit", ported from lmbench3's src/lat_proc.c
// (github.com/intel/lmbench @ f71f39757619bdb673df9d99e48da7d22324e0ec, the lmbench3.tar.gz import).
//
//   main():     benchmp(NULL, do_fork, cleanup, 0, parallel, warmup, repetitions, NULL);
//               micro("Process fork+exit", get_n());
//   do_fork():  signal(SIGCHLD, SIG_DFL); handle_scheduler(benchmp_childid(), 0, 1);
//               while (iterations-- > 0) {
//                 switch (child_pid = fork()) {
//                 case -1: perror("fork"); exit(1);
//                 case 0:  handle_scheduler(benchmp_childid(), 1, 1); exit(1);   -- the child
//                 default: waitpid(child_pid, NULL, 0);                           -- the parent
//                 }
//                 child_pid = 0;
//               }
//
// The figure is one whole fork + the child's exit + the parent's waitpid, per iteration, in
// microseconds; nothing is subtracted. Timing as in benchmp (src/lib_timing.c): rdtsc instead of
// gettimeofday, uncharged loop; a short untimed interval runs first.
//
// What the loop writes, and so which pages take copy-on-write faults (an assumption, named): each
// side's stack page (the runtime's fork() writes it for both: the parent's return into its caller,
// the child's call of handle_scheduler/exit), and the parent's `child_pid = fork()` and
// `child_pid = 0` -- child_pid is a global, so a page of lat_proc's data segment (`data_pages`
// pages of it are mapped, present and copied at each fork; the first holds child_pid). The child's
// exit() in libc (atexit handlers, stdio flush) writes libc's data too: libc is not mapped in the
// model, so those faults are left out.
import { workload, PROT_READ, PROT_WRITE } from "siglab";

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
  name: "lat_proc fork",
  description: "lmbench lat_proc fork: fork(), the child exit(1)s at once, the parent waitpid()s; per iteration (copy-on-write faults, exit_mmap, release_task)",
  params: { iterations: 2_000, data_pages: 1, sched: "DEFAULT" },
  *main(t, { iterations, data_pages, sched }) {
    if (!(data_pages >= 1) || data_pages !== Math.floor(data_pages)) throw new Error(`data_pages must be an integer >= 1 (the first holds child_pid), not ${data_pages}`);
    const statics: SchedStatics = { cpumask: 0 }; // lib_sched.c's static cpumask, inherited by fork
    // lat_proc's data segment: child_pid lives in its first page; every page is present (written once)
    const data = yield* t.mmap(data_pages * 4096, PROT_READ | PROT_WRITE);
    for (let p = 0; p < data_pages; p++) yield* t.store(data + p * 4096, 0);
    const child_pid = data; // &child_pid
    const warm = 8;

    yield* t.sigaction(17, "default"); // signal(SIGCHLD, SIG_DFL)
    yield* handle_scheduler(t, statics, sched, 0, 0, 1);
    function* do_fork(n: number) {
      while (n-- > 0) {
        const pid = yield* t.fork(function* (c) {
          yield* handle_scheduler(c, statics, sched, 0, 1, 1);
          yield* c.exit(1);
        });
        if (pid < 0) throw new Error(`fork: ${pid}`);
        yield* t.store(child_pid, pid); // child_pid = fork()
        yield* t.waitpid(pid, 0);
        yield* t.store(child_pid, 0); // child_pid = 0
      }
    }
    yield* do_fork(warm);
    const start = t.rdtsc();
    t.loopBegin("fork + exit + wait"); // the timed loop, kept in the results with its count
    yield* do_fork(iterations);
    const end = t.rdtsc();
    t.loopEnd("fork + exit + wait", iterations);
    const per = (end - start) / iterations;
    t.report("Process fork+exit", per / t.mhz, "us");
    t.report("fork+exit+wait", per, "cycles");
  },
});
