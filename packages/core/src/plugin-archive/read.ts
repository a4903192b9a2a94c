/**
 * readPluginArchive: the bytes of a .siglab-plugin (untrusted) -> its checked files and manifest.
 * The zip is read by the bundle's reader (names, duplicates, declared and inflated sizes checked
 * before and while inflating), then links and special entries, layout, manifest, API range and
 * integrity are checked; nothing of it is trusted or written before all pass.
 */
import { BundleError } from "../bundle/errors.js";
import { readZipEntries } from "../bundle/zip-read.js";
import type { PluginManifest } from "../plugin-api/manifest.js";
import { PluginArchiveError } from "./errors.js";
import { ARCHIVE_LIMITS, INTEGRITY_ENTRY, type ArchiveLimits } from "./format.js";
import { checkIntegrity } from "./integrity.js";
import { validatePluginFiles } from "./validate.js";
import { refuseSpecialEntries } from "./zip-modes.js";

/** integrity.json's bytes on top of the plugin's files (500 lines of path, size and hash fit) */
const INTEGRITY_ROOM = 1024 * 1024;

export interface ReadPlugin {
  manifest: PluginManifest;
  /** the plugin's files, integrity.json left out: what an install writes */
  files: Map<string, Uint8Array>;
}

export function readPluginArchive(bytes: Uint8Array, file: string, limits: ArchiveLimits = ARCHIVE_LIMITS): ReadPlugin {
  if (bytes.length > limits.maxBundleBytes) throw new PluginArchiveError(file, `${bytes.length.toLocaleString("en")} bytes, over the ${limits.maxBundleBytes.toLocaleString("en")}-byte limit of a plugin archive`);
  let entries: Map<string, Uint8Array>;
  try {
    entries = readZipEntries(bytes, file, { ...limits, maxTotalBytes: limits.maxTotalBytes + INTEGRITY_ROOM });
  } catch (e) {
    if (e instanceof BundleError) throw new PluginArchiveError(file, e.problem, e.entry);
    throw e;
  }
  refuseSpecialEntries(bytes, file);
  const integrity = checkIntegrity(entries, file);
  const manifest = validatePluginFiles(entries, file, limits);
  if (integrity.id !== manifest.id || integrity.version !== manifest.version) {
    throw new PluginArchiveError(file, `says ${integrity.id} ${integrity.version}, but plugin.json is ${manifest.id} ${manifest.version}`, INTEGRITY_ENTRY);
  }
  entries.delete(INTEGRITY_ENTRY);
  return { manifest, files: entries };
}
