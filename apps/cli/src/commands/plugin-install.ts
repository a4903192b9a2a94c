/**
 * `siglab plugin install <file> [--force]`: a .siglab-plugin archive, checked whole (zip, names,
 * links, sizes, integrity, manifest, plugin API range) before anything is written, into the CLI's
 * plugin folder as <id>/. A plugin already installed under the id is replaced only with --force
 * (the message names both versions); a built-in plugin's id is refused.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { ARCHIVE_LIMITS, PluginArchiveError, readPluginArchive } from "@siglab/core/plugin-archive";
import { installedVersion, installPluginFiles } from "@siglab/core/plugin-archive/node";
import { installedPluginsDir } from "../plugins/installed.js";
import { oneLine } from "../terminal.js";
import type { PluginsIo } from "../plugins/io.js";

/** The archive's bytes: a regular file (a FIFO or device is refused, not waited on) within the archive limit. */
function readArchiveFile(file: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const c = (e as NodeJS.ErrnoException).code;
    throw new PluginArchiveError(file, c === "ENOENT" ? "no such file" : `cannot read (${c ?? (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new PluginArchiveError(file, "not a file (a plugin archive is a .siglab-plugin file made by `siglab plugin pack`)");
    const limit = ARCHIVE_LIMITS.maxBundleBytes;
    if (st.size > limit) throw new PluginArchiveError(file, `${st.size.toLocaleString("en")} bytes, over the ${limit.toLocaleString("en")}-byte limit of a plugin archive`);
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, null);
      if (n === 0) break;
      got += n;
    }
    return new Uint8Array(buf.buffer, buf.byteOffset, got);
  } finally {
    closeSync(fd);
  }
}

export async function pluginInstall(file: string | undefined, opts: { force?: boolean }, io: PluginsIo): Promise<number> {
  if (!file) {
    io.error("siglab plugin install: which archive? e.g. `siglab plugin install my-variant-1.0.0.siglab-plugin`");
    return 2;
  }
  const pluginDir = installedPluginsDir();
  try {
    const { manifest, files } = readPluginArchive(readArchiveFile(file), file);
    const { id, version } = manifest;
    if (BUILTIN_PLUGINS.some((p) => p.manifest.id === id)) throw new PluginArchiveError(file, `plugin id '${id}' is a built-in plugin's id; rename the plugin`);
    const installed = await installedVersion(pluginDir, id);
    if (installed !== null && !opts.force) {
      const what = installed === version ? `${id} ${version} is already installed` : `${id} ${installed} is installed; this archive is ${id} ${version}`;
      io.error(`siglab plugin install: ${file}: ${what} (in ${join(pluginDir, id)}); use --force to replace it`);
      return 2;
    }
    const target = await installPluginFiles(files, pluginDir, id);
    io.log(`installed ${id} ${version}${installed !== null ? ` (replacing ${installed})` : ""} into ${target}`);
    const example = [...files.keys()].find((p) => /^examples\/[^/]+\.ts$/.test(p));
    if (example) io.log(`try: siglab run ${example.slice("examples/".length, -3)} --variant ${id} --baseline`);
    return 0;
  } catch (e) {
    if (e instanceof PluginArchiveError) {
      io.error(`siglab plugin install: ${oneLine(e.message)}`); // names from the archive are its author's text
      return 1;
    }
    io.error(`siglab plugin install: ${file}: cannot install into ${pluginDir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    return 1;
  }
}
