/**
 * Plugins available to a run, inside the sandbox process: the built-in ones, then third-party
 * folders whose code is evaluated in a V8 context. A plugin that fails to load is refused with a
 * clear message; a run that names it fails with that message, and every other run goes on.
 */
import { loadThirdPartyPlugin, PluginError, PLUGIN_API_VERSION, type LoadedPlugin, type PluginManifest } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { evaluateInSandbox } from "../run/evaluate.js";
import { scanPluginDirs, vetFolders, type RefusedFolder } from "./folders.js";

export interface LoadResult {
  plugins: LoadedPlugin[];
  /** one message per refused plugin folder */
  refused: string[];
  refusals: RefusedFolder[];
}

export function loadPluginsDetailed(dirs: string[]): LoadResult {
  const plugins: LoadedPlugin[] = [...BUILTIN_PLUGINS];
  const { folders, refusals: scanRefusals } = scanPluginDirs(dirs);
  const taken = new Map(BUILTIN_PLUGINS.map((p) => [p.manifest.id, `the built-in plugin '${p.manifest.id}'`]));
  const { ok, refusals: vetRefusals } = vetFolders(folders, taken);
  const refusals = [...scanRefusals, ...vetRefusals];
  for (const f of ok) {
    try {
      const p = loadThirdPartyPlugin(f.files, evaluateInSandbox);
      plugins.push({ ...p, origin: f.dir, examples: [...(p.examples ?? []), ...f.examples] });
    } catch (e) {
      refusals.push({ dir: f.dir, id: f.manifest.id, manifest: f.manifest, reason: (e as Error).message });
    }
  }
  return { plugins, refused: refusals.map((r) => r.reason), refusals };
}

/**
 * Stands in for a refused plugin whose id is known: a run that names it fails with the refusal
 * (as a plugin error) instead of "unknown plugin"; runs that do not name it are unaffected. With
 * a valid manifest its options are checked as usual (and a wrong API version is refused by the
 * runner's own check); without one, any option passes so that the refusal is what is reported.
 */
export function refusedPlugin(r: RefusedFolder & { id: string }): LoadedPlugin {
  const anyOption = new Proxy({}, { get: (_t, k) => (typeof k === "string" ? { type: "string", default: "", description: "" } : undefined) });
  const manifest: PluginManifest = r.manifest ?? { id: r.id, version: "0.0.0", apiVersion: PLUGIN_API_VERSION, displayName: r.id, description: `refused: ${r.reason}`, options: anyOption, contributes: [] };
  return {
    manifest,
    builtin: false,
    origin: r.dir,
    module() {
      throw new PluginError(`refused: ${r.reason}`);
    },
  };
}

/** The plugins a run may name: the loaded ones, plus a stand-in for each refused one. */
export async function loadPlugins(dirs: string[]): Promise<LoadedPlugin[]> {
  const r = loadPluginsDetailed(dirs);
  const out = [...r.plugins];
  for (const f of r.refusals) {
    const id = f.id;
    if (id && !out.some((p) => p.manifest.id === id)) out.push(refusedPlugin({ ...f, id }));
  }
  return out;
}
