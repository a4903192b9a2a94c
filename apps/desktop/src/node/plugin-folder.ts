/**
 * Third-party plugins: one sub-folder of the plugin folder per plugin, each with a plugin.json
 * manifest and an entry file. This module validates them, installs a folder chosen by the user
 * (read once by the plugin-folder reader the CLI shares — regular files only, no links or special
 * files anywhere, the folder itself included, size limits — then written from what was read into a
 * staged copy, atomically renamed) and collects a plugin's code for the simulation worker. It
 * never executes plugin code.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { PLUGIN_FOLDER_LIMITS, readManifestText, readPluginFolderFiles } from "@siglab/core/host/node/plugin-folder";
import { installedVersion, installPluginFiles } from "@siglab/core/plugin-archive/node";
import type { PluginManifest } from "../common/contracts.js";
import type { PluginCode } from "../common/host-api.js";
import { checkPluginId } from "./names.js";

export const PLUGIN_LIMITS = PLUGIN_FOLDER_LIMITS;
/** the code, and its source maps (they point an error at the plugin's own source line) */
const CODE_EXT = new Set([".js", ".mjs", ".cjs", ".json", ".map"]);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

export interface ScannedPlugin {
  folderName: string;
  folder: string;
  manifest: PluginManifest | null;
  /** Why it cannot be used; undefined when it can. */
  problem?: string;
}

/** Checks a parsed plugin.json; returns the problem, or undefined when it is acceptable. */
export function manifestProblem(raw: unknown, apiVersion: string): string | undefined {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return "plugin.json must be a JSON object";
  const m = raw as Record<string, unknown>;
  for (const key of ["id", "version", "apiVersion", "displayName", "description"]) {
    if (typeof m[key] !== "string" || (m[key] as string).trim() === "") return `plugin.json: "${key}" must be a non-empty string`;
  }
  try {
    checkPluginId(m.id as string);
  } catch (err) {
    return `plugin.json: ${(err as Error).message}`;
  }
  if (!m.options || typeof m.options !== "object" || Array.isArray(m.options)) return `plugin.json: "options" must be an object`;
  for (const [name, spec] of Object.entries(m.options as Record<string, unknown>)) {
    const s = spec as Record<string, unknown>;
    if (!s || typeof s !== "object" || !["boolean", "number", "string", "enum"].includes(s.type as string)) {
      return `plugin.json: option "${name}" needs a type of boolean, number, string or enum`;
    }
    if (s.type === "enum" && (!Array.isArray(s.values) || s.values.length === 0)) return `plugin.json: enum option "${name}" needs "values"`;
  }
  if (!Array.isArray(m.contributes) || m.contributes.some((c) => typeof c !== "string")) {
    return `plugin.json: "contributes" must be an array of extension point names`;
  }
  if (typeof m.main !== "string" || m.main.trim() === "") return `plugin.json: "main" must name the entry file (e.g. "dist/index.js")`;
  const rel = path.posix.normalize(m.main.replace(/\\/g, "/"));
  if (rel.startsWith("../") || path.posix.isAbsolute(rel)) return `plugin.json: "main" must stay inside the plugin folder`;
  return apiVersionProblem(m.apiVersion as string, apiVersion);
}

/** A plugin built for another major API version, or a newer minor, is refused. */
export function apiVersionProblem(wanted: string, ours: string): string | undefined {
  const parse = (v: string): [number, number] | null => {
    const mm = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(v.trim());
    return mm ? [Number(mm[1]), Number(mm[2])] : null;
  };
  const w = parse(wanted);
  const o = parse(ours)!;
  if (!w) return `plugin.json: "apiVersion" "${wanted}" is not a version like "1.0"`;
  if (w[0] !== o[0]) return `targets plugin API ${wanted}, but this SigLab implements ${ours} (a different major version is incompatible)`;
  if (w[1] > o[1]) return `targets plugin API ${wanted}, newer than this SigLab's ${ours}: update SigLab`;
  return undefined;
}

export async function readManifest(folder: string, apiVersion: string): Promise<{ manifest: PluginManifest | null; problem?: string }> {
  let raw: string;
  try {
    raw = readManifestText(folder);
  } catch (err) {
    const missing = /plugin\.json: cannot read \(ENOENT\)/.test((err as Error).message);
    return { manifest: null, problem: missing ? `${folder}: no plugin.json (a plugin folder needs a manifest)` : (err as Error).message };
  }
  return checkManifest(folder, raw, apiVersion, (main) => fs.stat(path.join(folder, main)).then((st) => st.isFile(), () => false));
}

/** The manifest's problems (plus: does its entry file exist), from plugin.json's text. */
async function checkManifest(folder: string, text: string, apiVersion: string, hasMain: (main: string) => Promise<boolean> | boolean): Promise<{ manifest: PluginManifest | null; problem?: string }> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { manifest: null, problem: `${path.join(folder, "plugin.json")}: invalid JSON (${(err as Error).message})` };
  }
  const problem = manifestProblem(raw, apiVersion);
  const manifest = problem && !(raw && typeof (raw as PluginManifest).id === "string") ? null : (raw as PluginManifest);
  if (problem) return { manifest, problem: `${folder}: ${problem}` };
  if (!(await hasMain(mainOf(raw as PluginManifest)))) {
    return { manifest, problem: `${folder}: entry file "${(raw as PluginManifest).main}" does not exist (build the plugin first?)` };
  }
  return { manifest };
}

