/**
 * The third-party plugins a command may use, as code for the execution host: the folders under
 * --plugin-dir that pass every check needing no plugin code (schema, main present, plugin-API
 * version, unique id), plus a stand-in for each refused one that names a plugin id, so that a run
 * asking for it fails with the refusal instead of "unknown plugin". No plugin code runs here.
 */
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import type { PluginSource } from "@siglab/core/host";
import { scanPluginDirs, vetFolders, type PluginFolder, type RefusedFolder } from "./folders.js";

export interface PluginScan {
  ok: PluginFolder[];
  refusals: RefusedFolder[];
}

export function scanThirdParty(dirs: string[]): PluginScan {
  const { folders, refusals: scanRefusals } = scanPluginDirs(dirs);
  const taken = new Map(BUILTIN_PLUGINS.map((p) => [p.manifest.id, `the built-in plugin '${p.manifest.id}'`]));
  const { ok, refusals: vetRefusals } = vetFolders(folders, taken);
  return { ok, refusals: [...scanRefusals, ...vetRefusals] };
}

/** Plugin sources for the host: the accepted folders and stand-ins for refused ones. */
export function pluginSources(dirs: string[]): PluginSource[] {
  const { ok, refusals } = scanThirdParty(dirs);
  const out: PluginSource[] = ok.map((f) => f.source);
  for (const r of refusals) {
    if (r.id && !out.some((p) => p.id === r.id) && !BUILTIN_PLUGINS.some((b) => b.manifest.id === r.id)) {
      out.push({ id: r.id, manifest: r.manifest ?? null, origin: r.dir, main: "", files: {}, refused: r.reason });
    }
  }
  return out;
}
