/** integrity.json: written from the files packed, checked against the files read (each entry's size and SHA-256). */
import { sha256Hex } from "../bundle/hash.js";
import { PluginArchiveError } from "./errors.js";
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, INTEGRITY_ENTRY, type ArchiveIntegrity } from "./format.js";

export function integrityOf(files: ReadonlyMap<string, Uint8Array>, m: { id: string; version: string; apiVersion: string }): ArchiveIntegrity {
  const paths = [...files.keys()].filter((p) => p !== INTEGRITY_ENTRY).sort();
  return {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_FORMAT_VERSION,
    id: m.id,
    version: m.version,
    apiVersion: m.apiVersion,
    files: paths.map((path) => ({ path, size: files.get(path)!.length, sha256: sha256Hex(files.get(path)!) })),
  };
}

function parseIntegrity(bytes: Uint8Array | undefined, file: string): ArchiveIntegrity {
  if (!bytes) throw new PluginArchiveError(file, `no ${INTEGRITY_ENTRY} (not a plugin archive made by \`siglab plugin pack\`)`);
  let j: unknown;
  try {
    j = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new PluginArchiveError(file, `not valid JSON: ${(e as Error).message}`, INTEGRITY_ENTRY);
  }
  const o = j as Partial<ArchiveIntegrity> | null;
  if (!o || typeof o !== "object" || o.format !== ARCHIVE_FORMAT) throw new PluginArchiveError(file, `"format" must be "${ARCHIVE_FORMAT}"`, INTEGRITY_ENTRY);
  if (o.formatVersion !== ARCHIVE_FORMAT_VERSION) throw new PluginArchiveError(file, `format version ${JSON.stringify(o.formatVersion)}; this SigLab reads version ${ARCHIVE_FORMAT_VERSION}`, INTEGRITY_ENTRY);
  const good = Array.isArray(o.files) && o.files.every((f) => f && typeof f.path === "string" && Number.isInteger(f.size) && typeof f.sha256 === "string");
  if (!good || typeof o.id !== "string" || typeof o.version !== "string" || typeof o.apiVersion !== "string") {
    throw new PluginArchiveError(file, `needs "id", "version", "apiVersion" and "files" (path, size, sha256 of each entry)`, INTEGRITY_ENTRY);
  }
  return o as ArchiveIntegrity;
}

/** Every entry but integrity.json is listed with its size and SHA-256, and nothing listed is missing. */
export function checkIntegrity(files: ReadonlyMap<string, Uint8Array>, file: string): ArchiveIntegrity {
  const integrity = parseIntegrity(files.get(INTEGRITY_ENTRY), file);
  const listed = new Map(integrity.files.map((f) => [f.path, f]));
  for (const [path, bytes] of files) {
    if (path === INTEGRITY_ENTRY) continue;
    const f = listed.get(path);
    if (!f) throw new PluginArchiveError(file, `not listed in ${INTEGRITY_ENTRY} (added after packing?)`, path);
    if (f.size !== bytes.length) throw new PluginArchiveError(file, `${bytes.length} bytes, but ${INTEGRITY_ENTRY} says ${f.size} (changed after packing?)`, path);
    if (sha256Hex(bytes) !== f.sha256) throw new PluginArchiveError(file, `SHA-256 differs from ${INTEGRITY_ENTRY}'s (changed after packing?)`, path);
  }
  // a listed path is the archive's text, not a checked entry name: quoted
  for (const path of listed.keys()) if (!files.has(path)) throw new PluginArchiveError(file, `listed in ${INTEGRITY_ENTRY} but not in the archive`, JSON.stringify(path));
  return integrity;
}
