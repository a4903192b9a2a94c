import { describe, expect, it } from "vitest";
import { runSource } from "../../../core/test/harness.js";
import { aio, metric, pathCount, W, withAio } from "./util.js";

describe("io_setup: the completion ring in the caller's address space", () => {
  it("maps (nr + 2) io_events + the 32-byte header, rounded to pages; the ctx id is the ring's address", () => {
    const r = withAio(W(`
      for (const nr of [8, 125, 126, 300]) {
        const ctx = yield* t.syscall(io_setup, nr);
        t.report("ctx " + nr, ctx, "addr");
        t.report("magic " + nr, yield* t.load(ctx + 16), "word");
        t.report("id " + nr, yield* t.load(ctx), "word");
        t.report("ring nr " + nr, yield* t.load(ctx + 4), "events");
        t.report("header " + nr, yield* t.load(ctx + 28), "bytes");
      }`));
    expect(r.error).toBeUndefined();
    for (const nr of [8, 125, 126, 300]) {
      const pages = Math.ceil((32 + (nr + 2) * 32) / 4096);
      expect(metric(r, `magic ${nr}`)).toBe(0xa10a10a1);
      expect(metric(r, `id ${nr}`)).toBe(metric(r, `ctx ${nr}`));
      expect(metric(r, `ring nr ${nr}`)).toBe((pages * 4096 - 32) / 32);
      expect(metric(r, `header ${nr}`)).toBe(32);
    }
    // the header and 125 + 2 events fill exactly one page; 126 + 2 need a second one
    expect(metric(r, "ctx 126") - metric(r, "ctx 125")).toBe(4096);
    expect(metric(r, "ctx 300") - metric(r, "ctx 126")).toBe(2 * 4096);
    expect(pathCount(r, "aio_setup_ring.page")).toBe(1 + 1 + 2 + 3);
    expect(r.counters["syscalls.io_setup"]).toBe(4);
  });

  it("refuses nr = 0 (-EINVAL) and more than aio_max_nr (-EAGAIN)", () => {
    const src = W(`
      t.report("zero", yield* t.syscall(io_setup, 0), "ret");
      t.report("big", yield* t.syscall(io_setup, 70000), "ret");
      t.report("a", (yield* t.syscall(io_setup, 12)) > 0 ? 1 : 0, "ok");
      t.report("b", yield* t.syscall(io_setup, 8), "ret");`);
    const r = withAio(src);
    expect(metric(r, "zero")).toBe(-22);
    expect(metric(r, "big")).toBe(-11);
    expect(metric(r, "b")).toBeGreaterThan(0);
    // aio_max_nr counts the events of every context
    const small = withAio(src, { aioOptions: { aioMaxNr: 16 } });
    expect(metric(small, "a")).toBe(1);
    expect(metric(small, "b")).toBe(-11);
  });
});

