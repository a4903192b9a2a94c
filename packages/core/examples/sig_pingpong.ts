// Larry McVoy's question: signal ping-pong between two processes, to compare with pipes.
// Both block SIGUSR1 and wait for it in sigsuspend(), so no signal is lost between the kill and
// the wait.
import { workload, SIGUSR1, SIG_BLOCK } from "siglab";

export default workload({
  name: "signal ping-pong",
  description: "two processes exchange SIGUSR1 with kill() + sigsuspend()",
  params: { iterations: 2_000 },
  *main(t, { iterations }) {
    yield* t.sigaction(SIGUSR1, function* () {});
    yield* t.sigprocmask(SIG_BLOCK, [SIGUSR1]);
    const parent = yield* t.getpid();
    const child = yield* t.fork(function* (c) {
      for (let i = 0; i < iterations; i++) {
        yield* c.sigsuspend([]);
        yield* c.kill(parent, SIGUSR1);
      }
    });
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      yield* t.kill(child, SIGUSR1);
      yield* t.sigsuspend([]);
    }
    const rtt = (t.rdtsc() - start) / iterations;
    yield* t.wait();
    t.report("signal ping-pong round trip", rtt / t.mhz, "us");
    t.report("signal round trip cycles", rtt, "cycles");
  },
});
