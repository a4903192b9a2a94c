// io_uring with IORING_SETUP_SQPOLL: a kernel thread (io_sq_thread) on a CPU of its own polls
// the SQ ring, so submitting is only stores -- the SQEs and the SQ tail -- and no system call while
// the thread is awake. The program then reads sq_flags, as liburing does after the tail store:
// IORING_SQ_NEED_WAKEUP means the thread went to sleep after sq_thread_idle without work, and one
// io_uring_enter(IORING_ENTER_SQ_WAKEUP) wakes it. Completions are reaped from the CQ ring in a busy
// loop, as in io_uring_poll; the SQ thread runs their task_work and posts the CQEs. What the
// program's CPU no longer pays, the SQ thread's CPU does: see the counters io_uring.sqpoll.*.
// With sq_thread_idle shorter than a round the thread sleeps in every round (HZ 100 here, as in the
// aio_* examples: 1 ms is one 10 ms jiffy, and the thread notices on the tick after it):
//   siglab run io_uring_sqpoll --cpu zen4 --preset linux-6+io-uring --param sqThreadIdleMs=1 --param workUs=50000
import { workload } from "siglab";

const __NR_io_uring_setup = 425, __NR_io_uring_enter = 426;
const IORING_OP_WRITE = 23;
const IORING_SETUP_SQPOLL = 2, IORING_SETUP_SQ_AFF = 4, IORING_ENTER_SQ_WAKEUP = 2, IORING_SQ_NEED_WAKEUP = 1;
// struct io_rings offsets (see the plugin's README): sq.tail, cq.head, cq.tail, masks, the SQE array
const SQ_TAIL = 4, SQ_FLAGS = 36, CQ_HEAD = 8, CQ_TAIL = 12, SQ_MASK = 16, CQ_MASK = 20, SQ_ENTRIES = 24, CQ_ENTRIES = 28, SQES = 48, CQES = 64;

export default workload({
  name: "io_uring SQPOLL: submission without a system call",
  description: "N SQEs per round picked up by the SQPOLL kernel thread from the shared ring (io_uring_enter only to wake it); completions reaped from the CQ ring in user space",
  params: { batch: 8, rounds: 40, workUs: 200, workPerEventUs: 4, bytes: 4096, spinCycles: 100, sqThreadIdleMs: 0 },
  *main(t, { batch, rounds, workUs, workPerEventUs, bytes, spinCycles, sqThreadIdleMs }) {
    const ring = (yield* t.syscall(__NR_io_uring_setup, batch, IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF, sqThreadIdleMs)) as number;
    if (ring < 0) throw new Error(`io_uring_setup returned ${ring}: io_uring_sqpoll needs the io-uring plugin (--preset linux-6+io-uring)`);
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
    let submit = 0, overhead = 0, completions = 0, lateRounds = 0, calls = 0, wakeups = 0;
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
      // sq_ring_needs_enter: after the tail store (and a full barrier), is the SQ thread asleep?
      if ((yield* t.load(ring + SQ_FLAGS)) & IORING_SQ_NEED_WAKEUP) {
        const n = yield* t.syscall(__NR_io_uring_enter, ring, batch, 0, IORING_ENTER_SQ_WAKEUP);
        calls++;
        wakeups++;
        if (n !== batch) throw new Error(`io_uring_enter(SQ_WAKEUP) returned ${String(n)}`);
      }
      const t1 = t.rdtsc();
      yield* t.compute(work);
      // io_uring_peek_batch_cqe in a loop: load the CQ tail (acquire) until the batch is in
      let tail = yield* t.load(ring + CQ_TAIL), spins = 0;
      while (tail - cqHead < batch) {
        yield* t.compute(spinCycles); // the busy loop's pause between two loads of the tail
        tail = yield* t.load(ring + CQ_TAIL);
        spins++;
      }
      if (spins > 0) lateRounds++;
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
    t.report("SQ thread wake-ups by the program", wakeups, "calls");
    t.report("completions", completions, "events");
    t.report("late rounds", lateRounds, "rounds");
  },
});
