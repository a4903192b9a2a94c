/**
 * The main process's view of plugins (manifests, presets, examples) — no plugin code runs here;
 * built-in plugins are trusted code of SigLab itself.
 */
import type { PluginManifest, VariantSpec } from "@siglab/core";
import { BUILTIN_PLUGINS, PRESETS } from "@siglab/builtin-plugins";
import { UsageError } from "../catalog.js";
import { scanPluginDirs } from "./folders.js";

export { PRESETS };

export interface PluginInfo {
  manifest: PluginManifest;
  builtin: boolean;
  dir?: string;
}

export function listPlugins(dirs: string[]): { plugins: PluginInfo[]; refused: string[] } {
  const { folders, errors } = scanPluginDirs(dirs);
  return {
    plugins: [...BUILTIN_PLUGINS.map((p) => ({ manifest: p.manifest, builtin: true })), ...folders.map((f) => ({ manifest: f.manifest, builtin: false, dir: f.dir }))],
    refused: errors,
  };
}

export async function findPreset(name: string, _dirs: string[]): Promise<VariantSpec[]> {
  const p = PRESETS.find((x) => x.id === name || x.name === name);
  if (!p) throw new UsageError(`unknown preset '${name}' (presets: ${PRESETS.map((x) => x.id).join(", ")})`);
  return p.stack;
}

export async function pluginExamples(dirs: string[]): Promise<{ id: string; title: string; file: string; source: string }[]> {
  const builtin = BUILTIN_PLUGINS.flatMap((p) => p.examples ?? []);
  const third = scanPluginDirs(dirs).folders.flatMap((f) => f.examples);
  return [...builtin, ...third];
}
