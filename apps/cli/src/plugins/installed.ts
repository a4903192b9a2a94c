/**
 * The CLI's own plugin folder, where `siglab plugin install` puts a plugin (one sub-folder per id):
 * $SIGLAB_HOME/plugins, or ~/.siglab/plugins. Every command that reads --plugin-dir folders reads
 * it too when it exists, after them, so an installed plugin needs no --plugin-dir.
 */
import { existsSync, realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { configDir } from "../consent.js";

export function installedPluginsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "plugins");
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** The --plugin-dir folders, then the installed folder when it exists and is not one of them already. */
export function withInstalled(dirs: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const installed = installedPluginsDir(env);
  if (!existsSync(installed)) return [...dirs];
  const mine = real(installed);
  return dirs.some((d) => real(d) === mine) ? [...dirs] : [...dirs, installed];
}

/** Where a third-party plugin folder comes from: `siglab plugin install`'s folder, or a --plugin-dir. */
export function originOf(pluginFolder: string, env: NodeJS.ProcessEnv = process.env): "installed" | "--plugin-dir" {
  const mine = real(installedPluginsDir(env));
  return real(pluginFolder).startsWith(mine + sep) ? "installed" : "--plugin-dir";
}
