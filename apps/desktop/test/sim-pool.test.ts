/**
 * Issue 12 in the app: SimClient runs an experiment's runs on a pool of supervisors (up to K
 * sandbox workers at once, like the CLI's --jobs) and still reports results in run order, the same
 * as one run at a time. Sandbox workers are faked here (a SandboxWorkerFactory whose "workers"
 * answer after a delay chosen per run, crash, or never answer), behind the real Supervisor, so
 * budgets and worker replacement are core's own; the app's Web Workers run in the e2e test
 * (e2e/pool.e2e.test.ts).
 */
import { describe, expect, it } from "vitest";
import type { FromSandbox, ToSandbox, SandboxWorkerFactory } from "@siglab/core/host";
import type { ExperimentConfig, RunResult, RunSpec } from "../src/common/contracts.js";
import { defaultPoolSize, MAX_POOL, parsePoolSetting, RunCancelled, SimClient } from "../src/renderer/sim-client.js";
import { runRepeated } from "../src/renderer/results/repeat.js";

/** What a fake worker does with a run: answer after `ms`, die after `ms`, or never answer. */
type Behaviour = { ms: number; crash?: string; hang?: boolean };

interface Fake {
  factory: SandboxWorkerFactory;
  /** workers made so far */
  made: number;
  /** workers neither terminated nor dead */
  alive(): number;
  /** most runs in flight at once, over all workers */
  maxInFlight: number;
  /** run keys ("x=3 seed=1") in the order they finished */
  finished: string[];
  /** the third-party plugin ids each run request carried */
  pluginsSeen: string[];
}

const key = (spec: RunSpec): string => `x=${String(spec.params["x"])} seed=${spec.seed}`;

/** A result computed from the spec alone (the simulator is deterministic per spec). */
function resultOf(spec: RunSpec): RunResult {
  const x = Number(spec.params["x"]);
  const v = x * 100 + spec.seed;
  return {
    workload: spec.workload.id,
    cpu: { ...spec.cpu },
    variants: spec.variants,
    params: { ...spec.params },
    seed: spec.seed,
    metrics: [{ name: "lat", value: v, unit: "cycles", samples: [v, v + 1] }],
    phases: { "syscall.entry": v },
    counters: { syscalls: x },
    findings: [],
    totalCycles: v * 10,
    simSeconds: v / 1e9,
    paths: [{ name: "do_syscall_64", phase: "syscall.entry", origin: "linux", count: x, cycles: v, ops: [] }],
  };
}

function fakeHost(behave: (spec: RunSpec) => Behaviour): Fake {
  const workers = new Set<object>();
  let inFlight = 0;
  const fake: Fake = {
    made: 0,
    maxInFlight: 0,
    finished: [],
    pluginsSeen: [],
    alive: () => workers.size,
    factory: (events) => {
      fake.made++;
      const me = {};
      workers.add(me);
      let timer: ReturnType<typeof setTimeout> | undefined;
      let busy = false;
      const end = (): void => {
        if (busy) inFlight--;
        busy = false;
      };
      setTimeout(() => workers.has(me) && events.message({ type: "ready" }), 1);
      return {
        post(m: ToSandbox) {
          if (m.type !== "run") {
            setTimeout(() => workers.has(me) && events.message({ type: "inspected", id: m.id, ok: true, info: { name: "fake", params: { x: 1 } } }), 1);
            return;
          }
          fake.pluginsSeen.push(m.plugins.map((x) => x.id).join(","));
          busy = true;
          inFlight++;
          fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
          const b = behave(m.spec);
          events.message({ type: "phase", id: m.id, phase: "evaluate" });
          events.message({ type: "phase", id: m.id, phase: "simulate" });
          events.message({ type: "progress", id: m.id, progress: { fraction: 0.5, cycles: 10, steps: 1 } });
          if (b.hang) return;
          timer = setTimeout(() => {
            if (!workers.has(me)) return;
            end();
            fake.finished.push(key(m.spec));
            if (b.crash) {
              workers.delete(me);
              events.died(b.crash, "internal");
              return;
            }
            events.message({ type: "result", id: m.id, result: resultOf(m.spec) } satisfies FromSandbox);
          }, b.ms);
        },
        terminate() {
          clearTimeout(timer);
          end();
          workers.delete(me);
        },
      };
    },
  };
  return fake;
}

