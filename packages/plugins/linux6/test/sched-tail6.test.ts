/**
 * The post-switch tail belongs to the run's Scheduler (Scheduler.schedule_tail, plugin API 2.2):
 * under linux6's CFS an SMP switch runs 6.x's finish_task_switch (charged in linux6's switch_to
 * path) and no 2.4 __schedule_tail / reschedule_idle; the core's 2.4 scheduler keeps its tail on
 * SMP, also under linux6 with sched=2.4.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "@siglab/plugin-api";
import { pathCount, runExample } from "../../../core/test/harness.js";
import linux6 from "../src/index.js";

const l6 = (cpu: string, mhz: number, options: Record<string, string> = {}) => ({ cpu, mhz, smp: 2, plugins: [linux6], variants: [{ id: "linux6", options }] });

function expectSwitched(r: RunResult): void {
  expect(r.error).toBeUndefined();
  expect(r.counters["sched.switches"]!).toBeGreaterThan(100);
}

describe("the post-switch tail on 2 CPUs", () => {
  for (const ex of ["lat_pipe", "lat_ctx"]) {
    for (const [cpu, mhz] of [["zen4", 4500], ["skylake", 3600]] as const) {
      it(`linux6 (CFS) ${ex} on ${cpu}: no __schedule_tail, finish_task_switch in every switch`, () => {
        const r = runExample(ex, l6(cpu, mhz));
        expectSwitched(r);
        expect(r.counters["linux6.sched.cfs"]).toBe(1);
        expect(pathCount(r, "__schedule_tail")).toBe(0);
        expect(pathCount(r, "__schedule_tail.resched")).toBe(0);
        const sw = r.paths.find((p) => p.name === "switch_to")!;
        expect(sw.origin).toBe("linux6");
        expect(sw.ops.some((o) => o.fn === "finish_task_switch")).toBe(true);
        expect(sw.count).toBe(r.counters["sched.switches"]);
      });
    }
  }

  it("the core's 2.4 scheduler on 2 CPUs still runs __schedule_tail after every switch", () => {
    const r = runExample("lat_pipe", { cpu: "p6-coppermine", mhz: 1000, smp: 2 });
    expectSwitched(r);
    expect(pathCount(r, "__schedule_tail")).toBe(r.counters["sched.switches"]);
  });

  it("linux6 with sched=2.4 (goodness) keeps 2.4's tail on 2 CPUs", () => {
    const r = runExample("lat_pipe", l6("zen4", 4500, { sched: "2.4" }));
    expectSwitched(r);
    expect(r.counters["linux6.sched.cfs"]).toBeUndefined();
    expect(pathCount(r, "__schedule_tail")).toBe(r.counters["sched.switches"]);
  });

  it("on one CPU there is no tail under either scheduler", () => {
    const r = runExample("lat_pipe", { ...l6("zen4", 4500), smp: 1 });
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "__schedule_tail")).toBe(0);
  });
});
