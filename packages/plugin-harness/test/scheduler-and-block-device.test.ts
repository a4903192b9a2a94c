/**
 * The extension points of plugin API 2.1, through the in-process harness: a Scheduler decides
 * which task runs (and when a slice ends, and whether a wake-up preempts), a BlockDevice decides
 * when /dev/siglab-disk's requests complete; both are single-valued (`replaces`), both baselines
 * are reachable to delegate to, and plugins of API 2.0 still load.
 */
import { describe, expect, it } from "vitest";
import { ContainerModule, TOKENS, type BlockDevice, type Kernel, type PluginManifest, type PluginModule, type RunResult, type Scheduler, type Task, type Token } from "@siglab/plugin-api";
import { runWorkload } from "../src/index.js";

const CPU = "p6-coppermine@1000"; // 1000 cycles per microsecond; HZ 100: a tick every 10 ms

function manifest(id: string, over: Partial<PluginManifest> = {}): PluginManifest {
  return { id, version: "1.0.0", apiVersion: "2.1", displayName: id, description: "test plugin", options: {}, contributes: [], ...over };
}

interface Replaceable {
  Scheduler: Scheduler;
  BlockDevice: BlockDevice;
}

/** A plugin that replaces `point` with a fresh `make()` per run. */
function replacing<P extends keyof Replaceable>(id: string, point: P, make: () => Replaceable[P]): PluginModule {
  const token = TOKENS[point] as Token<Replaceable[P]>;
  return {
    manifest: manifest(id, { contributes: [point], replaces: [point] }),
    createModule: () => new ContainerModule(({ rebind }) => void rebind(token).toDynamicValue(make)),
  };
}

const metric = (r: RunResult, name: string): number | undefined => r.metrics.find((m) => m.name === name)?.value;

/**
 * Round robin: the runnable task after `prev` in run-queue order (the head when prev is not on
 * it), whatever the timeslices say; a used-up slice is refilled at once; a wake-up never preempts
 * a running task.
 */
class RoundRobin implements Scheduler {
  readonly id = "t-round-robin";
  pick_next_task(k: Kernel, prev: Task): Task {
    const rq = k.runqueue;
    if (!rq.length) return k.idle;
    return rq[(rq.indexOf(prev) + 1) % rq.length]!;
  }
  update_process_times(k: Kernel, p: Task): void {
    if (p !== k.idle && --p.counter <= 0) {
      p.counter = k.config.timesliceTicks;
      p.needResched = true;
    }
  }
  reschedule_idle(k: Kernel): void {
    if (k.current === k.idle) k.current.needResched = true;
  }
}
const roundRobin = replacing("t-round-robin", "Scheduler", () => new RoundRobin());

/** Three threads take turns with sched_yield; thread 1 also computes 45 ms per round. */
const TURNS = `import { workload } from "siglab";
export default workload({ name: "turns", params: { rounds: 3, burnMs: 45 }, *main(t, { rounds, burnMs }) {
  const log: number[] = [];
  const body = (id: number) => function* (h: any) {
    for (let r = 0; r < rounds; r++) {
      log.push(id);
      if (id === 1) yield* h.compute(burnMs * 1000 * t.mhz);
      yield* h.sched_yield();
    }
  };
  yield* t.clone(body(1)); yield* t.clone(body(2)); yield* t.clone(body(3));
  for (let i = 0; i < 3; i++) yield* t.wait();
  t.report("order", Number(log.join("")), "threads");
} });`;

/** A thread sleeps 25 ms while the main thread computes 100 ms: when does the sleeper run again? */
const WAKE = `import { workload } from "siglab";
export default workload({ name: "wake", params: { sleepMs: 25, workMs: 100 }, *main(t, { sleepMs, workMs }) {
  let resumed = -1;
  yield* t.clone(function* (s) {
    yield* s.nanosleep(sleepMs * 1e6);
    resumed = s.rdtsc();
  });
  yield* t.sched_yield(); // the thread starts its sleep
  yield* t.compute(workMs * 1000 * t.mhz);
  yield* t.wait();
  t.report("sleeper resumed", resumed / t.mhz / 1000, "ms");
} });`;

