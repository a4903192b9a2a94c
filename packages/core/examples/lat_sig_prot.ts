// lat_sig prot: lmbench's "Protection fault", ported from lmbench3's src/lat_sig.c
// (github.com/intel/lmbench @ f71f39757619bdb673df9d99e48da7d22324e0ec, the lmbench3.tar.gz import).
// lmbench reports the cost of a fault-and-catch cycle LESS the cost of a catch (bench_prot):
//
//   initialize(): fd = open(fname, 0); where = mmap(0, 4096, PROT_READ, MAP_SHARED, fd, 0);
//                 sa.sa_handler = prot; sa_flags = 0; sigaction(SIGSEGV, &sa, 0); sigaction(SIGBUS, &sa, 0);
//   do_prot():    n = iterations; caught = 0; start(0);
//                 *where = 1;          -- faults; the handler returns; the store faults again, forever
//   prot():       if (++caught == n) { caught = 0; n = benchmp_interval(benchmp_getstate()); }
//   bench_prot(): bench_catch() (see lat_sig_catch.ts); catch_usecs = gettime(); catch_n = get_n();
//                 benchmp(initialize, do_prot); settime(gettime() - catch_usecs * get_n() / catch_n)
//   main():       micro("Protection fault", get_n());
//
// The handler does not change the protection, so the store never completes: each fault runs the
// #PF exception, do_page_fault (find_vma, the write is checked against VM_WRITE -> bad_area),
// force_sig_info(SIGSEGV), the delivery, the handler, and sigreturn back to the faulting store.
// Timing intervals end and start INSIDE the handler: every n-th fault the handler calls
// benchmp_interval, which stops the clock, records the interval and starts the next one. lmbench
// gets past the faulting store by never getting past it: after the last interval benchmp_interval
// (cooldown) sends the results to the parent and calls exit(0) from inside the handler. So, as in
// benchmp, the faulting loop runs in a forked child that exits from its handler; the parent waits.
// The child computes the figure from the catch cost measured before the fork (fork copies memory;
// lmbench's parent does the same subtraction with the results read from the child's pipe).
//
// The mapping: lmbench maps a file (the lat_sig binary) MAP_SHARED, PROT_READ. In Linux 2.4's
// do_page_fault (arch/i386/mm/fault.c, good_area) a write to a VMA without VM_WRITE goes to
// bad_area before the backing object is looked at, so the faulting path is the same for a
// read-only anonymous mapping, which is what this port maps (the simulator's open() knows only
// character devices). The differences are outside the timed loop (open + the file's mmap) or cost
// nothing (lmbench's page is never read, so its #PF error code has P=0; here the page is present).
//
// Timing as in benchmp (src/lib_timing.c): rdtsc instead of gettimeofday, uncharged loop; the first,
// short interval (started in user mode before the store) warms up, the next one (started inside the
// handler) is reported. lmbench's timing code computes in double precision inside the handler at
// each interval boundary, so the task has an FPU context: each delivery copies the FP image.
import { workload, SIGUSR1, SIGSEGV, SIGBUS, PROT_READ, type HandlerContext, type Sys } from "siglab";

export default workload({
  name: "lat_sig prot",
  description: "lmbench lat_sig prot: write to a read-only page, SIGSEGV handler only counts (the write faults again), minus the catch cost",
  params: { iterations: 5_000 },
  *main(t, { iterations }) {
    // ---- bench_catch(), as in lat_sig_catch.ts: the catch cost to subtract ------------------
    let caughtUsr1 = 0;
    const empty = function* () {
      caughtUsr1++;
    };
    yield* t.fpu.set("st0", 1.5); // the timing code's floating point
    function* doSend(n: number): Sys<void> {
      const me = yield* t.getpid();
      while (--n > 0) yield* t.kill(me, 0);
    }
    function* doCatch(n: number): Sys<void> {
      const me = yield* t.getpid();
      yield* t.sigaction(SIGUSR1, empty, { flags: 0, mask: [] });
      while (--n > 0) yield* t.kill(me, SIGUSR1);
    }
    // a timed interval is a named loop: the results keep its cycles by phase and its count
    function* interval(bench: (n: number) => Sys<void>, n: number, loop?: { name: string; overhead?: string }) {
      yield* t.fpu.ops(4); // benchmp_interval's double arithmetic
      const start = t.rdtsc();
      if (loop) t.loopBegin(loop.name);
      yield* bench(n);
      const cycles = t.rdtsc() - start;
      if (loop) t.loopEnd(loop.name, n, loop.overhead === undefined ? undefined : { overhead: loop.overhead });
      return cycles;
    }
    yield* interval(doSend, 8);
    const send = yield* interval(doSend, iterations, { name: "send: kill(me, 0)" });
    yield* interval(doCatch, 8);
    caughtUsr1 = 0;
    const catchTotal = yield* interval(doCatch, iterations, { name: "catch: kill(me, SIGUSR1)", overhead: "send: kill(me, 0)" });
    if (caughtUsr1 !== iterations - 1) throw new Error(`caught ${caughtUsr1} of ${iterations - 1} signals`);
    const catchN = iterations;
    const catchCycles = Math.max(0, catchTotal - send) / catchN; // bench_catch: settime(catch - send)

    // ---- benchmp(initialize, do_prot): the faulting loop runs in a child, which exits from its handler
    yield* t.fork(function* (c) {
      // initialize()
      const where = yield* c.mmap(4096, PROT_READ);
      const warmN = 8;
      let n = warmN;
      let caught = 0;
      let timed = false;
      let start = 0;
      const prot = function* (h: HandlerContext) {
        if (++caught === n) {
          // benchmp_interval(): stop the clock ...
          const cycles = h.rdtsc() - start;
          // its figure is this loop less the catch loop's figure, per fault
          if (timed) h.loopEnd("fault: store to a read-only page", n, { overhead: "catch: kill(me, SIGUSR1)" });
          caught = 0;
          yield* h.fpu.ops(4); // ... the double arithmetic on the result ...
          if (timed) {
            // cooldown: report, exit(0) from inside the handler
            const protCycles = Math.max(0, cycles - catchCycles * n) / n; // bench_prot's subtraction
            h.report("Protection fault", protCycles / h.mhz, "us");
            h.report("protection fault cycles", protCycles, "cycles");
            h.report("fault + catch", cycles / n, "cycles");
            yield* h.exit(0);
          }
          // ... and start the next (timed) interval
          timed = true;
          n = iterations;
          start = h.rdtsc();
          h.loopBegin("fault: store to a read-only page");
        }
      };
      yield* c.sigaction(SIGSEGV, prot, { flags: 0, mask: [] });
      yield* c.sigaction(SIGBUS, prot, { flags: 0, mask: [] });
      // do_prot()
      yield* c.fpu.ops(4);
      start = c.rdtsc();
      yield* c.store(where, 1); // never completes
      throw new Error("the store to a read-only page completed");
    });
    yield* t.wait();
    t.report("Signal handler overhead", catchCycles / t.mhz, "us");
  },
});
