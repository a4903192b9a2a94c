/**
 * Format v1 from a map of entry name → bytes to a Bundle, checking everything the manifest
 * promises: hashes and sizes, no unlisted or unexpected entries, schemas, and that the entries
 * agree with each other (profiles for every CPU, a plugin for every variant, embedded code hashes).
 * writeBundle runs the same checks on what it is about to write, so whatever it writes reads back.
 */
import type { ExperimentConfig, RunResult } from "../common/index.js";
import { checkExperimentSize, expandExperiment } from "../common/experiment.js";
import { BundleError } from "./errors.js";
import {
  CHART_ENTRY,
  ENTRY,
  FORMAT_VERSION,
  pluginPrefix,
  profileEntry,
  type Bundle,
  type CpuProfileFile,
} from "./format.js";
import { hashFileSet, sha256Hex } from "./hash.js";
import { CpuProfileFileSchema } from "@siglab/cpu-profiles";
import {
  EmbeddedPluginManifestSchema,
  ExperimentFileSchema,
  ManifestSchema,
  PluginsFileSchema,
  ResultsFileSchema,
  ShardFileSchema,
  type BundleManifest,
} from "./schema.js";
import { shardInfo, type ShardInfo } from "./shard.js";
import { checkSchema, decodeText, parseJson } from "./validate.js";

const EXPECTED_ENTRY = [
  /^(manifest|experiment|plugins|results|shard)\.json$/,
  /^summary\.md$/,
  /^workloads\/[^/]+\.ts$/,
  /^profiles\/[^/]+\.json$/,
  /^plugins\/[^/]+\/(.*[^/])$/,
  CHART_ENTRY,
];

function need(files: Map<string, Uint8Array>, name: string, file: string): Uint8Array {
  const b = files.get(name);
  if (!b) throw new BundleError("missing-entry", file, "required entry is missing", name);
  return b;
}

function checkManifest(files: Map<string, Uint8Array>, file: string): BundleManifest {
  const manifest = checkSchema(ManifestSchema, parseJson(need(files, ENTRY.manifest, file), file, ENTRY.manifest), file, ENTRY.manifest);
  if (manifest.formatVersion !== FORMAT_VERSION) {
    throw new BundleError("unknown-version", file, `expected formatVersion ${FORMAT_VERSION}, got ${manifest.formatVersion}`, ENTRY.manifest);
  }
  const listed = new Set<string>();
  for (const e of manifest.entries) {
    if (e.path === ENTRY.manifest || listed.has(e.path)) {
      throw new BundleError("schema", file, `entries lists ${e.path} ${listed.has(e.path) ? "twice" : "(the manifest cannot hash itself)"}`, ENTRY.manifest);
    }
    listed.add(e.path);
    const bytes = files.get(e.path);
    if (!bytes) throw new BundleError("missing-entry", file, "listed in manifest.json but not in the zip", e.path);
    if (bytes.length !== e.size) {
      throw new BundleError("hash-mismatch", file, `size ${bytes.length} does not match the manifest's ${e.size}`, e.path);
    }
    const actual = sha256Hex(bytes);
    if (actual !== e.sha256) {
      throw new BundleError("hash-mismatch", file, `content hash ${actual} does not match the manifest's ${e.sha256}`, e.path);
    }
  }
  for (const name of files.keys()) {
    if (name === ENTRY.manifest) continue;
    if (!listed.has(name)) throw new BundleError("unlisted-entry", file, "entry is not listed in manifest.json", name);
    if (!EXPECTED_ENTRY.some((re) => re.test(name))) {
      throw new BundleError("inconsistent", file, "unexpected entry (not part of bundle format v1)", name);
    }
  }
  return manifest;
}

function decodeExperiment(files: Map<string, Uint8Array>, file: string): ExperimentConfig {
  const stored = checkSchema(ExperimentFileSchema, parseJson(need(files, ENTRY.experiment, file), file, ENTRY.experiment), file, ENTRY.experiment);
  const source = decodeText(need(files, stored.workload.entry, file), file, stored.workload.entry);
  const { entry: _entry, ...workload } = stored.workload;
  return { ...stored, workload: { ...workload, source } };
}

