/**
 * Plugins available to a run, inside the sandbox process: the built-in ones, then third-party
 * folders whose code is evaluated in a V8 context. A plugin that fails to load is refused with a
 * clear message; its id is then unknown to the run that names it.
 */
import { loadThirdPartyPlugin, PluginError, type LoadedPlugin } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { evaluateInSandbox } from "../run/evaluate.js";
import { scanPluginDirs } from "./folders.js";

export interface LoadResult {
  plugins: LoadedPlugin[];
  refused: string[];
}

export function loadPluginsDetailed(dirs: string[]): LoadResult {
  const plugins: LoadedPlugin[] = [...BUILTIN_PLUGINS];
  const { folders, errors } = scanPluginDirs(dirs);
  const refused = [...errors];
  for (const f of folders) {
    try {
      const p = loadThirdPartyPlugin(f.files, evaluateInSandbox);
      if (plugins.some((x) => x.manifest.id === p.manifest.id)) throw new PluginError(`${f.dir}: plugin id '${p.manifest.id}' is already taken by another plugin`);
      plugins.push({ ...p, examples: [...(p.examples ?? []), ...f.examples] });
    } catch (e) {
      refused.push((e as Error).message);
    }
  }
  return { plugins, refused };
}

export async function loadPlugins(dirs: string[]): Promise<LoadedPlugin[]> {
  const r = loadPluginsDetailed(dirs);
  if (r.refused.length) throw new PluginError(r.refused.join("\n"));
  return r.plugins;
}
