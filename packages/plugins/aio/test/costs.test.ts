/**
 * The aio_* family's point: per-event cost as the batch grows. The ring amortises its two system
 * calls over the batch; a signal handler per event does not; sigtimedwait is cheaper than a handler
 * but just as flat; a helper thread shares its switches among whatever completed together.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/core";
import { CPUS, metric, runAioExample } from "./util.js";

const BATCHES = [1, 4, 32];
const ROUNDS = 12;
/** enough rounds that a batch of one is not mostly its first, cold-cache, rounds */
const WARM_ROUNDS = 40;

type Point = { cycles: number; us: number; r: RunResult };

function sweep(id: string, cpu: (typeof CPUS)[number], rounds = ROUNDS): Point[] {
  return BATCHES.map((batch) => {
    const r = runAioExample(id, { cpu: cpu.cpu, mhz: cpu.mhz, stack: id === "aio_ring", params: { batch, rounds } });
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    expect(metric(r, "completions")).toBe(batch * rounds);
    if (id !== "aio_helper_thread") expect(metric(r, "late rounds")).toBe(0);
    return { cycles: metric(r, "per-event cost"), us: metric(r, "per-event cost (us)"), r };
  });
}

describe.each(CPUS)("per-event cost on $cpu", (cpu) => {
  let ring: Point[], sigio: Point[], swait: Point[], helper: Point[];
  beforeAll(() => {
    ring = sweep("aio_ring", cpu);
    sigio = sweep("aio_sigio", cpu, WARM_ROUNDS);
    swait = sweep("aio_sigtimedwait", cpu, WARM_ROUNDS);
    helper = sweep("aio_helper_thread", cpu);
  });

  it("aio_ring: falls as the batch grows (io_submit and io_getevents shared by the batch)", () => {
    expect(ring[1]!.cycles).toBeLessThan(ring[0]!.cycles);
    expect(ring[2]!.cycles).toBeLessThan(ring[1]!.cycles);
    // from one event per pair of calls to 32: at least halved
    expect(ring[2]!.cycles / ring[0]!.cycles).toBeLessThan(0.5);
    expect(ring[2]!.cycles / ring[0]!.cycles).toBeGreaterThan(0.15); // the interrupt stays per event
  });

  // Per event, a handler or a sigtimedwait stays: a bigger batch only spreads the first events'
  // cold caches (the signal path's code and data) over more events and keeps them warm between
  // events, so the per-event cost falls by at most a third or so, where the ring's halves.
  it("aio_sigio: one signal delivery per event whatever the batch, so the cost stays (the caches only help)", () => {
    for (const x of sigio) expect(x.r.counters["signals.delivered"]).toBe(metric(x.r, "completions"));
    for (const x of sigio) expect(x.cycles / sigio[0]!.cycles).toBeGreaterThan(0.6);
    // and it costs more per event than the ring at any batch size above one
    expect(sigio[1]!.cycles).toBeGreaterThan(ring[1]!.cycles);
    expect(sigio[2]!.cycles).toBeGreaterThan(2 * ring[2]!.cycles);
  });

  it("aio_sigtimedwait: no frame, so cheaper than a handler, but flat: one system call per event", () => {
    for (let i = 0; i < BATCHES.length; i++) expect(swait[i]!.cycles).toBeLessThan(sigio[i]!.cycles);
    for (const x of swait) expect(x.cycles / swait[0]!.cycles).toBeGreaterThan(0.5);
    expect(swait[2]!.r.counters["syscalls.rt_sigtimedwait"]).toBeGreaterThanOrEqual(32 * WARM_ROUNDS);
    expect(swait[2]!.r.counters["signals.delivered"] ?? 0).toBe(0);
  });

  it("aio_helper_thread: amortises its switches over what completed together", () => {
    expect(helper[2]!.cycles / helper[0]!.cycles).toBeLessThan(0.6);
    expect(helper[0]!.r.counters["sched.switches"]).toBeGreaterThanOrEqual(2 * ROUNDS);
    expect(metric(helper[2]!.r, "hand-offs per round")).toBe(1);
  });

  it("plausible magnitudes (cycles per event)", () => {
    const mhz = cpu.mhz;
    for (const s of [ring, sigio, swait, helper]) {
      for (const x of s) {
        expect(x.cycles).toBeGreaterThan(300);
        expect(x.cycles).toBeLessThan(30_000);
        expect(x.us).toBeCloseTo(x.cycles / mhz, 6);
      }
    }
    // a handler per event costs microseconds on either CPU
    expect(sigio[2]!.us).toBeGreaterThan(1);
    expect(sigio[2]!.us).toBeLessThan(10);
  });
});

it("the P4 pays more cycles per event than the P3 for every method (int $0x80/iret and interrupts are dear)", () => {
  const [p4, p3] = CPUS;
  for (const id of ["aio_ring", "aio_sigio", "aio_sigtimedwait", "aio_helper_thread"]) {
    const a = metric(runAioExample(id, { cpu: p4.cpu, mhz: p4.mhz, stack: id === "aio_ring", params: { batch: 8, rounds: 8 } }), "per-event cost");
    const b = metric(runAioExample(id, { cpu: p3.cpu, mhz: p3.mhz, stack: id === "aio_ring", params: { batch: 8, rounds: 8 } }), "per-event cost");
    expect(a).toBeGreaterThan(1.5 * b);
  }
});