const mainOf = (m: PluginManifest): string => path.posix.normalize(m.main!.replace(/\\/g, "/"));

export async function scanPluginDir(pluginDir: string, apiVersion: string): Promise<ScannedPlugin[]> {
  let names: string[];
  try {
    names = await fs.readdir(pluginDir);
  } catch {
    return [];
  }
  const out: ScannedPlugin[] = [];
  for (const folderName of names.sort()) {
    if (folderName.startsWith(".")) continue;
    const folder = path.join(pluginDir, folderName);
    const st = await fs.lstat(folder);
    if (st.isSymbolicLink()) {
      out.push({ folderName, folder, manifest: null, problem: `${folder}: a symbolic link; a plugin folder must be a real folder (install the plugin instead)` });
      continue;
    }
    if (!st.isDirectory()) continue;
    const { manifest, problem } = await readManifest(folder, apiVersion);
    let p = problem;
    if (!p && manifest && manifest.id !== folderName) p = `${folder}: folder name must equal the manifest id "${manifest.id}"`;
    out.push({ folderName, folder, manifest, problem: p });
  }
  return out;
}

/** Replacing an installed plugin with another version: what the user is asked. */
export interface ReplaceQuestion {
  id: string;
  /** the installed plugin's version ("unreadable" when its plugin.json cannot be read) */
  installedVersion: string;
  /** the version the folder offers */
  version: string;
}

/** Another version of the plugin is installed: nothing was written; install again with `confirmed` set to `question` to replace it. */
export class ReplaceNeedsConfirmation extends Error {
  constructor(readonly question: ReplaceQuestion) {
    super(`plugin "${question.id}" ${question.installedVersion} is installed: replacing it with ${question.version} needs the user's confirmation`);
  }
}

/**
 * Refuses to replace another installed version of `manifest`'s plugin unless `confirmed` is the
 * very question the user answered (ReplaceNeedsConfirmation, nothing written); the same version is
 * replaced without asking (a rebuilt plugin reinstalled). Shared by the folder and archive installs.
 */
export async function checkReplace(pluginDir: string, manifest: PluginManifest, confirmed?: ReplaceQuestion): Promise<void> {
  const installed = await installedVersion(pluginDir, manifest.id);
  if (installed === null || installed === manifest.version) return;
  const question = { id: manifest.id, installedVersion: installed, version: manifest.version };
  const same = confirmed?.id === question.id && confirmed.installedVersion === question.installedVersion && confirmed.version === question.version;
  if (!same) throw new ReplaceNeedsConfirmation(question);
}

/**
 * Copies `source` into `<pluginDir>/<manifest id>` after validation. An install of another version
 * of the same id is replaced only when `confirmed` is the question the user answered (else
 * ReplaceNeedsConfirmation, nothing written), and only once the new copy is complete; the same
 * version is replaced without asking (a rebuilt plugin reinstalled).
 */
export async function installPluginFolder(
  source: string,
  pluginDir: string,
  apiVersion: string,
  reservedIds: ReadonlySet<string>,
  confirmed?: ReplaceQuestion,
): Promise<PluginManifest> {
  const src = path.resolve(source);
  const files = readPluginFolderFiles(src);
  const manifestBytes = files["plugin.json"];
  if (!manifestBytes) throw new Error(`${src}: no plugin.json (a plugin folder needs a manifest)`);
  const { manifest, problem } = await checkManifest(src, text(manifestBytes), apiVersion, (main) => files[main] !== undefined);
  if (problem || !manifest) throw new Error(problem ?? `${src}: unreadable plugin.json`);
  if (reservedIds.has(manifest.id)) throw new Error(`${src}: plugin id "${manifest.id}" is a built-in plugin's id`);
  const resolvedDir = path.resolve(pluginDir);
  if (src === resolvedDir || src.startsWith(resolvedDir + path.sep)) throw new Error(`${src}: already inside the plugin folder`);
  await checkReplace(resolvedDir, manifest, confirmed);
  // the copy is what was read and checked, never the source files again
  await installPluginFiles(files, resolvedDir, manifest.id);
  return manifest;
}

/** The code the simulation worker needs to load an installed plugin (never run here). */
export async function readPluginCode(pluginDir: string, id: string, apiVersion: string): Promise<PluginCode> {
  const folder = path.join(pluginDir, checkPluginId(id));
  const all = readPluginFolderFiles(folder, { want: (rel) => rel === "plugin.json" || CODE_EXT.has(path.posix.extname(rel)) || /^examples\/[^/]+\.ts$/.test(rel) });
  const manifestBytes = all["plugin.json"];
  if (!manifestBytes) throw new Error(`${folder}: no plugin.json (a plugin folder needs a manifest)`);
  const { manifest, problem } = await checkManifest(folder, text(manifestBytes), apiVersion, (main) => all[main] !== undefined);
  if (problem || !manifest) throw new Error(problem ?? `${folder}: unreadable plugin.json`);
  const files: Record<string, string> = {};
  const examples: Record<string, string> = {};
  for (const [rel, bytes] of Object.entries(all)) {
    if (CODE_EXT.has(path.posix.extname(rel))) files[rel] = text(bytes);
    else examples[rel] = text(bytes);
  }
  return { id: manifest.id, manifest, main: mainOf(manifest), files, examples };
}
