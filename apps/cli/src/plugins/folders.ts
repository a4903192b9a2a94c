/**
 * Third-party plugin folders on disk: `--plugin-dir DIR` holds one sub-folder per plugin (or is
 * itself a plugin folder). Only text is read here, by the plugin-folder reader the desktop app's
 * installer shares (@siglab/core host/node/plugin-folder.ts: regular files only, no links or
 * special files anywhere, size limits); code is evaluated in the execution host's sandbox when a
 * run uses it.
 */
import { lstatSync, readdirSync, statSync } from "node:fs";
import { basename, join, posix, resolve } from "node:path";
import { checkApiVersion, validateManifest, type PluginManifest } from "@siglab/core";
import type { PluginSource } from "@siglab/core/host";
import { PluginFolderError, readManifestText, readPluginFolderFiles } from "@siglab/core/host/node/plugin-folder";
import { UsageError } from "../catalog.js";
import { originOf, withInstalled } from "./installed.js";

export { PluginFolderError };

export interface PluginFolder {
  dir: string;
  manifest: PluginManifest;
  /** the code the sandbox evaluates: plugin.json and the .js/.cjs/.json files beside main */
  source: PluginSource;
  examples: { id: string; title: string; file: string; source: string }[];
  /** what a bundle embeds: plugin.json, the code files and examples/*.ts, as read */
  bytes: Record<string, Uint8Array>;
}

/** the code, and its source maps (they only point an error at the plugin's own source line) */
const CODE = /\.(js|cjs|json|map)$/;
const EXAMPLE = /^examples\/[^/]+\.ts$/;
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/**
 * The plugin folders under one --plugin-dir (or the folder itself when it holds plugin.json), and
 * the entries refused as plugin folders (a link to a folder). A missing or non-folder --plugin-dir
 * is a usage error: it is never silently ignored.
 */
function pluginDirsUnder(dir: string): { dirs: string[]; refused: RefusedFolder[] } {
  const d = resolve(dir);
  let st;
  try {
    st = statSync(d);
  } catch {
    throw new UsageError(`--plugin-dir ${dir}: no such folder`);
  }
  if (!st.isDirectory()) throw new UsageError(`--plugin-dir ${dir}: not a folder`);
  if (isEntry(join(d, "plugin.json"))) return { dirs: [d], refused: [] };
  const dirs: string[] = [];
  const refused: RefusedFolder[] = [];
  for (const name of readdirSync(d).sort()) {
    const p = join(d, name);
    const l = lstatSync(p);
    if (l.isDirectory()) {
      if (isEntry(join(p, "plugin.json"))) dirs.push(p);
    } else if (l.isSymbolicLink() && isFolder(p)) {
      refused.push({ dir: p, reason: `${p}: a symbolic link; a plugin folder must be a real folder (copy the plugin into ${dir})` });
    }
  }
  return { dirs, refused };
}

/** Something is at `p` (a link counts: the reader refuses it and names it). */
function isEntry(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function readPluginFolder(dir: string): PluginFolder {
  const origin = basename(dir);
  const files = readPluginFolderFiles(dir, { want: (rel) => CODE.test(rel) || EXAMPLE.test(rel) });
  const manifestBytes = files["plugin.json"];
  if (!manifestBytes) throw new PluginFolderError(`${join(dir, "plugin.json")}: missing`);
  let json: unknown;
  try {
    json = JSON.parse(text(manifestBytes));
  } catch (e) {
    throw new PluginFolderError(`${join(dir, "plugin.json")}: not valid JSON: ${(e as Error).message}`);
  }
  const manifest = validateManifest(json, join(dir, "plugin.json"));
  if (!manifest.main) throw new PluginFolderError(`${join(dir, "plugin.json")}: a third-party plugin needs "main" (its JavaScript entry)`);
  const main = posix.normalize(manifest.main.replace(/\\/g, "/"));
  if (!files[main]) throw new PluginFolderError(`${join(dir, manifest.main)}: the plugin's main file is missing (build the plugin first)`);
  // the code the sandbox may load: the .js/.cjs/.json files under main's folder
  const codeDir = posix.dirname(main);
  const code: Record<string, string> = Object.create(null) as Record<string, string>;
  const bytes: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
  bytes["plugin.json"] = manifestBytes;
  for (const [rel, b] of Object.entries(files)) {
    if (!CODE.test(rel) || (codeDir !== "." && !rel.startsWith(`${codeDir}/`))) continue;
    code[rel] = text(b);
    bytes[rel] = b;
  }
  const source: PluginSource = { id: manifest.id, manifest: json, origin: dir, main: manifest.main, files: code };
  const examples = Object.keys(files)
    .filter((rel) => EXAMPLE.test(rel))
    .map((rel) => {
      bytes[rel] = files[rel]!;
      const f = rel.slice("examples/".length);
      const src = text(files[rel]!);
      return { id: f.replace(/\.ts$/, ""), title: /name:\s*"([^"]+)"/.exec(src)?.[1] ?? f, file: `${origin}/examples/${f}`, source: src };
    });
  return { dir, manifest, source, examples, bytes };
}

