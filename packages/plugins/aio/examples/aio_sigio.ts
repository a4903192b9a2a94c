// SIGIO with F_SETSIG (2.4): every completion of the disk queues a real-time signal with si_fd
// and si_band, and each one is delivered to a handler: a full signal frame, the FPU state saved
// and restored, sigreturn. One signal per event, so the per-event cost stays flat as the batch
// grows. A handler runs at arbitrary points, so a program that shares data with it blocks the
// signal while it submits (blockWhileSubmitting): completions then queue up, and with more of
// them than max_queued_signals (1024, system-wide) the kernel falls back to a plain SIGIO that
// says only "something happened": the program must rescan.
import { workload, SIGIO, SIGRTMIN, SA_SIGINFO, SA_RESTART, SIG_BLOCK, SIG_UNBLOCK, F_SETOWN, F_SETSIG, F_SETFL, O_ASYNC, O_NONBLOCK } from "siglab";

// LinuxThreads keeps the first real-time signals for itself
const SIG = SIGRTMIN + 3;
const RECORD = 32;

export default workload({
  name: "SIGIO/F_SETSIG: a handler per completion",
  description: "N writes to /dev/siglab-disk; each completion is an RT signal delivered to an SA_SIGINFO handler",
  params: { batch: 8, rounds: 40, workUs: 200, workPerEventUs: 4, bytes: 4096, blockWhileSubmitting: false },
  *main(t, { batch, rounds, workUs, workPerEventUs, bytes, blockWhileSubmitting }) {
    const fd = yield* t.open("/dev/siglab-disk");
    let signalled = 0, overflowed = false;
    yield* t.sigaction(SIG, function* (h) {
      if (h.info?.fd === fd) signalled++;
    }, { flags: SA_SIGINFO | SA_RESTART });
    // the RT queue overflowed: plain SIGIO, no siginfo. Only note it (a handler should do little);
    // the main loop rescans
    yield* t.sigaction(SIGIO, function* () {
      overflowed = true;
    }, { flags: SA_RESTART });
    yield* t.fcntl(fd, F_SETOWN, t.pid);
    yield* t.fcntl(fd, F_SETSIG, SIG);
    yield* t.fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK);
    // the program has used the FPU (used_math): a signal frame carries its FP image
    yield* t.fpu.ops(1);
    // useful work per round, long enough for the device (latency + batch) to finish during it
    const work = Math.round((workUs + batch * workPerEventUs) * t.mhz);
    let submit = 0, overhead = 0, completions = 0, lateRounds = 0, rescans = 0;
    for (let r = 0; r < rounds; r++) {
      signalled = 0;
      overflowed = false;
      let records = 0;
      const t0 = t.rdtsc();
      if (blockWhileSubmitting) yield* t.sigprocmask(SIG_BLOCK, [SIG, SIGIO]);
      for (let i = 0; i < batch; i++) yield* t.write(fd, bytes);
      const t1 = t.rdtsc();
      // what completed meanwhile is delivered on the way out of this call
      if (blockWhileSubmitting) yield* t.sigprocmask(SIG_UNBLOCK, [SIG, SIGIO]);
      yield* t.compute(work); // the handlers interrupt it, one per completion
      let late = false;
      for (;;) {
        if (overflowed) {
          // rescan: after an overflow only the records count; collect every finished request's
          const n = yield* t.read(fd, (batch - records) * RECORD);
          if (n > 0) records += n / RECORD;
          if (records >= batch) break;
          if (n <= 0) yield* t.compute(t.mhz); // some are still in flight
          continue;
        }
        if (signalled >= batch) break;
        late = true;
        yield* t.compute(t.mhz);
      }
      const t2 = t.rdtsc();
      if (late && !overflowed) lateRounds++;
      if (overflowed) rescans++;
      completions += overflowed ? records : signalled;
      submit += t1 - t0;
      overhead += t2 - t0 - work;
      // the records were not needed to count: read them now, outside the measurement
      if (!overflowed) yield* t.read(fd, batch * RECORD);
    }
    const events = rounds * batch;
    t.report("per-event cost", overhead / events, "cycles");
    t.report("per-event cost (us)", overhead / events / t.mhz, "us");
    t.report("submission per event", submit / events, "cycles");
    t.report("notification per event", (overhead - submit) / events, "cycles");
    t.report("completions", completions, "events");
    t.report("queue overflows (rescans)", rescans, "rescans");
    t.report("late rounds", lateRounds, "rounds");
  },
});
