/**
 * The attack corpus (corpus.ts) against the real Node execution host (createNodeHost, as the CLI
 * uses it): every quick case in one shared host, each polluting case in a fresh host followed by
 * a clean reference run that must be byte-identical to the same run in a fresh host; determinism;
 * seeds outside uint32. Runaways and memory bombs are in node-host-budgets.test.ts.
 */
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeExecutionHost } from "../packages/builtin-plugins/src/host/node.js";
import { transpileWorkload } from "../apps/cli/src/run/compile.js";
import { CORPUS, PRELUDE, REFERENCE_WORKLOAD } from "./corpus.js";
import { closeAllHosts, closeHost, differences, exampleSource, freshReference, newHost, REFERENCE_SPEC, run, runCase, specOf } from "./harness.js";

/** quick cases that leave nothing behind: they share one host */
const QUICK = CORPUS.filter((c) => !c.slow && !c.crossRun && c.group !== "memory");
/** cases that try to change later runs: each gets a fresh host and a reference run after it */
const POLLUTERS = CORPUS.filter((c) => c.crossRun);

let shared: NodeExecutionHost;
let reference: string;

beforeAll(async () => {
  shared = newHost();
  reference = await freshReference();
});

afterAll(() => closeAllHosts());

describe.sequential("attack corpus: quick cases (one shared host)", () => {
  it.each(QUICK.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    const problems = await runCase(shared, c);
    expect(problems.join("\n"), `${c.id}: ${c.title}`).toBe("");
  });

  it("the reference run after the whole corpus is byte-identical to a fresh host's", async () => {
    const { json } = await run(shared, REFERENCE_SPEC);
    expect(differences(json, reference, "the reference")).toEqual([]);
  });
});

describe.sequential("cross-run pollution: polluter, then a clean run in the same host", () => {
  it.each(POLLUTERS.map((c) => [c.id, c] as const))("%s leaves later runs untouched", async (_id, c) => {
    const h = newHost();
    try {
      const problems = await runCase(h, c);
      const { json } = await run(h, REFERENCE_SPEC);
      // the case's own expectation, and the next run exactly as in a fresh host
      expect([...problems, ...differences(json, reference, "the next run (reference)")].join("\n"), `${c.id}: ${c.title}`).toBe("");
    } finally {
      closeHost(h);
    }
  });
});

describe.sequential("determinism and seeds", () => {
  it("the same spec twice gives byte-identical JSON (reference and lat_sig_catch)", async () => {
    const a = await run(shared, REFERENCE_SPEC);
    const b = await run(shared, REFERENCE_SPEC);
    expect(a.r.error).toBeUndefined();
    expect(differences(b.json, a.json, "the second run")).toEqual([]);
    const sig = specOf("lat_sig_catch", exampleSource("lat_sig_catch"), { params: { iterations: 300 }, seed: 42, timeline: true });
    const c = await run(shared, sig);
    const d = await run(shared, sig);
    expect(c.r.error).toBeUndefined();
    expect(c.r.totalCycles).toBeGreaterThan(0);
    expect(differences(d.json, c.json, "the second run")).toEqual([]);
  });

  it.each([-1, 2 ** 32, 1.5, 1e300, Number.NaN, -0.5])("seed %s is refused with a clear error", async (seed) => {
    const { r } = await run(shared, specOf("reference", REFERENCE_WORKLOAD, { seed }));
    expect(r.error?.message).toMatch(/seed must be an unsigned 32-bit integer/);
    expect(r.metrics).toEqual([]);
    expect(r.totalCycles).toBe(0);
  });

  it("seeds 0 and 2**32-1 are accepted", async () => {
    for (const seed of [0, 2 ** 32 - 1]) {
      const { r } = await run(shared, specOf("reference", REFERENCE_WORKLOAD, { seed }));
      expect(r.error).toBeUndefined();
    }
  });
});

describe("the corpus's detectors", () => {
  // ctorBlocked/isHost must see a real escape, or every "blocked" metric above would be vacuous:
  // evaluate the prelude in a separate V8 context and hand it an object of THIS realm.
  it("ctorBlocked reports 0 for an object whose constructor chain reaches a realm with process", () => {
    const js = transpileWorkload(`${PRELUDE}\nmodule.exports = { ctorBlocked, isHost, blocked };\n`, "prelude.ts");
    const ctx = vm.createContext({});
    const mod = { exports: {} as { ctorBlocked(x: unknown): number; isHost(x: unknown): boolean } };
    new vm.Script(`(function (module, exports) {${js}\n})`).runInContext(ctx)(mod, mod.exports);
    expect(mod.exports.ctorBlocked({})).toBe(0); // {} of the test realm: Function -> this realm's globalThis
    expect(mod.exports.ctorBlocked(vm.runInContext("({})", ctx))).toBe(1); // the context's own objects
    expect(mod.exports.isHost(globalThis)).toBe(true);
  });
});
