/**
 * TypeBox schemas for the bundle entries. The manifest and the experiment are strict (unknown
 * fields refused: a typo in a hand-edited bundle should not pass silently); results and profiles
 * accept extra fields so a newer simulator may add data without a format bump.
 * packages/core/schema/*.schema.json are these schemas exported as JSON (a test keeps them in sync).
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { ExperimentConfig, RunResult } from "../common/index.js";
import { LOOP_LIMIT } from "../common/loops.js";

const ID = "^[A-Za-z0-9][A-Za-z0-9._@+~-]{0,127}$";
const SHA256 = "^[0-9a-f]{64}$";
const ISO_TIME = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$";
const strict = { additionalProperties: false } as const;

export const ParamValueSchema = Type.Union([Type.Number(), Type.String(), Type.Boolean()]);
const ParamsSchema = Type.Record(Type.String(), ParamValueSchema);

export const VariantSpecSchema = Type.Object(
  { id: Type.String({ pattern: ID }), options: Type.Optional(ParamsSchema) },
  strict,
);
export const CpuRefSchema = Type.Object(
  { id: Type.String({ pattern: ID }), mhz: Type.Number({ exclusiveMinimum: 0 }), smp: Type.Optional(Type.Integer({ minimum: 1, maximum: 8, description: "CPUs of the machine (absent: 1)" })) },
  strict,
);
const BudgetSchema = Type.Object(
  {
    maxCycles: Type.Optional(Type.Number({ minimum: 0 })),
    maxSteps: Type.Optional(Type.Number({ minimum: 0 })),
    maxHostMs: Type.Optional(Type.Number({ minimum: 0 })),
  },
  strict,
);

// ---- manifest.json ---------------------------------------------------------------------------

export const ManifestEntrySchema = Type.Object(
  {
    path: Type.String({ minLength: 1 }),
    size: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: SHA256 }),
  },
  strict,
);

export const ManifestSchema = Type.Object(
  {
    formatVersion: Type.Integer({ minimum: 1 }),
    appVersion: Type.String({ minLength: 1 }),
    createdAt: Type.String({ pattern: ISO_TIME }),
    /** Every other entry of the zip, with its size and SHA-256; sorted by path. */
    entries: Type.Array(ManifestEntrySchema),
  },
  { ...strict, $id: "urn:siglab:bundle:manifest:v1", title: "SigLab bundle manifest (format v1)" },
);
export type BundleManifest = Static<typeof ManifestSchema>;

// ---- experiment.json -------------------------------------------------------------------------

/** ExperimentConfig as stored: the workload source lives in its own entry (`workload.entry`). */
export const ExperimentFileSchema = Type.Object(
  {
    workload: Type.Object(
      {
        id: Type.String({ pattern: ID }),
        file: Type.String(),
        entry: Type.String({ pattern: "^workloads/[A-Za-z0-9][A-Za-z0-9._@+~-]{0,127}\\.ts$" }),
      },
      strict,
    ),
    cpus: Type.Array(CpuRefSchema, { minItems: 1 }),
    stacks: Type.Array(Type.Array(VariantSpecSchema), { minItems: 1 }),
    params: ParamsSchema,
    sweep: Type.Optional(
      Type.Object({ param: Type.String({ minLength: 1 }), values: Type.Array(ParamValueSchema, { minItems: 1 }) }, strict),
    ),
    seed: Type.Number(),
    timeline: Type.Optional(Type.Boolean()),
    timelineLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000, description: "the most timeline events a run records" })),
    budget: Type.Optional(BudgetSchema),
  },
  { ...strict, $id: "urn:siglab:bundle:experiment:v1", title: "SigLab bundle experiment (format v1)" },
);
export type ExperimentFile = Static<typeof ExperimentFileSchema>;

// ---- plugins.json ----------------------------------------------------------------------------

export const PluginRefSchema = Type.Object(
  {
    id: Type.String({ pattern: ID }),
    version: Type.String({ minLength: 1 }),
    /** "builtin": shipped with SigLab, referenced by version; "embedded": code under plugins/<id>/. */
    source: Type.Union([Type.Literal("builtin"), Type.Literal("embedded")]),
    /** hashFileSet of the plugin's files; optional only for built-ins migrated from format v0. */
    hash: Type.Optional(Type.String({ pattern: SHA256 })),
    apiVersion: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
  },
  strict,
);
export const PluginsFileSchema = Type.Array(PluginRefSchema);
export type BundlePluginRef = Static<typeof PluginRefSchema>;

/** plugins/<id>/plugin.json of an embedded plugin (the fields a bundle relies on). */
export const EmbeddedPluginManifestSchema = Type.Object({
  id: Type.String({ pattern: ID }),
  version: Type.String({ minLength: 1 }),
  apiVersion: Type.String({ minLength: 1 }),
  displayName: Type.String(),
  description: Type.String(),
  options: Type.Record(Type.String(), Type.Object({})),
  contributes: Type.Array(Type.String()),
  main: Type.Optional(Type.String()),
});

