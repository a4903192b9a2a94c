/** The run queue as a list (kernel/run-list.ts): the order an array kept, O(1) list_del, a view plugins cannot change. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RunList, RunListNode } from "../src/kernel/run-list.js";
import { ContainerModule } from "inversify";
import type { PluginModule, Task as ApiTask } from "@siglab/plugin-api";
import { TOKENS, type Kernel, type Task } from "../src/index.js";
import { runSource, setupPlugin } from "./harness.js";

describe("RunList", () => {
  it("keeps the order an array with push / remove-where-found / move-to-tail keeps", () => {
    const op = fc.record({ kind: fc.constantFrom("add", "del", "moveLast"), who: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const list = new RunList<number>();
        const nodes = Array.from({ length: 6 }, (_, i) => new RunListNode(i));
        const model: number[] = [];
        for (const { kind, who } of ops) {
          const n = nodes[who]!;
          const at = model.indexOf(who);
          if (kind === "add") {
            if (at < 0) (model.push(who), list.addTail(n));
          } else if (kind === "del") {
            if (at >= 0) (model.splice(at, 1), list.del(n));
          } else {
            if (at >= 0) (model.splice(at, 1), list.del(n));
            model.push(who);
            list.addTail(n);
          }
          expect(list.toArray()).toEqual(model);
          expect(list.length).toBe(model.length);
          for (let i = 0; i < 6; i++) expect(list.has(nodes[i]!)).toBe(model.includes(i));
        }
      }),
    );
  });

  it("refuses to queue a node twice, and a node on another list is not on this one", () => {
    const a = new RunList<string>(), b = new RunList<string>();
    const n = new RunListNode("t");
    a.addTail(n);
    expect(() => a.addTail(n)).toThrow(/already on a run queue/);
    expect(() => b.addTail(n)).toThrow(/already on a run queue/);
    expect(b.has(n)).toBe(false);
    expect(b.has(b.head)).toBe(false);
  });

  it("hands out one view per state of the list, which writes do not reach the list through", () => {
    const list = new RunList<number>();
    const n0 = new RunListNode(0), n1 = new RunListNode(1);
    list.addTail(n0);
    const v = list.toArray();
    expect(list.toArray()).toBe(v);
    (v as number[]).push(7);
    expect(list.length).toBe(1);
    (v as number[]).pop();
    list.addTail(n1);
    expect(list.toArray()).not.toBe(v);
    expect(v).toEqual([0]); // an old view stays what it was
    expect(list.toArray()).toEqual([0, 1]);
  });
});

const TURNS = `import { workload } from "siglab";
export default workload({ name: "turns", params: {}, *main(t) {
  const body = function* (h: any) { for (let r = 0; r < 3; r++) yield* h.sched_yield(); };
  yield* t.clone(body); yield* t.clone(body);
  for (let i = 0; i < 2; i++) yield* t.wait();
} });`;

describe("Kernel.runqueue", () => {
  it("is a view a plugin cannot change the kernel's queue through", () => {
    let most = 0;
    const peek = setupPlugin("peek", (k: Kernel) => {
      k.events.on("switch.in", () => {
        const before = (k as unknown as { nrRunning: number }).nrRunning;
        most = Math.max(most, k.runqueue.length);
        (k.runqueue as Task[]).push(k.idle); // a plugin's write lands in its copy only
        expect((k as unknown as { nrRunning: number }).nrRunning).toBe(before);
      });
    });
    const r = runSource(TURNS, { plugins: [peek], variants: [{ id: "peek" }] });
    expect(r.error).toBeUndefined();
    expect(most).toBe(2); // the two threads take turns while the parent waits
    expect(r.counters["sched.switches"]).toBeGreaterThan(6);
  });

  it("refuses a plugin Scheduler's pick of a task that is not on this kernel's run queue", () => {
    let stale: ApiTask | null = null;
    const keep = setupPlugin("keep", (k: Kernel) => {
      k.events.on("switch.in", (t) => {
        if (t !== k.idle) stale ??= t;
      });
    });
    // a first run leaves a task behind; a second run's Scheduler picks it
    expect(runSource(TURNS, { plugins: [keep], variants: [{ id: "keep" }] }).error).toBeUndefined();
    expect(stale).not.toBeNull();
    const picksStale: PluginModule = {
      manifest: { id: "picks-stale", version: "1.0.0", apiVersion: "2.1", displayName: "t", description: "t", options: {}, contributes: ["Scheduler"], replaces: ["Scheduler"] },
      createModule: () =>
        new ContainerModule(({ rebind }) => {
          rebind(TOKENS.Scheduler).toDynamicValue(() => ({ id: "picks-stale", pick_next_task: () => stale!, update_process_times: () => {}, reschedule_idle: () => {} }));
        }),
    };
    const r = runSource(TURNS, { plugins: [picksStale], variants: [{ id: "picks-stale" }] });
    expect(r.error?.message).toMatch(/picked task \d+ .*not on the run queue/);
  });
});
