import { describe, expect, it } from "vitest";
import { runSource } from "../../../core/test/harness.js";
import { CPU, linux6, metric, pathCount, uring, W, withUring } from "./util.js";

describe("io_uring_setup: the rings in the caller's address space", () => {
  it("rounds the SQ to a power of two, sizes the CQ at twice that, and maps the rings and the SQEs", () => {
    const r = withUring(W(`
      const ring = yield* t.syscall(io_uring_setup, 5);
      t.report("sq entries", yield* t.load(ring + SQ_ENTRIES), "n");
      t.report("cq entries", yield* t.load(ring + CQ_ENTRIES), "n");
      t.report("sq mask", yield* t.load(ring + SQ_MASK), "n");
      t.report("cq mask", yield* t.load(ring + CQ_MASK), "n");
      const sqes = yield* t.load(ring + SQES);
      yield* t.store(sqes + 7 * 64, 1); // the last SQE is mapped and writable
      t.report("sqes after rings", sqes > ring ? 1 : 0, "bool");
      t.report("zero", yield* t.syscall(io_uring_setup, 0), "ret");
      t.report("huge", yield* t.syscall(io_uring_setup, 40000), "ret");
      t.report("aff without sqpoll", yield* t.syscall(io_uring_setup, 4, SQ_AFF), "ret");
      t.report("bad flag", yield* t.syscall(io_uring_setup, 4, 1 << 20), "ret");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "sq entries")).toBe(8);
    expect(metric(r, "cq entries")).toBe(16);
    expect(metric(r, "sq mask")).toBe(7);
    expect(metric(r, "cq mask")).toBe(15);
    expect(metric(r, "sqes after rings")).toBe(1);
    expect(metric(r, "zero")).toBe(-22);
    expect(metric(r, "huge")).toBe(-22);
    expect(metric(r, "aff without sqpoll")).toBe(-22);
    expect(metric(r, "bad flag")).toBe(-22);
    expect(r.counters["io_uring.rings"]).toBe(1);
    // one page of rings (64 + 16 x 16 + 4 x 8 bytes) and one of SQEs (8 x 64 bytes)
    expect(pathCount(r, "io_create_region.page")).toBe(2);
    expect(r.findings).toEqual([]);
  });

  it("a real flag whose mechanism is not modelled (IOPOLL) is refused with a finding that says so", () => {
    const r = withUring(W(`t.report("iopoll", yield* t.syscall(io_uring_setup, 4, 1), "ret");`));
    expect(metric(r, "iopoll")).toBe(-22);
    expect(r.findings.map((f) => f.kind)).toEqual(["io-uring-not-modelled"]);
    expect(r.findings[0]!.message).toMatch(/IORING_SETUP_SQPOLL and IORING_SETUP_SQ_AFF are modelled/);
  });
});

describe("io_uring_enter: submission from the shared SQ ring", () => {
  const batch = (n: number, body: string) =>
    withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 32));
      const fd = yield* t.open("/dev/siglab-disk");
      for (let i = 0; i < ${n}; i++) yield* queue(t, q, OP_WRITE, fd, 4096, 100 + i);
      yield* publish(t, q);
      ${body}`));

  it("one io_uring_enter submits the batch; the kernel reads the SQEs in place and advances sq.head", () => {
    const r = batch(16, `
      t.report("submitted", yield* t.syscall(io_uring_enter, q.ring, 16, 0, 0), "sqes");
      t.report("sq head", yield* t.load(q.ring + SQ_HEAD), "index");
      yield* t.compute(1000 * t.mhz);
      t.report("wait", yield* t.syscall(io_uring_enter, q.ring, 0, 16, GETEVENTS), "ret");
      const cqes = yield* reap(t, q);
      t.report("cqes", cqes.length, "n");
      t.report("dataSum", cqes.reduce((s, c) => s + c.data, 0), "sum");
      t.report("badRes", cqes.filter((c) => c.res !== 4096).length, "n");`);
    expect(r.error).toBeUndefined();
    expect(metric(r, "submitted")).toBe(16);
    expect(metric(r, "sq head")).toBe(16);
    expect(metric(r, "wait")).toBe(0);
    expect(metric(r, "cqes")).toBe(16);
    expect(metric(r, "dataSum")).toBe(16 * 100 + (15 * 16) / 2);
    expect(metric(r, "badRes")).toBe(0);
    expect(r.counters["syscalls.io_uring_enter"]).toBe(2);
    expect(pathCount(r, "io_submit_sqes")).toBe(1);
    expect(pathCount(r, "io_submit_sqe")).toBe(16);
    expect(pathCount(r, "io_rw_issue")).toBe(16);
    expect(pathCount(r, "siglab_disk.make_request")).toBe(16);
    expect(r.counters["irq.device"]).toBe(16);
    expect(pathCount(r, "io_complete_rw")).toBe(16);
    expect(pathCount(r, "io_fill_cqe_req")).toBe(16);
    // the SQEs are read where the program wrote them, the CQEs written where it reads them: no copy
    for (const p of ["io_submit_sqe", "io_rw_issue", "io_fill_cqe_req", "io_cqring_wait"]) {
      expect(r.paths.find((x) => x.name === p)!.ops.some((o) => o.op.startsWith("copy_user")), p).toBe(false);
    }
    // no signals: the completion is task_work (TIF_NOTIFY_SIGNAL), not a signal
    expect(r.counters["signals.sent"] ?? 0).toBe(0);
    expect(r.findings).toEqual([]);
  });

  it("the completions' task_work posts the CQEs on the return to user mode after the interrupt (no system call)", () => {
    const r = batch(8, `
      t.report("submitted", yield* t.syscall(io_uring_enter, q.ring, 8, 0, 0), "sqes");
      t.report("cq tail before", yield* t.load(q.ring + CQ_TAIL), "n");
      yield* t.compute(1000 * t.mhz);
      t.report("cq tail after", yield* t.load(q.ring + CQ_TAIL), "n");
      t.report("cqes", (yield* reap(t, q)).length, "n");`);
    expect(r.error).toBeUndefined();
    expect(metric(r, "cq tail before")).toBe(0);
    expect(metric(r, "cq tail after")).toBe(8);
    expect(metric(r, "cqes")).toBe(8);
    expect(r.counters["syscalls.io_uring_enter"]).toBe(1);
    expect(pathCount(r, "io_cqring_wait")).toBe(0);
    // task_work_add only when the task's list was empty; every run of it goes through get_signal
    const adds = r.counters["io_uring.task_work_adds"]!;
    expect(adds).toBeGreaterThanOrEqual(1);
    expect(adds).toBeLessThanOrEqual(8);
    expect(pathCount(r, "exit_to_user_mode_loop.task_work")).toBe(adds);
    expect(pathCount(r, "io_req_rw_complete")).toBe(8);
    expect(r.paths.find((p) => p.name === "tctx_task_work")!.origin).toBe("io-uring");
  });

  it("GETEVENTS sleeps in io_cqring_wait until min_complete CQEs are in; every first task_work wakes it", () => {
    const r = batch(4, `
      yield* t.syscall(io_uring_enter, q.ring, 4, 0, 0);
      const t0 = t.rdtsc();
      t.report("wait", yield* t.syscall(io_uring_enter, q.ring, 0, 4, GETEVENTS), "ret");
      t.report("waited", (t.rdtsc() - t0) / t.mhz, "us");
      t.report("cqes", (yield* reap(t, q)).length, "n");`);
    expect(r.error).toBeUndefined();
    expect(metric(r, "wait")).toBe(0);
    expect(metric(r, "cqes")).toBe(4);
    // the device's 100 us latency (+ up to 10 us of seeded jitter)
    expect(metric(r, "waited")).toBeGreaterThan(95);
    expect(metric(r, "waited")).toBeLessThan(125);
    expect(pathCount(r, "io_cqring_wait.sleep")).toBe(1);
    const sleeps = r.counters["io_uring.cq_wait_sleeps"]!;
    expect(sleeps).toBeGreaterThanOrEqual(1);
    // a wake-up comes only from task_work_add (the task's list was empty), and after each the task
    // runs the task_work itself (io_run_task_work) before it tests min_complete again
    expect(sleeps).toBeLessThanOrEqual(r.counters["io_uring.task_work_adds"]!);
    expect(pathCount(r, "io_cqring_wait.wake")).toBeGreaterThanOrEqual(sleeps);
    expect(pathCount(r, "io_run_task_work")).toBeGreaterThanOrEqual(sleeps);
    expect(r.phases["idle"]).toBeGreaterThan(0);
  });

  it("without DEFER_TASKRUN the waiter is woken by every completion that finds its task_work list empty", () => {
    // completions 20 us apart: each one wakes the task, which posts one CQE and sleeps again
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 4));
      const fd = yield* t.open("/dev/siglab-disk");
      for (let i = 0; i < 4; i++) yield* queue(t, q, OP_WRITE, fd, 512, i);
      yield* publish(t, q);
      yield* t.syscall(io_uring_enter, q.ring, 4, 0, 0);
      yield* t.syscall(io_uring_enter, q.ring, 0, 4, GETEVENTS);
      t.report("cqes", (yield* reap(t, q)).length, "n");`), { uringOptions: { deviceIntervalUs: 20 } });
    expect(r.error).toBeUndefined();
    expect(metric(r, "cqes")).toBe(4);
    expect(r.counters["io_uring.task_work_adds"]).toBe(4);
    expect(r.counters["io_uring.cq_wait_sleeps"]).toBe(4);
    expect(r.counters["sched.switches"]).toBeGreaterThanOrEqual(2 * 4);
  });

  it("submit and wait in one call: to_submit with GETEVENTS is a single system call per batch", () => {
    const r = batch(8, `
      t.report("ret", yield* t.syscall(io_uring_enter, q.ring, 8, 8, GETEVENTS), "ret");
      t.report("cqes", (yield* reap(t, q)).length, "n");`);
    expect(metric(r, "ret")).toBe(8);
    expect(metric(r, "cqes")).toBe(8);
    expect(r.counters["syscalls.io_uring_enter"]).toBe(1);
  });

  it("a NOP completes inline: its CQE is in the ring when io_uring_enter returns, without an interrupt", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 4));
      yield* queue(t, q, OP_NOP, 0, 0, 77);
      yield* publish(t, q);
      t.report("ret", yield* t.syscall(io_uring_enter, q.ring, 1, 0, 0), "ret");
      const c = yield* reap(t, q);
      t.report("n", c.length, "n");
      t.report("data", c[0].data, "v");
      t.report("res", c[0].res, "v");`));
    expect(metric(r, "ret")).toBe(1);
    expect(metric(r, "n")).toBe(1);
    expect(metric(r, "data")).toBe(77);
    expect(metric(r, "res")).toBe(0);
    expect(r.counters["irq.device"] ?? 0).toBe(0);
    expect(pathCount(r, "io_submit_sqe.inline")).toBe(1);
  });

  it("IORING_OP_READ goes to the disk as a WRITE does: io_read through f_op->read_iter, res = len", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 2));
      const fd = yield* t.open("/dev/siglab-disk");
      yield* queue(t, q, OP_READ, fd, 512, 9);
      yield* publish(t, q);
      yield* t.syscall(io_uring_enter, q.ring, 1, 1, GETEVENTS);
      const c = yield* reap(t, q);
      t.report("res", c[0].res, "bytes");
      t.report("data", c[0].data, "v");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "res")).toBe(512);
    expect(metric(r, "data")).toBe(9);
    expect(pathCount(r, "io_rw_issue")).toBe(1);
    expect(r.counters["irq.device"]).toBe(1);
  });

  it("bad SQEs complete with -errno in their CQE: a bad fd, a pipe (not modelled), an unmodelled opcode", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 4));
      const [rp] = yield* t.pipe();
      yield* queue(t, q, OP_READ, 42, 512, 1);
      yield* queue(t, q, OP_READ, rp, 512, 2);
      yield* queue(t, q, 13, 0, 0, 3); // IORING_OP_ACCEPT
      yield* publish(t, q);
      t.report("ret", yield* t.syscall(io_uring_enter, q.ring, 3, 0, 0), "ret");
      for (const c of yield* reap(t, q)) t.report("res " + c.data, c.res, "errno");
      t.report("badfd", yield* t.syscall(io_uring_enter, 12345, 0, 0, 0), "ret");
      t.report("badflags", yield* t.syscall(io_uring_enter, q.ring, 0, 0, 64), "ret");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "ret")).toBe(3);
    expect(metric(r, "res 1")).toBe(-9);
    expect(metric(r, "res 2")).toBe(-95);
    expect(metric(r, "res 3")).toBe(-22);
    expect(metric(r, "badfd")).toBe(-9);
    expect(metric(r, "badflags")).toBe(-22);
    expect(r.findings.length).toBeGreaterThanOrEqual(1);
    expect(r.findings.every((f) => f.kind === "io-uring-not-modelled")).toBe(true);
    expect(r.findings[0]!.message).toMatch(/a pipe\): only \/dev\/siglab-disk requests are modelled/);
  });

  it("a disk SQE whose len is not a u32 completes with -EINVAL, without a finding; flags above 32 bits are refused", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 4));
      const fd = yield* t.open("/dev/siglab-disk");
      yield* queue(t, q, OP_WRITE, fd, -5, 1);
      yield* queue(t, q, OP_WRITE, fd, 0.5, 2);
      yield* queue(t, q, OP_WRITE, fd, 1e300, 3);
      yield* publish(t, q);
      t.report("ret", yield* t.syscall(io_uring_enter, q.ring, 3, 0, 0), "ret");
      for (const c of yield* reap(t, q)) t.report("res " + c.data, c.res, "errno");
      t.report("setup 2^32+2", yield* t.syscall(io_uring_setup, 4, 2 ** 32 + 2), "ret");
      t.report("enter 2^32+1", yield* t.syscall(io_uring_enter, q.ring, 0, 0, 2 ** 32 + 1), "ret");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "ret")).toBe(3);
    for (const d of [1, 2, 3]) expect(metric(r, "res " + d)).toBe(-22);
    expect(metric(r, "setup 2^32+2")).toBe(-22);
    expect(metric(r, "enter 2^32+1")).toBe(-22);
    expect(r.findings).toEqual([]);
  });

  it("a signal interrupts io_cqring_wait with -EINTR", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 4));
      const fd = yield* t.open("/dev/siglab-disk");
      let caught = 0;
      yield* t.sigaction(SIGIO, function* () { caught++; });
      yield* t.fcntl(fd, F_SETOWN, t.pid);
      yield* t.fcntl(fd, F_SETFL, O_ASYNC);
      yield* t.write(fd, 512); // a plain write: its completion sends SIGIO
      t.report("intr", yield* t.syscall(io_uring_enter, q.ring, 0, 1, GETEVENTS), "ret");
      t.report("caught", caught, "n");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "intr")).toBe(-4);
    expect(metric(r, "caught")).toBe(1);
  });

  it("a full CQ ring keeps the CQEs on the overflow list (IORING_SQ_CQ_OVERFLOW) and flushes them as the program frees slots", () => {
    const r = withUring(W(`
      const q = yield* ringInit(t, yield* t.syscall(io_uring_setup, 1)); // 1 SQE, 2 CQEs
      for (let i = 0; i < 4; i++) {
        yield* queue(t, q, OP_NOP, 0, 0, i);
        yield* publish(t, q);
        yield* t.syscall(io_uring_enter, q.ring, 1, 0, 0);
      }
      t.report("flags", yield* t.load(q.ring + SQ_FLAGS), "bits");
      let got = (yield* reap(t, q)).map((c) => c.data);
      yield* t.syscall(io_uring_enter, q.ring, 0, 1, GETEVENTS);
      got = got.concat((yield* reap(t, q)).map((c) => c.data));
      t.report("order", Number(got.join("")), "digits");
      t.report("flags after", yield* t.load(q.ring + SQ_FLAGS), "bits");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "flags")).toBe(2);
    expect(r.counters["io_uring.cq_overflows"]).toBe(2);
    // no CQE lost (IORING_FEAT_NODROP), in order
    expect(metric(r, "order")).toBe(123);
    expect(metric(r, "flags after")).toBe(0);
  });
});

describe("plugin wiring", () => {
  it("without the plugin the io_uring numbers are -ENOSYS", () => {
    const r = runSource(W(`t.report("ret", yield* t.syscall(io_uring_setup, 8), "ret");`), { ...CPU, plugins: [linux6], variants: [{ id: "linux6" }] });
    expect(metric(r, "ret")).toBe(-38);
  });

  it("refuses a stack without linux6, naming it", () => {
    const r = runSource(W(`yield* t.getpid();`), { plugins: [uring], variants: [{ id: "io-uring" }] });
    expect(r.error?.message).toMatch(/io-uring.*needs the linux6 plugin/);
  });

  it("declares its manifest and ships three examples made for linux6 on an x86-64 CPU", () => {
    expect(uring.manifest.id).toBe("io-uring");
    expect(uring.examples?.map((e) => e.id).sort()).toEqual(["io_uring_poll", "io_uring_sqpoll", "io_uring_wait"]);
    for (const e of uring.examples!) {
      expect(e.suggestedVariants).toEqual([{ id: "linux6" }, { id: "io-uring" }]);
      expect(e.suggestedCpu).toEqual({ id: "zen4" });
    }
  });
});
