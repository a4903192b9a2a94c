/**
 * Property-based tests over readBundle: whatever the bytes, it returns a Bundle or throws a
 * BundleError naming the file. Never a TypeError, RangeError or a hang.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { BundleError, readBundle, unsafeEntryReason, writeBundle } from "../../src/bundle/index.js";
import { bundleInput } from "./fixtures.js";
import { craftZip, rehashManifest } from "./zip-craft.js";

const good = writeBundle(bundleInput());
const LIMITS = { maxEntryBytes: 256 * 1024, maxTotalBytes: 1024 * 1024 };

function outcome(bytes: Uint8Array): "ok" | "refused" {
  try {
    readBundle(bytes, { fileName: "fuzz.siglab", limits: LIMITS });
    return "ok";
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    expect(e.message.startsWith("fuzz.siglab: ")).toBe(true);
    return "refused";
  }
}

describe("readBundle under fuzzing", () => {
  it("random bytes are refused with a BundleError", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => outcome(bytes) === "refused"), { numRuns: 300 });
  });

  it("random bytes behind a zip signature are refused with a BundleError", () => {
    const sigs = [[0x50, 0x4b, 3, 4], [0x50, 0x4b, 5, 6]];
    fc.assert(
      fc.property(fc.constantFrom(...sigs), fc.uint8Array({ minLength: 18, maxLength: 4096 }), (sig, rest) => {
        outcome(new Uint8Array([...sig, ...rest]));
      }),
      { numRuns: 300 },
    );
  });

  it("a valid bundle with bytes flipped, cut or spliced never fails any other way", () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant("flip" as const), edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }) }),
      fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("splice" as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
    );
    fc.assert(
      fc.property(mutation, (m) => {
        let bytes: Uint8Array;
        if (m.kind === "flip") {
          bytes = good.slice();
          for (const [pos, b] of m.edits) bytes[pos % bytes.length] = b;
        } else if (m.kind === "cut") {
          bytes = good.subarray(0, m.at % good.length);
        } else {
          const at = m.at % good.length;
          bytes = new Uint8Array([...good.subarray(0, at), ...m.bytes, ...good.subarray(at)]);
        }
        outcome(bytes);
      }),
      { numRuns: 400 },
    );
  });

  it("mutated JSON entries (re-hashed, so only the schema stands guard) are refused or read", () => {
    const files = unzipSync(good);
    const names = ["experiment.json", "plugins.json", "results.json", "manifest.json", "profiles/p4-northwood.json"];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (name, value, rehash) => {
        const copy = { ...files, [name]: strToU8(JSON.stringify(value)) };
        if (rehash && name !== "manifest.json") rehashManifest(copy);
        // only an empty results list is valid JSON of the right shape that fc can produce here
        if (outcome(zipSync(copy)) === "ok") expect([name, value, rehash]).toEqual(["results.json", [], true]);
      }),
      { numRuns: 300 },
    );
  });

  it("arbitrary entry names are either refused as unsafe or are safe relative paths", () => {
    const nameChar = fc.constantFrom("a", "B", "0", ".", "..", "/", "\\", ":", "-", "_", " ", "\u0000", "é", "~", "C:");
    const name = fc.array(nameChar, { minLength: 1, maxLength: 12 }).map((a) => a.join(""));
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), (extra) => {
        const base = unzipSync(good);
        const entries = [...Object.entries(base).map(([n, data]) => ({ name: n, data })), ...extra.map((n) => ({ name: `plugins/thirdparty-mask/${n}`, data: "x" }))];
        const r = outcome(craftZip(entries));
        // it can only open if every name is a safe relative path (and then the hashes refuse it)
        if (r === "ok") for (const n of extra) expect(unsafeEntryReason(`plugins/thirdparty-mask/${n}`)).toBeUndefined();
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it("unsafeEntryReason never lets a name escape: no accepted name has .., a leading / or a backslash", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        if (unsafeEntryReason(s) === undefined) {
          expect(s.split("/")).not.toContain("..");
          expect(s.startsWith("/")).toBe(false);
          expect(s.includes("\\")).toBe(false);
          expect(/^[A-Za-z]:/.test(s)).toBe(false);
          expect(/[\u0000-\u001f]/.test(s)).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
