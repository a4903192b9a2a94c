/** Reading one profile file as written (before inheritance): JSON, schema and per-entry rules. */
import { ProfileError, type ProfileIssue } from "./errors.js";
import { sourceIssues } from "./checks.js";
import { CpuProfileSourceSchema } from "./schema.js";
import { schemaIssues } from "./schema-issues.js";
import type { CpuProfileSource } from "./types.js";

/** Largest profile text accepted (a real one is ~30 KB); guards against size bombs from bundles. */
export const MAX_PROFILE_BYTES = 1_000_000;

// Where each validated source came from, for error messages raised later during resolution.
const origins = new WeakMap<object, string>();

/** The file name a source was read from ("<id>.json" if it was never validated). */
export function sourceFileName(src: CpuProfileSource): string {
  return origins.get(src) ?? `${src.id}.json`;
}

function jsonErrorIssue(text: string, err: unknown): ProfileIssue {
  const raw = err instanceof Error ? err.message : String(err);
  const pos = /position (\d+)/.exec(raw);
  if (!pos) return { path: "", message: `invalid JSON: ${raw}` };
  const offset = Number(pos[1]);
  const before = text.slice(0, offset);
  const lineNo = before.split("\n").length;
  const col = offset - before.lastIndexOf("\n");
  const reason = raw.replace(/\s*in JSON at position \d+.*$/s, "").replace(/\s*\(line \d+ column \d+\)\s*$/, "");
  return { path: "", message: `invalid JSON at line ${lineNo}, column ${col}: ${reason}` };
}

/**
 * Checks an already-parsed value (e.g. an imported JSON module or a bundle entry) against the
 * source schema and the per-entry rules. Returns the same object, typed.
 */
export function validateProfileSource(value: unknown, fileName: string): CpuProfileSource {
  const id = typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string"
    ? (value as { id: string }).id
    : undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ProfileError(fileName, [{ path: "", message: "expected a JSON object" }], id);
  }
  const issues = schemaIssues(CpuProfileSourceSchema, value);
  if (issues.length > 0) throw new ProfileError(fileName, issues, id);
  const src = value as CpuProfileSource;
  const semantic = sourceIssues(src);
  if (semantic.length > 0) throw new ProfileError(fileName, semantic, src.id);
  origins.set(src, fileName);
  return src;
}

/** Parses one profile file's text (raw, pre-inheritance). */
export function parseProfileFile(text: string, fileName: string): CpuProfileSource {
  if (text.length > MAX_PROFILE_BYTES) {
    throw new ProfileError(fileName, [{ path: "", message: `file too large (${text.length} bytes, limit ${MAX_PROFILE_BYTES})` }]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new ProfileError(fileName, [jsonErrorIssue(text, err)]);
  }
  return validateProfileSource(value, fileName);
}

/** Records where a source came from (used when sources are built in memory, e.g. clones). */
export function rememberSourceFile(src: CpuProfileSource, fileName: string): void {
  origins.set(src, fileName);
}
