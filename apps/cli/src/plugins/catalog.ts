/**
 * The main process's view of plugins (manifests, presets, examples) — no plugin code runs here;
 * built-in plugins are trusted code of SigLab itself.
 */
import type { PluginManifest, VariantSpec } from "@siglab/core";
import { BUILTIN_PLUGINS, PRESETS } from "@siglab/builtin-plugins";
import { UsageError } from "../catalog.js";
import { scanPluginDirs, vetFolders, type RefusedFolder } from "./folders.js";

export { PRESETS };

export interface PluginInfo {
  manifest: PluginManifest;
  builtin: boolean;
  dir?: string;
  /** example workloads the plugin ships (built-in: from its code; third-party: its examples/ folder) */
  examples: { id: string; title: string; file: string }[];
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
  const exampleRefs = (ex: { id: string; title: string; file: string }[]) => ex.map((e) => ({ id: e.id, title: e.title, file: e.file }));
  return {
    plugins: [
      ...BUILTIN_PLUGINS.map((p) => ({ manifest: p.manifest, builtin: true, examples: exampleRefs(p.examples ?? []) })),
      ...ok.map((f) => ({ manifest: f.manifest, builtin: false, dir: f.dir, examples: exampleRefs(f.examples) })),
    ],
    refused: refusals.map((r) => r.reason),
    refusals,
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
