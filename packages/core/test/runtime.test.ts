import { describe, expect, it } from "vitest";
import { EXAMPLES } from "../src/index.js";
import { metric, runExample, runSource } from "./harness.js";

const W = (body: string, extra = "") => `
import { workload } from "siglab";
export default workload({ name: "t", params: {}, ${extra} *main(t, p) { ${body} } });`;

describe("examples", () => {
  it.each(EXAMPLES.map((e) => e.id))("%s runs on the baseline without findings", (id) => {
    const r = runExample(id, { params: smallParams(id) });
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    expect(r.metrics.length).toBeGreaterThan(0);
  });

  it("the embedded example sources are current (run scripts/gen-examples.mjs after editing an example)", async () => {
    // @ts-expect-error plain .mjs script
    const { render } = await import("../../../scripts/gen-examples.mjs");
    const { readFileSync } = await import("node:fs");
    const current = readFileSync(new URL("../src/examples/sources.generated.ts", import.meta.url), "utf8");
    expect(current).toBe(render());
  });
});

function smallParams(id: string): Record<string, number> {
  if (id.startsWith("ngpt")) return id === "ngpt_yield" ? { yields: 200 } : { iterations: 50 };
  if (id === "lat_syscall") return { iterations: 2000 };
  if (id.startsWith("uml_")) return { syscalls: 30 };
  return { iterations: 100 };
}

describe("accounting and determinism", () => {
  it("charges every cycle to exactly one phase", () => {
    const r = runExample("lat_ctx", { params: { iterations: 200 } });
    const sum = Object.values(r.phases).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(r.totalCycles, 3);
    expect(r.phases["sched.switch_mm"]).toBeGreaterThan(0);
  });

  it("gives bit-identical results for identical inputs", () => {
    const a = runExample("sig_pingpong", { params: { iterations: 200 }, timeline: true });
    const b = runExample("sig_pingpong", { params: { iterations: 200 }, timeline: true });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it("scales time with the clock but not cycles", () => {
    const slow = runExample("lat_syscall", { cpu: "p6-coppermine", mhz: 500, params: { iterations: 1000 } });
    const fast = runExample("lat_syscall", { cpu: "p6-coppermine", mhz: 1000, params: { iterations: 1000 } });
    expect(metric(slow, "getppid")).toBeCloseTo(metric(fast, "getppid"), 0);
    expect(metric(slow, "Simple syscall")).toBeCloseTo(2 * metric(fast, "Simple syscall"), 2);
  });

  it("a P4 syscall costs several times a P3's (int $0x80 + iret is 'absolutely the worst' on a P4)", () => {
    const p4 = metric(runExample("lat_syscall", { cpu: "p4-northwood", mhz: 2200, params: { iterations: 1000 } }), "getppid");
    const p3 = metric(runExample("lat_syscall", { cpu: "p6-coppermine", mhz: 1000, params: { iterations: 1000 } }), "getppid");
    expect(p4 / p3).toBeGreaterThan(3);
  });
});

describe("scheduling", () => {
  it("preempts a compute-bound task on the timer tick so another runs", () => {
    const r = runSource(W(`
      let childRan = 0;
      const pid = yield* t.fork(function* (c) { yield* c.compute(1_000_000); });
      yield* t.compute(500_000_000);
      t.report("ticks", 1, "");
      yield* t.wait();`));
    expect(r.error).toBeUndefined();
    expect(r.counters["irq.timer"]).toBeGreaterThan(2);
    expect(r.counters["sched.switches"]).toBeGreaterThan(2);
  });

  it("pipes block the reader until the writer writes", () => {
    const r = runSource(W(`
      const [rd, wr] = yield* t.pipe();
      yield* t.fork(function* (c) { yield* c.compute(100_000); yield* c.write(wr, 100); });
      const before = t.rdtsc();
      const n = yield* t.read(rd, 100);
      t.report("n", n, ""); t.report("waited", t.rdtsc() - before, "cycles");
      yield* t.wait();`));
    expect(metric(r, "n")).toBe(100);
    expect(metric(r, "waited")).toBeGreaterThan(100_000);
  });
});

describe("bad workloads", () => {
  it("reports a workload that throws with the task and the simulated time", () => {
    const r = runSource(W(`yield* t.getpid(); throw new Error("boom");`));
    expect(r.error?.kind).toBe("workload");
    expect(r.error?.message).toContain("boom");
    expect(r.error?.task).toBe(1);
    expect(r.error?.cycle).toBeGreaterThan(0);
  });

  it("stops a runaway workload with the step budget", () => {
    const r = runSource(W(`for (;;) yield* t.getpid();`), { maxSteps: 10_000 });
    expect(r.error?.kind).toBe("budget");
    expect(r.error?.message).toMatch(/step budget/);
  });

  it("refuses a module without a workload and an unknown parameter", () => {
    expect(runSource(`export default 3;`).error?.message).toMatch(/default export/);
    expect(runSource(W(`yield* t.getpid();`), { params: { nope: 1 } }).error?.message).toMatch(/unknown parameter 'nope'/);
  });

  it("refuses an unknown CPU profile and an unknown plugin with the valid ids", () => {
    expect(runSource(W(``), { cpu: "p9" }).error?.message).toMatch(/unknown CPU profile 'p9'.*p4-northwood/);
    expect(runSource(W(``), { variants: [{ id: "nope" }] }).error?.message).toMatch(/unknown plugin 'nope'/);
  });

  it("detects a deadlock", () => {
    const r = runSource(W(`const [rd] = yield* t.pipe(); const [r2, w2] = yield* t.pipe(); yield* t.read(r2, 1);`));
    expect(r.error?.kind).toBe("deadlock");
  });
});

describe("a task's program (ret_from_fork, body, exit, stepped by the runner)", () => {
  it("a thread body that is a plain function returning an iterable runs as if yield*ed, then exits", () => {
    const r = runSource(W(`
      const h = yield* t.pthread.create(() => [1, 2, 3]);
      yield* t.pthread.join(h);
      const f = yield* t.fork(function* (c) { return 7; });
      yield* t.wait(f);
      t.report("joined", 1, "count");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "joined")).toBe(1);
  });

  it("a thread body whose result is not iterable is the workload's error, not the host's", () => {
    const r = runSource(W(`
      const h = yield* t.pthread.create(() => 42);
      yield* t.pthread.join(h);`));
    expect(r.error?.kind).toBe("workload");
    expect(r.error?.message).toMatch(/iterable/);
  });
});
