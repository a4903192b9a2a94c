/**
 * SchedYieldCall (runtime/sched-yield-call.ts): sched_yield as an iterator that switches away and
 * back without a generator — lazy, following the iterator protocol, and closing as the generator
 * it replaces does (a switched-out call returned or thrown into stops the run).
 */
import { describe, expect, it } from "vitest";
import { SchedYieldCall, YIELD_DONE, YIELD_REST, YIELD_SWITCHED, type SchedYieldRunner } from "../src/runtime/syscall/sched-yield-call.js";
import { SWITCH, type Gen } from "../src/kernel/yields.js";
import { runSource } from "./harness.js";

/** a runner whose steps answer `codes` in turn; YIELD_REST hands over to a generator yielding "x" and returning 9 */
function runner(codes: number[]) {
  const calls: string[] = [];
  let value = 0;
  const r: SchedYieldRunner = {
    yieldStart: () => (calls.push("start"), (value = 0), codes.shift()!),
    yieldBack: (resumed, v) => (calls.push(`back ${resumed} ${v}`), (value = 5), resumed ? codes.shift()! : YIELD_DONE),
    get yieldValue() {
      return value;
    },
    takeYieldRest: function* (): Gen<number> {
      calls.push("rest");
      calls.push(`resumed with ${String(yield "x")}`);
      return 9;
    } as () => Gen<number>,
  };
  return { r, calls };
}

describe("SchedYieldCall", () => {
  it("does nothing before the first next(); switches out (SWITCH) and finishes when resumed", () => {
    const { r, calls } = runner([YIELD_SWITCHED, YIELD_SWITCHED, YIELD_DONE]);
    const c = new SchedYieldCall(r);
    expect(calls).toEqual([]);
    expect(c.next()).toEqual({ value: SWITCH, done: false });
    expect(c.next()).toEqual({ value: SWITCH, done: false });
    expect(c.next()).toEqual({ value: 5, done: true });
    expect(c.next()).toEqual({ value: undefined, done: true });
    expect(calls).toEqual(["start", "back true 0", "back true 0"]);
  });

  it("hands over to the rest generator through yield*, resumed values going in", () => {
    const { r, calls } = runner([YIELD_SWITCHED, YIELD_REST]);
    function* outer(): Gen<number> {
      return yield* new SchedYieldCall(r) as unknown as Gen<number>;
    }
    const g = outer();
    expect(g.next()).toEqual({ value: SWITCH, done: false });
    expect(g.next()).toEqual({ value: "x", done: false });
    expect(g.next(4)).toEqual({ value: 9, done: true });
    expect(calls).toEqual(["start", "back true 0", "rest", "resumed with 4"]);
  });

  it("return() or throw() while switched out closes it as the generator's finally would (switchedBack(false))", () => {
    const a = runner([YIELD_SWITCHED]);
    const c = new SchedYieldCall(a.r);
    c.next();
    expect(c.return(3)).toEqual({ value: 3, done: true });
    expect(c.next()).toEqual({ value: undefined, done: true });
    expect(a.calls).toEqual(["start", "back false 0"]);
    const b = runner([YIELD_SWITCHED]);
    const c2 = new SchedYieldCall(b.r);
    c2.next();
    expect(() => c2.throw(new Error("boom"))).toThrow("boom");
    expect(b.calls).toEqual(["start", "back false 0"]);
    // before its first next(): nothing runs
    const idle = runner([YIELD_DONE]);
    expect(new SchedYieldCall(idle.r).return(1)).toEqual({ value: 1, done: true });
    expect(idle.calls).toEqual([]);
    expect(Object.getOwnPropertyNames(c)).toEqual([]);
  });

  const YIELDERS = `import { workload } from "siglab";
export default workload({ name: "t", params: { mode: 0 }, *main(t, { mode }) {
  const body = function* (th) { for (let i = 0; i < 20; i++) yield* th.sched_yield(); };
  const a = yield* t.pthread.create(body);
  t.sched_yield(); // made, never run
  if (mode === 1) {
    const it = t.sched_yield();
    it.next(); // switched out ...
    it.return(0); // ... and closed by hand while the other thread would run
  }
  for (let i = 0; i < 20; i++) t.report("r" + i, yield* t.sched_yield(), "");
  yield* t.pthread.join(a);
} });`;

  it("a workload's sched_yield: lazy, 0 each time, every yield a switch to the other thread", () => {
    const r = runSource(YIELDERS);
    expect(r.error).toBeUndefined();
    expect(r.metrics.filter((m) => m.name.startsWith("r")).map((m) => m.value)).toEqual(Array(20).fill(0));
    expect(r.counters["syscalls.sched_yield"]).toBe(40);
    expect(r.counters["sched.switches"]).toBeGreaterThanOrEqual(40);
  });

  it("a yield stepped and closed by hand while switched out stops the run with the workload's error", () => {
    const r = runSource(YIELDERS, { params: { mode: 1 } });
    expect(r.error?.kind).toBe("workload");
    expect(r.error?.message).toMatch(/resumed out of turn/);
  });
});
