/**
 * A plugin built against plugin API 2.2 runs unchanged on API 2.3 and later, where the generator-free
 * `…Now`/`…Rest` forms left the public types for @siglab/plugin-api/internal. The fixture
 * (fixtures/api-2.2-plugin) is a libc model whose gettimeofday uses them — RuntimeThread.runUserNow/
 * runUserRest, gettimeofdayNow/gettimeofdayRest, and its own LibcModel.gettimeofdayNow/Rest, which
 * NGPT's switch calls — type-checked against api/2.2.d.ts and built then (dist/index.cjs is kept
 * as it was built). It loads in process and through the sandboxed host, and its fast forms
 * simulate what its generator forms do.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import * as api from "@siglab/plugin-api";
import type { PluginManifest, PluginModule, RunResult } from "@siglab/plugin-api";
import { createNodeHost } from "@siglab/builtin-plugins/host/node";
import { runWorkload } from "../src/index.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/api-2.2-plugin");
const BASELINE_2_2 = join(import.meta.dirname, "../../plugin-api/api/2.2.d.ts");
const manifest = JSON.parse(readFileSync(join(FIXTURE, "plugin.json"), "utf8")) as PluginManifest;
const built = readFileSync(join(FIXTURE, "dist/index.cjs"), "utf8");

/** The built plugin evaluated as the host does: `require("@siglab/plugin-api")` is the API, nothing else resolves. */
function load(): PluginModule {
  const module = { exports: {} as Record<string, unknown> };
  const require = (m: string) => {
    if (m === "@siglab/plugin-api") return api;
    throw new Error(`require('${m}') is not available to a plugin`);
  };
  new Function("require", "module", "exports", built)(require, module, module.exports);
  return { manifest, ...(module.exports as unknown as Omit<PluginModule, "manifest">) };
}

/** Two NGPT threads yielding (three time stamps per switch, through the run's libc), then libc gettimeofday in main. */
const workload = {
  file: "fast_libc.ts",
  source: `import { workload } from "siglab";
export default workload({ name: "fast libc", libc: "fixture-libc", params: { yields: 300 }, hz: 1000, *main(t, { yields }) {
  const body = function* (th) { for (let i = 0; i < yields; i++) yield* th.pthread.yield(); };
  const a = yield* t.pthread.create(body), b = yield* t.pthread.create(body);
  yield* t.pthread.join(a);
  yield* t.pthread.join(b);
  let usec = 0;
  for (let i = 0; i < 50; i++) usec = (yield* t.libc.gettimeofday()).usec;
  t.report("usec", usec, "us");
} });
`,
};
const run = (fast: boolean): RunResult => runWorkload({ plugins: [load()], variant: ["ngpt", `fixture-fast-libc:fast=${fast}`], cpu: "p6-coppermine@1000", workload });
/** The run without what names the option (the stack's options, the plugin's own counter of fast calls). */
const simulated = (r: RunResult) => JSON.stringify({ ...r, variants: [], counters: Object.fromEntries(Object.entries(r.counters).filter(([k]) => !k.startsWith("fixture-fast-libc."))) });

const host = createNodeHost({ transpile: (s, f) => ts.transpileModule(s, { fileName: f, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText });
afterAll(() => host.close());

describe("a plugin built against plugin API 2.2", () => {
  it("type-checks against the 2.2 declarations (the members it uses were public then)", () => {
    const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [], lib: ["lib.es2023.d.ts"], paths: { "@siglab/plugin-api": [BASELINE_2_2] } };
    const program = ts.createProgram([join(FIXTURE, "src/index.ts")], options);
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toEqual([]);
    expect(readFileSync(join(FIXTURE, "src/index.ts"), "utf8")).toMatch(/runUserNow[\s\S]*gettimeofdayNow!\(\)[\s\S]*gettimeofdayRest!\(\)/);
  });

  it("loads on this SigLab (API 2.4) and its generator-free forms run: the same simulation as its generator forms", () => {
    expect(api.PLUGIN_API_VERSION).toBe("2.4");
    const fast = run(true), slow = run(false);
    expect(fast.error).toBeUndefined();
    expect(slow.error).toBeUndefined();
    // NGPT's switch stamped the time through the plugin's gettimeofdayNow, which used runUserNow and the thread's gettimeofdayNow
    expect(fast.counters["fixture-fast-libc.now"]).toBeGreaterThan(1000);
    expect(fast.paths.find((p) => p.name === "fixture.gettimeofday")?.count).toBeGreaterThan(1000);
    expect(simulated(fast) === simulated(slow), "the fast forms simulate what the generator forms do").toBe(true);
  });

  it("runs the same through the sandboxed execution host", async () => {
    const source = { id: manifest.id, manifest, origin: "fixtures/api-2.2-plugin", main: "dist/index.cjs", files: { "dist/index.cjs": built } };
    const hosted = await host.run({ spec: { workload: { id: "fast_libc", ...workload }, cpu: { id: "p6-coppermine", mhz: 1000 }, variants: [{ id: "ngpt" }, { id: "fixture-fast-libc", options: { fast: "true" } }], params: {}, seed: 1, timeline: false, budget: {} }, plugins: [source], profiles: [] });
    expect(hosted.error).toBeUndefined();
    expect(JSON.stringify(hosted)).toBe(JSON.stringify(run(true)));
  });
});
