/**
 * The checks an archive's files pass, on pack and on install alike (as `vsce package` checks an
 * extension): entry names that cannot escape a folder, the layout, size limits, plugin.json by the
 * manifest schema, a plugin API this SigLab implements, main present, and (on install) integrity.
 */
import { unsafeEntryReason } from "../bundle/paths.js";
import { checkApiVersion } from "../plugin-api/loaded-plugin.js";
import type { PluginManifest } from "../plugin-api/manifest.js";
import { validateManifest } from "../plugin-api/manifest-schema.js";
import { PluginArchiveError } from "./errors.js";
import { ARCHIVE_LIMITS, INTEGRITY_ENTRY, type ArchiveLimits } from "./format.js";
import { isDistributable, mainPath } from "./layout.js";

/** plugin.json of the files: parsed, schema-checked, of a supported plugin API, with main among the files. */
export function checkManifestOf(files: ReadonlyMap<string, Uint8Array>, file: string): PluginManifest {
  const bytes = files.get("plugin.json");
  if (!bytes) throw new PluginArchiveError(file, "no plugin.json (a plugin needs a manifest)");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new PluginArchiveError(file, `not valid JSON: ${(e as Error).message}`, "plugin.json");
  }
  let manifest: PluginManifest;
  try {
    manifest = validateManifest(json, "plugin.json");
    checkApiVersion(manifest);
  } catch (e) {
    throw new PluginArchiveError(file, (e as Error).message);
  }
  if (!manifest.main) throw new PluginArchiveError(file, `a third-party plugin needs "main" (its JavaScript entry)`, "plugin.json");
  const main = mainPath(manifest.main);
  if (!main) throw new PluginArchiveError(file, `"main" must be a relative path inside the plugin`, "plugin.json");
  if (!files.has(main)) throw new PluginArchiveError(file, `the plugin's main file ${main} is missing (build the plugin first)`);
  return manifest;
}

/** Names, layout and sizes of the files (integrity.json aside); throws naming the first entry refused. */
export function checkEntries(files: ReadonlyMap<string, Uint8Array>, main: string, file: string, limits: ArchiveLimits = ARCHIVE_LIMITS): void {
  if (files.size > limits.maxEntries) throw new PluginArchiveError(file, `${files.size} files, over the limit of ${limits.maxEntries - 1}`);
  let total = 0;
  for (const [path, bytes] of files) {
    const unsafe = unsafeEntryReason(path);
    if (unsafe) throw new PluginArchiveError(file, `refused entry: ${unsafe}`, JSON.stringify(path));
    if (path === INTEGRITY_ENTRY) continue;
    if (!isDistributable(path, main)) throw new PluginArchiveError(file, `not part of a plugin archive (plugin.json, README.md, LICENSE, the code beside "main", examples/<name>.ts)`, path);
    if (bytes.length > limits.maxEntryBytes) throw new PluginArchiveError(file, `${bytes.length.toLocaleString("en")} bytes, over the ${limits.maxEntryBytes.toLocaleString("en")}-byte limit of a plugin file`, path);
    total += bytes.length;
    if (total > limits.maxTotalBytes) throw new PluginArchiveError(file, `more than ${limits.maxTotalBytes.toLocaleString("en")} bytes in the plugin's files`);
  }
}

/** Every check but integrity: the manifest, then the entries by main's folder. */
export function validatePluginFiles(files: ReadonlyMap<string, Uint8Array>, file: string, limits: ArchiveLimits = ARCHIVE_LIMITS): PluginManifest {
  const manifest = checkManifestOf(files, file);
  checkEntries(files, mainPath(manifest.main!)!, file, limits);
  return manifest;
}
