/**
 * Named loops (t.loopBegin / t.loopEnd): each loop's cycles by phase and its own count in the run
 * result, so per-iteration figures divide each loop by its count and a loop less its overhead
 * loop gives lmbench's figure.
 */
import { describe, expect, it } from "vitest";
import { netPerIteration, perIteration } from "../src/common/loops.js";
import { metric, runExample, runSource } from "./harness.js";

const TWO_LOOPS = `
import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "two loops",
  params: { n: 200, m: 50 },
  *main(t, { n, m }) {
    const me = yield* t.getpid();
    yield* t.sigaction(SIGUSR1, function* () {}, {});
    let s = t.rdtsc(); t.loopBegin("send");
    for (let i = 0; i < n; i++) yield* t.kill(me, 0);
    const send = t.rdtsc() - s; t.loopEnd("send", n);
    s = t.rdtsc(); t.loopBegin("catch");
    for (let i = 0; i < m; i++) yield* t.kill(me, SIGUSR1);
    const caught = t.rdtsc() - s; t.loopEnd("catch", m, { overhead: "send" });
    t.report("send", send, "cycles");
    t.report("catch", caught, "cycles");
    t.report("net", caught / m - send / n, "cycles");
  },
});`;

const sum = (o: Record<string, number>): number => Object.values(o).reduce((a, b) => a + b, 0);

describe("named loops", () => {
  it("keep each loop's cycles (the rdtsc difference), by phase, with its own count and overhead", () => {
    const r = runSource(TWO_LOOPS);
    expect(r.error).toBeUndefined();
    expect(r.loops?.map((l) => [l.name, l.count, l.overhead])).toEqual([["send", 200, undefined], ["catch", 50, "send"]]);
    const [send, caught] = r.loops!;
    expect(send!.cycles).toBe(metric(r, "send"));
    expect(caught!.cycles).toBe(metric(r, "catch"));
    // every cycle of the section is in one phase
    expect(sum(send!.phases)).toBeCloseTo(send!.cycles, 3);
    expect(sum(caught!.phases)).toBeCloseTo(caught!.cycles, 3);
    // kill(me, 0) delivers nothing; kill(me, SIGUSR1) builds a frame and returns through sigreturn
    expect(send!.phases["syscall.entry"]).toBeGreaterThan(0);
    expect(send!.phases["signal.frame"]).toBeUndefined();
    expect(caught!.phases["signal.frame"]).toBeGreaterThan(0);
    expect(caught!.phases["signal.sigreturn"]).toBeGreaterThan(0);
    // each loop by its own count, and the catch loop less the send loop: the workload's figure
    expect(perIteration(send!).cycles).toBeCloseTo(metric(r, "send") / 200, 6);
    const net = netPerIteration(r.loops!, "catch")!;
    expect(net.cycles).toBeCloseTo(metric(r, "net"), 6);
    expect(sum(net.phases)).toBeCloseTo(net.cycles, 3);
  });

  it("add up the sections timed under one name", () => {
    const r = runSource(`
import { workload } from "siglab";
export default workload({ name: "sections", params: {}, *main(t) {
  let total = 0;
  for (let j = 0; j < 3; j++) {
    const s = t.rdtsc(); t.loopBegin("getppid");
    for (let i = 0; i < 10; i++) yield* t.getppid();
    total += t.rdtsc() - s; t.loopEnd("getppid", 10);
    yield* t.compute(5000); // between sections: not in the loop
  }
  t.report("total", total, "cycles");
} });`);
    expect(r.error).toBeUndefined();
    expect(r.loops).toHaveLength(1);
    expect(r.loops![0]!.count).toBe(30);
    expect(r.loops![0]!.cycles).toBe(metric(r, "total"));
    expect(r.loops![0]!.phases.user ?? 0).toBeLessThan(5000);
  });

  it("lat_sig catch: its catch loop less its send loop, per iteration, is the metric beside it", () => {
    const r = runExample("lat_sig_catch", { params: { iterations: 2000 } });
    expect(r.error).toBeUndefined();
    const names = r.loops!.map((l) => l.name);
    expect(names).toHaveLength(2);
    const catchLoop = r.loops!.find((l) => l.overhead !== undefined)!;
    expect(catchLoop.overhead).toBe(names[0]);
    expect(catchLoop.count).toBe(2000);
    expect(netPerIteration(r.loops!, catchLoop.name)!.cycles).toBeCloseTo(metric(r, "catch cycles"), 6);
    expect(perIteration(catchLoop).cycles).toBeCloseTo(metric(r, "signal round trip"), 6);
    // the run's total over the iterations is neither (two loops, set-up and warm-up over one count)
    expect(Math.abs(r.totalCycles / 2000 - metric(r, "catch cycles"))).toBeGreaterThan(1000);
  });

  it("lat_sig prot: the fault loop ends in the child's handler and its figure is net of the catch loop's", () => {
    const r = runExample("lat_sig_prot", { params: { iterations: 500 } });
    expect(r.error).toBeUndefined();
    expect(r.loops).toHaveLength(3);
    const [send, caught, fault] = r.loops!;
    expect([caught!.overhead, fault!.overhead]).toEqual([send!.name, caught!.name]);
    expect(fault!.count).toBe(500);
    expect(netPerIteration(r.loops!, fault!.name)!.cycles).toBeCloseTo(metric(r, "protection fault cycles"), 6);
  });

  it("lat_ctx: the ring loop counts switches (procs per pass), less the pipe overhead loop per iteration", () => {
    const r = runExample("lat_ctx", { params: { iterations: 300, procs: 3 } });
    expect(r.error).toBeUndefined();
    const [overhead, ring] = r.loops!;
    expect([overhead!.count, ring!.count, ring!.overhead]).toEqual([300, 900, overhead!.name]);
    expect(netPerIteration(r.loops!, ring!.name)!.cycles).toBeCloseTo(metric(r, "context switch cycles"), 6);
  });

  it("are absent from a run that names none", () => {
    const r = runExample("sig_pingpong");
    expect(r.error).toBeUndefined();
    expect("loops" in r).toBe(false);
  });

  it.each([
    ["an end without a begin", `t.loopEnd("x", 1);`, /loopEnd\("x", 1\): no loop of that name is running/],
    ["a begin while running", `t.loopBegin("x"); t.loopBegin("x");`, /loopBegin\("x"\): this loop is already running/],
    ["a count of 0", `t.loopBegin("x"); t.loopEnd("x", 0);`, /the count must be a finite number above 0/],
    ["an overhead not timed yet", `t.loopBegin("x"); t.loopEnd("x", 1, { overhead: "y" });`, /the overhead loop "y" has not been timed yet/],
    ["its own overhead", `t.loopBegin("x"); t.loopEnd("x", 1, { overhead: "x" });`, /cannot be its own overhead/],
    ["a name that is not a string", `t.loopBegin(3);`, /loopBegin\(name\): expected a string/],
  ])("refuse %s, naming the loop", (_what, code, message) => {
    const r = runSource(`import { workload } from "siglab";\nexport default workload({ name: "bad", params: {}, *main(t) { ${code} } });`);
    expect(r.error?.kind).toBe("workload");
    expect(r.error?.message).toMatch(message);
  });
});
