/** Schema checks and JSON parsing that turn every problem into a BundleError naming the field. */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { strFromU8 } from "fflate";
import { BundleError } from "./errors.js";

/** "/cpus/0/mhz" → "cpus[0].mhz" (how people read a field path). */
export function fieldPath(pointer: string): string {
  if (pointer === "") return "(root)";
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `${out ? "." : ""}${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

const MAX_REPORTED = 3;

export function checkSchema<T extends TSchema>(schema: T, value: unknown, file: string, entry: string): Static<T> {
  if (Value.Check(schema, value)) return value as Static<T>;
  const problems: string[] = [];
  for (const e of Value.Errors(schema, value)) {
    const shown = e.value === undefined ? "missing" : truncate(JSON.stringify(e.value) ?? String(e.value));
    problems.push(`field ${fieldPath(e.path)}: ${e.message} (got ${shown})`);
    if (problems.length >= MAX_REPORTED) break;
  }
  throw new BundleError("schema", file, `schema violation: ${problems.join("; ")}`, entry);
}

function truncate(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

export function decodeText(bytes: Uint8Array, file: string, entry: string): string {
  try {
    return strFromU8(bytes);
  } catch (e) {
    throw new BundleError("corrupt", file, `not valid UTF-8 text (${(e as Error).message})`, entry);
  }
}

export function parseJson(bytes: Uint8Array, file: string, entry: string): unknown {
  const text = decodeText(bytes, file, entry);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new BundleError("invalid-json", file, `invalid JSON: ${(e as Error).message}`, entry);
  }
}
