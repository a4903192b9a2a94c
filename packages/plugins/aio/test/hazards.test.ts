/**
 * Hazards and limits: the RT signal queue overflows into a plain SIGIO (rescan), and AIO has no
 * signal notification and covers only some files. Each shows as a counter or a finding in a run
 * that triggers it, and nothing in a run that does not.
 */
import { describe, expect, it } from "vitest";
import { CPUS, metric, runAioExample, W, withAio } from "./util.js";

describe.each(CPUS)("F_SETSIG queue overflow on $cpu", (cpu) => {
  // more completions outstanding than max_queued_signals (1024, system-wide)
  const batch = 1300;

  it("aio_sigio: completions that queue up while the signal is blocked overflow into plain SIGIO; the rescan finds them all", () => {
    const r = runAioExample("aio_sigio", { cpu: cpu.cpu, mhz: cpu.mhz, params: { batch, rounds: 1, blockWhileSubmitting: true } });
    expect(r.error).toBeUndefined();
    expect(r.counters["signals.queue_overflow"]).toBeGreaterThan(0);
    expect(metric(r, "queue overflows (rescans)")).toBeGreaterThanOrEqual(1);
    expect(metric(r, "completions")).toBe(batch);
    // no queued RT signal was lost: the overflow refused them, it did not drop queued ones
    expect(r.findings.filter((f) => f.kind === "lost-signal")).toEqual([]);
    expect(r.findings).toEqual([]);
  });

  it("aio_sigtimedwait: dequeues SIGIO first, rescans, then drains the stale queued signals", () => {
    const r = runAioExample("aio_sigtimedwait", { cpu: cpu.cpu, mhz: cpu.mhz, params: { batch, rounds: 2 } });
    expect(r.error).toBeUndefined();
    expect(r.counters["signals.queue_overflow"]).toBeGreaterThanOrEqual(2 * (batch - 1024));
    expect(metric(r, "queue overflows (rescans)")).toBe(2);
    expect(metric(r, "stale signals drained")).toBe(2 * 1024);
    expect(metric(r, "completions")).toBe(2 * batch);
    expect(r.findings).toEqual([]);
  });

  it("below the limit nothing overflows", () => {
    const r = runAioExample("aio_sigio", { cpu: cpu.cpu, mhz: cpu.mhz, params: { batch: 64, rounds: 2, blockWhileSubmitting: true } });
    expect(r.counters["signals.queue_overflow"] ?? 0).toBe(0);
    expect(metric(r, "queue overflows (rescans)")).toBe(0);
    expect(r.findings).toEqual([]);
  });
});

describe("AIO limits", () => {
  it("an iocb that asks for a completion signal is refused: no signal notification (a finding)", () => {
    const r = withAio(W(`
      const ctx = yield* t.syscall(io_setup, 4);
      const fd = yield* t.open("/dev/siglab-disk");
      t.report("ret", yield* t.syscall(io_submit, ctx, [{ fd, bytes: 512, sigevent: { signo: SIGRTMIN + 3 } }]), "ret");
      t.report("plain", yield* t.syscall(io_submit, ctx, [{ fd, bytes: 512 }]), "ret");
      t.report("n", (yield* t.syscall(io_getevents, ctx, 1, 4)).length, "events");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "ret")).toBe(-22);
    expect(metric(r, "plain")).toBe(1);
    expect(metric(r, "n")).toBe(1);
    const f = r.findings.find((x) => x.kind === "aio-no-signal-notification");
    expect(f?.severity).toBe("warning");
    expect(f?.message).toMatch(/no signal notification/);
    expect(f?.evidence["path"]).toBe("io_submit_one");
    expect(r.counters["signals.sent"] ?? 0).toBe(0);
  });

  it("a pipe or /dev/null has no aio methods: -EINVAL and a finding naming the file", () => {
    const r = withAio(W(`
      const ctx = yield* t.syscall(io_setup, 4);
      const [rp] = yield* t.pipe();
      const devnull = yield* t.open("/dev/null");
      t.report("pipe", yield* t.syscall(io_submit, ctx, [{ fd: rp, opcode: 0, bytes: 64 }]), "ret");
      t.report("null", yield* t.syscall(io_submit, ctx, [{ fd: devnull, opcode: 1, bytes: 64 }]), "ret");
      t.report("fsync", yield* t.syscall(io_submit, ctx, [{ fd: devnull, opcode: 2, bytes: 0 }]), "ret");`));
    expect(metric(r, "pipe")).toBe(-22);
    expect(metric(r, "null")).toBe(-22);
    expect(metric(r, "fsync")).toBe(-22);
    const kinds = r.findings.map((f) => f.kind);
    expect(kinds.filter((k) => k === "aio-unsupported-operation").length).toBeGreaterThanOrEqual(1);
    const msgs = r.findings.map((f) => f.message).join("\n");
    expect(msgs).toMatch(/a pipe/);
    expect(r.counters["aio.einval"]).toBe(3);
  });

  it("the clean ring run has no finding", () => {
    const r = runAioExample("aio_ring", { stack: true, params: { batch: 16, rounds: 4 } });
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
  });
});