/** N writes to the disk, then read() until every completion record is there. */
const DISK = `import { workload } from "siglab";
export default workload({ name: "disk", params: { requests: 1 }, *main(t, { requests }) {
  const fd = yield* t.open("/dev/siglab-disk");
  const t0 = t.rdtsc();
  for (let i = 0; i < requests; i++) yield* t.write(fd, 4096);
  for (let got = 0; got < requests * 32; ) got += yield* t.read(fd, 32 * requests);
  t.report("elapsed", t.rdtsc() - t0, "cycles");
} });`;

describe("Scheduler (plugin API 2.1)", () => {
  it("a round-robin Scheduler changes which task runs: the order of turns and the number of switches", () => {
    const base = runWorkload({ workload: { file: "turns.ts", source: TURNS }, cpu: CPU });
    const rr = runWorkload({ plugins: [roundRobin], variant: "t-round-robin", workload: { file: "turns.ts", source: TURNS }, cpu: CPU });
    expect(base.error).toBeUndefined();
    expect(rr.error).toBeUndefined();
    // 2.4: thread 1 used most of its slice, so goodness() prefers 2 and 3 until their counters
    // are spent as well
    expect(metric(base, "order")).toBe(123232311);
    // round robin: 1 2 3, then 1 again; its slice runs out at the 60 ms tick (6 ticks), so 2 runs
    // next; 2 yields (to the tail) and 1 finishes its round; then 3, 2, 1, 3
    expect(metric(rr, "order")).toBe(123123213);
    expect(base.counters["sched.switches"]).toBe(14);
    expect(rr.counters["sched.switches"]).toBe(17);
    // the baseline's selection is charged as 2.4's goodness loop; round robin charges none
    expect(base.paths.find((p) => p.name === "goodness")?.count).toBeGreaterThan(0);
    expect(rr.paths.find((p) => p.name === "goodness")).toBeUndefined();
  });

  it("reschedule_idle is the Scheduler's: 2.4 preempts for the woken sleeper, round robin waits for the slice to end", () => {
    const base = runWorkload({ workload: { file: "wake.ts", source: WAKE }, cpu: CPU });
    const rr = runWorkload({ plugins: [roundRobin], variant: "t-round-robin", workload: { file: "wake.ts", source: WAKE }, cpu: CPU });
    // woken at the 30 ms tick with a full slice (6) against main's 4: 2.4 preempts at once
    expect(metric(base, "sleeper resumed")).toBeGreaterThanOrEqual(30);
    expect(metric(base, "sleeper resumed")).toBeLessThan(30.01);
    // round robin: main's slice of 6 ticks ends at 60 ms, then the sleeper is next
    expect(metric(rr, "sleeper resumed")).toBeGreaterThanOrEqual(60);
    expect(metric(rr, "sleeper resumed")).toBeLessThan(60.01);
  });

  it("a variant that delegates to k.baseline.scheduler runs exactly as 2.4", () => {
    let calls = 0;
    const delegating = replacing("t-delegating-scheduler", "Scheduler", () => ({
      id: "t-delegating-scheduler",
      pick_next_task: (k, prev) => (calls++, k.baseline.scheduler!.pick_next_task(k, prev)),
      update_process_times: (k, p) => k.baseline.scheduler!.update_process_times(k, p),
      reschedule_idle: (k, p) => k.baseline.scheduler!.reschedule_idle(k, p),
    }));
    const base = runWorkload({ workload: "lat_ctx", cpu: CPU, params: { iterations: 200 } });
    const mine = runWorkload({ plugins: [delegating], variant: "t-delegating-scheduler", workload: "lat_ctx", cpu: CPU, params: { iterations: 200 } });
    expect(calls).toBeGreaterThan(200);
    expect(JSON.stringify({ ...mine, variants: [] })).toBe(JSON.stringify({ ...base, variants: [] }));
  });

  it("a Scheduler that picks a task that cannot run ends the run with an error naming it", () => {
    const bad = replacing("t-bad-scheduler", "Scheduler", () => ({
      id: "t-bad-scheduler",
      // always the first task, even when it sleeps
      pick_next_task: (k) => [...k.tasks.values()][0]!,
      update_process_times: () => {},
      reschedule_idle: () => {},
    }));
    const r = runWorkload({ plugins: [bad], variant: "t-bad-scheduler", workload: { file: "wake.ts", source: WAKE }, cpu: CPU });
    expect(r.error?.message).toBe("the Scheduler 't-bad-scheduler' picked task 1 (interruptible), which is not on the run queue");
  });
});

