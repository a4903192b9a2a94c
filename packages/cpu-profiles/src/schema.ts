/**
 * TypeBox schemas for CPU profile files. Checked with `Value.Check`/`Value.Errors` only (no code
 * generation, no eval), so the same loader runs in a browser worker under a strict CSP.
 *
 * Two shapes:
 *  - CpuProfileSourceSchema: a file as written. Only `id` is required, because a profile that
 *    `inherits` (or an `abstract` family file) gives just what it overrides. This is what
 *    schema/cpu-profile.schema.json publishes for editors.
 *  - CpuProfileFileSchema: a resolved profile (inheritance applied): every field and every op.
 */
import { Type, type TObject, type TOptional, type TSchema } from "@sinclair/typebox";
import { MACHINE_OP_CLASS_IDS, OP_CLASS_IDS, SMP_OP_CLASS_IDS, type OpClass } from "./op-classes.js";

/** Runnable ids: what a bundle accepts, minus "@" (it separates the clock in "id@MHz"). */
export const PROFILE_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._+~-]{0,127}$";
/** Abstract (inherit-only) ids may also start with "_", e.g. "_family-p6". */
export const ANY_PROFILE_ID_PATTERN = "^_?[A-Za-z0-9][A-Za-z0-9._+~-]{0,127}$";

export const FEATURE_KEYS = [
  "fxsr", "sep", "sse", "sse2", "avx", "avx512", "xsave", "xsaveopt", "xsaves", "pcid", "pge",
] as const;
export const OPTIONAL_FEATURE_KEYS = ["syscall", "lm"] as const;
export const GEOMETRY_KEYS = ["cacheLineBytes", "dtlbEntries", "l1dKB", "l2KB", "xmmRegs", "xsaveBytes"] as const;
export const OPTIONAL_GEOMETRY_KEYS = ["l2dtlbEntries", "l1iKB", "l1iWays", "l1dWays", "l2Ways", "l2LineBytes", "l1dWriteAllocate", "l2Exclusive", "l1iClearedByInterrupt"] as const;

export const ProvenanceSchema = Type.Union(
  [Type.Literal("sourced"), Type.Literal("derived"), Type.Literal("fitted"), Type.Literal("estimated")],
  { description: "sourced: read in a source; derived: arithmetic on sourced numbers; estimated: reasoned guess; fitted: set by calibration" },
);

const OpClassSchema = Type.Union(OP_CLASS_IDS.map((op) => Type.Literal(op)));

export const RelativeCostSchema = Type.Object(
  {
    op: OpClassSchema,
    factor: Type.Optional(Type.Number({ minimum: 0, description: "default 1" })),
    plus: Type.Optional(Type.Number({ description: "cycles added after scaling; default 0" })),
  },
  { additionalProperties: false, description: "cycles = cycles(op) × factor + plus, recomputed by the loader" },
);

export const CostEntrySchema = Type.Object(
  {
    cycles: Type.Number({ minimum: 0, description: "core clock cycles per occurrence (per line/chunk for data ops)" }),
    kind: ProvenanceSchema,
    source: Type.String({ minLength: 1, description: "source key + reference, the arithmetic, or the reasoning" }),
    fittedTo: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: "calibration figure ids (kind fitted)" })),
    unavailable: Type.Optional(Type.Boolean({ description: "the CPU lacks this instruction; cycles must be 0" })),
    relativeTo: Type.Optional(RelativeCostSchema),
    ns: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "a cost fixed in time (bus or memory bound): cycles = ns × MHz / 1000 at the run's clock; `cycles` shows it at the default clock" })),
    inheritedFrom: Type.Optional(Type.String({ description: "set by the loader" })),
  },
  { additionalProperties: false },
);

export const SourcedNumberSchema = Type.Object(
  {
    value: Type.Number({ minimum: 0 }),
    kind: ProvenanceSchema,
    source: Type.String({ minLength: 1 }),
    inheritedFrom: Type.Optional(Type.String({ description: "set by the loader" })),
  },
  { additionalProperties: false },
);

const Mhz = Type.Number({ exclusiveMinimum: 0, description: "MHz" });

function clockSchema(partial: boolean) {
  const p = <T extends TSchema>(s: T) => (partial ? Type.Optional(s) : s);
  return Type.Object(
    {
      defaultMhz: p(Mhz),
      minMhz: p(Mhz),
      maxMhz: p(Mhz),
      presets: p(Type.Array(Mhz, { minItems: 1, description: "clocks the UI offers" })),
    },
    { additionalProperties: false },
  );
}

function keyedObject<K extends string, S extends TSchema>(required: readonly K[], optional: readonly K[], schema: S, allOptional: boolean) {
  const props: Record<string, TSchema> = {};
  for (const k of required) props[k] = allOptional ? Type.Optional(schema) : schema;
  for (const k of optional) props[k] = Type.Optional(schema);
  return Type.Object(props, { additionalProperties: false });
}

