/**
 * linux6's vDSO gettimeofday and its CFS scheduler (issue 16): the vDSO reads the clock without
 * entering the kernel; CFS picks the smallest vruntime, honours sched_yield's skip buddy and lets a
 * woken task preempt a CPU-bound one.
 */
import { describe, expect, it } from "vitest";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import linux6 from "../src/index.js";

type Opts = Record<string, string | number | boolean>;
const cpuMhz: Record<string, number> = { skylake: 3600, zen4: 4500 };
const l6 = (cpu: string, options: Opts = {}) => ({ cpu, mhz: cpuMhz[cpu], plugins: [linux6], variants: [{ id: "linux6", options }] });

/** n calls of libc's gettimeofday, timed with rdtsc; the first and last times of day. */
const GTOD = `import { workload } from "siglab";
export default workload({ name: "gtod", params: { n: 200, gapUs: 0 }, *main(t, { n, gapUs }) {
  const first = yield* t.libc.gettimeofday();
  const c0 = t.rdtsc();
  let prev = first.sec * 1e6 + first.usec;
  let backwards = 0;
  for (let i = 0; i < n; i++) {
    if (gapUs > 0) yield* t.compute(gapUs * t.mhz);
    const tv = yield* t.libc.gettimeofday();
    const us = tv.sec * 1e6 + tv.usec;
    if (us < prev) backwards++;
    prev = us;
  }
  const cycles = t.rdtsc() - c0;
  t.report("per call", (cycles - n * gapUs * t.mhz) / n, "cycles");
  t.report("elapsed by gettimeofday", prev - (first.sec * 1e6 + first.usec), "us");
  t.report("elapsed by rdtsc", cycles / t.mhz, "us");
  t.report("clock at end", prev, "us");
  t.report("rdtsc at end", t.rdtsc() / t.mhz, "us");
  t.report("backwards", backwards, "calls");
} });`;

