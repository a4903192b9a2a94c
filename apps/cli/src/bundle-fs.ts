/**
 * The file-system side of bundles (Node only): reading a plugin folder to embed it,
 * hashing built-in plugins, and extracting embedded plugins into a folder they cannot escape.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, realpathSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { hashFileSet, unsafeEntryReason, type AvailablePlugin, type Bundle } from "@siglab/core/bundle/index.js";

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

/**
 * Writes each embedded plugin of `bundle` to `<target>/<id>/…`. Every destination is checked
 * before anything is written (no "..", no absolute paths, no symlinked parents, nothing
 * overwritten), so a refused bundle writes nothing. Returns the files written.
 */
export function extractEmbeddedPlugins(bundle: Pick<Bundle, "embeddedPlugins" | "fileName">, target: string): string[] {
  mkdirSync(target, { recursive: true });
  const root = realpathSync(target);
  const plan: { dest: string; bytes: Uint8Array }[] = [];
  for (const [id, files] of Object.entries(bundle.embeddedPlugins)) {
    for (const [rel, bytes] of Object.entries(files)) {
      const entry = `${id}/${rel}`;
      const reason = unsafeEntryReason(entry);
      if (reason) throw new Error(`${bundle.fileName}: plugins/${entry}: refused (${reason})`);
      const dest = resolve(root, ...entry.split("/"));
      if (!dest.startsWith(root + sep)) throw new Error(`${bundle.fileName}: plugins/${entry}: refused (would be written outside ${root})`);
      plan.push({ dest, bytes });
    }
  }
  const written: string[] = [];
  try {
    for (const { dest, bytes } of plan) {
      mkdirSync(dirname(dest), { recursive: true });
      // a symlink planted in the target folder must not redirect the write
      const parent = realpathSync(dirname(dest));
      if (parent !== root && !parent.startsWith(root + sep)) throw new Error(`${bundle.fileName}: ${dest}: refused (parent folder leaves ${root})`);
      const fd = openSync(dest, "wx", 0o644); // never follows or replaces an existing file
      try {
        let off = 0;
        while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      } finally {
        closeSync(fd);
      }
      written.push(dest);
    }
  } catch (e) {
    for (const f of written) removeIfExists(f);
    throw e;
  }
  return written;
}

/** Removes a file if it exists (cleanup after a failed export). */
export function removeIfExists(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* nothing to remove */
  }
}
