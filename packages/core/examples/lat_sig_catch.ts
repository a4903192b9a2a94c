// lat_sig catch: lmbench's "Signal handler overhead", ported from lmbench3's src/lat_sig.c
// (github.com/intel/lmbench @ f71f39757619bdb673df9d99e48da7d22324e0ec, the lmbench3.tar.gz import).
// lmbench reports the cost of catching a signal LESS the cost of sending it (bench_catch):
//
//   do_send():   me = getpid(); while (--iterations > 0) kill(me, 0);          -- the send alone
//   do_catch():  me = getpid(); sa.sa_handler = handler (empty); sa_flags = 0;
//                sigaction(SIGUSR1, &sa, &old); while (--iterations > 0) kill(me, SIGUSR1);
//   bench_catch(): benchmp(do_send); send_usecs = gettime(); send_n = get_n();
//                  benchmp(do_catch);
//                  settime(gettime() - send_usecs * get_n() / send_n)   (0 if negative)
//   main():      micro("Signal handler overhead", get_n());
//
// So the figure is (catch loop - send loop scaled to the same n) / n: the kill() system call itself
// (int $0x80, sys_kill, iret) is subtracted; what is left is send_sig_info's queueing, the delivery
// (do_signal, setup_frame, save_i387), the handler and sigreturn. Both loops run n - 1 times and
// are divided by n, exactly as lmbench's `--iterations > 0` loops and get_n() do; the getpid() and
// sigaction() at the top of each benchmark function are inside the timed interval, as in benchmp.
//
// Timing: benchmp (src/lib_timing.c) times intervals with gettimeofday and subtracts the timing and
// loop overheads; rdtsc reads the simulated counter directly and the loop itself is not charged.
// benchmp's first intervals are shorter ones (iterations grow x8 until an interval is long enough),
// so the timed interval starts warm: one short interval of each loop runs untimed first.
//
// lmbench's timing code computes in double precision between intervals (benchmp_interval), so the
// task has an FPU context: every delivery converts and copies the 624-byte FP image into the frame
// (save_i387) and sigreturn copies it back, even though the loop itself does not touch the FPU.
// useFpu=false drops that (a task that never used the FPU); useFpuInLoop adds an FP instruction per
// iteration of the catch loop (then each signal also pays an #NM trap and fxrstor).
// subtractSend=false skips lmbench's send loop and reports only the kill-and-catch round trip
// (not an lmbench figure: for phase breakdowns of the catch loop and simulator-speed benchmarks).
import { workload, SIGUSR1, type Sys } from "siglab";

export default workload({
  name: "lat_sig catch",
  description: "lmbench lat_sig catch: kill(me, SIGUSR1) + empty handler + sigreturn, minus a kill(me, 0) loop",
  params: { iterations: 20_000, useFpu: true, useFpuInLoop: false, subtractSend: true },
  *main(t, { iterations, useFpu, useFpuInLoop, subtractSend }) {
    let caught = 0;
    const handler = function* () {
      caught++;
    };
    if (useFpu) yield* t.fpu.set("st0", 1.5); // the timing code's floating point

    function* doSend(n: number): Sys<void> {
      const me = yield* t.getpid();
      while (--n > 0) yield* t.kill(me, 0);
    }
    function* doCatch(n: number): Sys<void> {
      const me = yield* t.getpid();
      yield* t.sigaction(SIGUSR1, handler, { flags: 0, mask: [] });
      while (--n > 0) {
        yield* t.kill(me, SIGUSR1);
        if (useFpuInLoop) yield* t.fpu.ops(2);
      }
    }
    /**
     * One benchmp interval: benchmp_interval's FP bookkeeping, then the timed benchmark call. A
     * timed interval is a named loop (`loop`): the results keep its cycles by phase and its count.
     */
    function* interval(bench: (n: number) => Sys<void>, n: number, loop?: { name: string; overhead?: string }) {
      if (useFpu) yield* t.fpu.ops(4);
      const start = t.rdtsc();
      if (loop) t.loopBegin(loop.name);
      yield* bench(n);
      const cycles = t.rdtsc() - start;
      if (loop) t.loopEnd(loop.name, n, loop.overhead === undefined ? undefined : { overhead: loop.overhead });
      return cycles;
    }

    // benchmp(do_send): a short warm-up interval, then the timed one
    let sendCycles = 0;
    const sendN = iterations;
    if (subtractSend) {
      yield* interval(doSend, 8);
      sendCycles = yield* interval(doSend, sendN, { name: "send: kill(me, 0)" });
    }

    // benchmp(do_catch): its figure is this loop less the send loop, per iteration
    yield* interval(doCatch, 8);
    caught = 0;
    const catchCycles = yield* interval(doCatch, iterations, { name: "catch: kill(me, SIGUSR1)", ...(subtractSend ? { overhead: "send: kill(me, 0)" } : {}) });
    const n = iterations;
    if (caught !== n - 1) throw new Error(`caught ${caught} of ${n - 1} signals`);

    if (!subtractSend) {
      t.report("signal round trip", catchCycles / n, "cycles");
      return;
    }
    // bench_catch: subtract the cost of sending, scaled to this interval's n
    const overhead = Math.max(0, catchCycles - (sendCycles * n) / sendN) / n;
    t.report("Signal handler overhead", overhead / t.mhz, "us");
    t.report("catch cycles", overhead, "cycles");
    t.report("signal round trip", catchCycles / n, "cycles");
    t.report("kill(me, 0)", sendCycles / sendN, "cycles");
  },
});
