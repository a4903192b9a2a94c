// Jamie Lokier (Aug 2002): "Isn't the per-event queued signal cost amortised when using
// sigtimedwait()?" Block the F_SETSIG signal and drain the queue with sigtimedwait: no frame, no
// FPU work, no sigreturn -- but still one system call and one dequeue per event (there is no
// batch dequeue), so the per-event cost is lower than a handler's and just as flat.
import { workload, SIGIO, SIGRTMIN, SIG_BLOCK, F_SETOWN, F_SETSIG, F_SETFL, O_ASYNC, O_NONBLOCK } from "siglab";

const SIG = SIGRTMIN + 3;
const RECORD = 32;

export default workload({
  name: "F_SETSIG + sigtimedwait: one system call per completion",
  description: "N writes to /dev/siglab-disk; the queued RT signals are blocked and drained with sigtimedwait",
  params: { batch: 8, rounds: 40, workUs: 200, workPerEventUs: 4, bytes: 4096 },
  *main(t, { batch, rounds, workUs, workPerEventUs, bytes }) {
    const fd = yield* t.open("/dev/siglab-disk");
    yield* t.sigprocmask(SIG_BLOCK, [SIG, SIGIO]);
    yield* t.fcntl(fd, F_SETOWN, t.pid);
    yield* t.fcntl(fd, F_SETSIG, SIG);
    yield* t.fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK);
    // the program has used the FPU (used_math): a signal frame carries its FP image
    yield* t.fpu.ops(1);
    // useful work per round, long enough for the device (latency + batch) to finish during it
    const work = Math.round((workUs + batch * workPerEventUs) * t.mhz);
    let submit = 0, overhead = 0, completions = 0, lateRounds = 0, rescans = 0, stale = 0;
    for (let r = 0; r < rounds; r++) {
      let signalled = 0, records = 0, overflowed = false, late = false;
      const t0 = t.rdtsc();
      for (let i = 0; i < batch; i++) yield* t.write(fd, bytes);
      const t1 = t.rdtsc();
      yield* t.compute(work); // the signals queue up meanwhile
      while (signalled < batch && !overflowed) {
        let info = yield* t.sigtimedwait([SIG, SIGIO], 0);
        if (typeof info === "number") {
          late = true; // not there yet: wait for it
          info = yield* t.sigtimedwait([SIG, SIGIO]);
        }
        if (typeof info === "number") throw new Error(`sigtimedwait returned ${info}`);
        if (info.signo === SIGIO) overflowed = true;
        else if (info.fd === fd) signalled++;
      }
      if (overflowed) {
        // plain SIGIO: the queue overflowed. Rescan (the records are the truth), then throw away
        // the queued signals, which are now stale
        rescans++;
        while (records < batch) {
          const n = yield* t.read(fd, (batch - records) * RECORD);
          if (n > 0) records += n / RECORD;
          else yield* t.compute(t.mhz);
        }
        for (;;) {
          const s = yield* t.sigtimedwait([SIG, SIGIO], 0);
          if (typeof s === "number") break;
          stale++;
        }
      }
      const t2 = t.rdtsc();
      if (late) lateRounds++;
      completions += overflowed ? records : signalled;
      submit += t1 - t0;
      overhead += t2 - t0 - work;
      if (!overflowed) yield* t.read(fd, batch * RECORD); // the records, outside the measurement
    }
    const events = rounds * batch;
    t.report("per-event cost", overhead / events, "cycles");
    t.report("per-event cost (us)", overhead / events / t.mhz, "us");
    t.report("submission per event", submit / events, "cycles");
    t.report("notification per event", (overhead - submit) / events, "cycles");
    t.report("completions", completions, "events");
    t.report("queue overflows (rescans)", rescans, "rescans");
    t.report("stale signals drained", stale, "signals");
    t.report("late rounds", lateRounds, "rounds");
  },
});
