/**
 * A plugin folder's distributable files, read by the closed plugin-folder reader (regular files
 * only, no links or special files anywhere, the folder itself included, size limits) and packed.
 */
import { join } from "node:path";
import { readManifestText, readPluginFolderFiles } from "../../host/node/plugin-folder.js";
import { PluginArchiveError } from "../errors.js";
import { isDistributable, mainPath } from "../layout.js";
import { packPluginArchive, type PackedPlugin } from "../write.js";

export function packPluginFolder(dir: string): PackedPlugin {
  let main: string | undefined;
  try {
    const m = (JSON.parse(readManifestText(dir)) as { main?: unknown }).main;
    main = typeof m === "string" ? mainPath(m) : undefined;
  } catch (e) {
    if (e instanceof SyntaxError) throw new PluginArchiveError(join(dir, "plugin.json"), `not valid JSON: ${e.message}`);
    throw e;
  }
  // a manifest without a usable main is refused by the checks below, naming the field; the folder
  // reader's limits (PLUGIN_FOLDER_LIMITS) are the archive's
  const files = readPluginFolderFiles(dir, { want: (rel) => (main ? isDistributable(rel, main) : rel === "plugin.json") });
  return packPluginArchive(new Map(Object.entries(files)), dir);
}
