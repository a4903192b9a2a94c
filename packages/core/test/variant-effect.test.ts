import { describe, expect, it } from "vitest";
import { idleVariants, pathRunsOf, type VariantEffectManifest } from "../src/common/index.js";
import { validateManifest } from "../src/plugin-api/manifest-schema.js";
import saNofp from "../../plugins/sa-nofp/plugin.json" with { type: "json" };

const path = (name: string, origin: string, count: number) => ({ name, phase: "signal.fpu_save", origin, count, cycles: count * 10, ops: [] });
const manifests: Record<string, VariantEffectManifest> = {
  "sa-nofp": validateManifest(saNofp, "sa-nofp/plugin.json") as VariantEffectManifest,
  quiet: { id: "quiet", options: { fast: { type: "boolean", default: false, description: "go fast" }, n: { type: "number", default: 1, description: "n" } } },
};
const lookup = (id: string) => manifests[id];

describe("a variant that changed nothing in a run", () => {
  it("is one none of whose kernel paths ran, and sa-nofp's own manifest says why and offers forceAll", () => {
    const r = { variants: [{ id: "sysenter" }, { id: "sa-nofp" }], paths: [path("system_call", "core", 5), path("sysenter_entry", "sysenter", 3)] };
    expect(pathRunsOf(r, "sysenter")).toBe(3);
    const idle = idleVariants(r, lookup);
    expect(idle).toEqual([{
      id: "sa-nofp", position: 1,
      message: "variant sa-nofp had no effect in this run: none of the kernel paths it contributes or changes ran (no handler asked for SA_NOFP; set forceAll=true to apply it to every handler)",
      reason: "no handler asked for SA_NOFP", remedy: "set forceAll=true to apply it to every handler",
      switches: [{ name: "forceAll", value: true, description: expect.stringMatching(/^Treat every handler as SA_NOFP/) }],
    }]);
  });

  it("is not reported once its paths run, nor for a failed run (it stopped early)", () => {
    expect(idleVariants({ variants: [{ id: "sa-nofp", options: { forceAll: true } }], paths: [path("save_i387.nofp", "sa-nofp", 1)] }, lookup)).toEqual([]);
    expect(idleVariants({ variants: [{ id: "sa-nofp" }], paths: [], error: { kind: "workload", message: "x" } }, lookup)).toEqual([]);
  });

  it("without a hint in the manifest names the boolean switches that are off; unknown plugins get the bare fact", () => {
    const [q] = idleVariants({ variants: [{ id: "quiet" }], paths: [] }, lookup);
    expect(q!.message).toBe("variant quiet had no effect in this run: none of the kernel paths it contributes or changes ran (its switches that are off: fast (go fast))");
    expect(idleVariants({ variants: [{ id: "quiet", options: { fast: "true" } }], paths: [] }, lookup)[0]!.switches).toEqual([]);
    expect(idleVariants({ variants: [{ id: "other" }], paths: [] })[0]!.message).toBe("variant other had no effect in this run: none of the kernel paths it contributes or changes ran");
  });
});

describe("plugin.json's noEffect (API 2.4)", () => {
  const base = { id: "p", version: "1.0.0", apiVersion: "2.4", displayName: "p", description: "p", options: { on: { type: "boolean", default: false, description: "on" } }, contributes: [] };
  it("is accepted from API 2.4 on, naming only the plugin's own options", () => {
    expect(validateManifest({ ...base, noEffect: { reason: "r", options: { on: true } } }, "p.json").noEffect).toEqual({ reason: "r", options: { on: true } });
    expect(() => validateManifest({ ...base, apiVersion: "2.3", noEffect: { reason: "r" } }, "p.json")).toThrow(/p\.json: "noEffect" is a field of plugin API 2\.4, but "apiVersion" is "2\.3"/);
    expect(() => validateManifest({ ...base, noEffect: { reason: "r", options: { off: true } } }, "p.json")).toThrow(/\/noEffect\/options\/off: the plugin has no option 'off'/);
    expect(() => validateManifest({ ...base, noEffect: { reason: "r", why: "typo" } }, "p.json")).toThrow(/p\.json: \/noEffect/);
  });
});