// ---- profiles/<id>.json: checked with @siglab/cpu-profiles' CpuProfileFileSchema (resolved profile)

// ---- results.json ----------------------------------------------------------------------------

const MetricSchema = Type.Object({
  name: Type.String(),
  value: Type.Number(),
  unit: Type.String(),
  samples: Type.Optional(Type.Array(Type.Number())),
});
const FindingSchema = Type.Object({
  severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")]),
  kind: Type.String(),
  message: Type.String(),
  evidence: Type.Record(Type.String(), Type.Unknown()),
});
const PathOpSchema = Type.Object({
  fn: Type.String(),
  op: Type.String(),
  cycles: Type.Number(),
  repeat: Type.Number(),
  note: Type.Optional(Type.String()),
});
const PathStatSchema = Type.Object({
  name: Type.String(),
  phase: Type.String(),
  origin: Type.String(),
  count: Type.Number(),
  cycles: Type.Number(),
  ops: Type.Array(PathOpSchema),
});
const TimelineEventSchema = Type.Object({
  task: Type.Number(),
  kind: Type.Union([Type.Literal("user"), Type.Literal("kernel"), Type.Literal("handler"), Type.Literal("idle")]),
  name: Type.String(),
  phase: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  cpu: Type.Optional(Type.Integer({ minimum: 0, description: "the CPU it ran on (an SMP machine)" })),
});
const RunErrorSchema = Type.Object({
  kind: Type.String(),
  message: Type.String(),
  file: Type.Optional(Type.String()),
  line: Type.Optional(Type.Number()),
  column: Type.Optional(Type.Number()),
  task: Type.Optional(Type.Number()),
  cycle: Type.Optional(Type.Number()),
});
/** A named loop (t.loopBegin / t.loopEnd): its count is what per-iteration figures divide by. */
const LoopStatSchema = Type.Object({
  name: Type.String(),
  count: Type.Number({ exclusiveMinimum: 0 }),
  cycles: Type.Number(),
  phases: Type.Record(Type.String(), Type.Number()),
  overhead: Type.Optional(Type.String()),
});
export const RunResultSchema = Type.Object({
  workload: Type.String(),
  cpu: Type.Object({ id: Type.String(), mhz: Type.Number(), smp: Type.Optional(Type.Integer({ minimum: 1 })) }),
  variants: Type.Array(Type.Object({ id: Type.String(), options: Type.Optional(ParamsSchema) })),
  params: ParamsSchema,
  seed: Type.Number(),
  metrics: Type.Array(MetricSchema),
  phases: Type.Record(Type.String(), Type.Number()),
  counters: Type.Record(Type.String(), Type.Number()),
  findings: Type.Array(FindingSchema),
  totalCycles: Type.Number(),
  simSeconds: Type.Number(),
  paths: Type.Array(PathStatSchema),
  timeline: Type.Optional(Type.Array(TimelineEventSchema)),
  error: Type.Optional(RunErrorSchema),
  /** the workload's named loops (absent: it named none; bundles from before them have none) */
  loops: Type.Optional(Type.Array(LoopStatSchema, { maxItems: LOOP_LIMIT })),
});
export const ResultsFileSchema = Type.Array(RunResultSchema);

// ---- compile-time checks: the schemas and the contracts describe the same data ----------------

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const resultsMatch: Same<Static<typeof RunResultSchema>, RunResult> = true;
type StoredWorkload = Omit<ExperimentConfig["workload"], "source"> & { entry: string };
const experimentMatches: Same<ExperimentFile, Omit<ExperimentConfig, "workload"> & { workload: StoredWorkload }> = true;
void resultsMatch;
void experimentMatches;

/** Schemas published as JSON under packages/core/schema/. */
export const PUBLISHED_SCHEMAS: Record<string, TSchema> = {
  "manifest.schema.json": ManifestSchema,
  "experiment.schema.json": ExperimentFileSchema,
  "plugins.schema.json": PluginsFileSchema,
};

// ---- shard.json (only in a part written with --shard i/n) -------------------------------------

export const ShardFileSchema = Type.Object(
  {
    /** this part is slice `index` (1-based) of `count` */
    index: Type.Integer({ minimum: 1 }),
    count: Type.Integer({ minimum: 1 }),
    /** runs of the whole experiment */
    totalRuns: Type.Integer({ minimum: 0 }),
    /** the runs this part holds: numbers from 1 in expansion order, ascending (results.json's order) */
    runs: Type.Array(Type.Integer({ minimum: 1 })),
  },
  { ...strict, $id: "urn:siglab:bundle:shard:v1", title: "SigLab bundle shard (format v1)" },
);
export type ShardFile = Static<typeof ShardFileSchema>;
