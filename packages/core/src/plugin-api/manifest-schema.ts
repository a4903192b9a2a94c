/** Validation of plugin.json (TypeBox; no eval, so it also runs under a strict CSP). */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { PluginManifest } from "./manifest.js";
import { SINGLE_VALUED, TOKENS } from "./extension-points.js";
import { PluginError } from "./loaded-plugin.js";

const Scalar = Type.Union([Type.Number(), Type.String(), Type.Boolean()]);

export const PluginOptionSchema = Type.Object(
  {
    type: Type.Union([Type.Literal("boolean"), Type.Literal("number"), Type.Literal("string"), Type.Literal("enum")]),
    default: Scalar,
    description: Type.String({ minLength: 1 }),
    values: Type.Optional(Type.Array(Type.String())),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    unit: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const VariantRef = Type.Object(
  { id: Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$" }), options: Type.Optional(Type.Record(Type.String(), Scalar)) },
  { additionalProperties: false },
);

export const PresetSchema = Type.Object(
  {
    id: Type.String({ pattern: "^[a-z0-9][a-z0-9.+-]{0,63}$" }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.String({ minLength: 1, maxLength: 2000 }),
    stack: Type.Array(VariantRef, { minItems: 1, maxItems: 16 }),
  },
  { additionalProperties: false },
);

const NoEffectHintSchema = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 300 }),
    remedy: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    options: Type.Optional(Type.Record(Type.String(), Scalar)),
  },
  { additionalProperties: false },
);

// unknown fields are refused: a typo ("replace") must not be silently ignored
export const PluginManifestSchema = Type.Object(
  {
    id: Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$" }),
    version: Type.String({ pattern: "^\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.-]+)?$" }),
    apiVersion: Type.String({ pattern: "^\\d+\\.\\d+$" }),
    displayName: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.String({ minLength: 1, maxLength: 2000 }),
    options: Type.Record(Type.String(), PluginOptionSchema),
    contributes: Type.Array(Type.String()),
    replaces: Type.Optional(Type.Array(Type.String())),
    main: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9_./-]+\\.c?js$" })),
    presets: Type.Optional(Type.Array(PresetSchema, { maxItems: 32 })),
    noEffect: Type.Optional(NoEffectHintSchema),
  },
  { additionalProperties: false },
);

export type PluginManifestJson = Static<typeof PluginManifestSchema>;

/**
 * Extension points a minor version added: a manifest that targets an older minor of the same
 * major cannot name them (a SigLab of that version would not know them).
 */
const POINT_SINCE: Readonly<Record<string, string>> = Object.freeze({ Scheduler: "2.1", BlockDevice: "2.1" });

function olderMinor(apiVersion: string, since: string): boolean {
  const [maj, min] = apiVersion.split(".").map(Number) as [number, number];
  const [smaj, smin] = since.split(".").map(Number) as [number, number];
  return maj === smaj && min < smin;
}

/** Validate a parsed plugin.json; errors name the file and the field. */
export function validateManifest(json: unknown, file: string): PluginManifest {
  if (!Value.Check(PluginManifestSchema, json)) {
    const e = [...Value.Errors(PluginManifestSchema, json)][0]!;
    throw new PluginError(`${file}: ${e.path || "/"}: ${e.message}`);
  }
  const m = json as PluginManifest;
  for (const point of [...m.contributes, ...(m.replaces ?? [])]) {
    if (!Object.prototype.hasOwnProperty.call(TOKENS, point)) throw new PluginError(`${file}: unknown extension point '${point}' (known: ${Object.keys(TOKENS).join(", ")})`);
    const since = Object.prototype.hasOwnProperty.call(POINT_SINCE, point) ? POINT_SINCE[point]! : undefined;
    if (since && olderMinor(m.apiVersion, since)) throw new PluginError(`${file}: ${point} is an extension point of plugin API ${since}, but "apiVersion" is "${m.apiVersion}" (raise it to "${since}")`);
  }
  for (const point of m.replaces ?? []) {
    if (!SINGLE_VALUED.includes(point)) throw new PluginError(`${file}: /replaces: ${point} is multi-valued (only ${SINGLE_VALUED.join(", ")} can be replaced)`);
    if (!m.contributes.includes(point)) throw new PluginError(`${file}: /replaces: ${point} must also be listed in "contributes"`);
  }
  if (m.main && (m.main.startsWith("/") || m.main.split("/").includes(".."))) throw new PluginError(`${file}: main must be a relative path inside the plugin folder`);
  if (m.noEffect && olderMinor(m.apiVersion, "2.4")) throw new PluginError(`${file}: "noEffect" is a field of plugin API 2.4, but "apiVersion" is "${m.apiVersion}" (raise it to "2.4")`);
  for (const k of Object.keys(m.noEffect?.options ?? {})) {
    if (!Object.prototype.hasOwnProperty.call(m.options, k)) throw new PluginError(`${file}: /noEffect/options/${k}: the plugin has no option '${k}'`);
  }
  for (const [k, o] of Object.entries(m.options)) {
    if (o.type === "enum" && !o.values?.includes(String(o.default))) throw new PluginError(`${file}: /options/${k}: default '${o.default}' is not one of its values`);
    if (o.type !== "enum" && o.type !== typeof o.default) throw new PluginError(`${file}: /options/${k}: default must be a ${o.type}`);
  }
  return m;
}
