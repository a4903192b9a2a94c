/**
 * The file-system side of bundles (Node only): reading a plugin folder to embed it and hashing
 * built-in plugins. (Embedded plugins are never extracted: their code reaches the execution host
 * from memory.)
 */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hashFileSet, unsafeEntryReason, type AvailablePlugin } from "@siglab/core/bundle";
import { readManifestText, readPluginFolderFiles } from "@siglab/core/host/node/plugin-folder";

/** Atomic writes live with the output rules (output.ts); re-exported for existing callers. */
export { atomicWriteFile } from "./output.js";

const SKIP_DIRS = new Set(["node_modules", ".git"]);

/**
 * Every regular file under `dir` (relative "/"-separated path → bytes), by the plugin-folder rules
 * (no links or special files, size limits) and fit to be a bundle entry.
 */
export function readFolderFiles(dir: string, opts: { maxFiles?: number; maxBytes?: number; skipDirs?: Set<string> } = {}): Record<string, Uint8Array> {
  const skip = opts.skipDirs ?? SKIP_DIRS;
  return readPluginFolderFiles(dir, {
    skipFolder: (name) => skip.has(name),
    want: (rel) => {
      const reason = unsafeEntryReason(rel);
      if (reason) throw new Error(`${join(dir, rel)}: cannot be put in a bundle (${reason})`);
      return true;
    },
    limits: { maxFiles: opts.maxFiles ?? 500, maxTotalBytes: opts.maxBytes ?? 16 * 1024 * 1024 },
  });
}

/** packages/plugins of this SigLab checkout. */
export function builtinPluginsDir(): string {
  return fileURLToPath(new URL("../../../packages/plugins/", import.meta.url));
}

/** A built-in plugin's code as a bundle hashes it: manifest and sources, not tests, builds or deps. */
export function pluginCodeFiles(dir: string): Record<string, Uint8Array> {
  return readFolderFiles(dir, { skipDirs: new Set([...SKIP_DIRS, "test", "dist", "coverage"]) });
}

export interface PluginFolder {
  id: string;
  version: string;
  apiVersion?: string;
  displayName?: string;
  dir: string;
}

function readManifest(dir: string): PluginFolder | undefined {
  if (!existsIn(dir, "plugin.json")) return undefined;
  const text = readManifestText(dir);
  const m = JSON.parse(text) as Partial<PluginFolder>;
  if (typeof m.id !== "string" || typeof m.version !== "string") throw new Error(`${join(dir, "plugin.json")}: needs string fields id and version`);
  return { id: m.id, version: m.version, apiVersion: m.apiVersion, displayName: m.displayName, dir };
}

function existsIn(dir: string, name: string): boolean {
  try {
    lstatSync(join(dir, name));
    return true;
  } catch {
    return false;
  }
}

/** The plugins in a folder (one sub-folder each, with plugin.json), or the folder itself when it is one. */
export function listPluginFolders(root: string): PluginFolder[] {
  const self = readManifest(root);
  if (self) return [self];
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [];
  }
  const out: PluginFolder[] = [];
  for (const name of names) {
    const dir = join(root, name);
    if (!lstatSync(dir).isDirectory()) continue;
    const m = readManifest(dir);
    if (m) out.push(m);
  }
  return out;
}

export function availableBuiltins(root = builtinPluginsDir()): AvailablePlugin[] {
  return listPluginFolders(root).map((p) => ({ id: p.id, version: p.version, hash: hashFileSet(pluginCodeFiles(p.dir)) }));
}
