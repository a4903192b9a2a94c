import { describe, expect, it } from "vitest";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import noCli from "../src/index.js";
import { IRQ_SIGNALS, irqSignalDevice, TIMER_WAKEUPS } from "./workloads.js";

const V = [{ id: "no-cli-exit" }];
const on = { plugins: [noCli], variants: V };

function path(r: ReturnType<typeof runExample>, name: string) {
  const p = r.paths.find((x) => x.name === name);
  if (!p) throw new Error(`path ${name} not run`);
  return p;
}

describe("no-cli-exit: the mechanism", () => {
  it("ret_from_sys_call and ret_from_exception test the flags without cli", () => {
    const base = runSource(TIMER_WAKEUPS, { cpu: "p6-coppermine", mhz: 800, params: { iterations: 200, sleeps: 20 } });
    const r = runSource(TIMER_WAKEUPS, { cpu: "p6-coppermine", mhz: 800, params: { iterations: 200, sleeps: 20 }, ...on });
    expect(r.error).toBeUndefined();
    for (const name of ["ret_from_sys_call", "ret_from_exception"]) {
      expect(path(base, name).ops.map((o) => o.op)).toContain("cli");
      expect(path(r, name).ops.map((o) => o.op)).not.toContain("cli");
      expect(path(r, name).origin).toBe("no-cli-exit");
    }
    // the iret's implicit sti disappears on the syscall return (IF stayed 1)
    expect(pathCount(base, "iret_sti")).toBeGreaterThan(pathCount(r, "iret_sti"));
  });

  it("exceptionPath: false keeps the cli in ret_from_exception", () => {
    const r = runSource(TIMER_WAKEUPS, { cpu: "p6-coppermine", mhz: 800, params: { iterations: 200, sleeps: 20 }, plugins: [noCli], variants: [{ id: "no-cli-exit", options: { exceptionPath: false } }] });
    expect(path(r, "ret_from_sys_call").ops.map((o) => o.op)).not.toContain("cli");
    expect(path(r, "ret_from_exception").ops.map((o) => o.op)).toContain("cli");
  });
});

describe("no-cli-exit: cost (Morton's getpid loop: lat_syscall call=getpid)", () => {
  const getpid = (cpu: string, mhz: number, withPlugin: boolean) =>
    metric(runExample("lat_syscall", { cpu, mhz, params: { iterations: 5000, call: "getpid" }, ...(withPlugin ? on : {}) }), "getpid");

  it("P6 Coppermine: about the 14 cycles Andrew Morton measured (306 -> 292 on a PIII)", () => {
    const base = getpid("p6-coppermine", 800, false), fast = getpid("p6-coppermine", 800, true);
    expect(base - fast).toBeGreaterThanOrEqual(10);
    expect(base - fast).toBeLessThanOrEqual(20);
    const saving = (base - fast) / base;
    expect(saving).toBeGreaterThan(0.03); // Morton: 4.6%
    expect(saving).toBeLessThan(0.07);
  });

  it("K7 Palomino: a cheap cli (~4 cycles, Andi Kleen), so a small saving", () => {
    const base = getpid("k7-palomino", 1400, false), fast = getpid("k7-palomino", 1400, true);
    expect(base - fast).toBeGreaterThan(3);
    expect(base - fast).toBeLessThan(20);
  });

  it("P4 Northwood: faster too, but a small share of an int $0x80 round trip", () => {
    const base = getpid("p4-northwood", 2200, false), fast = getpid("p4-northwood", 2200, true);
    expect(fast).toBeLessThan(base);
    expect((base - fast) / base).toBeLessThan(0.05);
  });
});

describe("no-cli-exit: the hazard (work set in the window between the test and the iret)", () => {
  it("a timer wake-up landing after the flag test is acted on only at the next kernel entry", () => {
    const base = runSource(TIMER_WAKEUPS, { cpu: "p6-coppermine", mhz: 800 });
    const r = runSource(TIMER_WAKEUPS, { cpu: "p6-coppermine", mhz: 800, ...on });
    expect(base.error).toBeUndefined();
    expect(r.error).toBeUndefined();
    expect(base.findings.filter((f) => f.kind.startsWith("delayed-"))).toEqual([]);
    const w = r.findings.find((f) => f.kind === "delayed-reschedule");
    expect(w, JSON.stringify(r.findings)).toBeDefined();
    expect(w!.severity).toBe("warning");
    // the task ran its user work (>= 1500 cycles) with need_resched set
    expect(w!.evidence["delayCycles"] as number).toBeGreaterThan(1500);
    expect(w!.evidence["variants"]).toBe("no-cli-exit");
  });

  it("a signal sent from a device interrupt in the window waits for the next kernel entry", () => {
    const dev = { plugins: [irqSignalDevice], variants: [{ id: "test-irq-signal" }] };
    const base = runSource(IRQ_SIGNALS, { cpu: "p6-coppermine", mhz: 800, ...dev });
    const r = runSource(IRQ_SIGNALS, { cpu: "p6-coppermine", mhz: 800, plugins: [irqSignalDevice, noCli], variants: [...dev.variants, ...V] });
    expect(base.error).toBeUndefined();
    expect(r.error).toBeUndefined();
    expect(metric(base, "caught")).toBeGreaterThan(100);
    expect(base.findings.filter((f) => f.kind.startsWith("delayed-"))).toEqual([]);
    const w = r.findings.find((f) => f.kind === "delayed-signal");
    expect(w, JSON.stringify(r.findings)).toBeDefined();
    expect(w!.evidence["delayCycles"] as number).toBeGreaterThan(1500);
  });

  it("is deterministic: the same seed gives the same warnings", () => {
    const a = runSource(TIMER_WAKEUPS, { cpu: "p6-coppermine", mhz: 800, params: { iterations: 5000 }, ...on });
    const b = runSource(TIMER_WAKEUPS, { cpu: "p6-coppermine", mhz: 800, params: { iterations: 5000 }, ...on });
    expect(a.findings).toEqual(b.findings);
    expect(a.totalCycles).toBe(b.totalCycles);
  });
});
