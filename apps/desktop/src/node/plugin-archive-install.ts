/**
 * "Install from file…": a .siglab-plugin archive, read and checked here on the Node side by core's
 * plugin-archive (zip, names, links, sizes, integrity, manifest schema, plugin API range; the same
 * checks as `siglab plugin install`) — never trusted from the renderer — then written into
 * `<pluginDir>/<id>` from the bytes checked, after the same replace question as a folder install.
 */
import { promises as fs } from "node:fs";
import { ARCHIVE_LIMITS, readPluginArchive } from "@siglab/core/plugin-archive";
import { installPluginFiles } from "@siglab/core/plugin-archive/node";
import type { PluginManifest } from "../common/contracts.js";
import { checkReplace, type ReplaceQuestion } from "./plugin-folder.js";

/** A plugin archive chosen in a dialog: a regular file within the archive limit. */
export async function readArchiveFile(file: string): Promise<Uint8Array> {
  const st = await fs.stat(file);
  if (!st.isFile()) throw new Error(`${file}: not a file`);
  if (st.size > ARCHIVE_LIMITS.maxBundleBytes) throw new Error(`${file}: ${st.size} bytes, over the ${ARCHIVE_LIMITS.maxBundleBytes}-byte limit of a plugin archive`);
  return new Uint8Array(await fs.readFile(file));
}

/** `name`: the archive as the user knows it (for messages). Throws ReplaceNeedsConfirmation when another version is installed. */
export async function installPluginArchive(name: string, bytes: Uint8Array, pluginDir: string, reservedIds: ReadonlySet<string>, confirmed?: ReplaceQuestion): Promise<PluginManifest> {
  const { manifest, files } = readPluginArchive(bytes, name);
  if (reservedIds.has(manifest.id)) throw new Error(`${name}: plugin id "${manifest.id}" is a built-in plugin's id`);
  await checkReplace(pluginDir, manifest as PluginManifest, confirmed);
  await installPluginFiles(files, pluginDir, manifest.id);
  return manifest as PluginManifest;
}