describe("linux6: the vDSO's gettimeofday", () => {
  it("a vDSO call made on one thread and stepped on another is refused, as any thread API call", () => {
    const src = `import { workload } from "siglab";
export default workload({ name: "x", params: {}, *main(t) {
  const g = t.libc.gettimeofday();
  yield* t.clone(function* (c) { g.next(); });
  yield* t.wait();
} });`;
    for (const vdso of ["on", "off"]) {
      const r = runSource(src, { ...l6("zen4", { vdso }) });
      expect(r.error?.message, vdso).toMatch(/thread API was used while task \d+ runs/);
    }
  });

  it("under linux-6 libc's gettimeofday enters no kernel: no syscall, no entry path, tens of cycles", () => {
    const n = 300;
    const r = runSource(GTOD, { ...l6("zen4"), params: { n } });
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "sys_gettimeofday")).toBe(0);
    // the run's only system call is the final exit
    expect(pathCount(r, "entry_SYSCALL_64")).toBeLessThanOrEqual(1);
    expect(r.counters["linux6.vdso_gettimeofday"]).toBe(n + 1);
    expect(pathCount(r, "do_hres")).toBeGreaterThanOrEqual(n + 1);
    expect(r.paths.find((p) => p.name === "do_hres")!.ops.map((o) => o.op)).toContain("rdtsc");
    const perCall = metric(r, "per call");
    expect(perCall).toBeGreaterThan(20);
    expect(perCall).toBeLessThan(100);
  });

  it("with vdso=off, and under the 2.4 baseline, it is the gettimeofday system call", () => {
    const n = 300;
    const off = runSource(GTOD, { ...l6("zen4", { vdso: "off" }), params: { n } });
    expect(off.error).toBeUndefined();
    expect(pathCount(off, "sys_gettimeofday")).toBe(n + 1);
    expect(pathCount(off, "entry_SYSCALL_64")).toBeGreaterThanOrEqual(n + 1);
    expect(pathCount(off, "do_hres")).toBe(0);
    const base = runSource(GTOD, { cpu: "p4-northwood", mhz: 2200, params: { n } });
    expect(base.error).toBeUndefined();
    expect(pathCount(base, "sys_gettimeofday")).toBe(n + 1);
    expect(pathCount(base, "system_call")).toBeGreaterThanOrEqual(n + 1);
    const vdso = runSource(GTOD, { ...l6("zen4"), params: { n } });
    expect(metric(off, "per call")).toBeGreaterThan(3 * metric(vdso, "per call"));
  });

  it("the example linux6_gettimeofday shows the difference: tens of ns with the vDSO, the system call's cost without", () => {
    const src = linux6.examples!.find((e) => e.id === "linux6_gettimeofday")!.source;
    const on = runSource(src, { ...l6("skylake"), params: { iterations: 500 } });
    const off = runSource(src, { ...l6("skylake", { vdso: "off" }), params: { iterations: 500 } });
    expect(on.error).toBeUndefined();
    expect(off.error).toBeUndefined();
    expect(metric(on, "gettimeofday")).toBeLessThan(40); // ns
    expect(metric(off, "gettimeofday")).toBeGreaterThan(150); // PTI, IBRS and VERW on Skylake
  });

  it("the time it returns advances with the simulated clock, across timer ticks, and never goes back", () => {
    // 400 calls 100 µs apart: 40 ms, four 10-ms ticks that each update the vvar page
    const r = runSource(GTOD, { ...l6("skylake"), params: { n: 400, gapUs: 100 } });
    expect(r.error).toBeUndefined();
    expect(r.counters["linux6.update_vsyscall"]).toBeGreaterThanOrEqual(3);
    expect(metric(r, "backwards")).toBe(0);
    expect(Math.abs(metric(r, "elapsed by gettimeofday") - metric(r, "elapsed by rdtsc"))).toBeLessThanOrEqual(2);
    // the same clock as the kernel's: microseconds since boot, as the TSC counts them
    expect(Math.abs(metric(r, "clock at end") - metric(r, "rdtsc at end"))).toBeLessThanOrEqual(2);
    // a tick that lands between the reads and vdso_read_retry makes the reader read again; never more often than ticks
    expect(r.counters["linux6.vdso_seq_retries"] ?? 0).toBeLessThanOrEqual(r.counters["linux6.update_vsyscall"]!);
  });

  it("a tick's update_vsyscall inside the read section makes the reader read again: counted, charged, and the time still never goes back", () => {
    // HZ=10000 (a tick every 100 µs) and a varying gap before each call, so the ticks land at
    // every point of a call; those that land in do_hres are taken before vdso_read_retry
    const ticked = (hz: number) => `import { workload } from "siglab";
export default workload({ name: "gtod-ticks", hz: ${hz}, params: { n: 200 }, *main(t, { n }) {
  const first = yield* t.libc.gettimeofday();
  const c0 = t.rdtsc();
  let prev = first.sec * 1e6 + first.usec;
  let backwards = 0;
  for (let i = 0; i < n; i++) {
    yield* t.compute(1 + ((i * 7919) % 97));
    const tv = yield* t.libc.gettimeofday();
    const us = tv.sec * 1e6 + tv.usec;
    if (us < prev) backwards++;
    prev = us;
  }
  t.report("backwards", backwards, "calls");
  t.report("elapsed by gettimeofday", prev - (first.sec * 1e6 + first.usec), "us");
  t.report("elapsed by rdtsc", (t.rdtsc() - c0) / t.mhz, "us");
} });`;
    const n = 100_000;
    const r = runSource(ticked(10_000), { ...l6("skylake"), params: { n } });
    const quiet = runSource(ticked(100), { ...l6("skylake"), params: { n } }); // ~3 ms: no tick at HZ=100
    expect(r.error).toBeUndefined();
    expect(quiet.error).toBeUndefined();
    const calls = n + 1;
    expect(r.counters["linux6.vdso_gettimeofday"]).toBe(calls);
    expect(quiet.counters["linux6.vdso_gettimeofday"]).toBe(calls);
    const ticks = r.counters["linux6.update_vsyscall"]!;
    const retries = r.counters["linux6.vdso_seq_retries"] ?? 0;
    expect(ticks).toBeGreaterThanOrEqual(20);
    expect(retries).toBeGreaterThanOrEqual(3);
    expect(retries).toBeLessThanOrEqual(ticks);
    expect(quiet.counters["linux6.update_vsyscall"]).toBeUndefined();
    expect(quiet.counters["linux6.vdso_seq_retries"]).toBeUndefined();
    // each retry is one more pass of the read loop: do_hres and vdso_read_retry again
    expect(pathCount(quiet, "vdso_read_retry")).toBe(calls);
    expect(pathCount(quiet, "do_hres")).toBe(calls);
    expect(pathCount(r, "vdso_read_retry")).toBe(calls + retries);
    expect(pathCount(r, "do_hres")).toBeGreaterThanOrEqual(calls + retries);
    // and charged: a pass costs what it costs in the quiet run, and the retries' passes are on top
    const cyc = (x: typeof r, name: string) => x.paths.find((p) => p.name === name)!.cycles;
    const perPass = (x: typeof r, name: string) => cyc(x, name) / pathCount(x, name);
    for (const name of ["do_hres", "vdso_read_retry"]) {
      expect(perPass(r, name)).toBeGreaterThan(0);
      expect(perPass(r, name)).toBeCloseTo(perPass(quiet, name), 6);
      expect(cyc(r, name) - cyc(quiet, name)).toBeGreaterThanOrEqual(retries * perPass(quiet, name) * (1 - 1e-9));
    }
    // the time read again after the update is the new vvar page's: it never goes back and keeps to the TSC
    expect(metric(r, "backwards")).toBe(0);
    expect(Math.abs(metric(r, "elapsed by gettimeofday") - metric(r, "elapsed by rdtsc"))).toBeLessThanOrEqual(2);
  });
});

