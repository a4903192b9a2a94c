/**
 * `siglab plugin pack <dir> [-o FILE] [--force]`: a built plugin folder -> `<id>-<version>.siglab-plugin`
 * (in the current folder unless -o), checked as install checks it. The write is atomic, an existing
 * file is replaced only with --force, and no file the archive was packed from is ever written over.
 */
import { join, resolve } from "node:path";
import { ARCHIVE_EXTENSION, PluginArchiveError } from "@siglab/core/plugin-archive";
import { packPluginFolder } from "@siglab/core/plugin-archive/node";
import { PluginFolderError } from "@siglab/core/host/node/plugin-folder";
import { OutputRefusal, writeOutputFile } from "../output.js";
import { oneLine } from "../terminal.js";
import type { PluginsIo } from "../plugins/io.js";

export function pluginPack(dir: string | undefined, opts: { output?: string; force?: boolean }, io: PluginsIo): number {
  if (!dir) {
    io.error("siglab plugin pack: which plugin folder? e.g. `siglab plugin pack ./my-variant`");
    return 2;
  }
  const folder = resolve(dir);
  let packed;
  try {
    packed = packPluginFolder(folder);
  } catch (e) {
    if (e instanceof PluginArchiveError || e instanceof PluginFolderError) {
      io.error(`siglab plugin pack: ${oneLine(e.message)}`);
      return 1;
    }
    throw e;
  }
  const out = opts.output ?? packed.fileName;
  if (!out.endsWith(ARCHIVE_EXTENSION)) {
    io.error(`siglab plugin pack: ${out}: a plugin archive's name ends in ${ARCHIVE_EXTENSION}`);
    return 2;
  }
  try {
    // every file packed is an input: never written over, even with --force
    writeOutputFile(out, packed.bytes, { force: opts.force === true, inputs: [folder, ...packed.paths.map((p) => join(folder, p))] });
  } catch (e) {
    io.error(`siglab plugin pack: ${(e as Error).message}`);
    return e instanceof OutputRefusal ? 2 : 1;
  }
  io.log(`packed ${packed.manifest.id} ${packed.manifest.version} (plugin API ${packed.manifest.apiVersion}) into ${out}: ${packed.paths.length} files + integrity.json, ${packed.bytes.length.toLocaleString("en")} bytes`);
  for (const p of packed.paths) io.log(`  ${p}`);
  io.log(`\ninstall it with: siglab plugin install ${out}`);
  return 0;
}
