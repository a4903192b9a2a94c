/** A bundle's embedded plugins in the app (run/bundle-plugins.ts): trust per content hash, remembered; entries for the run configuration. */
import { describe, expect, it } from "vitest";
import { BundlePlugins, type EmbeddedPlugin } from "../src/renderer/run/bundle-plugins.js";

function memoryStorage(): Pick<Storage, "getItem" | "setItem"> {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
}

const manifest = { id: "demo", version: "1.0.0", apiVersion: "2.2", displayName: "Demo", description: "", options: { depth: { type: "number", default: 1 } }, contributes: [] };
const plugin = (over: Partial<EmbeddedPlugin> = {}, m: unknown = manifest): EmbeddedPlugin => ({
  id: "demo", version: "1.0.0", hash: "a".repeat(64),
  source: { id: "demo", manifest: m, origin: "x.siglab:plugins/demo", main: "index.js", files: { "index.js": "" } },
  ...over,
});

describe("BundlePlugins", () => {
  it("runs nothing until trusted, then offers the plugin and remembers its hash (not its id) for the next opening", () => {
    const storage = memoryStorage();
    const a = new BundlePlugins(storage);
    expect(a.isTrusted(plugin())).toBe(false);
    expect(a.source("demo")).toBeUndefined();
    expect(a.entries()).toEqual([]);
    a.trust([plugin()]);
    expect(a.source("demo")?.origin).toBe("x.siglab:plugins/demo");
    expect(a.entries()).toMatchObject([{ id: "demo", origin: "bundle", enabled: true, status: "ok", manifest: { displayName: "Demo" } }]);
    const b = new BundlePlugins(storage);
    expect(b.isTrusted(plugin())).toBe(true);
    // other code under the same id and version is not trusted
    expect(b.isTrusted(plugin({ hash: "b".repeat(64) }))).toBe(false);
    // code without a hash never counts as trusted before
    expect(b.isTrusted(plugin({ hash: "" }))).toBe(false);
    // trusted before is not running yet: the app trusts it again when the bundle is opened
    expect(b.source("demo")).toBeUndefined();
  });

  it("lists a plugin whose manifest is not one as refused, with why", () => {
    const a = new BundlePlugins(memoryStorage());
    a.trust([plugin({}, { id: "demo", options: { x: 1 } })]);
    expect(a.entries()).toMatchObject([{ id: "demo", origin: "bundle", enabled: false, status: "refused", reason: "x.siglab:plugins/demo/plugin.json: not a plugin manifest" }]);
  });
});