describe("io_submit, aio_complete, io_getevents", () => {
  const batchRun = (nr: number, getNr: number) =>
    withAio(W(`
      const ctx = yield* t.syscall(io_setup, 64);
      const fd = yield* t.open("/dev/siglab-disk");
      const iocbs = [];
      for (let i = 0; i < ${nr}; i++) iocbs.push({ fd, opcode: 1, bytes: 4096, data: 100 + i });
      t.report("submitted", yield* t.syscall(io_submit, ctx, iocbs), "iocbs");
      yield* t.compute(1000 * t.mhz);
      let got = 0, calls = 0, dataSum = 0;
      while (got < ${nr}) {
        const evs = yield* t.syscall(io_getevents, ctx, 1, ${getNr});
        for (const e of evs) { dataSum += e.data; if (e.res !== 4096) throw new Error("res " + e.res); }
        got += evs.length; calls++;
      }
      t.report("calls", calls, "calls");
      t.report("dataSum", dataSum, "sum");
      t.report("destroy", yield* t.syscall(io_destroy, ctx), "ret");`));

  it("submits a batch in one call and copies up to nr 32-byte events per io_getevents", () => {
    const r = batchRun(16, 16);
    expect(r.error).toBeUndefined();
    expect(metric(r, "submitted")).toBe(16);
    expect(metric(r, "calls")).toBe(1);
    expect(metric(r, "dataSum")).toBe(16 * 100 + (15 * 16) / 2);
    expect(r.counters["syscalls.io_submit"]).toBe(1);
    expect(r.counters["syscalls.io_getevents"]).toBe(1);
    expect(pathCount(r, "io_submit_one")).toBe(16);
    expect(pathCount(r, "aio_complete")).toBe(16);
    expect(pathCount(r, "aio_read_evt")).toBe(16);
    expect(pathCount(r, "siglab_disk.make_request")).toBe(16);
    expect(r.counters["irq.device"]).toBe(16);
    // no signal notification: completions never generate a signal
    expect(r.counters["signals.sent"] ?? 0).toBe(0);
    expect(r.findings).toEqual([]);
  });

  it("takes more calls when nr is smaller than what is in the ring", () => {
    const r = batchRun(16, 5);
    expect(metric(r, "calls")).toBe(4);
    expect(r.counters["syscalls.io_getevents"]).toBe(4);
    expect(pathCount(r, "aio_read_evt")).toBe(16);
  });

  it("the ops are fs/aio.c's and the paths belong to the plugin (path inspector)", () => {
    const r = batchRun(4, 4);
    const complete = r.paths.find((p) => p.name === "aio_complete")!;
    expect(complete.origin).toBe("aio");
    expect(complete.phase).toBe("aio.complete");
    expect(complete.ops.map((o) => o.fn)).toEqual(expect.arrayContaining(["aio_complete", "put_aio_ring_event", "__aio_put_req"]));
    const submit = r.paths.find((p) => p.name === "io_submit_one")!;
    expect(submit.ops.map((o) => o.fn)).toEqual(expect.arrayContaining(["aio_get_req", "aio_setup_iocb", "aio_run_iocb"]));
    expect(r.phases["aio.submit"]).toBeGreaterThan(0);
    expect(r.phases["aio.getevents"]).toBeGreaterThan(0);
  });

  it("io_getevents sleeps until min_nr events are in, and a completion wakes it", () => {
    const r = withAio(W(`
      const ctx = yield* t.syscall(io_setup, 8);
      const fd = yield* t.open("/dev/siglab-disk");
      const iocbs = [0, 1, 2, 3].map((i) => ({ fd, bytes: 512, data: i }));
      yield* t.syscall(io_submit, ctx, iocbs);
      const t0 = t.rdtsc();
      const evs = yield* t.syscall(io_getevents, ctx, 4, 8);
      t.report("n", evs.length, "events");
      t.report("waited", (t.rdtsc() - t0) / t.mhz, "us");`), { aioOptions: { deviceLatencyUs: 250 } });
    expect(r.error).toBeUndefined();
    expect(metric(r, "n")).toBe(4);
    // the device latency option: about 250 us from submission to the last completion
    expect(metric(r, "waited")).toBeGreaterThan(240);
    expect(metric(r, "waited")).toBeLessThan(300);
    expect(pathCount(r, "read_events.sleep")).toBe(1);
    expect(r.phases["idle"]).toBeGreaterThan(0);
  });

  it("a zero timeout returns at once with what is there; a signal interrupts the sleep with -EINTR", () => {
    const r = withAio(W(`
      const ctx = yield* t.syscall(io_setup, 8);
      const evs = yield* t.syscall(io_getevents, ctx, 1, 8, 0);
      t.report("polled", evs.length, "events");
      // a plain fd with O_ASYNC: its completion sends SIGIO while io_getevents sleeps on an empty ring
      const fd = yield* t.open("/dev/siglab-disk");
      let caught = 0;
      yield* t.sigaction(SIGIO, function* () { caught++; });
      yield* t.fcntl(fd, F_SETOWN, t.pid);
      yield* t.fcntl(fd, F_SETFL, O_ASYNC);
      yield* t.write(fd, 512);
      t.report("intr", yield* t.syscall(io_getevents, ctx, 1, 8), "ret");
      t.report("caught", caught, "signals");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "polled")).toBe(0);
    expect(metric(r, "intr")).toBe(-4);
    expect(metric(r, "caught")).toBe(1);
  });

  it("bad calls: unknown ctx, min_nr > nr, a non-array, a bad fd", () => {
    const r = withAio(W(`
      const ctx = yield* t.syscall(io_setup, 4);
      t.report("badctx", yield* t.syscall(io_submit, 12345, []), "ret");
      t.report("minnr", yield* t.syscall(io_getevents, ctx, 3, 2), "ret");
      t.report("notarray", yield* t.syscall(io_submit, ctx, 7), "ret");
      t.report("badfd", yield* t.syscall(io_submit, ctx, [{ fd: 42, bytes: 512 }]), "ret");
      t.report("destroy", yield* t.syscall(io_destroy, ctx), "ret");
      t.report("again", yield* t.syscall(io_destroy, ctx), "ret");`));
    expect(metric(r, "badctx")).toBe(-22);
    expect(metric(r, "minnr")).toBe(-22);
    expect(metric(r, "notarray")).toBe(-14);
    expect(metric(r, "badfd")).toBe(-9);
    expect(metric(r, "destroy")).toBe(0);
    expect(metric(r, "again")).toBe(-22);
  });

  it("io_submit stops when the ring could overflow and returns how many it started", () => {
    const r = withAio(W(`
      const ctx = yield* t.syscall(io_setup, 1);
      const fd = yield* t.open("/dev/siglab-disk");
      const iocbs = [];
      for (let i = 0; i < 200; i++) iocbs.push({ fd, bytes: 512, data: i });
      t.report("first", yield* t.syscall(io_submit, ctx, iocbs), "iocbs");
      t.report("second", yield* t.syscall(io_submit, ctx, iocbs.slice(0, 1)), "ret");
      t.report("destroy", yield* t.syscall(io_destroy, ctx), "ret");`));
    expect(r.error).toBeUndefined();
    // one page holds 127 events; one slot stays empty
    expect(metric(r, "first")).toBe(126);
    expect(metric(r, "second")).toBe(-11);
  });

  it("io_destroy waits for the requests in flight; io_cancel cannot cancel a started disk request", () => {
    const r = withAio(W(`
      const ctx = yield* t.syscall(io_setup, 4);
      const fd = yield* t.open("/dev/siglab-disk");
      const iocb = { fd, bytes: 512 };
      yield* t.syscall(io_submit, ctx, [iocb]);
      t.report("cancel", yield* t.syscall(io_cancel, ctx, iocb), "ret");
      t.report("cancelOther", yield* t.syscall(io_cancel, ctx, { fd, bytes: 1 }), "ret");
      const t0 = t.rdtsc();
      t.report("destroy", yield* t.syscall(io_destroy, ctx), "ret");
      t.report("waited", (t.rdtsc() - t0) / t.mhz, "us");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "cancel")).toBe(-11);
    expect(metric(r, "cancelOther")).toBe(-22);
    expect(metric(r, "destroy")).toBe(0);
    expect(metric(r, "waited")).toBeGreaterThan(90);
    expect(pathCount(r, "aio_complete")).toBe(1);
  });
});

describe("plugin wiring", () => {
  it("without the plugin the AIO numbers are -ENOSYS", () => {
    const r = runSource(W(`t.report("ret", yield* t.syscall(io_setup, 8), "ret");`));
    expect(metric(r, "ret")).toBe(-38);
  });

  it("refuses a bad option with a message naming the plugin and the option", () => {
    const r = withAio(W(`yield* t.getpid();`), { aioOptions: { deviceLatencyUs: -5 } });
    expect(r.error?.kind).toBe("plugin");
    expect(r.error?.message).toMatch(/plugin 'aio' option 'deviceLatencyUs'/);
  });

  it("declares its manifest and ships the four aio_* examples", () => {
    expect(aio.manifest.id).toBe("aio");
    expect(aio.examples?.map((e) => e.id).sort()).toEqual(["aio_helper_thread", "aio_ring", "aio_sigio", "aio_sigtimedwait"]);
    expect(aio.examples?.find((e) => e.id === "aio_ring")?.suggestedVariants).toEqual([{ id: "aio" }]);
    expect(aio.examples?.find((e) => e.id === "aio_sigio")?.suggestedVariants).toBeUndefined();
  });
});
