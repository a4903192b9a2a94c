/**
 * NGPT's switch without generators (mctxSteps / the scheduler hooks' returnedNow and enterNow):
 * with timer ticks landing inside every step of the switch (HZ=10000) and signals arriving during
 * it, a run must be identical to the same run through the hooks' generator forms only.
 */
import { describe, expect, it } from "vitest";
import { ContainerModule, TOKENS, type PluginModule, type UThreadHooks } from "@siglab/plugin-api";
import { runSource } from "../../../core/test/harness.js";
import ngpt, { NgptLibrary } from "../src/index.js";

/** NGPT whose scheduler hooks have only their generator forms (the runtime then never calls a Now form). */
function generatorHooksNgpt(): NgptLibrary {
  const lib = new NgptLibrary({ hpTiming: false, switchMask: true });
  const own = lib as unknown as { hooks(): UThreadHooks };
  const hooks = own.hooks.bind(lib);
  own.hooks = () => {
    const h = hooks();
    return { returned: h.returned, idle: h.idle, enter: h.enter };
  };
  return lib;
}

/** ngpt (its paths and everything) with the library swapped for GeneratorHooksNgpt */
const generatorHooks: PluginModule = {
  manifest: { ...ngpt.manifest, id: "ngpt-generator-hooks" },
  createModule: (options, api) =>
    new ContainerModule((o) => {
      void (ngpt.createModule(options, api) as unknown as { load(o: unknown): unknown }).load(o);
      o.rebind(TOKENS.ThreadLibrary).toConstantValue(generatorHooksNgpt());
    }),
} as PluginModule;

const SOURCE = `
import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "yields under ticks", params: { threads: 4, yields: 1500 }, hz: 10000,
  *main(t, { threads, yields }) {
    let hits = 0;
    yield* t.sigaction(SIGUSR1, function* (h) { hits++; });
    const hs = [];
    for (let i = 0; i < threads; i++) hs.push(yield* t.pthread.create(function* (th) {
      for (let j = 0; j < yields; j++) {
        yield* th.pthread.yield();
        if (j % 97 === 0) yield* th.kill(th.pid, SIGUSR1);
        yield* th.compute(37 + (j % 13) * 41);
      }
    }));
    for (const h of hs) yield* t.pthread.join(h);
    t.report("hits", hits, "");
  },
});`;

describe("ngpt: the switch without generators", () => {
  for (const [exactPaths, smp] of [[false, 1], [true, 1], [false, 2]] as const) {
    it(`gives the generator forms' run exactly, ticks and signals landing inside the switch${exactPaths ? " (every path op by op)" : ""}${smp > 1 ? " (two CPUs: the other's clock stops user mode often)" : ""}`, () => {
      const now = runSource(SOURCE, { plugins: [ngpt], variants: [{ id: "ngpt" }], timeline: true, exactPaths, smp });
      expect(now.error).toBeUndefined();
      expect(now.counters["irq.timer"] ?? 0).toBeGreaterThan(200);
      const S = now.counters["ngpt.switches"]!;
      expect(S).toBeGreaterThanOrEqual(4 * 1500);
      const gen = runSource(SOURCE, { plugins: [generatorHooks], variants: [{ id: "ngpt-generator-hooks" }], timeline: true, exactPaths, smp });
      expect(gen.error?.message).toBeUndefined();
      // the same run but for the stack's name
      expect({ ...now, variants: [] }).toEqual({ ...gen, variants: [] });
    });
  }
});
