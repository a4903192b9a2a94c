import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { BundleError, FORMAT_VERSION, MIGRATIONS, migrateBundle, readBundle, writeBundle } from "../../src/bundle/index.js";
import { expandExperiment } from "../../src/common/index.js";
import { experiment, fakeResult, profile, WORKLOAD_SOURCE } from "./fixtures.js";

/** A bundle as SigLab 0.0.x wrote it (format v0, documented in src/bundle/migrations/v0.ts). */
function v0Bundle(over: Record<string, unknown> = {}): Uint8Array {
  const exp = experiment({ stacks: [[], [{ id: "sa-nofp", options: { force: true } }]], timeline: undefined });
  const results = expandExperiment(exp).map((s) => {
    const { totalCycles, simSeconds: _s, timeline: _t, ...r } = fakeResult(s);
    return { ...r, cycles: totalCycles };
  });
  const doc = {
    version: 0,
    app: "0.0.3",
    created: "2026-01-05T10:00:00Z",
    experiment: {
      workload: { id: "lat_sig_catch", file: "lat_sig_catch.ts", source: WORKLOAD_SOURCE },
      cpus: exp.cpus,
      variants: [[], ["sa-nofp"].map((id) => ({ id, options: { force: true } }))],
      params: exp.params,
      seed: exp.seed,
    },
    profiles: { "p4-northwood": profile("p4-northwood", 2200), "p3-coppermine": profile("p3-coppermine", 800) },
    plugins: [{ id: "sa-nofp", version: "1.0.0" }],
    results,
    ...over,
  };
  return zipSync({ "bundle.json": strToU8(JSON.stringify(doc)) });
}

describe("format migrations", () => {
  it("has one step per version up to the current one", () => {
    const froms = MIGRATIONS.map((m) => m.from);
    expect(froms).toEqual([...Array(FORMAT_VERSION).keys()]);
    for (const m of MIGRATIONS) expect(m.to).toBe(m.from + 1);
  });

  it("opens a v0 bundle by migrating it to v1", () => {
    const b = readBundle(v0Bundle(), { fileName: "old.siglab" });
    expect(b.migratedFrom).toBe(0);
    expect(b.manifest.formatVersion).toBe(1);
    expect(b.manifest.appVersion).toBe("0.0.3");
    expect(b.manifest.createdAt).toBe("2026-01-05T10:00:00.000Z");
    expect(b.warnings[0]).toMatch(/migrated from bundle format v0 \(SigLab 0\.0\.3\)/);
    expect(b.experiment.stacks).toEqual([[], [{ id: "sa-nofp", options: { force: true } }]]);
    expect(b.experiment.workload.source).toBe(WORKLOAD_SOURCE);
    expect(b.plugins).toEqual([{ id: "sa-nofp", version: "1.0.0", source: "builtin" }]);
    // renamed field restored, derived field computed
    const expected = fakeResult(expandExperiment(b.experiment)[0]!);
    expect(b.results[0]!.totalCycles).toBe(expected.totalCycles);
    expect(b.results[0]!.simSeconds).toBeCloseTo(expected.totalCycles / 2200e6, 15);
    expect("cycles" in b.results[0]!).toBe(false);
    expect(b.summary).toContain("lat_sig_catch");
  });

  it("accepts v0 variant stacks written as bare ids", () => {
    const b = readBundle(
      v0Bundle({
        plugins: [{ id: "sysenter", version: "2.0.0" }],
        experiment: { workload: { id: "w", file: "w.ts", source: "x" }, cpus: [{ id: "p4-northwood", mhz: 2200 }], variants: [["sysenter"]], params: {}, seed: 1 },
        results: [],
      }),
    );
    expect(b.experiment.stacks).toEqual([[{ id: "sysenter" }]]);
  });

  it("a migrated bundle re-saves as v1 and reads back without migrating", () => {
    const b = readBundle(v0Bundle());
    const again = readBundle(
      writeBundle({
        experiment: b.experiment,
        profiles: b.profiles,
        plugins: b.plugins.map((p) => ({ source: "builtin" as const, id: p.id, version: p.version })),
        results: b.results,
        appVersion: "0.1.0",
        createdAt: b.manifest.createdAt,
      }),
    );
    expect(again.migratedFrom).toBeUndefined();
    expect(again.results).toEqual(b.results);
  });

  it("migrateBundle works on entry maps and reports its steps", () => {
    const files = new Map(Object.entries(unzipSync(v0Bundle())));
    const out = migrateBundle(files, { fileName: "old.siglab" });
    expect(out.fromVersion).toBe(0);
    expect(out.toVersion).toBe(1);
    expect(out.steps).toHaveLength(1);
    expect(out.steps[0]).toMatch(/^v0 → v1/);
    expect([...out.files.keys()].sort()).toContain("manifest.json");
  });

  it("refuses a broken v0 bundle, naming the field", () => {
    const bad = v0Bundle({ results: [{ cpu: { id: "p4", mhz: 0 }, cycles: 5 }] });
    expect(() => readBundle(bad, { fileName: "old.siglab" })).toThrow(/old\.siglab: bundle\.json: schema violation: field results\[0\]\.cpu\.mhz/);
    const unknown = zipSync({ "bundle.json": strToU8(JSON.stringify({ version: 7 })) });
    try {
      readBundle(unknown, { fileName: "old.siglab" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BundleError);
      expect((e as BundleError).code).toBe("unknown-version");
    }
  });
});
