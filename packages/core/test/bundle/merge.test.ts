/**
 * Sharded bundles (--shard i/n) and bundle merge: a part says which runs it holds; merging all
 * parts gives the unsharded bundle (byte-identical results.json, and with the same createdAt the
 * same bytes); parts of different experiments, overlapping parts and gaps are refused.
 */
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BundleError, mergeBundles, readBundle, shardIndices, writeBundle, type MergePart } from "../../src/bundle/index.js";
import { expandExperiment } from "../../src/common/index.js";
import { rehashManifest, strToU8, zipSync } from "./zip-craft.js";
import { bundleInput, experiment, fakeResults } from "./fixtures.js";

// 2 CPUs x 2 stacks x 3 sweep values = 12 runs
const exp = experiment({ sweep: { param: "iterations", values: [10, 20, 30] } });
const all = fakeResults(exp);

function part(index: number, count: number, over: Parameters<typeof bundleInput>[0] = {}): MergePart {
  const results = shardIndices(all.length, index, count).map((k) => all[k]!);
  return { fileName: `part-${index}.siglab`, bytes: writeBundle(bundleInput({ experiment: exp, results, shard: { index, count }, ...over })) };
}

function refused(f: () => unknown, code: string, message: RegExp): void {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(BundleError);
    expect((e as BundleError).code).toBe(code);
    expect((e as Error).message).toMatch(message);
    return;
  }
  throw new Error("not refused");
}

