// batch_speed: a burst of queued real-time signals collected with one rt_sigtimedwait_batch call
// (the sigtimedwait-batch plugin's system call, slot 254) and with one rt_sigtimedwait per signal,
// in the same run.
import { workload, SIGRTMIN, SIG_BLOCK } from "siglab";

const NR_rt_sigtimedwait_batch = 254;
const SET = [SIGRTMIN, SIGRTMIN + 1, SIGRTMIN + 2, SIGRTMIN + 3];

export default workload({
  name: "rt_sigtimedwait_batch vs rt_sigtimedwait",
  description: "Queue `burst` RT signals to ourselves (blocked, so they stay queued), then collect them with one batch call, and again with `burst` sigtimedwait calls: cycles per collected signal either way.",
  params: { burst: 16, rounds: 50 },
  *main(t, { burst, rounds }) {
    yield* t.sigprocmask(SIG_BLOCK, SET);
    function* queueBurst() {
      for (let i = 0; i < burst; i++) yield* t.sigqueue(t.pid, SET[i % SET.length], i);
    }
    let batchCycles = 0, batchGot = 0, singleCycles = 0, singleGot = 0;
    for (let r = 0; r < rounds; r++) {
      yield* queueBurst();
      let start = t.rdtsc();
      const got = yield* t.syscall(NR_rt_sigtimedwait_batch, SET, burst, 0);
      batchCycles += t.rdtsc() - start;
      if (!Array.isArray(got)) throw new Error(`rt_sigtimedwait_batch returned ${got}: run with the sigtimedwait-batch variant`);
      batchGot += got.length;

      yield* queueBurst();
      start = t.rdtsc();
      for (let i = 0; i < burst; i++) if (typeof (yield* t.sigtimedwait(SET, 0)) !== "number") singleGot++;
      singleCycles += t.rdtsc() - start;
    }
    t.report("batch: cycles per signal", batchCycles / batchGot, "cycles");
    t.report("sigtimedwait: cycles per signal", singleCycles / singleGot, "cycles");
    t.report("signals collected", batchGot + singleGot, "signals");
  },
});
