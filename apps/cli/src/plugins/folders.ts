/**
 * Third-party plugin folders on disk: `--plugin-dir DIR` holds one sub-folder per plugin (or is
 * itself a plugin folder). Only text is read here; code is evaluated in the execution host's
 * sandbox when a run uses it.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, posix, relative, resolve, sep } from "node:path";
import { checkApiVersion, validateManifest, type PluginManifest } from "@siglab/core";
import type { PluginSource } from "@siglab/core/host";

export const MAX_PLUGIN_CODE_BYTES = 5_000_000;
const MAX_PLUGIN_FILES = 500;

export interface PluginFolder {
  dir: string;
  manifest: PluginManifest;
  /** the code the sandbox evaluates: plugin.json and the .js/.cjs/.json files beside main */
  source: PluginSource;
  examples: { id: string; title: string; file: string; source: string }[];
}

/** The plugin's code files: every .js/.cjs/.json under main's folder (bounded; symlinks skipped). */
function codeFiles(dir: string, main: string): Record<string, string> {
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  const root = join(dir, dirname(main));
  let count = 0;
  let bytes = 0;
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const p = join(abs, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        if (name !== "node_modules" && !name.startsWith(".")) walk(p);
        continue;
      }
      if (!st.isFile() || !/\.(js|cjs|json)$/.test(name)) continue;
      if (++count > MAX_PLUGIN_FILES) throw new PluginFolderError(`${dir}: more than ${MAX_PLUGIN_FILES} code files beside ${main}`);
      bytes += st.size;
      if (bytes > MAX_PLUGIN_CODE_BYTES) throw new PluginFolderError(`${dir}: the plugin's code is larger than ${MAX_PLUGIN_CODE_BYTES} bytes`);
      files[relative(dir, p).split(sep).join(posix.sep)] = readFileSync(p, "utf8");
    }
  };
  walk(root);
  return files;
}

export class PluginFolderError extends Error {}

function pluginDirsUnder(dir: string): string[] {
  const d = resolve(dir);
  if (!existsSync(d) || !statSync(d).isDirectory()) throw new PluginFolderError(`--plugin-dir ${dir}: not a folder`);
  if (existsSync(join(d, "plugin.json"))) return [d];
  return readdirSync(d)
    .map((n) => join(d, n))
    .filter((p) => statSync(p).isDirectory() && existsSync(join(p, "plugin.json")))
    .sort();
}

export function readPluginFolder(dir: string): PluginFolder {
  const origin = basename(dir);
  const manifestText = readFileSync(join(dir, "plugin.json"), "utf8");
  let json: unknown;
  try {
    json = JSON.parse(manifestText);
  } catch (e) {
    throw new PluginFolderError(`${join(dir, "plugin.json")}: not valid JSON: ${(e as Error).message}`);
  }
  const manifest = validateManifest(json, join(dir, "plugin.json"));
  if (!manifest.main) throw new PluginFolderError(`${join(dir, "plugin.json")}: a third-party plugin needs "main" (its JavaScript entry)`);
  const mainPath = join(dir, manifest.main);
  if (!existsSync(mainPath)) throw new PluginFolderError(`${mainPath}: the plugin's main file is missing (build the plugin first)`);
  const files = codeFiles(dir, manifest.main);
  const source: PluginSource = { id: manifest.id, manifest: json, origin: dir, main: manifest.main, files };
  const exDir = join(dir, "examples");
  const examples = existsSync(exDir)
    ? readdirSync(exDir)
        .filter((f) => f.endsWith(".ts"))
        .sort()
        .map((f) => {
          const source = readFileSync(join(exDir, f), "utf8");
          return { id: f.replace(/\.ts$/, ""), title: /name:\s*"([^"]+)"/.exec(source)?.[1] ?? f, file: `${origin}/examples/${f}`, source };
        })
    : [];
  return { dir, manifest, source, examples };
}

/**
 * What a bundle embeds of a third-party plugin: plugin.json, the built code beside its main, and
 * its examples/ (no sources, tests, lockfiles or dependencies).
 */
export function embeddableFiles(dir: string): Record<string, Uint8Array> {
  const f = readPluginFolder(dir);
  const out: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
  out["plugin.json"] = readFileSync(join(dir, "plugin.json"));
  for (const [rel, text] of Object.entries(f.source.files)) out[rel] = new TextEncoder().encode(text);
  for (const e of f.examples) out[`examples/${basename(e.file)}`] = new TextEncoder().encode(e.source);
  return out;
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
    const id = (JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8")) as { id?: unknown }).id;
    return typeof id === "string" && /^[a-z0-9][a-z0-9-]{0,63}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Every plugin folder under the given --plugin-dir folders, with the first error per folder. */
export function scanPluginDirs(dirs: string[]): { folders: PluginFolder[]; errors: string[]; refusals: RefusedFolder[] } {
  const folders: PluginFolder[] = [];
  const refusals: RefusedFolder[] = [];
  for (const d of dirs) {
    let subs: string[];
    try {
      subs = pluginDirsUnder(d);
    } catch (e) {
      refusals.push({ dir: d, reason: (e as Error).message });
      continue;
    }
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
 * built-in plugin or an earlier folder). `taken` maps an id to who has it, for the message.
 */
export function vetFolders(folders: PluginFolder[], taken: Map<string, string>): { ok: PluginFolder[]; refusals: RefusedFolder[] } {
  const ok: PluginFolder[] = [];
  const refusals: RefusedFolder[] = [];
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
    taken.set(id, `the plugin in ${f.dir}`);
    ok.push(f);
  }
  return { ok, refusals };
}
