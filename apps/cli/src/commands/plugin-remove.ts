/**
 * `siglab plugin remove <id>`: deletes <id>/ from the CLI's plugin folder (where `siglab plugin
 * install` put it). Built-in plugins and --plugin-dir folders are not SigLab's to remove.
 */
import { lstatSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { installedPluginsDir } from "../plugins/installed.js";
import { didYouMean } from "../suggest.js";
import { oneLine } from "../terminal.js";
import type { PluginsIo } from "../plugins/io.js";

const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

function installedIds(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => ID.test(n)).sort();
  } catch {
    return [];
  }
}

export function pluginRemove(id: string | undefined, io: PluginsIo): number {
  const dir = installedPluginsDir();
  const ids = installedIds(dir);
  if (!id) {
    io.error(`siglab plugin remove: which plugin? (installed: ${ids.join(", ") || "none"})`);
    return 2;
  }
  if (BUILTIN_PLUGINS.some((p) => p.manifest.id === id)) {
    io.error(`siglab plugin remove: '${id}' is a built-in plugin; it cannot be removed (leave it out of the stack instead)`);
    return 2;
  }
  if (!ID.test(id) || !ids.includes(id)) {
    io.error(`siglab plugin remove: no plugin '${oneLine(id)}' is installed in ${dir} (${didYouMean(id, ids)}installed: ${ids.join(", ") || "none"}; a --plugin-dir folder is yours to delete)`);
    return 2;
  }
  const target = join(dir, id);
  try {
    lstatSync(target);
    // renamed away first: a half-deleted folder is never seen as the plugin
    const gone = join(dir, `.remove-${id}-${randomBytes(4).toString("hex")}`);
    renameSync(target, gone);
    rmSync(gone, { recursive: true, force: true });
  } catch (e) {
    io.error(`siglab plugin remove: ${target}: cannot remove (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    return 1;
  }
  io.log(`removed ${id} (${target})`);
  return 0;
}
