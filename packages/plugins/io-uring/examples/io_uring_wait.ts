// io_uring (Linux 5.1; the paths as in 6.x) in the aio_ring shape: per round the program writes
// `batch` SQEs into the shared submission ring and stores the SQ tail, submits them with one
// io_uring_enter, does its useful work while the device runs, then waits with a second
// io_uring_enter(IORING_ENTER_GETEVENTS, min_complete = batch) and reads the CQEs from the shared
// completion ring with plain loads. Two system calls per batch, like io_submit + io_getevents, but
// no iocb is copied in and no event is copied out: the kernel reads the SQEs where the program
// wrote them, and the completions' task_work writes the CQEs where the program reads them.
// Needs the linux6 and io-uring plugins: siglab run io_uring_wait --cpu zen4 --preset linux-6+io-uring
import { workload } from "siglab";

const __NR_io_uring_setup = 425, __NR_io_uring_enter = 426;
const IORING_ENTER_GETEVENTS = 1;
const IORING_OP_WRITE = 23;
// struct io_rings offsets (see the plugin's README): sq.tail, cq.head, cq.tail, masks, the SQE array
const SQ_TAIL = 4, CQ_HEAD = 8, CQ_TAIL = 12, SQ_MASK = 16, CQ_MASK = 20, SQ_ENTRIES = 24, CQ_ENTRIES = 28, SQES = 48, CQES = 64;

export default workload({
  name: "io_uring: submit + wait (io_uring_enter GETEVENTS)",
  description: "N SQEs per io_uring_enter, the completions waited for with a second io_uring_enter(GETEVENTS, min_complete = N) and read from the CQ ring",
  params: { batch: 8, rounds: 40, workUs: 200, workPerEventUs: 4, bytes: 4096 },
  *main(t, { batch, rounds, workUs, workPerEventUs, bytes }) {
    const ring = (yield* t.syscall(__NR_io_uring_setup, batch)) as number;
    if (ring < 0) throw new Error(`io_uring_setup returned ${ring}: io_uring_wait needs the io-uring plugin (--preset linux-6+io-uring)`);
    const fd = yield* t.open("/dev/siglab-disk");
    const sqes = yield* t.load(ring + SQES), sqMask = yield* t.load(ring + SQ_MASK), cqMask = yield* t.load(ring + CQ_MASK);
    // liburing's io_uring_queue_init: sq_array[i] = i once (the SQE index of each ring slot)
    const sqEntries = yield* t.load(ring + SQ_ENTRIES), cqEntries = yield* t.load(ring + CQ_ENTRIES);
    const sqArray = ring + Math.ceil((CQES + 16 * cqEntries) / 64) * 64;
    for (let i = 0; i < sqEntries; i++) yield* t.store(sqArray + 4 * i, i);
    // the program has used the FPU (used_math), as in the aio_* examples
    yield* t.fpu.ops(1);
    const work = Math.round((workUs + batch * workPerEventUs) * t.mhz);
    let sqTail = 0, cqHead = 0;
    let submit = 0, overhead = 0, completions = 0, lateRounds = 0, calls = 0;
    for (let r = 0; r < rounds; r++) {
      const t0 = t.rdtsc();
      for (let i = 0; i < batch; i++) {
        // io_uring_get_sqe + io_uring_prep_write + io_uring_sqe_set_data (liburing; zero stores merged)
        const sqe = sqes + 64 * (sqTail & sqMask);
        yield* t.store(sqe + 0, IORING_OP_WRITE); // opcode, flags, ioprio
        yield* t.store(sqe + 4, fd);
        yield* t.store(sqe + 8, 0); // off
        yield* t.store(sqe + 16, 0x10000000); // addr: the buffer
        yield* t.store(sqe + 24, bytes); // len
        yield* t.store(sqe + 28, 0); // rw_flags
        yield* t.store(sqe + 32, r * batch + i); // user_data
        yield* t.store(sqe + 40, 0); // buf_index, personality, file_index
        yield* t.store(sqe + 48, 0); // addr3
        sqTail++;
      }
      yield* t.store(ring + SQ_TAIL, sqTail); // io_uring_submit: the tail, with release semantics
      const n = yield* t.syscall(__NR_io_uring_enter, ring, batch, 0, 0);
      calls++;
      if (n !== batch) throw new Error(`io_uring_enter submitted ${String(n)} of ${batch} SQEs`);
      const t1 = t.rdtsc();
      yield* t.compute(work);
      // the ring is shared memory: is everything in already? (then GETEVENTS will not sleep)
      if ((yield* t.load(ring + CQ_TAIL)) - cqHead < batch) lateRounds++;
      const w = yield* t.syscall(__NR_io_uring_enter, ring, 0, batch, IORING_ENTER_GETEVENTS);
      calls++;
      if (w !== 0) throw new Error(`io_uring_enter(GETEVENTS) returned ${String(w)}`);
      // io_uring_for_each_cqe + io_uring_cq_advance: loads from the CQ ring, one store of the head
      const tail = yield* t.load(ring + CQ_TAIL);
      if (tail - cqHead < batch) throw new Error(`${tail - cqHead} CQEs after waiting for ${batch}`);
      for (let i = 0; i < batch; i++) {
        const cqe = ring + CQES + 16 * ((cqHead + i) & cqMask);
        const data = yield* t.load(cqe), res = yield* t.load(cqe + 8);
        if (res !== bytes || Math.floor(data / batch) !== r) throw new Error(`unexpected CQE { user_data: ${data}, res: ${res} }`);
      }
      cqHead += batch;
      yield* t.store(ring + CQ_HEAD, cqHead);
      const t2 = t.rdtsc();
      completions += batch;
      submit += t1 - t0;
      overhead += t2 - t0 - work;
    }
    const events = rounds * batch;
    t.report("per-event cost", overhead / events, "cycles");
    t.report("per-event cost (us)", overhead / events / t.mhz, "us");
    t.report("submission per event", submit / events, "cycles");
    t.report("notification per event", (overhead - submit) / events, "cycles");
    t.report("system calls per event", calls / events, "calls");
    t.report("completions", completions, "events");
    t.report("late rounds", lateRounds, "rounds");
  },
});