describe("sharded bundles", () => {
  it("slices round robin in expansion order", () => {
    expect(shardIndices(10, 1, 4)).toEqual([0, 4, 8]);
    expect(shardIndices(10, 4, 4)).toEqual([3, 7]);
    expect(shardIndices(2, 3, 4)).toEqual([]);
    expect(() => shardIndices(10, 5, 4)).toThrow(RangeError);
    expect(() => shardIndices(10, 0, 4)).toThrow(RangeError);
  });

  it("a part records its slice in shard.json and numbers its runs as the whole experiment does", () => {
    const b = readBundle(part(2, 4).bytes, { fileName: "part-2.siglab" });
    expect(b.shard).toEqual({ index: 2, count: 4, totalRuns: 12, runs: [2, 6, 10] });
    expect(b.results).toEqual([all[1], all[5], all[9]]);
    expect(b.warnings).toEqual([]);
    expect(b.summary).toMatch(/Part 2 of 4 \(`--shard 2\/4`\) of an experiment of 12 runs: runs 2, 6, 10\./);
    expect(b.summary).toMatch(/^\| 6 \| p4-northwood \|/m);
  });

  it("writeBundle refuses results that are not the slice's", () => {
    refused(() => writeBundle(bundleInput({ experiment: exp, results: all.slice(0, 2), shard: { index: 2, count: 4 } })), "invalid-input", /shard 2\/4 holds 3 runs of 12, but 2 results were given/);
    refused(() => writeBundle(bundleInput({ experiment: exp, results: [], shard: { index: 5, count: 4 } })), "invalid-input", /expected whole numbers 1 <= i <= n/);
  });

  it("readBundle refuses a shard.json that does not match the experiment", () => {
    const files = unzipSync(part(2, 4).bytes);
    const edit = (shard: unknown) => {
      const f = { ...files, "shard.json": strToU8(JSON.stringify(shard)) };
      rehashManifest(f);
      return zipSync(f);
    };
    refused(() => readBundle(edit({ index: 2, count: 4, totalRuns: 12, runs: [2, 6] }), { fileName: "p.siglab" }), "inconsistent", /runs of shard 2\/4 are not the experiment's/);
    refused(() => readBundle(edit({ index: 2, count: 4, totalRuns: 13, runs: [2, 6, 10] }), { fileName: "p.siglab" }), "inconsistent", /experiment has 13 runs, experiment.json expands to 12/);
    refused(() => readBundle(edit({ index: 5, count: 4, totalRuns: 12, runs: [] }), { fileName: "p.siglab" }), "inconsistent", /shard 5 of 4 does not exist/);
    refused(() => readBundle(edit({ index: 2, count: 4, totalRuns: 12, runs: [2, 6, 10], extra: 1 }), { fileName: "p.siglab" }), "schema", /shard.json/);
  });
});

describe("bundle merge", () => {
  const whole = writeBundle(bundleInput({ experiment: exp, results: all }));

  it("joins the parts, in any order, into the unsharded bundle: the same bytes with the same createdAt", () => {
    const parts = [part(3, 4), part(1, 4), part(4, 4), part(2, 4)];
    const merged = mergeBundles(parts, { fileName: "all.siglab" });
    const a = unzipSync(merged.bytes);
    const b = unzipSync(whole);
    expect(strFromU8(a["results.json"]!)).toBe(strFromU8(b["results.json"]!));
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    for (const name of Object.keys(b)) expect(strFromU8(a[name]!), name).toBe(strFromU8(b[name]!));
    expect(Buffer.from(merged.bytes).equals(Buffer.from(whole))).toBe(true);
    expect(merged.bundle.shard).toBeUndefined();
    expect(merged.bundle.results).toHaveLength(expandExperiment(exp).length);
  });

  it("takes the newest part's createdAt (merging the same parts twice gives the same bytes)", () => {
    const parts = [part(1, 2, { createdAt: "2026-12-01T00:00:00.000Z" }), part(2, 2, { createdAt: "2026-12-03T00:00:00.000Z" })];
    const m1 = mergeBundles(parts);
    const m2 = mergeBundles([...parts].reverse());
    expect(m1.bundle.manifest.createdAt).toBe("2026-12-03T00:00:00.000Z");
    expect(Buffer.from(m1.bytes).equals(Buffer.from(m2.bytes))).toBe(true);
    expect(strFromU8(unzipSync(m1.bytes)["results.json"]!)).toBe(strFromU8(unzipSync(whole)["results.json"]!));
  });

  it("a single part 1/1 merges into the whole; empty parts (more parts than runs) may be left out", () => {
    expect(Buffer.from(mergeBundles([part(1, 1)]).bytes).equals(Buffer.from(whole))).toBe(true);
    const many = Array.from({ length: 12 }, (_, i) => part(i + 1, 20));
    expect(Buffer.from(mergeBundles(many).bytes).equals(Buffer.from(whole))).toBe(true);
    expect(Buffer.from(mergeBundles([...many, part(17, 20)]).bytes).equals(Buffer.from(whole))).toBe(true);
  });

  it("refuses a bundle written without --shard", () => {
    refused(() => mergeBundles([part(1, 2), { fileName: "whole.siglab", bytes: whole }]), "not-a-part", /^whole\.siglab: is not a part of a sharded experiment/);
  });

  it("refuses parts of different experiments, splits or SigLab versions", () => {
    const other = experiment({ sweep: { param: "iterations", values: [10, 20, 30] }, seed: 7 });
    const otherPart: MergePart = { fileName: "other.siglab", bytes: writeBundle(bundleInput({ experiment: other, results: shardIndices(12, 2, 4).map((k) => fakeResults(other)[k]!), shard: { index: 2, count: 4 } })) };
    refused(() => mergeBundles([part(1, 4), otherPart, part(3, 4), part(4, 4)]), "mismatch", /other\.siglab: comes from a different experiment than part-1\.siglab \(experiment\.json differs\)/);
    refused(() => mergeBundles([part(1, 4), part(2, 3)]), "mismatch", /part-2\.siglab: is part 2 of 3, part-1\.siglab is part 1 of 4: parts of different splits/);
    refused(() => mergeBundles([part(1, 2), part(2, 2, { appVersion: "9.9.9" })]), "mismatch", /written by SigLab 9\.9\.9, part-1\.siglab by 0\.1\.0-test/);
    const charted = part(2, 2, { charts: {} });
    refused(() => mergeBundles([part(1, 2), charted]), "mismatch", /charts\/bars\.png, charts\/phases\.svg differ\)/);
  });

  it("refuses overlapping parts and gaps, naming the missing runs", () => {
    refused(() => mergeBundles([part(1, 4), part(2, 4), { ...part(2, 4), fileName: "copy.siglab" }]), "overlap", /copy\.siglab: is part 2 of 4, and so is part-2\.siglab: the parts overlap \(runs 2, 6, 10\)/);
    refused(() => mergeBundles([part(1, 4), part(2, 4), part(4, 4)], { fileName: "all.siglab" }), "gap", /^all\.siglab: the parts leave runs out: part 3 of 4 \(runs 3, 7, 11\) is missing/);
    refused(() => mergeBundles([]), "invalid-input", /no parts/);
  });

  it("refuses a damaged part with readBundle's message", () => {
    const bad = part(2, 2);
    const bytes = bad.bytes.slice();
    bytes[bytes.length - 30] ^= 0xff;
    expect(() => mergeBundles([part(1, 2), { ...bad, bytes }])).toThrow(/part-2\.siglab: /);
  });
});