function decodeProfiles(files: Map<string, Uint8Array>, exp: ExperimentConfig, file: string): CpuProfileFile[] {
  const ids = [...new Set(exp.cpus.map((c) => c.id))];
  return ids.map((id) => {
    const name = profileEntry(id);
    const bytes = files.get(name);
    if (!bytes) throw new BundleError("missing-entry", file, `CPU ${id} is used by the experiment but its profile is not in the bundle`, name);
    const profile = checkSchema(CpuProfileFileSchema, parseJson(bytes, file, name), file, name);
    if (profile.id !== id) throw new BundleError("inconsistent", file, `profile id ${JSON.stringify(profile.id)} does not match CPU ${id}`, name);
    return profile as unknown as CpuProfileFile; // the TypeBox static type is looser than the interface
  });
}

function decodePlugins(files: Map<string, Uint8Array>, exp: ExperimentConfig, file: string) {
  const plugins = checkSchema(PluginsFileSchema, parseJson(need(files, ENTRY.plugins, file), file, ENTRY.plugins), file, ENTRY.plugins);
  const byId = new Map(plugins.map((p) => [p.id, p]));
  if (byId.size !== plugins.length) throw new BundleError("schema", file, "a plugin id appears twice", ENTRY.plugins);
  for (const stack of exp.stacks) {
    for (const v of stack) {
      if (!byId.has(v.id)) throw new BundleError("inconsistent", file, `variant ${v.id} is used by the experiment but not listed`, ENTRY.plugins);
    }
  }
  // null-prototype records: entry names are data, and "__proto__" must stay an ordinary key
  const embedded: Record<string, Record<string, Uint8Array>> = Object.create(null);
  for (const [name, bytes] of files) {
    if (!name.startsWith("plugins/")) continue;
    const id = name.split("/")[1]!;
    const ref = byId.get(id);
    if (!ref || ref.source !== "embedded") {
      throw new BundleError("inconsistent", file, `code for plugin ${id}, which plugins.json does not list as embedded`, name);
    }
    (embedded[id] ??= Object.create(null))[name.slice(pluginPrefix(id).length)] = bytes;
  }
  for (const p of plugins) {
    if (p.source !== "embedded") continue;
    const code = embedded[p.id] ?? Object.create(null);
    const where = `${pluginPrefix(p.id)}plugin.json`;
    if (!code["plugin.json"]) throw new BundleError("missing-entry", file, `embedded plugin ${p.id} has no plugin.json`, where);
    const m = checkSchema(EmbeddedPluginManifestSchema, parseJson(code["plugin.json"], file, where), file, where);
    if (m.id !== p.id || m.version !== p.version) {
      throw new BundleError("inconsistent", file, `manifest says ${m.id}@${m.version}, plugins.json says ${p.id}@${p.version}`, where);
    }
    const actual = hashFileSet(code);
    if (!p.hash) throw new BundleError("schema", file, `embedded plugin ${p.id} has no hash`, ENTRY.plugins);
    if (actual !== p.hash) {
      throw new BundleError("hash-mismatch", file, `code of embedded plugin ${p.id}@${p.version} hashes to ${actual}, plugins.json says ${p.hash}`, pluginPrefix(p.id));
    }
    embedded[p.id] = code;
  }
  return { plugins, embedded };
}

/**
 * shard.json of a part (--shard i/n): its slice must be the one the experiment and i/n give, and
 * results.json must hold exactly those runs.
 */