/** Two threads take `rounds` turns each with sched_yield; the log says who ran when. */
const YIELD = `import { workload } from "siglab";
export default workload({ name: "yield", params: { rounds: 20, burnUs: 0 }, *main(t, { rounds, burnUs }) {
  const log: number[] = [];
  const body = (id: number) => function* (h: any) {
    for (let r = 0; r < rounds; r++) { log.push(id); if (id === 2 && burnUs > 0) yield* h.compute(burnUs * t.mhz); yield* h.sched_yield(); }
  };
  yield* t.clone(body(1)); yield* t.clone(body(2));
  yield* t.wait(); yield* t.wait();
  let repeats = 0;
  for (let i = 1; i < log.length; i++) if (log[i] === log[i - 1]) repeats++;
  t.report("turns", log.length, "turns");
  t.report("repeats", repeats, "turns");
} });`;

/** A CPU-bound process computes 100 ms while another sleeps 5 times (each sleep ends on a tick). */
const HOG = `import { workload } from "siglab";
export default workload({ name: "hog", params: { hogMs: 100, naps: 5 }, *main(t, { hogMs, naps }) {
  const [r, w] = yield* t.pipe();
  yield* t.fork(function* (c) {
    let worst = 0;
    for (let i = 0; i < naps; i++) {
      const asleep = c.rdtsc();
      yield* c.nanosleep(1e6);
      worst = Math.max(worst, c.rdtsc() - asleep);
    }
    c.report("sleeper done", c.rdtsc() / c.mhz / 1000, "ms");
    c.report("worst nap", worst / c.mhz / 1000, "ms");
    yield* c.write(w, 1);
  });
  yield* t.compute(hogMs * 1000 * t.mhz);
  t.report("hog done", t.rdtsc() / t.mhz / 1000, "ms");
  yield* t.read(r, 1);
  yield* t.wait();
} });`;

