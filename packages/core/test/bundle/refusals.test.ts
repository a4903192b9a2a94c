import { describe, expect, it } from "vitest";
import { deflateSync, strToU8, unzipSync, zipSync } from "fflate";
import { BundleError, readBundle, writeBundle, type BundleErrorCode, type ReadBundleOptions } from "../../src/bundle/index.js";
import { bundleInput } from "./fixtures.js";
import { craftZip, editJson, rezip, type FileMap } from "./zip-craft.js";

const good = writeBundle(bundleInput());

function refusal(bytes: Uint8Array, opts: ReadBundleOptions = {}): BundleError {
  try {
    readBundle(bytes, { fileName: "x.siglab", ...opts });
  } catch (e) {
    expect(e).toBeInstanceOf(BundleError);
    expect((e as BundleError).message.startsWith("x.siglab: ")).toBe(true);
    return e as BundleError;
  }
  throw new Error("bundle was accepted");
}

function expectRefused(bytes: Uint8Array, code: BundleErrorCode, message: RegExp, opts?: ReadBundleOptions): BundleError {
  const e = refusal(bytes, opts);
  expect(e.code).toBe(code);
  expect(e.message).toMatch(message);
  return e;
}

/** A good bundle's entries plus/minus some, as a crafted zip (keeps full control of the names). */
function craftedFromGood(edit: (files: FileMap) => void, extra: { name: string; data: string; localName?: string }[] = []): Uint8Array {
  const files = unzipSync(good);
  edit(files);
  return craftZip([...Object.entries(files).map(([name, data]) => ({ name, data })), ...extra]);
}

