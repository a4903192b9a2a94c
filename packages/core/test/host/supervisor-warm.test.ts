/** Supervisor.warm(): the shared sandbox worker starts before the first run, which then uses it. */
import { describe, expect, it } from "vitest";
import { Supervisor, type SandboxWorkerEvents } from "../../src/host/supervisor.js";
import type { RunSpec } from "../../src/common/experiment.js";
import type { ToSandbox } from "../../src/host/protocol.js";

function fakeWorkers() {
  const started: { events: SandboxWorkerEvents; posted: ToSandbox[] }[] = [];
  const factory = (events: SandboxWorkerEvents) => {
    const w = { events, posted: [] as ToSandbox[] };
    started.push(w);
    return { post: (m: ToSandbox) => w.posted.push(m), terminate: () => {} };
  };
  return { started, factory };
}

const spec: RunSpec = { workload: { id: "w", file: "w.ts", source: "" }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: {}, seed: 1 };

describe("Supervisor.warm", () => {
  it("starts the shared worker at once, resolves when it is ready, and the next run goes to it", async () => {
    const { started, factory } = fakeWorkers();
    const s = new Supervisor(factory);
    let warm = false;
    const p = s.warm().then(() => (warm = true));
    expect(started).toHaveLength(1);
    await Promise.resolve();
    expect(warm).toBe(false);
    started[0]!.events.message({ type: "ready" });
    await p;
    expect(warm).toBe(true);
    await s.warm(); // ready already: nothing new
    const run = s.run({ spec, plugins: [], profiles: [] });
    expect(started).toHaveLength(1);
    const posted = started[0]!.posted[0] as Extract<ToSandbox, { type: "run" }>;
    expect(posted.type).toBe("run");
    started[0]!.events.message({ type: "result", id: posted.id, result: { workload: "w" } as never });
    expect((await run).workload).toBe("w");
    s.close();
  });

  it("resolves when the worker dies before it is ready (the run that follows reports the failure)", async () => {
    const { started, factory } = fakeWorkers();
    const s = new Supervisor(factory);
    const p = s.warm();
    started[0]!.events.died("could not start", "internal");
    await expect(p).resolves.toBeUndefined();
    s.close();
  });
});
