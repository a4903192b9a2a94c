/**
 * sched_yield writes ret_from_sys_call's reschedule turn out (runtime/thread.ts): a signal that
 * arrives while the caller is switched out must still be delivered on that same return to user
 * mode, through the gate's loop.
 */
import { describe, expect, it } from "vitest";
import { pathCount, runSource } from "./harness.js";

const W = `import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "t", params: {}, *main(t) {
  let caught = 0;
  yield* t.sigaction(SIGUSR1, function* () { caught++; }, { flags: 0, mask: [] });
  const parent = yield* t.getpid();
  yield* t.fork(function* (c) {
    yield* c.kill(parent, SIGUSR1); // while the parent is switched out in sched_yield
    yield* c.sched_yield();
  });
  const seen = [];
  for (let i = 0; i < 3; i++) {
    yield* t.sched_yield();
    seen.push(caught);
  }
  yield* t.wait();
  t.report("caught after each yield", Number(seen.join("")), "");
} });`;

describe("sched_yield's exit work", () => {
  it("delivers a signal that came while the caller was switched out, on that return", () => {
    const r = runSource(W);
    expect(r.error).toBeUndefined();
    // the first yield lets the child run and send: the handler has run when that yield returns
    expect(r.metrics.find((m) => m.name === "caught after each yield")?.value).toBe(111);
    expect(r.counters["signals.delivered"]).toBe(1);
    expect(pathCount(r, "signal_return")).toBe(1);
    expect(r.findings).toEqual([]);
  });
});
