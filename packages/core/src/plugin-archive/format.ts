/**
 * The single-file plugin archive, `<id>-<version>.siglab-plugin`: a zip holding a plugin folder's
 * distributable part — plugin.json, README.md and LICENSE when present, the built code (the
 * .js/.cjs/.mjs/.json/.map files beside plugin.json's "main"), examples/<name>.ts — and
 * integrity.json, the SHA-256 and size of every other entry, checked on install.
 */

import type { BundleLimits } from "../bundle/limits.js";

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

const MiB = 1024 * 1024;

/** Limits of an archive (the bundle reader's kind: the file, its entries, one entry, all entries). */
export type ArchiveLimits = BundleLimits;

/**
 * A plugin folder's limits (PLUGIN_FOLDER_LIMITS: 500 files, 5 MiB a file, 20 MiB in all), so what
 * packs installs; one entry more for integrity.json.
 */
export const ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxBundleBytes: 20 * MiB,
  maxEntries: 501,
  maxEntryBytes: 5 * MiB,
  maxTotalBytes: 20 * MiB,
});

/** The archive's file name for a plugin: `<id>-<version>.siglab-plugin`. */
export function archiveFileName(id: string, version: string): string {
  return `${id}-${version}${ARCHIVE_EXTENSION}`;
}
