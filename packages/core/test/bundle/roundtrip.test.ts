import { describe, expect, it } from "vitest";
import { unzipSync, strFromU8 } from "fflate";
import { compareResults, readBundle, writeBundle, FORMAT_VERSION, sha256Hex } from "../../src/bundle/index.js";
import { bundleInput, experiment, fakeResults, PLUGIN_MANIFEST } from "./fixtures.js";

describe("bundle round trip", () => {
  it("writes a v1 zip with every entry hashed in the manifest", () => {
    const bytes = writeBundle(bundleInput());
    const files = unzipSync(bytes);
    const names = Object.keys(files).sort();
    expect(names).toEqual([
      "charts/bars.png",
      "charts/phases.svg",
      "experiment.json",
      "manifest.json",
      "plugins.json",
      "plugins/thirdparty-mask/dist/index.js",
      "plugins/thirdparty-mask/dist/util/helpers.js",
      "plugins/thirdparty-mask/plugin.json",
      "profiles/p3-coppermine.json",
      "profiles/p4-northwood.json",
      "results.json",
      "summary.md",
      "workloads/lat_sig_catch.ts",
    ]);
    const manifest = JSON.parse(strFromU8(files["manifest.json"]!));
    expect(manifest.formatVersion).toBe(FORMAT_VERSION);
    expect(manifest.appVersion).toBe("0.1.0-test");
    expect(manifest.createdAt).toBe("2026-11-30T12:00:00.000Z");
    expect(manifest.entries.map((e: { path: string }) => e.path)).toEqual(names.filter((n) => n !== "manifest.json"));
    for (const e of manifest.entries) expect(e.sha256).toBe(sha256Hex(files[e.path]!));
    // the unused profile is not embedded; the workload source is its own entry
    expect(strFromU8(files["workloads/lat_sig_catch.ts"]!)).toContain("lat_sig catch");
    expect(JSON.parse(strFromU8(files["experiment.json"]!)).workload).toEqual({
      id: "lat_sig_catch",
      file: "examples/lat_sig_catch.ts",
      entry: "workloads/lat_sig_catch.ts",
    });
  });

  it("reads back exactly what was written", () => {
    const input = bundleInput();
    const b = readBundle(writeBundle(input), { fileName: "x.siglab" });
    expect(b.fileName).toBe("x.siglab");
    expect(b.experiment).toEqual(input.experiment);
    expect(b.profiles.map((p) => p.id)).toEqual(["p4-northwood", "p3-coppermine"]);
    expect(b.profiles[1]).toEqual(input.profiles[1]);
    expect(b.plugins.map((p) => [p.id, p.source])).toEqual([["sa-nofp", "builtin"], ["thirdparty-mask", "embedded"]]);
    expect(Object.keys(b.embeddedPlugins["thirdparty-mask"]!).sort()).toEqual(["dist/index.js", "dist/util/helpers.js", "plugin.json"]);
    expect(JSON.parse(strFromU8(b.embeddedPlugins["thirdparty-mask"]!["plugin.json"]!))).toEqual(PLUGIN_MANIFEST);
    expect(b.results).toEqual(input.results);
    expect(compareResults(input.results, b.results)).toEqual({ identical: true, differences: [], truncated: false });
    expect(b.summary).toContain("# SigLab experiment: lat_sig_catch");
    expect([...b.charts["bars.png"]!]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    expect(b.migratedFrom).toBeUndefined();
    expect(b.warnings).toEqual([]);
  });

  it("keeps plugin files with one-character names", () => {
    const input = bundleInput();
    const tp = input.plugins[1]!;
    if (tp.source !== "embedded") throw new Error("fixture");
    tp.files = { ...tp.files, a: "1", "x/y": "2" };
    const b = readBundle(writeBundle(input));
    expect(Object.keys(b.embeddedPlugins["thirdparty-mask"]!).sort()).toEqual(["a", "dist/index.js", "dist/util/helpers.js", "plugin.json", "x/y"]);
  });

  it("is deterministic: the same input gives the same bytes", () => {
    expect(sha256Hex(writeBundle(bundleInput()))).toBe(sha256Hex(writeBundle(bundleInput())));
  });

  it("keeps a sweep, budget and a run with an error", () => {
    const exp = experiment({ sweep: { param: "iterations", values: [10, 100] }, budget: { maxCycles: 1e9 }, timeline: false });
    const results = fakeResults(exp);
    results[1]!.error = { kind: "budget", message: "stopped after 1e9 cycles", cycle: 1e9 };
    const b = readBundle(writeBundle(bundleInput({ experiment: exp, results })));
    expect(b.experiment.sweep).toEqual({ param: "iterations", values: [10, 100] });
    expect(b.results[1]!.error?.kind).toBe("budget");
    expect(b.summary).toContain("failed (budget)");
  });

  it("warns when results do not line up with the experiment's runs", () => {
    const input = bundleInput();
    const b = readBundle(writeBundle({ ...input, results: input.results.slice(1) }));
    expect(b.warnings.join("\n")).toMatch(/4 runs but results.json holds 3/);
    expect(b.warnings).toContain("result 1 does not match run 1 of the experiment (CPU, variants, params or seed)");
  });
});
