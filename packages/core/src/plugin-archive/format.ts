/**
 * The single-file plugin archive, `<id>-<version>.siglab-plugin`: a zip holding a plugin folder's
 * distributable part — plugin.json, README.md and LICENSE when present, the built code (the
 * .js/.cjs/.mjs/.json/.map files beside plugin.json's "main"), examples/<name>.ts — and
 * integrity.json, the SHA-256 and size of every other entry, checked on install.
 */

export const ARCHIVE_EXTENSION = ".siglab-plugin";
export const INTEGRITY_ENTRY = "integrity.json";
export const ARCHIVE_FORMAT = "siglab-plugin";
export const ARCHIVE_FORMAT_VERSION = 1;

/** integrity.json */
export interface ArchiveIntegrity {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  /** plugin.json's id, version and apiVersion, repeated so a reader can name them before trusting anything */
  id: string;
  version: string;
  apiVersion: string;
  /** every other entry, sorted by path */
  files: { path: string; size: number; sha256: string }[];
}

/** The limits an archive is read and written under (a plugin folder's: host/node/plugin-folder.ts). */
export interface ArchiveLimits {
  /** bytes of the archive file */
  maxArchiveBytes: number;
  /** files in the archive */
  maxFiles: number;
  /** uncompressed bytes of one file */
  maxFileBytes: number;
  /** uncompressed bytes of all files */
  maxTotalBytes: number;
}

const MiB = 1024 * 1024;

/** The same per-file, file-count and total limits as a plugin folder (PLUGIN_FOLDER_LIMITS), so what packs installs. */
export const ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxArchiveBytes: 20 * MiB,
  maxFiles: 500,
  maxFileBytes: 5 * MiB,
  maxTotalBytes: 20 * MiB,
});

/** The archive's file name for a plugin: `<id>-<version>.siglab-plugin`. */
export function archiveFileName(id: string, version: string): string {
  return `${id}-${version}${ARCHIVE_EXTENSION}`;
}
