/**
 * Fitted overlays: the values `pnpm siglab calibrate` fits, kept apart from the hand-written
 * profiles. A hand-written profile's `kind: "fitted"` entries hold their *starting values*
 * (independent estimates, each with its reason); `profiles/fitted/<id>.json` is generated and
 * holds, per fitted op, the fitted value, the starting value the fit began from and a note naming
 * the figures. The loader applies an overlay on top of its profile: it may only set the profile's
 * own `kind: "fitted"` entries. A profile without an overlay (a user's, or one not calibrated
 * yet) simply uses its own values. Browser-safe: no fs.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { ProfileError, type ProfileIssue } from "./errors.js";
import { OP_CLASS_IDS, type OpClass } from "./op-classes.js";
import { rememberSourceFile, sourceFileName } from "./parse.js";
import { ANY_PROFILE_ID_PATTERN } from "./schema.js";
import { schemaIssues } from "./schema-issues.js";
import type { CostEntry, CpuProfileSource } from "./types.js";

/** Where a profile's overlay lives, relative to the folder of the profile files. */
export const fittedOverlayFileName = (id: string): string => `fitted/${id}.json`;

export const FittedCostSchema = Type.Object(
  {
    cycles: Type.Number({ minimum: 0, description: "the fitted value (what the simulator charges)" }),
    start: Type.Number({
      minimum: 0,
      description: "the starting value the fit began from: the hand-written profile's cycles when calibrate ran (a different value there means the overlay is stale)",
    }),
    group: Type.String({ minLength: 1, description: "the fit group (packages/calibration/src/plan.ts): one free scale shared by its ops" }),
    status: Type.Union([Type.Literal("fitted"), Type.Literal("unreachable")], {
      description: "fitted: the group's scale was solved; unreachable: the figure is out of reach of the scale bounds and the starting value is kept",
    }),
    note: Type.String({ minLength: 1, description: "what it was fitted to and how well; the loader appends it to the entry's source" }),
  },
  { additionalProperties: false },
);

function overlayCostsSchema(): TSchema {
  const props: Record<string, TSchema> = {};
  for (const op of OP_CLASS_IDS) props[op] = Type.Optional(FittedCostSchema);
  return Type.Object(props, { additionalProperties: false, description: "fitted op -> its fitted value" });
}

export const FittedOverlaySchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: "for editors; ignored by the loader" })),
    generated: Type.String({ minLength: 1, description: "who wrote this file and from what (it is generated: do not edit)" }),
    profile: Type.String({ pattern: ANY_PROFILE_ID_PATTERN, description: "the id of the profile this overlay applies to" }),
    figures: Type.Array(Type.String({ minLength: 1 }), { description: "the calibration figures (calibration/figures.json ids) the values were fitted to" }),
    costs: overlayCostsSchema(),
  },
  { additionalProperties: false },
);

export type FittedCost = Static<typeof FittedCostSchema>;
export interface FittedOverlay {
  $schema?: string;
  generated: string;
  profile: string;
  figures: string[];
  costs: Partial<Record<OpClass, FittedCost>>;
}

/** Checks a parsed overlay against the schema; errors name `fileName`. */
export function validateFittedOverlay(value: unknown, fileName: string): FittedOverlay {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ProfileError(fileName, [{ path: "", message: "expected a JSON object" }]);
  }
  const issues = schemaIssues(FittedOverlaySchema, value);
  const id = typeof (value as { profile?: unknown }).profile === "string" ? (value as { profile: string }).profile : undefined;
  if (issues.length > 0) throw new ProfileError(fileName, issues, id);
  return value as FittedOverlay;
}

/** Parses an overlay's text (JSON + schema); errors name `fileName`. */
export function parseFittedOverlay(text: string, fileName: string): FittedOverlay {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new ProfileError(fileName, [{ path: "", message: `invalid JSON: ${err instanceof Error ? err.message : String(err)}` }]);
  }
  return validateFittedOverlay(value, fileName);
}

/**
 * `src` (a profile as written) with `overlay` applied: each overlaid entry gets the fitted
 * `cycles` and the overlay's note appended to its `source` (which, as written, gives the starting
 * value's reason; the note names the starting value). Only the profile's own `kind: "fitted"`
 * entries may be overlaid: anything else is a ProfileError naming `overlayFile`. Pure: `src` is
 * not changed.
 */
export function applyFittedOverlay(src: CpuProfileSource, overlay: FittedOverlay, overlayFile: string): CpuProfileSource {
  const file = sourceFileName(src);
  const issues: ProfileIssue[] = [];
  if (overlay.profile !== src.id) {
    issues.push({ path: "/profile", message: `overlay for profile "${overlay.profile}" applied to profile "${src.id}" (${file})` });
  }
  const costs = { ...(src.costs ?? {}) } as Record<OpClass, CostEntry>;
  for (const [op, fc] of Object.entries(overlay.costs) as [OpClass, FittedCost][]) {
    const e = costs[op];
    if (!e) {
      issues.push({ path: `/costs/${op}`, message: `${file} defines no cost for "${op}": an overlay may only set the profile's own fitted entries` });
      continue;
    }
    if (e.kind !== "fitted") {
      issues.push({ path: `/costs/${op}`, message: `${op} in ${file} is "${e.kind}", not "fitted": an overlay may only set kind "fitted" entries` });
      continue;
    }
    costs[op] = { ...e, cycles: fc.cycles, source: `${e.source} ${fc.note}` };
  }
  if (issues.length > 0) throw new ProfileError(overlayFile, issues, src.id);
  const out: CpuProfileSource = { ...src, costs };
  rememberSourceFile(out, file);
  return out;
}

/**
 * What makes an applied overlay stale without making it invalid: a starting value that changed
 * since the fit, or a fitted entry the overlay does not cover. `calibrate --check` reports these
 * too (a fresh fit differs); the loader still applies a stale overlay so that calibrate can run.
 */
export function fittedOverlayStaleness(src: CpuProfileSource, overlay: FittedOverlay | undefined): ProfileIssue[] {
  const out: ProfileIssue[] = [];
  for (const [op, e] of Object.entries(src.costs ?? {}) as [OpClass, CostEntry][]) {
    if (e.kind !== "fitted") continue;
    const fc = overlay?.costs[op];
    if (!fc) out.push({ path: `/costs/${op}`, message: `fitted entry ${op} has no fitted value (run \`pnpm siglab calibrate\`)` });
    else if (fc.start !== e.cycles) {
      out.push({ path: `/costs/${op}/start`, message: `fitted from starting value ${fc.start}, but the profile now starts ${op} at ${e.cycles} (run \`pnpm siglab calibrate\`)` });
    }
  }
  return out;
}

/** The published JSON Schema of overlays (schema/cpu-profile-fitted.schema.json). */
export function fittedOverlayJsonSchema(): Record<string, unknown> {
  const plain = (s: TSchema) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
  const body = plain(FittedOverlaySchema);
  const cost = JSON.stringify(plain(FittedCostSchema));
  const costs = body.properties as Record<string, Record<string, unknown>>;
  const props = costs.costs!.properties as Record<string, unknown>;
  for (const op of Object.keys(props)) if (JSON.stringify(props[op]) === cost) props[op] = { $ref: "#/definitions/FittedCost" };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "SigLab fitted overlay",
    description:
      "Generated by `pnpm siglab calibrate`: the fitted values of one CPU profile's `kind: \"fitted\"` entries, applied by the loader on top of the hand-written profile (whose entries hold the starting values).",
    ...body,
    definitions: { FittedCost: plain(FittedCostSchema) },
  };
}