function sweep(values: number[], extra: Partial<ExperimentConfig> = {}): ExperimentConfig {
  return {
    workload: { id: "fake", file: "workloads/fake.ts", source: "export default 1" },
    cpus: [{ id: "p4-northwood", mhz: 2200 }],
    stacks: [[]],
    params: { x: 0 },
    sweep: { param: "x", values },
    seed: 1,
    ...extra,
  };
}

/** Runs `config` on a SimClient over `fake` with a pool of `pool`; what onResult saw and the returned results. */
async function runWith(fake: Fake, pool: number, config: ExperimentConfig, opts: { repeat?: number; runMs?: number } = {}) {
  const client = new SimClient({ factory: fake.factory, transpile: async (s) => s, poolSize: pool, ...(opts.runMs ? { limits: { runMs: opts.runMs } } : {}) });
  const streamed: { index: number; result: RunResult }[] = [];
  const progress: { done: number; running: number; overall: number }[] = [];
  const results = await client.run(config, [], [], {
    onProgress: ({ done, running, overall }) => progress.push({ done, running, overall }),
    onResult: ({ index, result }) => streamed.push({ index, result }),
  }, opts.repeat ? { repeat: opts.repeat } : {});
  return { client, streamed, progress, results };
}

/** Later runs finish first: run i takes (n - i) × 15 ms. */
const slowFirst = (n: number) => (spec: RunSpec): Behaviour => ({ ms: (n + 1 - Number(spec.params["x"])) * 15 });

