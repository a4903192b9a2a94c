// Signal wake-up round trip: `siglab probe`'s sigwaitinfo / sigsuspend loops (probe/siglab-probe.c,
// wake_setup and do_wake), in lmbench's style. Both handlers are installed and SIGUSR1/SIGUSR2
// blocked before the fork, so no signal can arrive before its receiver waits for it:
//
//   child:   parent = getppid(); all_but_usr1 = the mask without SIGUSR1;
//            for (;;) { sigwaitinfo({SIGUSR1}) | sigsuspend(all_but_usr1); kill(parent, SIGUSR2); }
//   parent:  while (n-- > 0) { kill(child, SIGUSR1); sigwaitinfo({SIGUSR2}) | sigsuspend(all_but_usr2); }
//
// `wait` picks the wait: "sigwaitinfo" dequeues the blocked signal with no handler run (the
// kernel's sys_rt_sigtimedwait), "sigsuspend" unblocks it for the sleep, so every wake-up also
// delivers a signal frame to the empty handler and returns through sigreturn. The figure is one
// round trip (two signals, two wake-ups, two context switches) in microseconds. The probe pins
// both processes to one CPU: `sched` "SINGLE" with --smp 2 does the same (as lat_pipe's
// LMBENCH_SCHED); "DEFAULT" leaves placement to the scheduler.
import { workload, SIGUSR1, SIGUSR2, SIG_BLOCK } from "siglab";

export default workload({
  name: "signal wake-up round trip",
  description: "a signal to a process waiting in sigwaitinfo or sigsuspend and one back (siglab probe's wake loops)",
  params: { iterations: 2_000, wait: "sigwaitinfo", sched: "DEFAULT" },
  *main(t, { iterations, wait, sched }) {
    if (wait !== "sigwaitinfo" && wait !== "sigsuspend") throw new Error(`wait must be "sigwaitinfo" or "sigsuspend", not ${wait}`);
    if (sched !== "DEFAULT" && sched !== "SINGLE") throw new Error(`sched must be DEFAULT or SINGLE (the probe pins both processes to one CPU), not ${sched}`);
    if (sched === "SINGLE") yield* t.sched_setaffinity(0, 1);
    const suspend = wait === "sigsuspend";
    yield* t.sigaction(SIGUSR1, function* () {});
    yield* t.sigaction(SIGUSR2, function* () {});
    yield* t.sigprocmask(SIG_BLOCK, [SIGUSR1, SIGUSR2]);
    const warm = 8;
    const trips = warm + iterations;
    /** the mask the process has, without `sig`: what sigsuspend sleeps with */
    function* allBut(th: typeof t, sig: number) {
      const old = yield* th.sigprocmask(SIG_BLOCK, []);
      return typeof old === "number" ? [] : old.filter((s) => s !== sig);
    }
    const child = yield* t.fork(function* (c) {
      const parent = yield* c.getppid();
      const allButUsr1 = yield* allBut(c, SIGUSR1);
      for (let k = 0; k < trips; k++) {
        if (suspend) yield* c.sigsuspend(allButUsr1);
        else while (typeof (yield* c.sigtimedwait([SIGUSR1])) === "number") {}
        yield* c.kill(parent, SIGUSR2);
      }
      yield* c.exit(0);
    });
    const allButUsr2 = yield* allBut(t, SIGUSR2);
    function* do_wake(n: number) {
      while (n-- > 0) {
        yield* t.kill(child, SIGUSR1);
        if (suspend) yield* t.sigsuspend(allButUsr2);
        else while (typeof (yield* t.sigtimedwait([SIGUSR2])) === "number") {}
      }
    }
    yield* do_wake(warm);
    const start = t.rdtsc();
    yield* do_wake(iterations);
    const rtt = (t.rdtsc() - start) / iterations;
    yield* t.wait();
    t.report(`Signal wake-up, ${wait}`, rtt / t.mhz, "us");
    t.report("signal wake-up round trip", rtt, "cycles");
  },
});
