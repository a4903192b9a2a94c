/** Turns TypeBox `Value.Errors` into short, lower-case issues, one per JSON path. */
import type { TSchema } from "@sinclair/typebox";
import { Value, ValueErrorType, type ValueError } from "@sinclair/typebox/value";
import type { ProfileIssue } from "./errors.js";
import { OP_CLASS_IDS } from "./op-classes.js";

const OPS = new Set<string>(OP_CLASS_IDS);

function literalChoices(schema: TSchema): string[] | undefined {
  const anyOf = (schema as { anyOf?: { const?: unknown }[] }).anyOf;
  if (!anyOf || !anyOf.every((s) => typeof s.const === "string")) return undefined;
  return anyOf.map((s) => String(s.const));
}

function describe(e: ValueError): string {
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "missing required field";
    case ValueErrorType.ObjectAdditionalProperties: {
      const key = e.path.split("/").pop() ?? "";
      if (e.path.startsWith("/costs/") && e.path.split("/").length === 3 && !OPS.has(key)) {
        return `unknown op class "${key}" (known: see OP_CLASSES)`;
      }
      return `unknown field "${key}"`;
    }
    case ValueErrorType.Union: {
      const choices = literalChoices(e.schema);
      if (choices) return `expected one of ${choices.map((c) => `"${c}"`).join(", ")}, got ${JSON.stringify(e.value)}`;
      return e.message.charAt(0).toLowerCase() + e.message.slice(1);
    }
    case ValueErrorType.StringPattern:
      return `${JSON.stringify(e.value)} is not a valid id (letters, digits and . _ + ~ -; no "@")`;
    default:
      return e.message.charAt(0).toLowerCase() + e.message.slice(1);
  }
}

/** All schema problems of `value`, the first per path (TypeBox repeats a path for one cause). */
export function schemaIssues(schema: TSchema, value: unknown): ProfileIssue[] {
  if (Value.Check(schema, value)) return [];
  const seen = new Set<string>();
  const out: ProfileIssue[] = [];
  for (const e of Value.Errors(schema, value)) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    out.push({ path: e.path, message: describe(e) });
  }
  return out;
}
