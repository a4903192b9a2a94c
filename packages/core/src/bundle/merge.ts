/**
 * mergeBundles: the parts of a sharded experiment (bundles written with --shard i/n) → the bundle
 * the unsharded command would have written. Every part is read and checked like any bundle
 * (readBundle's checks); then the parts must come from the same experiment — every entry but the
 * results, the summary, the manifest and shard.json byte-identical, the same SigLab version and the
 * same n — must not overlap (a slice given twice) and must leave no run out. The merged
 * results.json holds every run in expansion order and is byte-identical to the unsharded bundle's;
 * summary.md is generated the same way; only manifest.createdAt differs (the newest part's time,
 * so merging the same parts twice gives the same bytes). Pure data: no code of a part runs.
 */
import type { RunResult } from "../common/index.js";
import { BundleError } from "./errors.js";
import { decodeV1 } from "./decode.js";
import { ENTRY, type Bundle } from "./format.js";
import { resolveLimits, type BundleLimits } from "./limits.js";
import { migrateBundle } from "./migrate.js";
import { readBundle } from "./read.js";
import { formatRunNumbers, shardIndices } from "./shard.js";
import { summarizeMarkdown } from "./summary.js";
import { manifestFor, zipEntries } from "./write.js";
import { readZipEntries } from "./zip-read.js";
import { strToU8 } from "fflate";

export interface MergePart {
  bytes: Uint8Array;
  /** how the user knows the file (messages name it) */
  fileName: string;
}

export interface MergeOptions {
  /** the merged bundle's name, for messages about the whole set (gaps) */
  fileName?: string;
  limits?: Partial<BundleLimits>;
}

/** Entries that differ from part to part; every other entry must be the same in every part. */
const PER_PART = new Set<string>([ENTRY.manifest, ENTRY.results, ENTRY.summary, ENTRY.shard]);

interface ReadPart {
  fileName: string;
  files: Map<string, Uint8Array>;
  bundle: Bundle;
}

function readPart(p: MergePart, limits: BundleLimits): ReadPart {
  // readBundle's refusals (zip, names, sizes, hashes, schemas, consistency) with its messages
  readBundle(p.bytes, { fileName: p.fileName, limits });
  const migrated = migrateBundle(readZipEntries(p.bytes, p.fileName, limits), { fileName: p.fileName });
  return { fileName: p.fileName, files: migrated.files, bundle: decodeV1(migrated.files, p.fileName) };
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Names of the shared entries in which two parts differ (present in one only, or other bytes). */
function differingEntries(a: ReadPart, b: ReadPart): string[] {
  const names = new Set([...a.files.keys(), ...b.files.keys()].filter((n) => !PER_PART.has(n)));
  return [...names].sort().filter((n) => !sameBytes(a.files.get(n), b.files.get(n)));
}

export function mergeBundles(parts: MergePart[], opts: MergeOptions = {}): { bytes: Uint8Array; bundle: Bundle } {
  const out = opts.fileName ?? "(merged bundle)";
  const limits = resolveLimits(opts.limits);
  if (!parts.length) throw new BundleError("invalid-input", out, "no parts to merge");
  const read = parts.map((p) => readPart(p, limits));
  for (const r of read) {
    if (!r.bundle.shard) throw new BundleError("not-a-part", r.fileName, "is not a part of a sharded experiment (no shard.json: it was written without --shard i/n)");
  }
  const first = read[0]!;
  const count = first.bundle.shard!.count;
  for (const r of read.slice(1)) {
    if (r.bundle.shard!.count !== count) {
      throw new BundleError("mismatch", r.fileName, `is part ${r.bundle.shard!.index} of ${r.bundle.shard!.count}, ${first.fileName} is part ${first.bundle.shard!.index} of ${count}: parts of different splits (--shard i/n with another n)`);
    }
    const differ = differingEntries(first, r);
    if (differ.length) {
      throw new BundleError("mismatch", r.fileName, `comes from a different experiment than ${first.fileName} (${differ.slice(0, 4).join(", ")}${differ.length > 4 ? `, … ${differ.length} entries` : ""} differ${differ.length === 1 ? "s" : ""})`);
    }
    if (r.bundle.manifest.appVersion !== first.bundle.manifest.appVersion) {
      throw new BundleError("mismatch", r.fileName, `was written by SigLab ${r.bundle.manifest.appVersion}, ${first.fileName} by ${first.bundle.manifest.appVersion}: results of different versions are not one experiment's`);
    }
  }
  const byIndex = new Map<number, ReadPart>();
  for (const r of read) {
    const i = r.bundle.shard!.index;
    const seen = byIndex.get(i);
    if (seen) throw new BundleError("overlap", r.fileName, `is part ${i} of ${count}, and so is ${seen.fileName}: the parts overlap (runs ${formatRunNumbers(r.bundle.shard!.runs)})`);
    byIndex.set(i, r);
  }
  const totalRuns = first.bundle.shard!.totalRuns;
  const missing: string[] = [];
  for (let i = 1; i <= count; i++) {
    if (byIndex.has(i)) continue;
    const runs = shardIndices(totalRuns, i, count).map((k) => k + 1);
    if (runs.length) missing.push(`part ${i} of ${count} (runs ${formatRunNumbers(runs)})`);
  }
  if (missing.length) {
    throw new BundleError("gap", out, `the parts leave runs out: ${missing.slice(0, 5).join("; ")}${missing.length > 5 ? `; … ${missing.length} parts` : ""} ${missing.length === 1 ? "is" : "are"} missing`);
  }

  const results: RunResult[] = new Array<RunResult>(totalRuns);
  for (const r of read) r.bundle.shard!.runs.forEach((n, j) => (results[n - 1] = r.bundle.results[j]!));
  const files = new Map<string, Uint8Array>();
  for (const [name, bytes] of first.files) if (!PER_PART.has(name)) files.set(name, bytes);
  // as writeBundle writes them, so that results.json and summary.md are the unsharded bundle's bytes
  files.set(ENTRY.results, strToU8(JSON.stringify(results, null, 2) + "\n"));
  files.set(ENTRY.summary, strToU8(summarizeMarkdown(results, first.bundle.experiment)));
  const createdAt = read.map((r) => r.bundle.manifest.createdAt).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  files.set(ENTRY.manifest, strToU8(JSON.stringify(manifestFor(files, first.bundle.manifest.appVersion, createdAt), null, 2) + "\n"));
  const bytes = zipEntries(files, createdAt);
  if (bytes.length > limits.maxBundleBytes) throw new BundleError("too-large", out, `the merged bundle would be ${bytes.length} bytes, over the ${limits.maxBundleBytes}-byte limit`);
  // whatever merge writes reads back
  return { bytes, bundle: readBundle(bytes, { fileName: out, limits }) };
}
