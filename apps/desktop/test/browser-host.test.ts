/**
 * The app's execution host: core's Supervisor over webWorkerFactory, with the real sandbox entry
 * (src/worker/sim.worker.ts) bundled and run in a Node worker thread that stands in for a Web
 * Worker (test/fixtures/web-worker-scope.mjs gives it postMessage/addEventListener). The e2e suite
 * runs the same in Chromium; this covers the factory's failure paths and the budgets quickly.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webWorkerFactory, type WebWorkerLike, IDLE_MESSAGE } from "@siglab/core/host/browser";
import { Supervisor, type PluginSource } from "@siglab/core/host";
import type { RunSpec } from "@siglab/core/common";
import { PLUGIN_API_VERSION } from "@siglab/core/plugin-api";
import { COMPILE_WORKER_CSP, cspFor, EDITOR_WORKER_CSP, RENDERER_CSP, SIM_WORKER_CSP } from "../src/common/csp.js";
import { CompileError, transpileToCommonJs } from "../src/worker/transpile.js";
import { workerNameWithBudget } from "../src/worker/meter-protocol.js";
import { instrumentJavaScript } from "../src/worker/meter-transform.js";
import { SimClient } from "../src/renderer/sim-client.js";
import type { ExperimentConfig } from "../src/common/contracts.js";

type Listener = (e: never) => void;

/** A scripted stand-in for a DOM Worker. */
class FakeWorker implements WebWorkerLike {
  readonly posted: unknown[] = [];
  terminated = false;
  private readonly listeners = new Map<string, Listener[]>();
  postMessage(m: unknown): void {
    this.posted.push(m);
  }
  terminate(): void {
    this.terminated = true;
  }
  addEventListener(type: string, l: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  emit(type: string, e: object): void {
    for (const l of this.listeners.get(type) ?? []) (l as (e: object) => void)(e);
  }
}

const events = () => ({ message: vi.fn(), died: vi.fn() });

describe("webWorkerFactory", () => {
  it("forwards messages both ways and terminates on request", () => {
    const fake = new FakeWorker();
    const ev = events();
    const w = webWorkerFactory(() => fake)(ev);
    fake.emit("message", { data: { type: "ready" } });
    expect(ev.message).toHaveBeenCalledWith({ type: "ready" });
    w.post({ type: "inspect", id: 1, file: "a.ts", source: "" });
    expect(fake.posted).toHaveLength(1);
    w.terminate();
    expect(fake.terminated).toBe(true);
    fake.emit("message", { data: { type: "ready" } });
    expect(ev.message).toHaveBeenCalledTimes(1);
  });

  it("maps an error event to died with one line, terminates the worker and reports once", () => {
    const fake = new FakeWorker();
    const ev = events();
    webWorkerFactory(() => fake)(ev);
    const preventDefault = vi.fn();
    fake.emit("error", { message: "Uncaught TypeError: x is not a function\n    at foo (sim.worker.js:1:2)", preventDefault });
    fake.emit("error", { message: "again", preventDefault });
    expect(ev.died).toHaveBeenCalledTimes(1);
    expect(ev.died).toHaveBeenCalledWith("the sandbox stopped: Uncaught TypeError: x is not a function", "internal");
    expect(preventDefault).toHaveBeenCalled();
    expect(fake.terminated).toBe(true);
  });

  it("names a load failure (no message) and a messageerror", () => {
    const a = new FakeWorker();
    const ea = events();
    webWorkerFactory(() => a)(ea);
    a.emit("error", { preventDefault: () => undefined });
    expect(ea.died).toHaveBeenCalledWith("the sandbox worker failed to load or crashed", "internal");
    const b = new FakeWorker();
    const eb = events();
    webWorkerFactory(() => b)(eb);
    b.emit("messageerror", { preventDefault: () => undefined });
    expect(eb.died).toHaveBeenCalledWith("the sandbox sent a message that could not be deserialised", "internal");
  });

  it("reports a worker that cannot be created after the factory returned", async () => {
    const ev = events();
    webWorkerFactory(() => {
      throw new Error("Refused to create a worker: CSP");
    })(ev);
    expect(ev.died).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(ev.died).toHaveBeenCalledWith("the sandbox worker could not be created: Refused to create a worker: CSP", "internal");
  });

  it("holds a request's final message until the worker is idle", () => {
    const fake = new FakeWorker();
    const ev = events();
    webWorkerFactory(() => fake)(ev);
    fake.emit("message", { data: { type: "phase", id: 1, phase: "evaluate" } });
    fake.emit("message", { data: { type: "result", id: 1, result: {} } });
    expect(ev.message.mock.calls.map((c) => (c[0] as { type: string }).type)).toEqual(["phase"]);
    fake.emit("message", { data: { type: IDLE_MESSAGE } });
    expect(ev.message.mock.calls.map((c) => (c[0] as { type: string }).type)).toEqual(["phase", "result"]);
    expect(ev.died).not.toHaveBeenCalled();
  });

  it("terminates a worker that does not become idle after a request (a promise job that never ends)", async () => {
    const fake = new FakeWorker();
    const ev = events();
    webWorkerFactory(() => fake, { idleGraceMs: 50 })(ev);
    fake.emit("message", { data: { type: "inspected", id: 1, ok: true, info: { name: "x", params: {} } } });
    await vi.waitFor(() => expect(ev.died).toHaveBeenCalled());
    expect(ev.died).toHaveBeenCalledWith("code the inspection left running (a promise job that never ends?) was stopped after 50 ms of host time", "budget");
    expect(ev.message).not.toHaveBeenCalled();
    expect(fake.terminated).toBe(true);
  });

  it("gives the supervisor a one-line error result when the worker dies during a run", async () => {
    const fake = new FakeWorker();
    const sup = new Supervisor(webWorkerFactory(() => fake));
    const spec = { workload: { id: "w", file: "w.ts", source: "" }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: {}, seed: 1 } satisfies RunSpec;
    const done = sup.run({ spec, js: "", plugins: [], profiles: [] });
    fake.emit("message", { data: { type: "ready" } });
    await vi.waitFor(() => expect(fake.posted).toHaveLength(1));
    fake.emit("error", { message: "Out of memory", preventDefault: () => undefined });
    const r = await done;
    expect(r.error).toMatchObject({ kind: "internal", message: "w.ts: the sandbox stopped: Out of memory" });
    sup.close();
  });
});

describe("transpiling in the compile worker", () => {
  it("reports syntax errors as file:line:column with line and column", () => {
    let err: unknown;
    try {
      transpileToCommonJs("const = ;", "examples/x.ts");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CompileError);
    expect((err as CompileError).message).toMatch(/^examples\/x\.ts:1:7: /);
    expect((err as CompileError).line).toBe(1);
    expect((err as CompileError).column).toBe(7);
  });
});

describe("Content-Security-Policies of the app's workers", () => {
  it("lets only the sandbox worker eval, and keeps it off the network", () => {
    expect(cspFor("workers/sim.worker-abc.js")).toBe(SIM_WORKER_CSP);
    expect(SIM_WORKER_CSP).toMatch(/script-src 'self' 'unsafe-eval'/);
    expect(SIM_WORKER_CSP).toMatch(/connect-src 'none'/);
    expect(SIM_WORKER_CSP).toMatch(/worker-src 'none'/);
    expect(cspFor("workers/compile.worker-abc.js")).toBe(COMPILE_WORKER_CSP);
    expect(cspFor("workers/ts.worker-abc.js")).toBe(EDITOR_WORKER_CSP);
    expect(cspFor("index.html")).toBe(RENDERER_CSP);
    for (const csp of [RENDERER_CSP, COMPILE_WORKER_CSP, EDITOR_WORKER_CSP]) expect(csp).not.toMatch(/unsafe-eval/);
  });
});

// ---- the real sandbox entry in a stand-in worker -----------------------------------------------------

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
let dir: string;
let bundle: string;

/** A Node worker thread seen through the WebWorkerLike interface. */
function nodeAsWebWorker(file: string, name?: string): WebWorkerLike {
  const w = new Worker(file, { stdout: true, stderr: true, ...(name ? { workerData: { name } } : {}) });
  w.stdout.resume();
  w.stderr.resume();
  return {
    postMessage: (m) => w.postMessage(m),
    terminate: () => void w.terminate(),
    addEventListener: ((type: string, l: (e: unknown) => void) => {
      if (type === "message") w.on("message", (data) => l({ data }));
      else if (type === "error") w.on("error", (e: Error) => l({ message: e.message, preventDefault: () => undefined }));
      else if (type === "messageerror") w.on("messageerror", () => l({ preventDefault: () => undefined }));
    }) as WebWorkerLike["addEventListener"],
  };
}

beforeAll(async () => {
  // core's own bundler (the Node host bundles its sandbox with it too)
  const esbuild = createRequire(here("../../../packages/core/package.json"))("esbuild") as { build(options: Record<string, unknown>): Promise<unknown> };
  dir = mkdtempSync(path.join(os.tmpdir(), "siglab-browser-host-"));
  bundle = path.join(dir, "sim-worker.mjs");
  await esbuild.build({
    stdin: { contents: `import "./fixtures/web-worker-scope.mjs";\nimport "../src/worker/sim.worker.ts";\n`, resolveDir: here("."), loader: "ts" },
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: here("../../../tsconfig.base.json"),
    logLevel: "error",
    banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  });
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function spec(source: string, extra: Partial<RunSpec> = {}): RunSpec {
  return { workload: { id: "w", file: "workloads/w.ts", source }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: {}, seed: 1, ...extra };
}

const HEAD = `import { workload } from "siglab";\n`;

describe("the sandbox entry (sim.worker.ts) behind the supervisor", () => {
  it("does not bundle the TypeScript compiler into the sandbox worker", () => {
    expect(readFileSync(bundle, "utf8")).not.toMatch(/transpileModule/);
  });

  it("runs a workload and reads a workload's parameters", async () => {
    const sup = new Supervisor(webWorkerFactory(() => nodeAsWebWorker(bundle)));
    try {
      const src = `${HEAD}export default workload({ name: "loop", params: { n: 100 }, *main(t, { n }) { const s = t.rdtsc(); for (let i = 0; i < n; i++) yield* t.getpid(); t.report("getpid", (t.rdtsc() - s) / n, "cycles"); } });\n`;
      const js = transpileToCommonJs(src, "workloads/w.ts");
      await expect(sup.inspect("workloads/w.ts", src, js)).resolves.toEqual({ name: "loop", params: { n: 100 } });
      const r = await sup.run({ spec: spec(src), js, plugins: [], profiles: [] });
      expect(r.error).toBeUndefined();
      expect(r.metrics[0]).toMatchObject({ name: "getpid", unit: "cycles" });
      expect(r.metrics[0]!.value).toBeGreaterThan(100);
    } finally {
      sup.close();
    }
  });

  it("stops a loop at a workload's top level after the module budget; the next request works", async () => {
    const sup = new Supervisor(webWorkerFactory(() => nodeAsWebWorker(bundle)), { moduleMs: 500 });
    try {
      const bad = `${HEAD}for (;;) {}\nexport default workload({ name: "x", params: {}, *main(t) {} });\n`;
      const t0 = Date.now();
      await expect(sup.inspect("workloads/bad.ts", bad, transpileToCommonJs(bad, "workloads/bad.ts"))).rejects.toThrow(/^workloads\/bad\.ts: module evaluation stopped after 500 ms of host time/);
      expect(Date.now() - t0).toBeLessThan(5_000);
      const good = `${HEAD}export default workload({ name: "ok", params: { a: 1 }, *main(t) {} });\n`;
      await expect(sup.inspect("workloads/ok.ts", good, transpileToCommonJs(good, "workloads/ok.ts"))).resolves.toMatchObject({ name: "ok" });
    } finally {
      sup.close();
    }
  });

  it("stops a main that never yields on the run's host-time budget", async () => {
    const sup = new Supervisor(webWorkerFactory(() => nodeAsWebWorker(bundle)));
    try {
      const src = `${HEAD}export default workload({ name: "spin", params: {}, *main(t) { yield* t.getpid(); for (;;) {} } });\n`;
      const r = await sup.run({ spec: spec(src, { budget: { maxHostMs: 600 } }), js: transpileToCommonJs(src, "w.ts"), plugins: [], profiles: [] });
      expect(r.error).toMatchObject({ kind: "budget" });
      expect(r.error!.message).toMatch(/stopped after 600 ms of host time/);
    } finally {
      sup.close();
    }
  });

  it("stops promise jobs a run or an inspection leaves running forever; the next request gets a fresh worker", async () => {
    const created: number[] = [];
    const sup = new Supervisor(webWorkerFactory(() => (created.push(1), nodeAsWebWorker(bundle)), { idleGraceMs: 300 }), { moduleMs: 400 });
    try {
      const bad = `${HEAD}(async () => { for (;;) await null; })();\nexport default workload({ name: "jobs", params: {}, *main(t) { yield* t.getpid(); t.report("reported", 1, ""); } });\n`;
      const js = transpileToCommonJs(bad, "w.ts");
      // an inspection lets the promise jobs run before it answers, under the inspection's budget
      await expect(sup.inspect("w.ts", bad, js)).rejects.toThrow(/inspecting the workload stopped after 800 ms of host time \(its module, or promise jobs it left running, never finished\)/);
      // a run: the sandbox lets promise jobs run before it posts the result, under the run's budget
      const r = await sup.run({ spec: spec(bad, { budget: { maxHostMs: 800 } }), js, plugins: [], profiles: [] });
      expect(r.error).toMatchObject({ kind: "budget" });
      expect(r.error!.message).toMatch(/of host time/);
      const good = `${HEAD}export default workload({ name: "ok", params: {}, *main(t) { yield* t.getpid(); t.report("ok", 1, ""); } });\n`;
      const next = await sup.run({ spec: spec(good), js: transpileToCommonJs(good, "w.ts"), plugins: [], profiles: [] });
      expect(next.error).toBeUndefined();
      expect(created.length).toBe(3);
    } finally {
      sup.close();
    }
  });

  it("refuses constructor chains and the worker's globals to a workload", async () => {
    const sup = new Supervisor(webWorkerFactory(() => nodeAsWebWorker(bundle)));
    try {
      const src = `${HEAD}
const g: any = globalThis;
const escaped = (f: () => unknown): number => { try { const v: any = f(); return v && typeof v === "object" && ("postMessage" in v || "process" in v) ? 1 : 0; } catch { return 0; } };
const top = escaped(() => (require as any).constructor("return self")());
export default workload({ name: "probe", params: {}, *main(t) {
  t.report("require.constructor", top, "escaped");
  t.report("function constructor", escaped(() => (function () {}).constructor("return self")()), "escaped");
  t.report("rdtsc constructor", escaped(() => (t.rdtsc as any).constructor("return globalThis")()), "escaped");
  for (const k of ["fetch", "postMessage", "importScripts", "process", "self"]) t.report(k, typeof g[k] === "undefined" ? 0 : 1, "present");
  yield* t.getpid();
} });\n`;
      const r = await sup.run({ spec: spec(src), js: transpileToCommonJs(src, "w.ts"), plugins: [], profiles: [] });
      expect(r.error).toBeUndefined();
      expect(Object.fromEntries(r.metrics.map((m) => [m.name, m.value]))).toEqual({
        "require.constructor": 0, "function constructor": 0, "rdtsc constructor": 0, fetch: 0, postMessage: 0, importScripts: 0, process: 0, self: 0,
      });
    } finally {
      sup.close();
    }
  });

  it("loads a third-party plugin's CommonJS code in the sandbox (a worker of its own)", async () => {
    const created: number[] = [];
    const sup = new Supervisor(webWorkerFactory(() => (created.push(1), nodeAsWebWorker(bundle))));
    try {
      const plugin: PluginSource = {
        id: "demo-call",
        origin: "plugins/demo-call",
        main: "dist/index.js",
        manifest: { id: "demo-call", version: "0.1.0", apiVersion: PLUGIN_API_VERSION, displayName: "Demo", description: "a syscall that answers 40 + depth", options: { depth: { type: "number", default: 2, description: "added" } }, contributes: ["SyscallContribution"], main: "dist/index.js" },
        files: {
          "dist/index.js": `const api = require("@siglab/plugin-api"); const { add } = require("./add.js");\nexports.createModule = (o) => new api.ContainerModule(({ bind }) => { bind(api.TOKENS.SyscallContribution).toConstantValue({ nr: 254, name: "demo", handler: () => add(40, Number(o.depth)) }); });\n`,
          "dist/add.js": "exports.add = (a, b) => a + b;\n",
        },
      };
      const src = `${HEAD}export default workload({ name: "call", params: {}, *main(t) { t.report("answer", yield* t.syscall(254), ""); } });\n`;
      const js = transpileToCommonJs(src, "w.ts");
      const r = await sup.run({ spec: spec(src, { variants: [{ id: "demo-call", options: { depth: 3 } }] }), js, plugins: [plugin], profiles: [] });
      expect(r.error).toBeUndefined();
      expect(r.metrics).toEqual([{ name: "answer", value: 43, unit: "" }]);
      const base = await sup.run({ spec: spec(src), js, plugins: [], profiles: [] });
      expect(base.metrics[0]!.value).toBeLessThan(0); // -ENOSYS without the plugin
      expect(created.length).toBe(2); // the plugin's run had a worker of its own
    } finally {
      sup.close();
    }
  });
});

describe("the allocation meter in the sandbox entry (issue 30: a worker the page stops at its memory budget)", () => {
  const experiment = (source: string): ExperimentConfig => ({ workload: { id: "w", file: "workloads/w.ts", source }, cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], params: {}, seed: 1 });
  const handlers = { onProgress: () => undefined, onResult: () => undefined };
  /** The renderer's SimClient over the real sandbox entry in Node threads named with a 64 MiB budget. */
  const client = (made: number[] = []): SimClient =>
    new SimClient({ factory: webWorkerFactory(() => (made.push(1), nodeAsWebWorker(bundle, workerNameWithBudget(64)))), transpile: async (s, f) => transpileToCommonJs(s, f, { meter: true }), instrument: async (js, f) => instrumentJavaScript(js, f), poolSize: 1 });

  it("stops an allocation loop at a workload's top level with a budget error, and the next run gets a fresh worker", async () => {
    const made: number[] = [];
    const sim = client(made);
    try {
      const bomb = `${HEAD}const keep: number[][] = [];\nfor (;;) keep.push(new Array(1 << 16).fill(1.5));\nexport default workload({ name: "bomb", params: {}, *main(t) { yield* t.getpid(); } });\n`;
      const [r] = await sim.run(experiment(bomb), [], [], handlers);
      expect(r!.error).toMatchObject({ kind: "budget" });
      expect(r!.error!.message).toMatch(/memory budget exceeded: the code allocated about \d+ MiB, over the limit of 64 MiB/);
      // the same in main, where a catch tries to keep going
      const inMain = `${HEAD}export default workload({ name: "bomb", params: {}, *main(t) { yield* t.getpid(); const keep: string[] = []; for (;;) { try { keep.push("x".repeat(1 << 20) + keep.length); } catch {} } } });\n`;
      const [m] = await sim.run(experiment(inMain), [], [], handlers);
      expect(m!.error).toMatchObject({ kind: "budget" });
      const ok = `${HEAD}export default workload({ name: "ok", params: {}, *main(t) { yield* t.getpid(); t.report("ok", 1, ""); } });\n`;
      const [n] = await sim.run(experiment(ok), [], [], handlers);
      expect(n!.error).toBeUndefined();
      expect(made.length).toBe(3);
    } finally {
      sim.reset();
    }
  });

  it("refuses code made at run time (its allocations could not be counted) and compartments of the workload's own", async () => {
    const sim = client();
    try {
      const probe = `${HEAD}const g: any = globalThis;
const refused = (f: () => unknown): string => { try { f(); return "ran"; } catch (e) { return String((e as Error).message); } };
export default workload({ name: "probe", params: {}, *main(t) {
  yield* t.getpid();
  t.report("eval: " + refused(() => g["ev" + "al"]("1 + 1")), 1, "");
  t.report("Function: " + refused(() => g.Function("return 1")()), 2, "");
  t.report("Compartment: " + refused(() => new g.Compartment({}).evaluate("1")), 3, "");
  t.report("meter global: " + typeof g["__siglab_" + "meter"], 4, "");
} });\n`;
      const [r] = await sim.run(experiment(probe), [], [], handlers);
      expect(r!.error).toBeUndefined();
      const said = r!.metrics.map((m) => m.name);
      expect(said[0]).toMatch(/^eval: code made at run time \(eval, Function\) does not run in the app's sandbox/);
      expect(said[1]).toMatch(/^Function: code made at run time \(eval, Function\) does not run in the app's sandbox/);
      expect(said[2]).toMatch(/^Compartment: workload and plugin code cannot make compartments/);
      expect(said[3]).toBe("meter global: undefined"); // a parameter of each module, not reachable by name
    } finally {
      sim.reset();
    }
  });
});
