/** The .siglab-plugin archive: one format, read, written and checked here for the CLI and the app alike. */
export { PluginArchiveError } from "./errors.js";
export { ARCHIVE_EXTENSION, ARCHIVE_LIMITS, INTEGRITY_ENTRY, archiveFileName, type ArchiveIntegrity, type ArchiveLimits } from "./format.js";
export { isDistributable, mainPath } from "./layout.js";
export { packPluginArchive, type PackedPlugin } from "./write.js";
export { readPluginArchive, type ReadPlugin } from "./read.js";
export { validatePluginFiles } from "./validate.js";