describe("BlockDevice (plugin API 2.1)", () => {
  /** Every request completes `cycles` after make_request, however many are in flight. */
  const fixedLatency = (cycles: number, seen: { configured?: string } = {}) =>
    replacing("t-fixed-disk", "BlockDevice", () => ({
      id: "t-fixed-disk",
      submit(k, bytes, complete) {
        k.run("siglab_disk.make_request");
        k.scheduleEvent(k.cycles + cycles, "device", () => {
          k.run("siglab_disk.end_request");
          complete(bytes);
        });
      },
      configure(_k, cfg, who) {
        seen.configured = `${who}: ${JSON.stringify(cfg)}`;
        throw new Error(`${who}: the fixed-latency disk has no timing to set`);
      },
    }));

  const disk = (plugins: PluginModule[], variant: string[], requests = 1) => runWorkload({ plugins, variant, workload: { file: "disk.ts", source: DISK }, cpu: CPU, params: { requests } });

  it("a fixed-latency BlockDevice changes the measured latency by exactly what its model says", () => {
    const base = disk([], []);
    const fast = disk([fixedLatency(50_000)], ["t-fixed-disk"]);
    const slow = disk([fixedLatency(80_000)], ["t-fixed-disk"]);
    for (const r of [base, fast, slow]) {
      expect(r.error).toBeUndefined();
      expect(r.counters["irq.device"]).toBe(1);
    }
    // the baseline: 100 us = 100,000 cycles at 1 GHz, plus up to jitterUs (10 us) drawn from the
    // seed; the rest of the path is the same
    const baseOver = metric(base, "elapsed")! - metric(fast, "elapsed")!;
    expect(baseOver).toBeGreaterThanOrEqual(100_000 - 50_000);
    expect(baseOver).toBeLessThan(100_000 + 10_000 - 50_000);
    expect(metric(slow, "elapsed")! - metric(fast, "elapsed")!).toBe(30_000);
  });

  it("configureDisk reaches the bound device: the aio plugin's timing goes to configure (here refused, naming who asked)", () => {
    const seen: { configured?: string } = {};
    const r = runWorkload({ plugins: [fixedLatency(50_000, seen)], variant: ["aio", "t-fixed-disk"], workload: "aio_sigio", cpu: CPU, params: { rounds: 2 } });
    expect(seen.configured).toBe(`plugin 'aio': {"latencyUs":100,"intervalUs":0}`);
    expect(r.error?.message).toMatch(/plugin 'aio': the fixed-latency disk has no timing to set/);
  });

  it("a variant that delegates to k.baseline.blockDevice runs exactly as the baseline device, with the aio plugin's timing", () => {
    const delegating = replacing("t-delegating-disk", "BlockDevice", () => ({
      id: "t-delegating-disk",
      submit: (k, bytes, complete) => k.baseline.blockDevice!.submit(k, bytes, complete),
      configure: (k, cfg, who) => k.baseline.blockDevice!.configure(k, cfg, who),
    }));
    const params = { rounds: 4, batch: 4 };
    const base = runWorkload({ variant: "aio:deviceLatencyUs=40,deviceIntervalUs=10", workload: "aio_sigio", cpu: CPU, params });
    const mine = runWorkload({ plugins: [delegating], variant: ["aio:deviceLatencyUs=40,deviceIntervalUs=10", "t-delegating-disk"], workload: "aio_sigio", cpu: CPU, params });
    expect(base.error).toBeUndefined();
    expect(JSON.stringify({ ...mine, variants: [] })).toBe(JSON.stringify({ ...base, variants: [] }));
  });

  it("a device that completes a request twice ends the run with an error naming it", () => {
    const twice = replacing("t-twice-disk", "BlockDevice", () => ({
      id: "t-twice-disk",
      submit(k, bytes, complete) {
        k.scheduleEvent(k.cycles + 1000, "device", () => {
          complete(bytes);
          complete(bytes);
        });
      },
      configure() {},
    }));
    const r = disk([twice], ["t-twice-disk"]);
    expect(r.error?.message).toBe("the BlockDevice 't-twice-disk' completed a request twice");
  });
});

