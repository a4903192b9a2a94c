/** writeBundle: experiment + profiles + plugins + results → the bytes of a format-v1 bundle. */
import { strToU8, zipSync, type Zippable } from "fflate";
import { BundleError } from "./errors.js";
import { decodeV1 } from "./decode.js";
import {
  ENTRY,
  FORMAT_VERSION,
  pluginPrefix,
  profileEntry,
  workloadEntry,
  type Bundle,
  type BundleInput,
  type BundleManifest,
  type BundlePluginRef,
} from "./format.js";
import { hashFileSet, sha256Hex } from "./hash.js";
import { SAFE_ID, unsafeEntryReason } from "./paths.js";
import { shardInfo, type ShardInfo } from "./shard.js";
import type { ExperimentFile } from "./schema.js";
import { summarizeMarkdown } from "./summary.js";

const NEW_BUNDLE = "(new bundle)";

const json = (v: unknown): Uint8Array => strToU8(JSON.stringify(v, null, 2) + "\n");
const bytesOf = (v: Uint8Array | string): Uint8Array => (typeof v === "string" ? strToU8(v) : v);

function fail(problem: string, entry?: string): never {
  throw new BundleError("invalid-input", NEW_BUNDLE, problem, entry);
}

/** The entries of a v1 bundle without its manifest. */
export function buildEntries(input: BundleInput): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const { experiment } = input;
  if (!SAFE_ID.test(experiment.workload.id)) fail(`workload id ${JSON.stringify(experiment.workload.id)} is not usable as a file name`);
  const { source, ...workload } = experiment.workload;
  const stored: ExperimentFile = { ...experiment, workload: { ...workload, entry: workloadEntry(workload.id) } };
  files.set(ENTRY.experiment, json(stored));
  files.set(workloadEntry(workload.id), strToU8(source));

  for (const id of new Set(experiment.cpus.map((c) => c.id))) {
    const profile = input.profiles.find((p) => p.id === id);
    if (!profile) fail(`no CPU profile given for CPU ${id}`);
    files.set(profileEntry(id), json(profile));
  }

  const refs: BundlePluginRef[] = [];
  for (const p of input.plugins) {
    const ref: BundlePluginRef = { id: p.id, version: p.version, source: p.source };
    if (p.apiVersion !== undefined) ref.apiVersion = p.apiVersion;
    if (p.displayName !== undefined) ref.displayName = p.displayName;
    if (p.source === "builtin") {
      if (p.hash !== undefined) ref.hash = p.hash;
    } else {
      const code: Record<string, Uint8Array> = Object.create(null);
      for (const [rel, content] of Object.entries(p.files)) {
        code[rel] = bytesOf(content);
        files.set(pluginPrefix(p.id) + rel, code[rel]);
      }
      ref.hash = hashFileSet(code);
    }
    refs.push(ref);
  }
  files.set(ENTRY.plugins, json(refs));
  files.set(ENTRY.results, json(input.results));
  let shard: ShardInfo | undefined;
  if (input.shard) {
    const { index, count } = input.shard;
    if (!(Number.isInteger(index) && Number.isInteger(count) && index >= 1 && index <= count)) fail(`shard ${index}/${count}: expected whole numbers 1 <= i <= n`);
    shard = shardInfo(experiment, index, count);
    if (shard.runs.length !== input.results.length) fail(`shard ${index}/${count} holds ${shard.runs.length} runs of ${shard.totalRuns}, but ${input.results.length} results were given`);
    files.set(ENTRY.shard, json(shard));
  }
  files.set(ENTRY.summary, strToU8(input.summary ?? summarizeMarkdown(input.results, experiment, shard)));
  for (const [name, content] of Object.entries(input.charts ?? {})) files.set(`charts/${name}`, bytesOf(content));

  for (const name of files.keys()) {
    const reason = unsafeEntryReason(name);
    if (reason) fail(reason, JSON.stringify(name));
  }
  return files;
}

export function manifestFor(files: Map<string, Uint8Array>, appVersion: string, createdAt: string): BundleManifest {
  const entries = [...files.keys()]
    .filter((n) => n !== ENTRY.manifest)
    .sort()
    .map((path) => ({ path, size: files.get(path)!.length, sha256: sha256Hex(files.get(path)!) }));
  return { formatVersion: FORMAT_VERSION, appVersion, createdAt, entries };
}

/** Zip a complete entry map: manifest first, PNGs stored (already compressed), fixed timestamps. */
export function zipEntries(files: Map<string, Uint8Array>, createdAt: string): Uint8Array {
  // DOS times are local-time fields: build the Date from UTC parts so the bytes do not depend on
  // the host's time zone (same input → same bundle).
  const t = new Date(createdAt);
  const mtime = Number.isNaN(t.getTime())
    ? new Date(1980, 0, 1)
    : new Date(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds());
  const zippable: Zippable = {};
  const names = [...files.keys()].sort((a, b) => (a === ENTRY.manifest ? -1 : b === ENTRY.manifest ? 1 : a < b ? -1 : 1));
  for (const name of names) zippable[name] = [files.get(name)!, { level: name.endsWith(".png") ? 0 : 6, mtime }];
  return zipSync(zippable);
}

/** Checks the input as a reader would, then returns the zip bytes. Throws BundleError on bad input. */
export function writeBundle(input: BundleInput): Uint8Array {
  return writeBundleWithInfo(input).bytes;
}

export function writeBundleWithInfo(input: BundleInput): { bytes: Uint8Array; bundle: Bundle } {
  const createdAt = input.createdAt ?? new Date().toISOString();
  const files = buildEntries(input);
  files.set(ENTRY.manifest, json(manifestFor(files, input.appVersion, createdAt)));
  const bundle = decodeV1(files, NEW_BUNDLE);
  return { bytes: zipEntries(files, createdAt), bundle };
}
