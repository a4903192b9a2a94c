import { describe, expect, it } from "vitest";
import { evaluateCommonJs, lockDownGlobals, pluginRequire, tableRequire } from "../src/worker/sandbox.js";
import { transpileToCommonJs } from "../src/worker/transpile.js";

describe("worker sandbox", () => {
  it("removes network, storage and worker globals from a scope", () => {
    const proto = { fetch: () => 1, importScripts: () => 2 };
    const scope = Object.assign(Object.create(proto), { XMLHttpRequest: class {}, indexedDB: {}, keep: 1 }) as Record<string, unknown>;
    const removed = lockDownGlobals(scope);
    expect(removed).toEqual(expect.arrayContaining(["fetch", "importScripts", "XMLHttpRequest", "indexedDB"]));
    expect(scope.fetch).toBeUndefined();
    expect(scope.XMLHttpRequest).toBeUndefined();
    expect(scope.keep).toBe(1);
    expect(() => {
      scope.fetch = () => 3;
    }).toThrow();
  });

  it("evaluates a transpiled workload that imports only siglab", () => {
    const js = transpileToCommonJs(`import { workload } from "siglab"; export default workload({ name: "x" });`, "w.ts");
    const exports = evaluateCommonJs(js, "w.ts", tableRequire({ siglab: { workload: (d: unknown) => d } }, "w.ts"));
    expect(exports.default).toEqual({ name: "x" });
    const bad = transpileToCommonJs(`import fs from "fs"; export default fs;`, "bad.ts");
    expect(() => evaluateCommonJs(bad, "bad.ts", tableRequire({ siglab: {} }, "bad.ts"))).toThrow(/bad\.ts: cannot import "fs"/);
  });

  it("reports syntax errors with file:line:col", () => {
    expect(() => transpileToCommonJs("const = ;", "examples/x.ts")).toThrow(/^examples\/x\.ts:1:7: /);
  });

  it("resolves a plugin's relative imports inside its own files only", () => {
    const files = { "dist/index.js": `import { k } from "./lib/k.js"; import cfg from "../cfg.json"; export default () => k + cfg.n;`, "dist/lib/k.js": "export const k = 40;", "cfg.json": `{"n": 2}` };
    const load = pluginRequire(files, { inversify: {} }, transpileToCommonJs, "demo");
    const mod = load("dist/index.js") as { default: () => number };
    expect(mod.default()).toBe(42);
    const escape = pluginRequire({ "i.js": `require("../../outside.js")` }, {}, transpileToCommonJs, "demo");
    expect(() => escape("i.js")).toThrow(/leaves the plugin folder/);
    const bare = pluginRequire({ "i.js": `require("child_process")` }, {}, transpileToCommonJs, "demo");
    expect(() => bare("i.js")).toThrow(/cannot import "child_process"/);
  });
});