describe("manifests and versions", () => {
  const rrModule = roundRobin.createModule;

  it("rebinding the Scheduler without listing it in \"replaces\" is refused, naming the plugin and the point", () => {
    const sneaky: PluginModule = { manifest: manifest("t-sneaky", { contributes: ["Scheduler"] }), createModule: rrModule };
    const r = runWorkload({ plugins: [sneaky], variant: "t-sneaky", workload: "lat_syscall", params: { iterations: 10 } });
    expect(r.error?.message).toBe(`plugin 't-sneaky' rebinds Scheduler but its manifest does not list it in "replaces"`);
  });

  it("binding (adding to) a single-valued point is refused: the BlockDevice must be rebound", () => {
    const adding: PluginModule = {
      manifest: manifest("t-adding", { contributes: ["BlockDevice"], replaces: ["BlockDevice"] }),
      createModule: () => new ContainerModule(({ bind }) => void bind(TOKENS.BlockDevice).toConstantValue({ id: "x", submit() {}, configure() {} })),
    };
    const r = runWorkload({ plugins: [adding], variant: "t-adding", workload: "lat_syscall", params: { iterations: 10 } });
    expect(r.error?.message).toBe(`plugin 't-adding' binds the single-valued point BlockDevice: rebind it and list it in "replaces"`);
  });

  it("two plugins replacing the Scheduler conflict", () => {
    const other = { ...roundRobin, manifest: { ...roundRobin.manifest as PluginManifest, id: "t-other-rr" } };
    const r = runWorkload({ plugins: [roundRobin, other], variant: ["t-round-robin", "t-other-rr"], workload: "lat_syscall", params: { iterations: 10 } });
    expect(r.error?.message).toBe("plugins 't-round-robin' and 't-other-rr' conflict: both replace the Scheduler extension point");
  });

  it("a plugin of API 2.0 still loads and runs (next to built-in 2.0 plugins)", () => {
    const old: PluginModule = {
      manifest: manifest("t-api-2-0", { apiVersion: "2.0", contributes: ["KernelSetupContribution"] }),
      createModule: () => new ContainerModule(({ bind }) => void bind(TOKENS.KernelSetupContribution).toConstantValue({ setup: (k) => k.files.configureDisk({ latencyUs: 10 }, "plugin 't-api-2-0'") })),
    };
    const r = runWorkload({ plugins: [old], variant: ["t-api-2-0", "sysenter"], workload: { file: "disk.ts", source: DISK }, cpu: "p4-northwood@2200" });
    expect(r.error).toBeUndefined();
    // its setup still sets the baseline device's timing: 10 us at 2200 MHz
    const base = runWorkload({ variant: "sysenter", workload: { file: "disk.ts", source: DISK }, cpu: "p4-northwood@2200" });
    expect(metric(base, "elapsed")! - metric(r, "elapsed")!).toBe(90 * 2200);
  });

  it("a plugin of API 2.0 cannot name a 2.1 extension point", () => {
    const mislabelled: PluginModule = { ...roundRobin, manifest: { ...(roundRobin.manifest as PluginManifest), apiVersion: "2.0" } };
    const r = runWorkload({ plugins: [mislabelled], variant: "t-round-robin", workload: "lat_syscall" });
    expect(r.error?.kind).toBe("plugin");
    expect(r.error?.message).toContain(`harness plugin 1/plugin.json: Scheduler is an extension point of plugin API 2.1, but "apiVersion" is "2.0" (raise it to "2.1")`);
  });
});