const CpuIdSchema = Type.Object(
  {
    family: Type.Integer({ minimum: 0 }),
    model: Type.Optional(Type.Integer({ minimum: 0 })),
    source: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);

const FeatureNotesSchema = keyedObject([], [...FEATURE_KEYS, ...OPTIONAL_FEATURE_KEYS], Type.String({ minLength: 1 }), true);

type CostProps = { [K in OpClass]: TSchema };
function costsSchema(partial: boolean): TObject {
  const props = {} as CostProps;
  for (const op of OP_CLASS_IDS) props[op] = partial ? Type.Optional(CostEntrySchema) : CostEntrySchema;
  // the SMP op classes (API 2.2) may be left out: such a profile runs one CPU only
  for (const op of SMP_OP_CLASS_IDS) (props as Record<string, TSchema>)[op] = Type.Optional(CostEntrySchema);
  // the memory hierarchy's (API 2.3) too: such a profile's runs model no caches
  for (const op of MACHINE_OP_CLASS_IDS) (props as Record<string, TSchema>)[op] = Type.Optional(CostEntrySchema);
  return Type.Object(props as Record<OpClass, TSchema | TOptional<TSchema>>, {
    additionalProperties: false,
    description: "one entry per op class (see OP_CLASSES)",
  });
}

function profileSchema(partial: boolean) {
  const p = <T extends TSchema>(s: T) => (partial ? Type.Optional(s) : s);
  return Type.Object(
    {
      $schema: Type.Optional(Type.String({ description: "for editors; ignored by the loader" })),
      id: Type.String({ pattern: ANY_PROFILE_ID_PATTERN }),
      name: p(Type.String({ minLength: 1 })),
      vendor: p(Type.String({ minLength: 1 })),
      description: p(Type.String()),
      inherits: Type.Optional(Type.String({ pattern: ANY_PROFILE_ID_PATTERN, description: "parent profile id" })),
      abstract: Type.Optional(Type.Boolean({ description: "inherit-only defaults; not runnable" })),
      inheritedFrom: Type.Optional(Type.Array(Type.String(), { description: "set by the loader" })),
      cpuid: Type.Optional(CpuIdSchema),
      featureNotes: Type.Optional(FeatureNotesSchema),
      notes: Type.Optional(Type.Array(Type.String())),
      clock: p(clockSchema(partial)),
      features: p(keyedObject(FEATURE_KEYS, OPTIONAL_FEATURE_KEYS, Type.Boolean(), partial)),
      geometry: p(keyedObject(GEOMETRY_KEYS, OPTIONAL_GEOMETRY_KEYS, SourcedNumberSchema, partial)),
      costs: p(costsSchema(partial)),
    },
    { additionalProperties: false },
  );
}

/** A profile file as written (pre-inheritance). */
export const CpuProfileSourceSchema = profileSchema(true);
/** A resolved profile: everything present. */
export const CpuProfileFileSchema = profileSchema(false);

type Json = unknown;

/** Replaces every subtree equal to one of `defs` by a "$ref" to it (keeps the published file small). */
function factor(node: Json, defs: Record<string, string>): Json {
  if (Array.isArray(node)) return node.map((n) => factor(n, defs));
  if (typeof node !== "object" || node === null) return node;
  const text = JSON.stringify(node);
  for (const [name, def] of Object.entries(defs)) if (text === def) return { $ref: `#/definitions/${name}` };
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, factor(v, defs)]));
}

/**
 * The published JSON Schema (schema/cpu-profile.schema.json): CpuProfileSourceSchema with the
 * repeated cost/number/op-class subschemas factored into `definitions`.
 */
export function profileJsonSchema(): Record<string, unknown> {
  const plain = (s: TSchema) => JSON.parse(JSON.stringify(s)) as Json;
  const parts = { CostEntry: plain(CostEntrySchema), SourcedNumber: plain(SourcedNumberSchema), OpClass: plain(OpClassSchema) };
  const defs = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, JSON.stringify(v)]));
  // CostEntry itself refers to OpClass (relativeTo.op): factor its properties, not the entry.
  const cost = parts.CostEntry as { properties: Json };
  const definitions = {
    CostEntry: { ...cost, properties: factor(cost.properties, { OpClass: defs.OpClass! }) },
    SourcedNumber: parts.SourcedNumber,
    OpClass: parts.OpClass,
  };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "SigLab CPU profile",
    description:
      "One microarchitecture: clock range, features, geometry and a cycle cost per op class. Every number carries kind + source. " +
      "A profile may `inherits` another (deep merge; costs per op); the resolved profile must cost every op class.",
    ...(factor(plain(CpuProfileSourceSchema), defs) as Record<string, unknown>),
    definitions,
  };
}
