// Ben LaHaise's AIO (2.5): io_submit starts a whole batch of requests in one system call; the
// device interrupt's aio_complete writes a 32-byte io_event into a ring mapped into the process;
// io_getevents copies up to nr events per call. Ingo (Aug 2002): "Ben's aio interface is the
// fastest and most correct approach". Per-event cost falls as the batch grows: the two system
// calls are shared by the whole batch, only the interrupt and the 32-byte copies stay per event.
// Needs the aio plugin: siglab run aio_ring --variant aio --sweep batch=1,2,4,8,16,32
import { workload } from "siglab";

const __NR_io_setup = 245, __NR_io_destroy = 246, __NR_io_getevents = 247, __NR_io_submit = 248;
const IOCB_CMD_PWRITE = 1;
interface IoEvent { data: number; obj: number; res: number; res2: number }

export default workload({
  name: "AIO ring: io_submit + io_getevents",
  description: "N requests per io_submit, the completions collected with one io_getevents(min_nr = nr = N)",
  params: { batch: 8, rounds: 40, workUs: 200, workPerEventUs: 4, bytes: 4096 },
  *main(t, { batch, rounds, workUs, workPerEventUs, bytes }) {
    const ctx = (yield* t.syscall(__NR_io_setup, batch)) as number;
    if (ctx < 0) throw new Error(`io_setup returned ${ctx}: aio_ring needs the aio plugin (--variant aio)`);
    const fd = yield* t.open("/dev/siglab-disk");
    // the program has used the FPU (used_math): a signal frame carries its FP image
    yield* t.fpu.ops(1);
    // useful work per round, long enough for the device (latency + batch) to finish during it
    const work = Math.round((workUs + batch * workPerEventUs) * t.mhz);
    let submit = 0, overhead = 0, completions = 0, lateRounds = 0;
    for (let r = 0; r < rounds; r++) {
      const iocbs = [];
      for (let i = 0; i < batch; i++) iocbs.push({ fd, opcode: IOCB_CMD_PWRITE, bytes, data: r * batch + i });
      const t0 = t.rdtsc();
      const n = yield* t.syscall(__NR_io_submit, ctx, iocbs);
      if (n !== batch) throw new Error(`io_submit returned ${String(n)} for ${batch} iocbs`);
      const t1 = t.rdtsc();
      yield* t.compute(work);
      // the ring is user memory: peek at head and tail as libaio can, to see whether we will sleep
      const head = yield* t.load(ctx + 8), tail = yield* t.load(ctx + 12), nr = yield* t.load(ctx + 4);
      if ((tail - head + nr) % nr < batch) lateRounds++;
      const evs = (yield* t.syscall(__NR_io_getevents, ctx, batch, batch)) as IoEvent[] | number;
      if (typeof evs === "number" || evs.length !== batch) throw new Error(`io_getevents returned ${typeof evs === "number" ? evs : evs.length} events, expected ${batch}`);
      const t2 = t.rdtsc();
      for (const e of evs) {
        if (e.res !== bytes || Math.floor(e.data / batch) !== r) throw new Error(`unexpected io_event ${JSON.stringify(e)}`);
      }
      completions += evs.length;
      submit += t1 - t0;
      overhead += t2 - t0 - work;
    }
    yield* t.syscall(__NR_io_destroy, ctx);
    const events = rounds * batch;
    t.report("per-event cost", overhead / events, "cycles");
    t.report("per-event cost (us)", overhead / events / t.mhz, "us");
    t.report("submission per event", submit / events, "cycles");
    t.report("notification per event", (overhead - submit) / events, "cycles");
    t.report("system calls per event", 2 / batch, "calls");
    t.report("completions", completions, "events");
    t.report("late rounds", lateRounds, "rounds");
  },
});
