/**
 * Gate.work_pendingNow (arch/i386/entry.ts): the exit work of t.kill()/t.getpid() (a QuickCall) without a generator — a
 * handler run to its end inside the call — and the generators it hands over to: a handler that
 * yields (it switches away inside), a handler that throws, a default action that terminates.
 */
import { describe, expect, it } from "vitest";
import { runSource } from "./harness.js";

const m = (r: ReturnType<typeof runSource>, n: string) => r.metrics.find((x) => x.name === n)?.value;

describe("a delivery on the way back from kill (work_pendingNow)", () => {
  it("a handler that makes calls of its own and switches away is resumed where it yielded; kill returns 0", () => {
    const r = runSource(`import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "t", params: {}, *main(t) {
  let ran = 0, pids = 0, bad = 0, otherRan = 0;
  yield* t.sigaction(SIGUSR1, function* () {
    if ((yield* t.getpid()) === t.pid) pids++; // a QuickCall of its own inside the outer one
    yield* t.sched_yield(); // a switch to the other thread from inside the handler
    ran++;
  });
  const other = yield* t.pthread.create(function* (th) { for (let i = 0; i < 40; i++) { otherRan++; yield* th.sched_yield(); } });
  for (let i = 0; i < 20; i++) if ((yield* t.kill(t.pid, SIGUSR1)) !== 0) bad++;
  yield* t.pthread.join(other);
  t.report("ran", ran, ""); t.report("pids", pids, ""); t.report("bad", bad, ""); t.report("other", otherRan, "");
} });`);
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    expect(m(r, "ran")).toBe(20);
    expect(m(r, "pids")).toBe(20);
    expect(m(r, "bad")).toBe(0);
    expect(m(r, "other")).toBe(40);
    expect(r.counters["syscalls.kill"]).toBe(20);
    expect(r.counters["signals.delivered"]).toBe(20);
  });

  it("a handler's throw reaches the kill's caller, and that call is finished (no second kill)", () => {
    const r = runSource(`import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "t", params: {}, *main(t) {
  let caught = 0;
  yield* t.sigaction(SIGUSR1, function* () { throw new Error("from the handler"); });
  const call = t.kill(t.pid, SIGUSR1);
  try { yield* call; } catch (e) { if (String(e).includes("from the handler")) caught++; }
  const again = call.next();
  t.report("caught", caught, ""); t.report("again done", again.done ? 1 : 0, "");
} });`);
    expect(r.error).toBeUndefined();
    expect(m(r, "caught")).toBe(1);
    expect(m(r, "again done")).toBe(1);
    expect(r.counters["syscalls.kill"]).toBe(1);
  });

  it("a signal whose default action terminates ends the task from inside kill", () => {
    const r = runSource(`import { workload, SIGTERM, WIFSIGNALED, WTERMSIG } from "siglab";
export default workload({ name: "t", params: {}, *main(t) {
  let after = 0;
  const pid = yield* t.fork(function* (c) { yield* c.kill(c.pid, SIGTERM); after++; return 3; });
  const w = yield* t.wait();
  const st = typeof w === "number" ? -1 : w.status;
  t.report("pid", typeof w === "number" ? -1 : w.pid === pid ? 1 : 0, "");
  t.report("signaled", WIFSIGNALED(st) ? WTERMSIG(st) : 0, "");
} });`);
    expect(r.error).toBeUndefined();
    expect(m(r, "pid")).toBe(1);
    expect(m(r, "signaled")).toBe(15);
    expect(r.counters["signals.fatal"]).toBe(1);
  });
});
