/**
 * The allocation meter's instrumentation (src/worker/meter-transform.ts): instrumented code
 * computes exactly what the plain code computes (the meter returns its argument), allocations are
 * counted by size, destructuring patterns and optional chains keep their meaning, and source that
 * names the meter is refused.
 */
import { describe, expect, it } from "vitest";
import { createAllocationMeter } from "../src/worker/meter-runtime.js";
import { instrumentJavaScript } from "../src/worker/meter-transform.js";
import { CompileError, transpileToCommonJs } from "../src/worker/transpile.js";

/** Runs a CommonJS module's `result()` export (trusted test code), with `meter` as the meter global. */
function runModule(js: string, meter: (v: unknown, bytes?: number) => unknown): unknown {
  const module = { exports: {} as Record<string, unknown> };
  new Function("require", "module", "exports", "__siglab_meter", js)(() => ({}), module, module.exports, meter);
  return (module.exports["result"] as () => unknown)();
}

const TRICKY = `
class Base { constructor(public n: number) {} twice() { return [this.n, this.n]; } }
class Derived extends Base { constructor() { super(3); } twice() { return super.twice().map((x) => x * 2); } }
function* gen(n: number) { for (let i = 0; i < n; i++) yield { i, sq: i * i }; }
const tag = (s: TemplateStringsArray, ...v: unknown[]) => s.raw.join("|") + v.length;
export function result() {
  let a = 0, b = 0, rest: number[] = [];
  [a, b, ...rest] = [1, 2, 3, 4];
  let k = "", v = 0;
  ({ k, v } = { k: "key", v: 5 });
  const pairs: string[] = [];
  for (const [x, y] of Object.entries({ p: 1, q: 2 })) pairs.push(x + y);
  for ({ k } of [{ k: "last" }]) pairs.push(k);
  const o: any = { deep: { f: () => [7] } };
  const chained = [o.deep?.f()?.[0], o.none?.f().g(), o?.deep.f().length];
  let s = "s";
  s += "t" + a;
  const gens = [...gen(3)].map(({ sq }) => sq);
  const m = new Map<string, number>([["x", 1]]).set("y", 2);
  return { a, b, rest, k, v, pairs, chained, s, gens, sized: [...m.entries()], derived: new Derived().twice(), tagged: tag\`x\${a}y\${b}z\`, big: new Array(1000).fill(0).length };
}
`;

describe("the allocation meter's instrumentation", () => {
  it("computes what the plain code computes, for destructuring, optional chains, super, generators, tagged templates", () => {
    const plain = runModule(transpileToCommonJs(TRICKY, "t.ts"), (v) => v);
    let calls = 0;
    const metered = transpileToCommonJs(TRICKY, "t.ts", { meter: true });
    expect(metered).toContain("__siglab_meter(");
    expect(runModule(metered, (v) => (calls++, v))).toEqual(plain);
    expect(calls).toBeGreaterThan(30);
  });

  it("counts an allocation by its size, and a growing array or Map by its growth", () => {
    const meter = createAllocationMeter(1, () => undefined);
    const js = transpileToCommonJs(`export function result() { const a: number[] = new Array(100_000).fill(1); const m = new Map(); for (let i = 0; i < 1000; i++) m.set(i, i); return a.length + m.size; }`, "c.ts", { meter: true });
    expect(runModule(js, meter.meter)).toBe(101_000);
    // 800 kB of array slots, 1000 Map entries and the calls' own cost: under the 1 MiB budget
    expect(meter.allocated).toBeGreaterThan(800_000 + 48 * 1000);
    expect(meter.allocated).toBeLessThan(1_048_576);
  });

  it("stops at its budget, says so once, and throws on every later call (the renderer terminates the worker meanwhile)", () => {
    const said: unknown[] = [];
    const meter = createAllocationMeter(1, (m) => said.push(m));
    const js = transpileToCommonJs(`export function result() { const keep: string[] = []; for (;;) keep.push("x".repeat(100_000)); }`, "b.ts", { meter: true });
    expect(() => runModule(js, meter.meter)).toThrow(/memory budget exceeded: the workload's code allocated about 1 MiB/);
    expect(said).toEqual([{ type: "siglab-allocation-budget", allocatedMb: 1, limitMb: 1 }]);
    expect(() => meter.meter([])).toThrow(/memory budget exceeded/);
    expect(said).toHaveLength(1);
    meter.reset();
    expect(meter.meter("fine")).toBe("fine");
  });

  it("refuses source that names the meter, with its line and column", () => {
    expect(() => transpileToCommonJs(`const x = 1;\nconst __siglab_meter = (v: unknown) => v;\n`, "r.ts", { meter: true })).toThrow(CompileError);
    expect(() => transpileToCommonJs(`const x = 1;\nconst __siglab_meter = (v: unknown) => v;\n`, "r.ts", { meter: true })).toThrow("r.ts:2:7: the name __siglab_meter is reserved for the app's sandbox");
    expect(() => instrumentJavaScript(`exports.x = globalThis.__siglab_meter;`, "p/index.js")).toThrow(/p\/index\.js:1:24: the name __siglab_meter is reserved/);
  });

  it("instruments a plugin's JavaScript without changing what it does", () => {
    const js = `const add = (a, b) => a + b;\nexports.result = function () { const [x, y] = [1, 2]; return { sum: add(x, y), list: [x, y].map((v) => v * 10) }; };\n`;
    const metered = instrumentJavaScript(js, "plugins/demo/index.js");
    expect(metered).toContain("__siglab_meter(");
    expect(runModule(metered, (v) => v)).toEqual({ sum: 3, list: [10, 20] });
  });
});
