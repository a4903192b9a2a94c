// Ingo Molnar (Aug 2002): "threads can do queued events that amortizes context switch overhead,
// while queued signals generate per-event signal delivery". A helper thread (clone) blocks in
// read() on the device; each wake-up it takes every completion record that is ready in one read
// and hands them to the main thread through a pipe. The interrupts stay per event; the switches
// and system calls are shared by whatever completed while the helper was waiting to run.
import { workload } from "siglab";

const RECORD = 32;

export default workload({
  name: "helper thread: blocking read + hand-over through a pipe",
  description: "N writes to /dev/siglab-disk; a helper thread reads the completion records and passes them on through a pipe",
  params: { batch: 8, rounds: 40, workUs: 200, workPerEventUs: 4, bytes: 4096 },
  *main(t, { batch, rounds, workUs, workPerEventUs, bytes }) {
    const fd = yield* t.open("/dev/siglab-disk");
    const [rp, wp] = yield* t.pipe();
    let handoffs = 0;
    const total = rounds * batch;
    yield* t.clone(function* (h) {
      let left = total;
      while (left > 0) {
        const n = yield* h.read(fd, Math.min(left, 128) * RECORD); // sleeps until a completion
        if (n <= 0) throw new Error(`helper: read returned ${n}`);
        left -= n / RECORD;
        yield* h.write(wp, n);
        handoffs++;
      }
    });
    // the program has used the FPU (used_math): a signal frame carries its FP image
    yield* t.fpu.ops(1);
    // useful work per round, long enough for the device (latency + batch) to finish during it
    const work = Math.round((workUs + batch * workPerEventUs) * t.mhz);
    let submit = 0, overhead = 0, completions = 0, pipeReads = 0;
    for (let r = 0; r < rounds; r++) {
      const t0 = t.rdtsc();
      for (let i = 0; i < batch; i++) yield* t.write(fd, bytes);
      const t1 = t.rdtsc();
      yield* t.compute(work);
      let got = 0;
      while (got < batch) {
        const n = yield* t.read(rp, (batch - got) * RECORD);
        if (n <= 0) throw new Error(`pipe read returned ${n}`);
        got += n / RECORD;
        pipeReads++;
      }
      const t2 = t.rdtsc();
      completions += got;
      submit += t1 - t0;
      overhead += t2 - t0 - work;
    }
    yield* t.wait(); // reap the helper
    const events = rounds * batch;
    t.report("per-event cost", overhead / events, "cycles");
    t.report("per-event cost (us)", overhead / events / t.mhz, "us");
    t.report("submission per event", submit / events, "cycles");
    t.report("notification per event", (overhead - submit) / events, "cycles");
    t.report("completions", completions, "events");
    t.report("hand-offs per round", handoffs / rounds, "hand-offs");
    t.report("pipe reads per round", pipeReads / rounds, "reads");
  },
});
