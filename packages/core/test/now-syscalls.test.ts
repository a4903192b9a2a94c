/**
 * The generator-free system calls thread libraries use on every switch (RuntimeThread.
 * sigprocmaskSetNow / gettimeofdayNow and their Rest): a library that uses them must simulate
 * exactly what one using the generator forms does — when the call finishes synchronously, when
 * an interrupt is due before it or on its return, and when its exit finds work (a signal the
 * new mask unblocks runs its handler from inside the Rest).
 */
import { describe, expect, it } from "vitest";
import { ContainerModule, Sigset, TOKENS, type Gen, type PluginModule, type ThreadBody, type ThreadLibrary } from "@siglab/plugin-api";
import type { FastRuntimeThread as RuntimeThread } from "@siglab/plugin-api/internal";
import { runSource } from "./harness.js";

/** A 1:1 library (LinuxThreads' calls) whose pthread_sigmask also stamps the time, as NGPT's switch does. */
class StampingThreads implements ThreadLibrary {
  readonly id = "stamping";
  constructor(private readonly now: boolean) {}
  *create(t: RuntimeThread, body: ThreadBody): Gen<{ tid: number }> {
    return { tid: yield* t.clone(body) };
  }
  *join(t: RuntimeThread, h: { tid: number }): Gen<number> {
    return yield* t.waitFor(h.tid);
  }
  *yield(t: RuntimeThread): Gen<void> {
    yield* t.sched_yield();
  }
  read(t: RuntimeThread, fd: number, bytes: number): Gen<number> {
    return t.read(fd, bytes);
  }
  write(t: RuntimeThread, fd: number, bytes: number): Gen<number> {
    return t.write(fd, bytes);
  }
  *sigmask(t: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]> {
    const k = t.kernel;
    let tv: { sec: number; usec: number } | undefined;
    let old: Sigset | number | undefined;
    if (this.now) {
      tv = t.gettimeofdayNow!();
      if (tv === undefined) {
        k.count("test.gettimeofday.rest");
        tv = yield* t.gettimeofdayRest!();
      }
      old = t.sigprocmaskSetNow!(how, Sigset.of(set));
      if (old === undefined) {
        k.count("test.sigprocmask.rest");
        old = yield* t.sigprocmaskSetRest!(how, Sigset.of(set));
      }
    } else {
      tv = yield* t.gettimeofday();
      old = yield* t.sigprocmaskSet(how, Sigset.of(set));
    }
    k.count("test.usec", tv.usec);
    return typeof old === "number" ? [old] : old.toList();
  }
  self(t: RuntimeThread): number {
    return t.tid;
  }
}

function plugin(now: boolean): PluginModule {
  return {
    manifest: { id: "stamping", version: "1.0.0", apiVersion: "2.2", displayName: "test", description: "test", options: {}, contributes: ["ThreadLibrary"], replaces: ["ThreadLibrary"] },
    createModule: () =>
      new ContainerModule(({ rebind }) => {
        rebind(TOKENS.ThreadLibrary).toConstantValue(new StampingThreads(now));
      }),
  } as PluginModule;
}

// blocks SIGUSR1, sends it, unblocks it (the unblocking call's exit delivers it); compute in
// between so that timer ticks land before, inside and after the calls over the run
const WORKLOAD = `
import { workload, SIGUSR1, SIG_BLOCK, SIG_UNBLOCK } from "siglab";
export default workload({
  name: "now", description: "", params: { rounds: 3000 }, hz: 10000,
  *main(t, { rounds }) {
    let hits = 0, olds = 0;
    yield* t.sigaction(SIGUSR1, function* (h) { hits++; yield* h.compute(50); });
    for (let i = 0; i < rounds; i++) {
      olds += (yield* t.pthread.sigmask(SIG_BLOCK, [SIGUSR1])).length;
      yield* t.kill(t.pid, SIGUSR1);
      olds += (yield* t.pthread.sigmask(SIG_UNBLOCK, [SIGUSR1])).length;
      yield* t.compute(137 + (i % 13) * 997);
    }
    t.report("hits", hits, "");
    t.report("old masks", olds, "");
  },
});`;

describe("RuntimeThread's generator-free system calls (…Now / …Rest)", () => {
  for (const [exactPaths, smp] of [[false, 1], [true, 1], [false, 2]] as const) {
    it(`simulate exactly what the generator forms do${exactPaths ? " (every path op by op)" : ""}${smp > 1 ? " (two CPUs)" : ""}`, () => {
      const run = (now: boolean) => runSource(WORKLOAD, { plugins: [plugin(now)], variants: [{ id: "stamping" }], timeline: true, exactPaths, smp });
      const gen = run(false), now = run(true);
      expect(gen.error).toBeUndefined();
      expect(now.error).toBeUndefined();
      const hits = gen.metrics.find((m) => m.name === "hits")!.value;
      expect(hits).toBe(3000);
      // both Rest paths ran: after an interrupt due, and after exit work (the unblocked signal)
      expect(now.counters["test.sigprocmask.rest"]).toBeGreaterThan(3000);
      expect(now.counters["test.gettimeofday.rest"]).toBeGreaterThan(0);
      const strip = (r: typeof gen) => ({ ...r, counters: Object.fromEntries(Object.entries(r.counters).filter(([k]) => !k.endsWith(".rest"))), hostMs: 0 });
      expect(strip(now)).toEqual(strip(gen));
    });
  }
});

/** A library that finishes a stopped gettimeofdayNow with sigprocmaskSetRest (misuse). */
class MixedUpRest extends StampingThreads {
  override *sigmask(t: RuntimeThread, how: 0 | 1 | 2, set: number[]): Gen<number[]> {
    if (t.gettimeofdayNow!() === undefined) yield* t.sigprocmaskSetRest!(how, Sigset.of(set));
    return [];
  }
}

describe("a …Rest that is not its …Now's", () => {
  it("is a plugin error naming both calls (it would hand one call's result to another)", () => {
    const p = plugin(true);
    const mixed: PluginModule = { ...p, createModule: () => new ContainerModule(({ rebind }) => void rebind(TOKENS.ThreadLibrary).toConstantValue(new MixedUpRest(true))) } as PluginModule;
    const r = runSource(WORKLOAD, { plugins: [mixed], variants: [{ id: "stamping" }] });
    expect(r.error?.kind).toBe("plugin");
    expect(r.error?.message).toMatch(/the Rest of system call 175 was called to finish system call 78/);
  });
});
