/**
 * Format migrations, one step per version: on open, a bundle in format N is carried to N+1, N+2, …
 * up to FORMAT_VERSION, each step a pure function on the entry map. To change the format: bump
 * FORMAT_VERSION, add a step from the old version, and keep a fixture of the old format in tests.
 */
import { strToU8 } from "fflate";
import type { ExperimentConfig, RunResult, VariantSpec } from "../common/index.js";
import { BundleError } from "./errors.js";
import { ENTRY, FORMAT_VERSION, profileEntry, workloadEntry } from "./format.js";
import { SAFE_ID } from "./paths.js";
import { manifestFor } from "./write.js";
import { summarizeMarkdown } from "./summary.js";
import { parseV0, resultFromV0, V0_ENTRY } from "./migrations/v0.js";
import { parseJson } from "./validate.js";

export type BundleFiles = Map<string, Uint8Array>;

export interface Migration {
  from: number;
  to: number;
  description: string;
  apply(files: BundleFiles, file: string): { files: BundleFiles; notes: string[] };
}

const json = (v: unknown): Uint8Array => strToU8(JSON.stringify(v, null, 2) + "\n");

const v0ToV1: Migration = {
  from: 0,
  to: 1,
  description: "v0 → v1: split bundle.json into entries, rename results' cycles → totalCycles, add simSeconds, hashes and summary",
  apply(files, file) {
    const v0 = parseV0(files, file);
    const e = v0.experiment;
    if (!SAFE_ID.test(e.workload.id)) {
      throw new BundleError("schema", file, `field experiment.workload.id: not usable as a file name (got ${JSON.stringify(e.workload.id)})`, V0_ENTRY);
    }
    const stacks: VariantSpec[][] = e.variants.map((s) => s.map((v) => (typeof v === "string" ? { id: v } : v)));
    const experiment: ExperimentConfig = { workload: e.workload, cpus: e.cpus, stacks, params: e.params, seed: e.seed };
    const results: RunResult[] = v0.results.map((r) => resultFromV0(r as Parameters<typeof resultFromV0>[0]));
    const out: BundleFiles = new Map();
    const { source, ...workload } = e.workload;
    out.set(ENTRY.experiment, json({ ...experiment, workload: { ...workload, entry: workloadEntry(workload.id) } }));
    out.set(workloadEntry(workload.id), strToU8(source));
    for (const [id, profile] of Object.entries(v0.profiles)) {
      if (!SAFE_ID.test(id)) throw new BundleError("schema", file, `field profiles: key ${JSON.stringify(id)} is not a usable CPU id`, V0_ENTRY);
      out.set(profileEntry(id), json(profile));
    }
    out.set(ENTRY.plugins, json(v0.plugins.map((p) => ({ id: p.id, version: p.version, source: "builtin" }))));
    out.set(ENTRY.results, json(results));
    out.set(ENTRY.summary, strToU8(summarizeMarkdown(results, experiment)));
    const created = Number.isNaN(Date.parse(v0.created)) ? "1970-01-01T00:00:00.000Z" : new Date(v0.created).toISOString();
    out.set(ENTRY.manifest, json(manifestFor(out, v0.app, created)));
    return {
      files: out,
      notes: [`migrated from bundle format v0 (SigLab ${v0.app}): v0 had no content hashes or plugin hashes, so its integrity could not be checked`],
    };
  },
};

export const MIGRATIONS: readonly Migration[] = [v0ToV1];

/** The format version of an entry map: manifest.json's formatVersion, or 0 for a v0 bundle.json. */
export function detectFormatVersion(files: BundleFiles, file: string): number {
  const manifestBytes = files.get(ENTRY.manifest);
  if (manifestBytes) {
    const m = parseJson(manifestBytes, file, ENTRY.manifest);
    const v = (m as { formatVersion?: unknown } | null)?.formatVersion;
    if (typeof m !== "object" || m === null || typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      throw new BundleError("schema", file, `field formatVersion: expected an integer >= 1 (got ${JSON.stringify(v) ?? "missing"})`, ENTRY.manifest);
    }
    if (v > FORMAT_VERSION) {
      const app = (m as { appVersion?: unknown }).appVersion;
      throw new BundleError(
        "newer-version",
        file,
        `bundle format v${v}${typeof app === "string" ? ` (written by SigLab ${app.slice(0, 40)})` : ""} is newer than this SigLab reads (up to v${FORMAT_VERSION}); update SigLab to open it`,
        ENTRY.manifest,
      );
    }
    return v;
  }
  if (files.has(V0_ENTRY)) {
    const v = (parseJson(files.get(V0_ENTRY)!, file, V0_ENTRY) as { version?: unknown } | null)?.version;
    if (v !== 0) throw new BundleError("unknown-version", file, `field version: expected 0 for a format v0 bundle (got ${JSON.stringify(v) ?? "missing"})`, V0_ENTRY);
    return 0;
  }
  throw new BundleError("missing-entry", file, "not a SigLab bundle: no manifest.json", ENTRY.manifest);
}

export interface MigrationOutcome {
  files: BundleFiles;
  fromVersion: number;
  toVersion: number;
  /** One line per step applied, then what the user should know. */
  steps: string[];
  notes: string[];
}

/** Carries an entry map to FORMAT_VERSION, step by step. Throws BundleError on a gap or newer format. */
export function migrateBundle(files: BundleFiles, opts: { fileName?: string } = {}): MigrationOutcome {
  const file = opts.fileName ?? "bundle";
  const fromVersion = detectFormatVersion(files, file);
  let version = fromVersion;
  let current = files;
  const steps: string[] = [];
  const notes: string[] = [];
  while (version < FORMAT_VERSION) {
    const step = MIGRATIONS.find((m) => m.from === version);
    if (!step) throw new BundleError("unknown-version", file, `no migration from bundle format v${version}`);
    const r = step.apply(current, file);
    current = r.files;
    notes.push(...r.notes);
    steps.push(step.description);
    version = step.to;
  }
  return { files: current, fromVersion, toVersion: version, steps, notes };
}