describe("the app's pool of sandbox workers (SimClient)", () => {
  it("with a pool of 3 and runs finishing out of order, reports results in run order, equal to one run at a time", async () => {
    const values = [1, 2, 3, 4, 5, 6, 7];
    const seq = fakeHost(slowFirst(values.length));
    const one = await runWith(seq, 1, sweep(values));
    const par = fakeHost(slowFirst(values.length));
    const three = await runWith(par, 3, sweep(values));

    expect(seq.maxInFlight).toBe(1);
    expect(par.maxInFlight).toBe(3);
    expect(three.client.lastPoolSize).toBe(3);
    // they really finished out of order (run 2 before run 1, ...)
    expect(par.finished).not.toEqual(values.map((x) => `x=${x} seed=1`));
    expect(par.finished.indexOf("x=2 seed=1")).toBeLessThan(par.finished.indexOf("x=1 seed=1"));
    // onResult in run order, each once
    expect(three.streamed.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(three.streamed.map((s) => s.result.params["x"])).toEqual(values);
    // the same results, streamed and returned, as with one run at a time
    expect(three.results).toEqual(one.results);
    expect(three.streamed.map((s) => s.result)).toEqual(one.streamed.map((s) => s.result));
    expect(JSON.stringify(three.results)).toBe(JSON.stringify(one.results));
    // three sandbox workers at most, reused for the later runs
    expect(par.made).toBe(3);
  });

  it("aggregates progress over the runs in flight: never more than the pool running, overall in 0..1 and never going back", async () => {
    const fake = fakeHost(slowFirst(6));
    const { progress } = await runWith(fake, 3, sweep([1, 2, 3, 4, 5, 6]));
    expect(progress.length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...progress.map((p) => p.running))).toBe(3);
    for (const [i, p] of progress.entries()) {
      expect(p.overall).toBeGreaterThanOrEqual(0);
      expect(p.overall).toBeLessThanOrEqual(1);
      if (i) expect(p.overall).toBeGreaterThanOrEqual(progress[i - 1]!.overall);
    }
    expect(progress.at(-1)!.done).toBeGreaterThanOrEqual(3);
  });

  it("one run over its budget and one that crashes fail alone, with the errors of one run at a time; their workers are replaced", async () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // run 1 never answers (the supervisor stops it after its 100 ms budget), run 2's worker dies
    // at once; the others take 40 ms each, so both lanes get a later run after their failure
    const behave = (spec: RunSpec): Behaviour => {
      const x = Number(spec.params["x"]);
      if (x === 1) return { ms: 0, hang: true };
      if (x === 2) return { ms: 5, crash: "the sandbox stopped: out of memory" };
      return { ms: 40 };
    };
    const seq = fakeHost(behave);
    const one = await runWith(seq, 1, sweep(values), { runMs: 100 });
    const par = fakeHost(behave);
    const three = await runWith(par, 3, sweep(values), { runMs: 100 });

    expect(three.streamed.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const errors = three.results.map((r) => r.error);
    expect(errors[0]).toMatchObject({ kind: "budget", message: "workloads/fake.ts: stopped after 100 ms of host time (the run's budget; --max-seconds)" });
    expect(errors[1]).toMatchObject({ kind: "internal", message: "workloads/fake.ts: the sandbox stopped: out of memory" });
    for (let i = 2; i < values.length; i++) {
      expect(errors[i], `run ${i}`).toBeUndefined();
      expect(three.results[i]!.metrics[0]!.value).toBe(values[i]! * 100 + 1);
    }
    expect(three.results).toEqual(one.results);
    expect(par.maxInFlight).toBe(3);
    // the terminated and the dead worker were replaced by fresh ones for their lanes' next runs
    expect(par.made).toBe(5);
    expect(par.alive()).toBe(3);
  });

  it("repetitions run in the pool too: each configuration summarised over its seeds, as with one at a time", async () => {
    const behave = (spec: RunSpec): Behaviour => ({ ms: ((spec.seed * 7 + Number(spec.params["x"]) * 3) % 5) * 8 });
    const one = await runWith(fakeHost(behave), 1, sweep([1, 2, 3]), { repeat: 4 });
    const par = fakeHost(behave);
    const three = await runWith(par, 3, sweep([1, 2, 3]), { repeat: 4 });
    expect(par.maxInFlight).toBe(3);
    expect(three.streamed.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(three.results).toEqual(one.results);
    expect((three.results[1] as unknown as { repeat: { seeds: number[]; values: Record<string, number[]> } }).repeat).toMatchObject({ seeds: [1, 2, 3, 4], values: { lat: [201, 202, 203, 204] } });
  });

  it("Cancel terminates every worker of the pool and rejects with RunCancelled; the next run starts fresh workers", async () => {
    const fake = fakeHost(() => ({ ms: 10_000 }));
    const client = new SimClient({ factory: fake.factory, transpile: async (s) => s, poolSize: 3 });
    const streamed: number[] = [];
    const p = client.run(sweep([1, 2, 3, 4, 5]), [], [], { onProgress: () => undefined, onResult: ({ index }) => streamed.push(index) });
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.alive()).toBe(3);
    expect(client.busy).toBe(true);
    client.cancel();
    await expect(p).rejects.toBeInstanceOf(RunCancelled);
    expect(fake.alive()).toBe(0);
    expect(fake.made).toBe(3);
    expect(streamed).toEqual([]);
    expect(client.busy).toBe(false);
    const quick = fakeHost(() => ({ ms: 1 }));
    const again = new SimClient({ factory: quick.factory, transpile: async (s) => s, poolSize: 3 });
    expect((await again.run(sweep([1, 2]), [], [], { onProgress: () => undefined, onResult: () => undefined })).map((r) => r.error)).toEqual([undefined, undefined]);
  });

  it("a Cancel between two runs of a lane starts nothing more (no new supervisor, no new worker)", async () => {
    const fake = fakeHost((spec) => ({ ms: Number(spec.params["x"]) === 1 ? 1 : 10_000 }));
    const client = new SimClient({ factory: fake.factory, transpile: async (s) => s, poolSize: 2 });
    const streamed: number[] = [];
    // the first result arrives while run 2 is in flight; Cancel from its handler, before its lane goes on
    const p = client.run(sweep([1, 2, 3, 4]), [], [], { onProgress: () => undefined, onResult: ({ index }) => (streamed.push(index), client.cancel()) });
    await expect(p).rejects.toBeInstanceOf(RunCancelled);
    expect(streamed).toEqual([0]);
    expect(fake.made).toBe(2);
    expect(fake.alive()).toBe(0);
  });

  it("third-party plugins go with every run, each run in a fresh worker of its own as with one at a time", async () => {
    const fake = fakeHost(() => ({ ms: 5 }));
    const client = new SimClient({ factory: fake.factory, transpile: async (s) => s, instrument: async (js) => js, poolSize: 2 });
    const plugin = { id: "getpid-cache", manifest: {}, origin: "plugins/getpid-cache", main: "index.js", files: { "index.js": "module.exports = {}" } };
    const results = await client.run(sweep([1, 2, 3, 4, 5], { stacks: [[{ id: "getpid-cache" }]] }), [], [plugin], { onProgress: () => undefined, onResult: () => undefined });
    expect(results.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(fake.pluginsSeen).toEqual(Array(5).fill("getpid-cache"));
    expect(fake.made).toBe(5);
    expect(fake.maxInFlight).toBe(2);
    expect(fake.alive()).toBe(0);
  });

  it("uses no more workers than runs, and one worker for one run", async () => {
    const fake = fakeHost(() => ({ ms: 1 }));
    const r = await runWith(fake, 8, sweep([1, 2]));
    expect(r.client.lastPoolSize).toBe(2);
    expect(fake.made).toBe(2);
    const single = fakeHost(() => ({ ms: 1 }));
    await runWith(single, 8, sweep([1]));
    expect(single.made).toBe(1);
  });
});

describe("the pool's size", () => {
  it("defaults to the machine's cores, 1..8", () => {
    expect(MAX_POOL).toBe(8);
    expect(defaultPoolSize(2)).toBe(2);
    expect(defaultPoolSize(64)).toBe(8);
    expect(defaultPoolSize(0)).toBe(1);
    expect(defaultPoolSize(undefined)).toBe(1);
    expect(defaultPoolSize(Number.NaN)).toBe(1);
  });

  it("the siglab.sweep-workers setting forces it (1 = one run at a time); anything else is refused by name", () => {
    expect(parsePoolSetting(null)).toBeNull();
    expect(parsePoolSetting("")).toBeNull();
    expect(parsePoolSetting("1")).toBe(1);
    expect(parsePoolSetting(" 8 ")).toBe(8);
    for (const bad of ["0", "9", "2.5", "two", "-1"]) expect(() => parsePoolSetting(bad), bad).toThrow(/local storage "siglab\.sweep-workers": expected the number of runs to run at a time, a whole number from 1 to 8, got/);
  });
});

describe("runRepeated with several lanes", () => {
  it("a rejected run stops new runs from starting and rejects once the runs in flight are done", async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const p = runRepeated([1, 2, 3, 4, 5, 6].map((x) => ({ seed: 1, x })), 1, async (spec, i) => {
      started.push(i);
      await new Promise((r) => setTimeout(r, spec.x === 2 ? 5 : 30));
      ended.push(i);
      if (spec.x === 2) throw new Error("internal");
      return resultOf({ workload: { id: "w", file: "w.ts", source: "" }, cpu: { id: "c", mhz: 1 }, variants: [], params: { x: spec.x }, seed: 1 });
    }, () => undefined, { jobs: 3 });
    await expect(p).rejects.toThrow("internal");
    expect(started).toEqual([0, 1, 2]);
    expect(ended.sort()).toEqual([0, 1, 2]);
  });

  it("an onResult that throws (rendering) also waits for the runs in flight before rejecting", async () => {
    const ended: number[] = [];
    const p = runRepeated([1, 2, 3].map((x) => ({ seed: 1, x })), 1, async (spec, i) => {
      await new Promise((r) => setTimeout(r, spec.x === 1 ? 5 : 30));
      ended.push(i);
      return resultOf({ workload: { id: "w", file: "w.ts", source: "" }, cpu: { id: "c", mhz: 1 }, variants: [], params: { x: spec.x }, seed: 1 });
    }, () => {
      throw new Error("render failed");
    }, { jobs: 3 });
    await expect(p).rejects.toThrow("render failed");
    expect(ended.sort()).toEqual([0, 1, 2]); // not rejected while runs 1 and 2 were still running
  });
});
