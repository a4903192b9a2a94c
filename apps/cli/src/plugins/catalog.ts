/**
 * The main process's view of plugins (manifests, presets, examples) — no plugin code runs here;
 * built-in plugins are trusted code of SigLab itself.
 */
import type { PluginManifest, VariantSpec } from "@siglab/core";
import { BUILTIN_PLUGINS, PRESETS, type Preset } from "@siglab/builtin-plugins";
import { UsageError } from "../catalog.js";
import { scanPluginDirs, vetFolders, type RefusedFolder } from "./folders.js";

export { PRESETS };

/** An example a plugin ships, with the stack and CPU it suggests (e.g. linux6's need long mode). */
export interface ExampleRef {
  id: string;
  title: string;
  file: string;
  suggestedVariants?: { id: string; options?: Record<string, unknown> }[];
  suggestedCpu?: { id: string; mhz?: number };
}

export interface PluginInfo {
  manifest: PluginManifest;
  builtin: boolean;
  dir?: string;
  /** example workloads the plugin ships (built-in: from its code; third-party: its examples/ folder) */
  examples: ExampleRef[];
}

/**
 * Built-in plugins and the third-party ones whose manifest passes every check that needs no
 * plugin code (schema, main present, plugin-API version, unique id). Errors in the plugin's code
 * itself only show when a run loads it in the sandbox.
 */
export function listPlugins(dirs: string[]): { plugins: PluginInfo[]; refused: string[]; refusals: RefusedFolder[] } {
  const { folders, refusals: scanRefusals } = scanPluginDirs(dirs);
  const taken = new Map(BUILTIN_PLUGINS.map((p) => [p.manifest.id, `the built-in plugin '${p.manifest.id}'`]));
  const { ok, refusals: vetRefusals } = vetFolders(folders, taken);
  const refusals = [...scanRefusals, ...vetRefusals];
  const exampleRefs = (ex: ExampleRef[]) => ex.map((e) => ({ id: e.id, title: e.title, file: e.file, ...(e.suggestedVariants ? { suggestedVariants: e.suggestedVariants } : {}), ...(e.suggestedCpu ? { suggestedCpu: e.suggestedCpu } : {}) }));
  return {
    plugins: [
      ...BUILTIN_PLUGINS.map((p) => ({ manifest: p.manifest, builtin: true, examples: exampleRefs(p.examples ?? []) })),
      ...ok.map((f) => ({ manifest: f.manifest, builtin: false, dir: f.dir, examples: exampleRefs(f.examples) })),
    ],
    refused: refusals.map((r) => r.reason),
    refusals,
  };
}

/**
 * The built-in presets, then those the third-party plugins of `dirs` declare in their manifests.
 * A third-party preset whose id is taken (by a built-in one or an earlier plugin) is left out and
 * named in `refused`.
 */
export function allPresets(dirs: string[]): { presets: Preset[]; refused: string[] } {
  const presets = [...PRESETS];
  const refused: string[] = [];
  for (const p of listPlugins(dirs).plugins) {
    if (p.builtin) continue;
    for (const preset of p.manifest.presets ?? []) {
      const clash = presets.find((x) => x.id === preset.id);
      if (clash) refused.push(`${p.dir}: preset '${preset.id}' of plugin '${p.manifest.id}' is left out: the id is already a preset`);
      else presets.push(preset);
    }
  }
  return { presets, refused };
}

export async function findPreset(name: string, dirs: string[]): Promise<VariantSpec[]> {
  const { presets } = allPresets(dirs);
  const p = presets.find((x) => x.id === name || x.name === name);
  if (!p) throw new UsageError(`unknown preset '${name}' (presets: ${presets.map((x) => x.id).join(", ")}${dirs.length ? "" : "; presets of third-party plugins need --plugin-dir"})`);
  return p.stack;
}

/** Example workloads of the built-in plugins and the --plugin-dir folders; `onRefused` hears of each folder refused. */
export async function pluginExamples(dirs: string[], onRefused?: (reason: string) => void): Promise<{ id: string; title: string; file: string; source: string }[]> {
  const builtin = BUILTIN_PLUGINS.flatMap((p) => p.examples ?? []);
  const scan = scanPluginDirs(dirs);
  for (const r of scan.refusals) onRefused?.(r.reason);
  return [...builtin, ...scan.folders.flatMap((f) => f.examples)];
}
