/** Helpers for users who clone a profile, edit it and save it as their own file. */
import { validateProfileSource } from "./parse.js";
import type { CostEntry, CpuProfileFile, CpuProfileSource, SourcedNumber } from "./types.js";

type Dict = Record<string, unknown>;

function stripAnnotations<T extends CostEntry | SourcedNumber>(entries: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(entries)) {
    const { inheritedFrom: _drop, ...rest } = v;
    out[k] = rest as T;
  }
  return out;
}

/**
 * A self-contained copy of a resolved profile under a new id (no `inherits`), ready to edit and
 * save. Loader annotations (inheritedFrom) are dropped; a note records the origin.
 */
export function cloneProfile(file: CpuProfileFile, newId: string, name?: string): CpuProfileSource {
  const copy = structuredClone(file) as CpuProfileFile & Dict;
  delete copy.inheritedFrom;
  delete copy.inherits;
  delete copy.abstract;
  const src: CpuProfileSource = {
    ...copy,
    id: newId,
    name: name ?? `${file.name} (copy)`,
    notes: [...(file.notes ?? []), `Cloned from profile "${file.id}".`],
    geometry: stripAnnotations(copy.geometry as unknown as Record<string, SourcedNumber>) as CpuProfileFile["geometry"],
    costs: stripAnnotations(copy.costs) as CpuProfileFile["costs"],
  };
  return validateProfileSource(src, `${newId}.json`);
}

/** A minimal profile that inherits `parentId` and overrides nothing yet. */
export function deriveProfile(parentId: string, newId: string, name: string): CpuProfileSource {
  return validateProfileSource({ id: newId, inherits: parentId, name }, `${newId}.json`);
}

function format(v: unknown, depth: number): string {
  const pad = "  ".repeat(depth + 1);
  const end = "  ".repeat(depth);
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== "object" || x === null)) {
      const inline = `[${v.map((x) => JSON.stringify(x)).join(", ")}]`;
      if (inline.length <= 100) return inline;
    }
    if (v.length === 0) return "[]";
    return `[\n${v.map((x) => pad + format(x, depth + 1)).join(",\n")}\n${end}]`;
  }
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, x]) => `${pad}${JSON.stringify(k)}: ${format(x, depth + 1)}`).join(",\n")}\n${end}}`;
  }
  return JSON.stringify(v);
}

/** The text of a profile file, in the layout of the shipped ones (short arrays on one line). */
export function serializeProfile(src: CpuProfileSource | CpuProfileFile): string {
  return serializeJson(src);
}

/** Any JSON value in that layout (fitted overlays use it too), with a final newline. */
export function serializeJson(v: unknown): string {
  return `${format(v, 0)}\n`;
}