function decodeShard(files: Map<string, Uint8Array>, exp: ExperimentConfig, results: RunResult[], file: string): ShardInfo | undefined {
  const bytes = files.get(ENTRY.shard);
  if (!bytes) return undefined;
  const shard = checkSchema(ShardFileSchema, parseJson(bytes, file, ENTRY.shard), file, ENTRY.shard);
  if (shard.index > shard.count) throw new BundleError("inconsistent", file, `shard ${shard.index} of ${shard.count} does not exist`, ENTRY.shard);
  const expected = shardInfo(exp, shard.index, shard.count);
  if (shard.totalRuns !== expected.totalRuns) {
    throw new BundleError("inconsistent", file, `says the experiment has ${shard.totalRuns} runs, experiment.json expands to ${expected.totalRuns}`, ENTRY.shard);
  }
  if (JSON.stringify(shard.runs) !== JSON.stringify(expected.runs)) {
    throw new BundleError("inconsistent", file, `runs of shard ${shard.index}/${shard.count} are not the experiment's runs ${shard.index}, ${shard.index}+${shard.count}, …`, ENTRY.shard);
  }
  if (results.length !== shard.runs.length) {
    throw new BundleError("inconsistent", file, `shard ${shard.index}/${shard.count} holds ${shard.runs.length} runs but results.json has ${results.length}`, ENTRY.results);
  }
  return shard;
}

/** Results that do not line up with the experiment's runs (or a part's runs): worth a warning, not a refusal. */
function resultWarnings(exp: ExperimentConfig, results: RunResult[], shard?: ShardInfo): string[] {
  const all = expandExperiment(exp);
  const specs = shard ? shard.runs.map((n) => all[n - 1]!) : all;
  const number = (i: number): number => (shard ? shard.runs[i]! : i + 1);
  const out: string[] = [];
  if (specs.length !== results.length) out.push(`the experiment has ${specs.length} runs but results.json holds ${results.length}`);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  specs.forEach((s, i) => {
    const r = results[i];
    if (!r) return;
    // results carry the workload's defaults too: the run's own params must be among them
    const params = Object.entries(s.params).every(([k, v]) => r.params[k] === v);
    if (r.cpu.id !== s.cpu.id || r.cpu.mhz !== s.cpu.mhz || (r.cpu.smp ?? 1) !== (s.cpu.smp ?? 1) || !same(r.variants.map((v) => v.id), s.variants.map((v) => v.id)) || !params || r.seed !== s.seed) {
      out.push(`result ${i + 1} does not match run ${number(i)} of the experiment (CPU, variants, params or seed)`);
    }
  });
  return out;
}

export function decodeV1(files: Map<string, Uint8Array>, file: string): Bundle {
  const manifest = checkManifest(files, file);
  const experiment = decodeExperiment(files, file);
  try {
    checkExperimentSize(experiment);
  } catch (e) {
    // a few bytes of JSON can describe billions of runs: refuse before anything expands it
    throw new BundleError("too-large", file, (e as Error).message, ENTRY.experiment);
  }
  const profiles = decodeProfiles(files, experiment, file);
  const { plugins, embedded } = decodePlugins(files, experiment, file);
  const results = checkSchema(ResultsFileSchema, parseJson(need(files, ENTRY.results, file), file, ENTRY.results), file, ENTRY.results) as RunResult[];
  const summary = decodeText(need(files, ENTRY.summary, file), file, ENTRY.summary);
  const charts: Record<string, Uint8Array> = Object.create(null);
  for (const [name, bytes] of files) if (name.startsWith("charts/")) charts[name.slice("charts/".length)] = bytes;
  const shard = decodeShard(files, experiment, results, file);
  const warnings = resultWarnings(experiment, results, shard);
  const usedProfiles = new Set(profiles.map((p) => profileEntry(p.id)));
  for (const name of files.keys()) {
    if (name.startsWith("profiles/") && !usedProfiles.has(name)) warnings.push(`${name} is not used by any CPU of the experiment`);
  }
  const bundle: Bundle = { fileName: file, manifest, experiment, profiles, plugins, embeddedPlugins: embedded, results, summary, charts, warnings };
  if (shard) bundle.shard = shard;
  return bundle;
}
