/**
 * The user-level scheduler's API 2.2 shortcuts NGPT takes when the kernel has them (createWithExit:
 * the scheduler drives the body and the exit work itself; parkOut/parkBack: the library yields the
 * park token from its own generator) must give the run a kernel without them gives, op for op,
 * with timer ticks and signals landing inside the switches; and the per-switch counters NGPT keeps
 * as numbers must reach the results however the run ends.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runSource } from "../../../core/test/harness.js";
import { UThreadScheduler } from "@siglab/core";
import ngpt from "../src/index.js";

const SOURCE = `
import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "yields under ticks", params: { threads: 4, yields: 800 }, hz: 10000,
  *main(t, { threads, yields }) {
    let hits = 0;
    yield* t.sigaction(SIGUSR1, function* (h) { hits++; });
    const hs = [];
    for (let i = 0; i < threads; i++) hs.push(yield* t.pthread.create(function* (th) {
      for (let j = 0; j < yields; j++) {
        yield* th.pthread.yield();
        if (j % 89 === 0) yield* th.kill(th.pid, SIGUSR1);
        yield* th.compute(29 + (j % 11) * 53);
      }
      return i + 40;
    }));
    // the LWP's own stack yields too (parkOut leaves it to park: it runs the scheduler nested)
    for (let j = 0; j < 50; j++) yield* t.pthread.yield();
    for (const h of hs) yield* t.pthread.join(h);
    t.report("hits", hits, "");
  },
});`;

type Proto = Record<string, unknown>;
const proto = UThreadScheduler.prototype as unknown as Proto;
const saved: [string, unknown][] = [];
/** the scheduler as a kernel before these shortcuts had it */
function hide(...names: string[]): void {
  for (const n of names) {
    saved.push([n, proto[n]]);
    proto[n] = undefined;
  }
}
afterEach(() => {
  for (const [n, f] of saved.splice(0)) proto[n] = f;
});

describe("ngpt on the user-level scheduler's API 2.2 shortcuts", () => {
  for (const [exactPaths, smp] of [[false, 1], [true, 1], [false, 2]] as const) {
    it(`gives the run of a kernel without createWithExit and parkOut/parkBack${exactPaths ? " (every path op by op)" : ""}${smp > 1 ? " (two CPUs)" : ""}`, () => {
      const opts = { plugins: [ngpt], variants: [{ id: "ngpt" }], timeline: true, exactPaths, smp };
      const now = runSource(SOURCE, opts);
      expect(now.error).toBeUndefined();
      expect(now.counters["irq.timer"] ?? 0).toBeGreaterThan(100);
      expect(now.counters["ngpt.yields"]).toBe(4 * 800 + 50);
      hide("createWithExit", "parkOut", "parkBack");
      const old = runSource(SOURCE, opts);
      expect(old.error?.message).toBeUndefined();
      expect(old).toEqual(now);
    });
  }

  it("the per-switch counters reach the results of a run that ends in an error", () => {
    const opts = { plugins: [ngpt], variants: [{ id: "ngpt" }], maxSteps: 20_000 };
    const r = runSource(SOURCE, opts);
    expect(r.error?.kind).toBe("budget");
    const yields = r.counters["ngpt.yields"]!;
    expect(yields).toBeGreaterThan(100);
    // each yield switches out (and, but for the last, back in)
    expect(r.counters["ngpt.mctx_switches"]! - 2 * yields).toBeGreaterThanOrEqual(-2);
    hide("createWithExit", "parkOut", "parkBack");
    expect(runSource(SOURCE, opts)).toEqual(r);
  });

  it("a thread body that returns no iterator fails as a yield* on it would", () => {
    const bad = `
import { workload } from "siglab";
export default workload({ name: "bad body", *main(t) {
  const h = yield* t.pthread.create(() => 5);
  yield* t.pthread.join(h);
}});`;
    const opts = { plugins: [ngpt], variants: [{ id: "ngpt" }] };
    const r = runSource(bad, opts);
    expect(r.error?.message).toMatch(/not iterable|iterator/i);
    hide("createWithExit");
    const old = runSource(bad, opts);
    expect(r.error?.kind).toBe(old.error?.kind);
  });
});
