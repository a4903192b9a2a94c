/**
 * sig_wake: `siglab probe`'s sigwaitinfo/sigsuspend wake-up loops (issue 16), simulated. The two
 * waits differ by mechanism: sigwaitinfo dequeues the blocked signal (no frame, no handler),
 * sigsuspend unblocks it for the sleep, so each wake-up delivers a frame and returns by sigreturn.
 */
import { describe, expect, it } from "vitest";
import { runExample } from "./harness.js";

const metric = (r: ReturnType<typeof runExample>, name: string) => r.metrics.find((m) => m.name === name)?.value ?? NaN;
const N = 200;

describe("sig_wake (the probe's signal wake-up loops)", () => {
  const wait = runExample("sig_wake", { cpu: "p6-coppermine", mhz: 1000, params: { iterations: N, wait: "sigwaitinfo" } });
  const suspend = runExample("sig_wake", { cpu: "p6-coppermine", mhz: 1000, params: { iterations: N, wait: "sigsuspend" } });

  it("sigwaitinfo: two signals and two switches per round trip, no handler frame", () => {
    expect(wait.error).toBeUndefined();
    const trips = N + 8; // the warm-up round trips too
    expect(wait.counters["syscalls.kill"]).toBe(2 * trips);
    expect(wait.counters["syscalls.rt_sigtimedwait"]).toBeGreaterThanOrEqual(2 * trips);
    expect(wait.counters["signals.delivered"] ?? 0).toBe(0);
    expect(wait.counters["signals.sent"]).toBeGreaterThanOrEqual(2 * trips);
    expect(wait.counters["sched.switches"]).toBeGreaterThanOrEqual(2 * trips);
  });

  it("sigsuspend: every wake-up delivers a frame to the handler and returns through sigreturn", () => {
    expect(suspend.error).toBeUndefined();
    const trips = N + 8;
    expect(suspend.counters["signals.delivered"]).toBe(2 * trips);
    expect(suspend.counters["syscalls.rt_sigsuspend"]).toBe(2 * trips);
    expect(suspend.phases["signal.sigreturn"]).toBeGreaterThan(0);
    expect(wait.phases["signal.sigreturn"] ?? 0).toBe(0);
  });

  it("costs the frame and sigreturn more with sigsuspend, and matches sig_pingpong's mechanism", () => {
    const w = metric(wait, "Signal wake-up, sigwaitinfo"), s = metric(suspend, "Signal wake-up, sigsuspend");
    expect(w).toBeGreaterThan(0);
    expect(s).toBeGreaterThan(w * 1.2);
    // sig_pingpong is the same kill + sigsuspend round trip with one signal (SIGUSR1 both ways); over
    // 200 round trips the first ones' cache misses (each example lays out its memory its own way,
    // and their code starts cold) are a few percent, so the two agree to 4%, and to 0.5% over 3000
    const ping = runExample("sig_pingpong", { cpu: "p6-coppermine", mhz: 1000, params: { iterations: N } });
    expect(Math.abs(s / metric(ping, "signal ping-pong round trip") - 1)).toBeLessThan(0.04);
    const long = (id: string, p: Record<string, string | number>) => runExample(id, { cpu: "p6-coppermine", mhz: 1000, params: { iterations: 3000, ...p } });
    const s3000 = metric(long("sig_wake", { wait: "sigsuspend" }), "Signal wake-up, sigsuspend");
    expect(Math.abs(s3000 / metric(long("sig_pingpong", {}), "signal ping-pong round trip") - 1)).toBeLessThan(0.005);
  });

  // the parent pins itself before the fork and the child inherits the mask (do_fork's *p = *current):
  // no process ever runs on, or wakes, the second CPU
  it("pins both processes to CPU 0 with sched SINGLE on two CPUs, and refuses a bad wait", () => {
    const pinned = runExample("sig_wake", { cpu: "p6-coppermine", mhz: 1000, smp: 2, params: { iterations: 50, wait: "sigwaitinfo", sched: "SINGLE" } });
    expect(pinned.error).toBeUndefined();
    expect(pinned.counters["syscalls.sched_setaffinity"]).toBe(1);
    expect(pinned.counters["irq.ipi"] ?? 0).toBe(0);
    expect(pinned.counters["smp.ipi.reschedule"] ?? 0).toBe(0);
    const bad = runExample("sig_wake", { params: { iterations: 5, wait: "pause" } });
    expect(bad.error?.message).toMatch(/wait must be "sigwaitinfo" or "sigsuspend"/);
  });
});
