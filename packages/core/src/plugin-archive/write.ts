/** packPluginArchive: a plugin's distributable files -> the bytes of its .siglab-plugin archive, checked as install checks them. */
import { strToU8 } from "fflate";
import { zipEntries } from "../bundle/write.js";
import type { PluginManifest } from "../plugin-api/manifest.js";
import { PluginArchiveError } from "./errors.js";
import { ARCHIVE_LIMITS, archiveFileName, INTEGRITY_ENTRY, type ArchiveLimits } from "./format.js";
import { integrityOf } from "./integrity.js";
import { validatePluginFiles } from "./validate.js";

/** fixed entry times: the same files give the same archive, byte for byte */
const EPOCH = "1980-01-01T00:00:00Z";

export interface PackedPlugin {
  bytes: Uint8Array;
  manifest: PluginManifest;
  /** `<id>-<version>.siglab-plugin` */
  fileName: string;
  /** the paths packed (integrity.json aside), sorted */
  paths: string[];
}

/** `files`: path -> bytes of the plugin's distributable files; `from` names them in errors (the folder). */
export function packPluginArchive(files: ReadonlyMap<string, Uint8Array>, from: string, limits: ArchiveLimits = ARCHIVE_LIMITS): PackedPlugin {
  if (files.has(INTEGRITY_ENTRY)) throw new PluginArchiveError(from, `${INTEGRITY_ENTRY} is the archive's own entry; a plugin cannot ship one`);
  const manifest = validatePluginFiles(files, from, limits);
  const all = new Map(files);
  all.set(INTEGRITY_ENTRY, strToU8(JSON.stringify(integrityOf(files, manifest), null, 2) + "\n"));
  const bytes = zipEntries(all, EPOCH);
  if (bytes.length > limits.maxBundleBytes) throw new PluginArchiveError(from, `the archive would be ${bytes.length.toLocaleString("en")} bytes, over the ${limits.maxBundleBytes.toLocaleString("en")}-byte limit`);
  return { bytes, manifest, fileName: archiveFileName(manifest.id, manifest.version), paths: [...files.keys()].sort() };
}
