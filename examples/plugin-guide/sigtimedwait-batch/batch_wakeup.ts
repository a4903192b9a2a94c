// batch_wakeup: how soon does a task asleep in rt_sigtimedwait_batch wake when the signal it
// waits for arrives? A child sleeps, then sends the signal and times how long the parent takes
// to answer (the parent's wake-up, plus one kill back). With the plugin's hazard option
// (unblockWhileWaiting=false) the parent sleeps on until its timeout.
import { workload, SIGRTMIN, SIG_BLOCK } from "siglab";

const NR_rt_sigtimedwait_batch = 254;
const ACK = SIGRTMIN + 4;

export default workload({
  name: "rt_sigtimedwait_batch wake-up",
  description: "The parent blocks SIGRTMIN and waits for it in rt_sigtimedwait_batch (timeout `timeoutMs`); a forked child sleeps `sleepUs`, sends SIGRTMIN and waits for the parent's answer.",
  params: { sleepUs: 2000, timeoutMs: 50 },
  *main(t, { sleepUs, timeoutMs }) {
    yield* t.sigprocmask(SIG_BLOCK, [SIGRTMIN, ACK]); // the child inherits the mask
    const child = yield* t.fork(function* (c) {
      yield* c.nanosleep(sleepUs * 1000);
      const parent = yield* c.getppid();
      const sent = c.rdtsc();
      yield* c.sigqueue(parent, SIGRTMIN, 1);
      yield* c.sigtimedwait([ACK], 1e9); // the parent answers once it has the signal
      c.report("wake-up latency", (c.rdtsc() - sent) / c.mhz, "us");
      return 0;
    });
    const start = t.rdtsc();
    const got = yield* t.syscall(NR_rt_sigtimedwait_batch, [SIGRTMIN], 4, timeoutMs * 1e6);
    yield* t.kill(child, ACK);
    t.report("time in rt_sigtimedwait_batch", (t.rdtsc() - start) / t.mhz, "us");
    t.report("signals collected", Array.isArray(got) ? got.length : 0, "signals");
    yield* t.wait();
  },
});