describe("readBundle refuses", () => {
  it("what is not a zip", () => {
    expectRefused(strToU8("# just some markdown, definitely not a zip archive"), "not-zip", /not a zip archive/);
    expectRefused(new Uint8Array(0), "not-zip", /not a zip/);
    expectRefused(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(40).fill(0)]), "not-zip", /not a zip/);
    // a zip signature up front but no end-of-central-directory record
    expectRefused(good.subarray(0, good.length - 30), "not-zip", /not a valid zip archive/);
  });

  it("a zip that is not a bundle, naming manifest.json", () => {
    expectRefused(zipSync({ "readme.txt": strToU8("hi") }), "missing-entry", /manifest\.json: not a SigLab bundle/);
  });

  it.each([
    ["../evil.js", /parent-directory segment/],
    ["plugins/thirdparty-mask/../../../evil.js", /parent-directory segment/],
    ["/etc/passwd", /absolute path/],
    ["C:/Windows/evil.dll", /drive letter/],
    ["plugins\\thirdparty-mask\\x.js", /backslash/],
    ["plugins//x.js", /empty or '.' path segment/],
    ["a\u0000b", /characters outside/],
    ["plugins/x/CON.js", /reserved device name/],
    ["plugins/x/trailing.", /ending in '\.'/],
  ])("zip slip entry %j", (name, reason) => {
    const bytes = zipSync({ "manifest.json": strToU8("{}"), [name]: strToU8("x") });
    const e = expectRefused(bytes, "unsafe-path", reason);
    expect(e.entry).toBe(JSON.stringify(name));
  });

  it("an entry named __proto__ stays an ordinary file of its plugin", () => {
    const bytes = rezip(good, (f) => (f["plugins/thirdparty-mask/__proto__"] = strToU8("x")), { rehash: true });
    // the manifest is re-hashed but plugins.json's hash is not: refused, and no prototype changed
    expectRefused(bytes, "hash-mismatch", /code of embedded plugin thirdparty-mask/);
    expect(({} as Record<string, unknown>).length).toBeUndefined();
  });

  it("a local header whose name differs from the central directory (a hidden zip slip)", () => {
    const bytes = craftedFromGood(() => {}, [{ name: "charts/ok.svg", data: "<svg/>", localName: "../../evil.svg" }]);
    expectRefused(bytes, "unsafe-path", /parent-directory segment/);
  });

  it("duplicate entries, also when they differ only in case", () => {
    const dup = craftedFromGood(() => {}, [{ name: "results.json", data: "[]" }]);
    expectRefused(dup, "duplicate-entry", /results\.json: duplicate entry/);
    const caseDup = craftedFromGood(() => {}, [{ name: "Summary.md", data: "hi" }]);
    expectRefused(caseDup, "duplicate-entry", /Summary\.md: duplicate entry/);
  });

  it("an entry whose declared size is over the limit", () => {
    const big = craftZip([{ name: "manifest.json", data: "{}" }, { name: "results.json", data: "[]", declaredSize: 50_000_000 }]);
    const e = expectRefused(big, "too-large", /results\.json: declares 50000000 bytes uncompressed, over the 33554432-byte limit per entry/);
    expect(e.entry).toBe("results.json");
    expectRefused(good, "too-large", /declares \d+ bytes uncompressed, over the 1000-byte limit per entry/, { limits: { maxEntryBytes: 1000 } });
  });

  it("entries whose declared total is over the limit", () => {
    expectRefused(good, "too-large", /declare more than 5000 bytes uncompressed in total/, { limits: { maxTotalBytes: 5000 } });
  });

  it("too many entries, and a file over the bundle size limit", () => {
    expectRefused(good, "too-large", /more than 5 entries/, { limits: { maxEntries: 5 } });
    expectRefused(good, "too-large", /over the 100-byte limit/, { limits: { maxBundleBytes: 100 } });
  });

  it("a zip bomb that lies about its size: stopped on inflated bytes, not declared ones", () => {
    const bomb = new Uint8Array(16 * 1024 * 1024); // 16 MiB of zeros deflate to ~16 KiB
    const bytes = craftZip([{ name: "results.json", data: bomb, declaredSize: 100 }]);
    expect(bytes.length).toBeLessThan(50_000);
    expectRefused(bytes, "too-large", /results\.json: inflates to more than the 100 bytes it declares/);
  });

  it("a stored entry whose declared size is smaller than its data", () => {
    const bytes = craftedFromGood(() => {}, [{ name: "charts/x.svg", data: "<svg>too long</svg>" }]);
    const lying = craftZip([{ name: "manifest.json", data: "{}" }, { name: "charts/x.svg", data: "<svg>too long</svg>", method: 0, declaredSize: 4 }]);
    expect(refusal(bytes).code).not.toBe("too-large"); // the honest one only fails as unlisted
    expectRefused(lying, "too-large", /charts\/x\.svg: inflates to more than the 4 bytes/);
  });

  it("schema violations, naming the field path", () => {
    const bad = rezip(good, (f) => editJson(f, "experiment.json", (e) => (e.cpus[1].mhz = "fast")), { rehash: true });
    const e = expectRefused(bad, "schema", /experiment\.json: schema violation: field cpus\[1\]\.mhz: Expected number \(got "fast"\)/);
    expect(e.entry).toBe("experiment.json");
    const extra = rezip(good, (f) => editJson(f, "experiment.json", (e) => (e.seeed = 1)), { rehash: true });
    expectRefused(extra, "schema", /field seeed/);
    const results = rezip(good, (f) => editJson(f, "results.json", (r) => delete r[2].totalCycles), { rehash: true });
    expectRefused(results, "schema", /results\.json: schema violation: field \[2\]\.totalCycles: .* \(got missing\)/);
    const manifest = rezip(good, (f) => editJson(f, "manifest.json", (m) => (m.entries[0].sha256 = "xyz")), {});
    expectRefused(manifest, "schema", /manifest\.json: schema violation: field entries\[0\]\.sha256/);
    const profile = rezip(good, (f) => editJson(f, "profiles/p4-northwood.json", (p) => (p.costs.fxsave.cycles = "many")), { rehash: true });
    expectRefused(profile, "schema", /profiles\/p4-northwood\.json: schema violation: field costs\.fxsave\.cycles/);
    const json = rezip(good, (f) => (f["plugins.json"] = strToU8("[{")), { rehash: true });
    expectRefused(json, "invalid-json", /plugins\.json: invalid JSON/);
  });

  it("a newer format version", () => {
    const newer = rezip(good, (f) => editJson(f, "manifest.json", (m) => ((m.formatVersion = 2), (m.appVersion = "9.0.0"))));
    expectRefused(newer, "newer-version", /manifest\.json: bundle format v2 \(written by SigLab 9\.0\.0\) is newer than this SigLab reads \(up to v1\)/);
  });

  it("content that does not match its hash, naming the entry", () => {
    const tampered = rezip(good, (f) => editJson(f, "results.json", (r) => (r[0].totalCycles += 1)));
    expectRefused(tampered, "hash-mismatch", /results\.json: (size|content hash)/);
    const sameSize = rezip(good, (f) => {
      const t = new TextDecoder().decode(f["workloads/lat_sig_catch.ts"]).replace("1000", "9999");
      f["workloads/lat_sig_catch.ts"] = strToU8(t);
    });
    expectRefused(sameSize, "hash-mismatch", /workloads\/lat_sig_catch\.ts: content hash [0-9a-f]{64} does not match/);
  });

  it("embedded plugin code that does not match its plugins.json hash (manifest re-hashed to hide it)", () => {
    const bad = rezip(good, (f) => (f["plugins/thirdparty-mask/dist/index.js"] = strToU8("globalThis.evil = 1;\n")), { rehash: true });
    expectRefused(bad, "hash-mismatch", /plugins\/thirdparty-mask\/: code of embedded plugin thirdparty-mask@0\.3\.1 hashes to/);
  });

  it("entries the manifest does not list, or lists but lacks", () => {
    expectRefused(rezip(good, (f) => (f["charts/extra.svg"] = strToU8("<svg/>"))), "unlisted-entry", /charts\/extra\.svg: entry is not listed/);
    expectRefused(rezip(good, (f) => delete f["charts/bars.png"]), "missing-entry", /charts\/bars\.png: listed in manifest\.json but not in the zip/);
    expectRefused(rezip(good, (f) => (f["notes.txt"] = strToU8("x")), { rehash: true }), "inconsistent", /notes\.txt: unexpected entry/);
  });

  it("missing built-in plugin versions, naming them", () => {
    expectRefused(good, "missing-plugin", /plugins\.json: needs built-in plugin versions this SigLab does not have: sa-nofp@1\.0\.0 \(this SigLab has 0\.9\.0, 2\.0\.0\)/, {
      available: [{ id: "sa-nofp", version: "0.9.0" }, { id: "sa-nofp", version: "2.0.0" }],
    });
    expectRefused(good, "missing-plugin", /sa-nofp@1\.0\.0 \(not installed\)/, { available: [] });
    const ok = readBundle(good, { available: [{ id: "sa-nofp", version: "1.0.0", hash: "b".repeat(64) }] });
    expect(ok.warnings.join()).toMatch(/sa-nofp@1\.0\.0 differs from the one the bundle was made with/);
  });

  it("bundles whose entries disagree with each other", () => {
    const noProfile = rezip(good, (f) => delete f["profiles/p3-coppermine.json"], { rehash: true });
    expectRefused(noProfile, "missing-entry", /profiles\/p3-coppermine\.json: CPU p3-coppermine is used by the experiment/);
    const noPlugin = rezip(good, (f) => editJson(f, "plugins.json", (p) => p.splice(0, 1)), { rehash: true });
    expectRefused(noPlugin, "inconsistent", /plugins\.json: variant sa-nofp is used by the experiment but not listed/);
    const strayCode = rezip(good, (f) => (f["plugins/sa-nofp/index.js"] = strToU8("x")), { rehash: true });
    expectRefused(strayCode, "inconsistent", /plugins\/sa-nofp\/index\.js: code for plugin sa-nofp/);
  });

  it("unsupported compression and corrupt deflate data", () => {
    const bzip = craftZip([{ name: "manifest.json", data: "{}" }, { name: "summary.md", data: "BZh91AY", method: 12 }]);
    expectRefused(bzip, "corrupt", /summary\.md: unsupported compression method 12/);
    const deflated = deflateSync(strToU8("hello ".repeat(100)));
    const broken = Uint8Array.from(deflated, (b, j) => (j === 0 ? b | 0x06 : b)); // block type 3: reserved
    const zip = craftZip([{ name: "manifest.json", data: "{}" }, { name: "summary.md", data: broken, method: 8, raw: true, declaredSize: 600 }]);
    expectRefused(zip, "corrupt", /summary\.md: cannot inflate/);
  });
});
