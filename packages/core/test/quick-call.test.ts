/**
 * QuickCall (runtime/quick-call.ts): getpid/getppid/kill/tkill as iterators that make the call in
 * their first next() — lazy and following the iterator protocol as the generators they replace.
 */
import { describe, expect, it } from "vitest";
import { QuickCall, QUICK_GETPID, type QuickRunner } from "../src/runtime/syscall/quick-call.js";
import type { Gen } from "../src/kernel/yields.js";
import { runSource } from "./harness.js";

/** a runner whose synchronous attempt succeeds (`now` set) or hands over to a rest generator yielding `yields` */
function runner(now: number | undefined, yields: unknown[] = [], result = 7) {
  const calls: string[] = [];
  const r: QuickRunner = {
    quickNow: () => (calls.push("now"), now),
    quickRest: function* (): Gen<number> {
      calls.push("rest");
      for (const y of yields) calls.push(`resumed with ${String(yield y)}`);
      return result;
    },
  };
  return { r, calls };
}

describe("QuickCall", () => {
  it("does nothing before the first next(), then finishes in it", () => {
    const { r, calls } = runner(5);
    const q = new QuickCall(r, QUICK_GETPID);
    expect(calls).toEqual([]);
    expect(q.next()).toEqual({ value: 5, done: true });
    expect(q.next()).toEqual({ value: undefined, done: true });
    expect(calls).toEqual(["now"]);
  });

  it("hands over to the rest generator: its yields pass through yield*, resumed values go back in", () => {
    const { r, calls } = runner(undefined, ["a", "b"], 9);
    function* outer(): Gen<number> {
      return yield* new QuickCall(r, QUICK_GETPID) as unknown as Gen<number>;
    }
    const g = outer();
    expect(g.next()).toEqual({ value: "a", done: false });
    expect(g.next(1)).toEqual({ value: "b", done: false });
    expect(g.next(2)).toEqual({ value: 9, done: true });
    expect(calls).toEqual(["now", "rest", "resumed with 1", "resumed with 2"]);
  });

  it("forwards return and throw to the rest generator, and is finished after them", () => {
    const closed = runner(undefined, ["a"]);
    const q = new QuickCall(closed.r, QUICK_GETPID);
    q.next();
    expect(q.return(3)).toEqual({ value: 3, done: true });
    expect(q.next()).toEqual({ value: undefined, done: true });
    const thrown = runner(undefined, ["a"]);
    const q2 = new QuickCall(thrown.r, QUICK_GETPID);
    q2.next();
    expect(() => q2.throw(new Error("boom"))).toThrow("boom");
    expect(q2.next()).toEqual({ value: undefined, done: true });
    // before its first next(): nothing runs, it is finished
    const idle = runner(5);
    const q3 = new QuickCall(idle.r, QUICK_GETPID);
    expect(() => q3.throw(new Error("early"))).toThrow("early");
    expect(q3.next()).toEqual({ value: undefined, done: true });
    expect(idle.calls).toEqual([]);
  });

  it("keeps its state private: nothing of the thread is reachable from the object", () => {
    const q = new QuickCall(runner(1).r, QUICK_GETPID);
    expect(Object.getOwnPropertyNames(q)).toEqual([]);
    expect(Object.getOwnPropertySymbols(q)).toEqual([]);
  });

  it("a workload's getpid, getppid and kill: lazy, and the same results as the calls", () => {
    const r = runSource(`import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "t", params: {}, *main(t) {
  let caught = 0;
  yield* t.sigaction(SIGUSR1, function* () { caught++; }, { flags: 0, mask: [] });
  t.getpid(); t.kill(t.pid, SIGUSR1); // made, never run
  const me = yield* t.getpid();
  const parent = yield* t.getppid();
  t.report("caught before", caught, "");
  t.report("kill", yield* t.kill(me, SIGUSR1), "");
  t.report("caught after", caught, "");
  t.report("pid ok", me === t.pid ? 1 : 0, "");
  t.report("ppid", parent, "");
} });`);
    expect(r.error).toBeUndefined();
    const m = (n: string) => r.metrics.find((x) => x.name === n)?.value;
    expect(m("caught before")).toBe(0);
    expect(m("kill")).toBe(0);
    expect(m("caught after")).toBe(1);
    expect(m("pid ok")).toBe(1);
    expect(m("ppid")).toBe(0);
    expect(r.counters["syscalls.getpid"]).toBe(1);
    expect(r.counters["syscalls.kill"]).toBe(1);
  });
});