describe("linux6: CFS in place of goodness()", () => {
  it("the linux-6 preset schedules with CFS: lat_ctx and lat_pipe pick the leftmost task, never run goodness(), and give sane figures", () => {
    const ctx = runExample("lat_ctx", { params: { iterations: 300 }, ...l6("zen4") });
    const pipe = runExample("lat_pipe", { params: { iterations: 300 }, ...l6("zen4") });
    for (const r of [ctx, pipe]) {
      expect(r.error).toBeUndefined();
      expect(r.counters["linux6.sched.cfs"]).toBe(1);
      expect(pathCount(r, "goodness")).toBe(0);
      expect(pathCount(r, "pick_next_task_fair")).toBeGreaterThan(600);
      expect(r.paths.find((p) => p.name === "schedule")!.origin).toBe("linux6");
    }
    const us = metric(ctx, "2p/0K ctxsw");
    expect(us).toBeGreaterThan(0.03);
    expect(us).toBeLessThan(3);
    const rtt = metric(pipe, "Pipe latency");
    expect(rtt).toBeGreaterThan(0.1);
    expect(rtt).toBeLessThan(5);
    // a pipe round trip is two switches. The child starts a START_DEBIT slice (3 ms) ahead of
    // its parent and both then run alike, so the parent, woken by the child's write, is more than
    // wakeup_gran behind and preempts the child before the child blocks in its read: one wake-up
    // per round trip (2.4: two), the child's next read finds its byte
    expect(pathCount(pipe, "enqueue_task_fair")).toBeGreaterThanOrEqual(300);
    expect(pipe.counters["linux6.cfs.wakeup_preemptions"]!).toBeGreaterThanOrEqual(299);
    expect(pipe.counters["sched.switches"]!).toBeGreaterThanOrEqual(600);
    expect(pipe.counters["sched.switches"]!).toBeLessThan(700);
    // CFS's paths cost more than 2.4's goodness loop over two tasks. Compared with the core's short
    // 2.4 pipe paths (pipe=2.4): with 6.x's, the second wake-up and sleep a round trip takes under
    // the 2.4 policy cost more than CFS's accounting adds
    const old = runExample("lat_pipe", { params: { iterations: 300 }, ...l6("zen4", { sched: "2.4", pipe: "2.4" }) });
    const cfsOldPipe = runExample("lat_pipe", { params: { iterations: 300 }, ...l6("zen4", { pipe: "2.4" }) });
    expect(old.error).toBeUndefined();
    expect(pathCount(old, "goodness")).toBeGreaterThan(0);
    expect(pathCount(old, "pick_next_task_fair")).toBe(0);
    expect(metric(cfsOldPipe, "Pipe latency")).toBeGreaterThan(metric(old, "Pipe latency"));
  });

  it("on an SMP run CFS chooses too (a cfs_rq per CPU: test/cfs-smp.test.ts); sched=2.4 keeps the core's goodness() there", () => {
    const r = runExample("lat_pipe", { params: { iterations: 200, sched: "SINGLE" }, ...l6("zen4"), smp: 2 });
    expect(r.error).toBeUndefined();
    expect(r.counters["linux6.sched.cfs"]).toBe(1);
    expect(pathCount(r, "goodness")).toBe(0);
    expect(pathCount(r, "pick_next_task_fair")).toBeGreaterThan(0);
    expect(r.paths.find((p) => p.name === "schedule")!.origin).toBe("linux6");
    const old = runExample("lat_pipe", { params: { iterations: 200, sched: "SINGLE" }, ...l6("zen4", { sched: "2.4" }), smp: 2 });
    expect(old.error).toBeUndefined();
    expect(old.counters["linux6.sched.cfs"]).toBeUndefined();
    expect(pathCount(old, "goodness")).toBeGreaterThan(0);
    expect(pathCount(old, "pick_next_task_fair")).toBe(0);
  });

  it("two tasks that sched_yield alternate: the yielder is the skip buddy", () => {
    const r = runSource(YIELD, l6("skylake"));
    expect(r.error).toBeUndefined();
    expect(metric(r, "turns")).toBe(40);
    expect(metric(r, "repeats")).toBeLessThanOrEqual(1); // at most at the start, before the second thread runs
    expect(r.counters["linux6.cfs.skip_buddy"]).toBeGreaterThanOrEqual(35);
    expect(pathCount(r, "goodness")).toBe(0);
  });

  it("CFS's yield is weak: a yielder more than wakeup_gran (1 ms) behind in vruntime is picked again; 2.4's SCHED_YIELD always gives way", () => {
    // thread 2 computes 300 µs per turn, thread 1 nothing: after four turns thread 1 is 1.2 ms behind
    const cfs = runSource(YIELD, { ...l6("skylake"), params: { rounds: 20, burnUs: 300 } });
    const old = runSource(YIELD, { ...l6("skylake", { sched: "2.4" }), params: { rounds: 20, burnUs: 300 } });
    expect(cfs.error).toBeUndefined();
    expect(old.error).toBeUndefined();
    expect(metric(old, "repeats")).toBeLessThanOrEqual(1);
    expect(metric(cfs, "repeats")).toBeGreaterThan(5);
  });

  it("a pipe ping-pong wakes the reader and the two alternate", () => {
    const src = `import { workload } from "siglab";
export default workload({ name: "ping", params: {}, *main(t) {
  const [r1, w1] = yield* t.pipe(); const [r2, w2] = yield* t.pipe();
  const log: number[] = [];
  yield* t.clone(function* (c: any) { for (let i = 0; i < 30; i++) { yield* c.read(r1, 1); log.push(2); yield* c.write(w2, 1); } });
  for (let i = 0; i < 30; i++) { log.push(1); yield* t.write(w1, 1); yield* t.read(r2, 1); }
  yield* t.wait();
  let repeats = 0;
  for (let i = 1; i < log.length; i++) if (log[i] === log[i - 1]) repeats++;
  t.report("repeats", repeats, "turns");
} });`;
    const r = runSource(src, l6("zen4"));
    expect(r.error).toBeUndefined();
    expect(metric(r, "repeats")).toBe(0);
    // every round trip wakes a reader that sleeps in read() (dequeue_task_fair, enqueue_task_fair)
    expect(pathCount(r, "enqueue_task_fair")).toBeGreaterThanOrEqual(30);
    expect(pathCount(r, "dequeue_task_fair")).toBeGreaterThanOrEqual(30);
    expect(r.counters["sched.switches"]!).toBeGreaterThanOrEqual(60);
  });

  it("a CPU-bound task does not starve a woken one: each wake-up preempts it at once", () => {
    const r = runSource(HOG, l6("skylake"));
    expect(r.error).toBeUndefined();
    // nanosleep(1 ms) ends on the next 10-ms tick: the sleeper runs within that tick, not after the hog
    expect(metric(r, "worst nap")).toBeLessThan(10.5);
    expect(metric(r, "sleeper done")).toBeLessThan(metric(r, "hog done"));
    expect(r.counters["linux6.cfs.wakeup_preemptions"]).toBeGreaterThanOrEqual(4);
    expect(metric(r, "hog done")).toBeLessThan(102); // and the sleeper took little from it
  });
});