/**
 * What a bundle embeds of a third-party plugin: plugin.json, the built code beside its main, and
 * its examples/ (no sources, tests, lockfiles or dependencies), read by the same rules.
 */
export function embeddableFiles(dir: string): Record<string, Uint8Array> {
  return readPluginFolder(dir).bytes;
}

/** A plugin folder (or --plugin-dir) that was refused, with the plugin id when plugin.json names one. */
export interface RefusedFolder {
  dir: string;
  id?: string;
  reason: string;
  /** the manifest, when it was valid (refused for its API version, its id, or its code) */
  manifest?: PluginManifest;
}

/** The id a broken plugin.json still names (so a run that asks for it can be told why it is missing). */
function idOf(dir: string): string | undefined {
  try {
    const id = (JSON.parse(readManifestText(dir)) as { id?: unknown }).id;
    return typeof id === "string" && /^[a-z0-9][a-z0-9-]{0,63}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Every plugin folder under the given --plugin-dir folders and the installed plugins' folder, with the first error per folder. */
export function scanPluginDirs(dirs: string[]): { folders: PluginFolder[]; errors: string[]; refusals: RefusedFolder[] } {
  const folders: PluginFolder[] = [];
  const refusals: RefusedFolder[] = [];
  for (const d of withInstalled(dirs)) {
    const { dirs: subs, refused } = pluginDirsUnder(d);
    refusals.push(...refused);
    for (const s of subs) {
      try {
        folders.push(readPluginFolder(s));
      } catch (e) {
        const id = idOf(s);
        refusals.push(id ? { dir: s, id, reason: (e as Error).message } : { dir: s, reason: (e as Error).message });
      }
    }
  }
  return { folders, errors: refusals.map((r) => r.reason), refusals };
}

/**
 * Checks that need no plugin code: the plugin-API version, and ids that are already taken (by a
 * built-in plugin: `taken` maps an id to who has it, for the message). An id in two folders is
 * refused in both, naming both: which one a run that names the id means is not for SigLab to guess.
 * One exception, as VS Code's extension development host does it: a --plugin-dir folder (the
 * author's working copy, `siglab plugin dev`) takes the place of an installed plugin of its id.
 */
export function vetFolders(folders: PluginFolder[], taken: Map<string, string>): { ok: PluginFolder[]; refusals: RefusedFolder[] } {
  const ok: PluginFolder[] = [];
  const refusals: RefusedFolder[] = [];
  const given = new Set(folders.filter((f) => originOf(f.dir) === "--plugin-dir").map((f) => f.manifest.id));
  folders = folders.filter((f) => !(given.has(f.manifest.id) && originOf(f.dir) === "installed"));
  const foldersOf = new Map<string, string[]>();
  for (const f of folders) foldersOf.set(f.manifest.id, [...(foldersOf.get(f.manifest.id) ?? []), f.dir]);
  for (const f of folders) {
    const id = f.manifest.id;
    try {
      checkApiVersion(f.manifest);
    } catch (e) {
      refusals.push({ dir: f.dir, id, manifest: f.manifest, reason: `${join(f.dir, "plugin.json")}: ${(e as Error).message}` });
      continue;
    }
    const owner = taken.get(id);
    if (owner) {
      refusals.push({ dir: f.dir, id, reason: `${f.dir}: plugin id '${id}' is already taken by ${owner}; rename one of them` });
      continue;
    }
    const twins = foldersOf.get(id)!;
    if (twins.length > 1) {
      refusals.push({ dir: f.dir, id, reason: `plugin id '${id}' is in ${twins.length} plugin folders, ${twins.slice(0, -1).join(", ")} and ${twins.at(-1)}: remove or rename all but one (a run would not know which one it means)` });
      continue;
    }
    taken.set(id, `the plugin in ${f.dir}`);
    ok.push(f);
  }
  return { ok, refusals };
}
