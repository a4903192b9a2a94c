/**
 * The file-system side of bundles (Node only): reading a plugin folder to embed it and hashing
 * built-in plugins. (Embedded plugins are never extracted: their code reaches the execution host
 * from memory.)
 */
import { lstatSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { hashFileSet, unsafeEntryReason, type AvailablePlugin } from "@siglab/core/bundle";

/** Atomic writes live with the output rules (output.ts); re-exported for existing callers. */
export { atomicWriteFile } from "./output.js";

const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** Every regular file under `dir` (relative "/"-separated path → bytes). Symlinks are refused. */
export function readFolderFiles(dir: string, opts: { maxFiles?: number; maxBytes?: number; skipDirs?: Set<string> } = {}): Record<string, Uint8Array> {
  const maxFiles = opts.maxFiles ?? 500;
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  const skip = opts.skipDirs ?? SKIP_DIRS;
  const out: Record<string, Uint8Array> = Object.create(null); // file names are data ("__proto__")
  let count = 0;
  let total = 0;
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const p = join(abs, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) throw new Error(`${p}: symbolic links are not embedded in bundles`);
      if (st.isDirectory()) {
        if (!skip.has(name)) walk(p);
        continue;
      }
      if (!st.isFile()) continue;
      const rel = relative(dir, p).split(sep).join("/");
      const reason = unsafeEntryReason(rel);
      if (reason) throw new Error(`${p}: cannot be put in a bundle (${reason})`);
      if (++count > maxFiles) throw new Error(`${dir}: more than ${maxFiles} files`);
      total += st.size;
      if (total > maxBytes) throw new Error(`${dir}: more than ${maxBytes} bytes`);
      out[rel] = readFileSync(p);
    }
  };
  walk(dir);
  return out;
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
  let text: string;
  try {
    text = readFileSync(join(dir, "plugin.json"), "utf8");
  } catch {
    return undefined;
  }
  const m = JSON.parse(text) as Partial<PluginFolder>;
  if (typeof m.id !== "string" || typeof m.version !== "string") throw new Error(`${join(dir, "plugin.json")}: needs string fields id and version`);
  return { id: m.id, version: m.version, apiVersion: m.apiVersion, displayName: m.displayName, dir };
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
