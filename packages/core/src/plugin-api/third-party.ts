/**
 * Third-party plugins: plugin.json + a CommonJS entry (main) exporting
 * `createModule(options, api) => ContainerModule` and optionally `examples`. The host evaluates the
 * code in its sandbox; this module only checks and wraps what comes back.
 */
import type { ContainerModule } from "inversify";
import type { ParamValue } from "../common/experiment.js";
import type { ExampleWorkload } from "./extension-points.js";
import { createPluginApi } from "./host-api.js";
import { checkApiVersion, PluginError, type LoadedPlugin } from "./loaded-plugin.js";
import { validateManifest } from "./manifest-schema.js";

export interface ThirdPartyFiles {
  /** folder name, for messages */
  origin: string;
  manifestText: string;
  /** the entry's JavaScript (manifest.main) */
  code: string;
}

export type PluginEvaluator = (js: string, file: string, modules: Record<string, unknown>) => unknown;

export function loadThirdPartyPlugin(files: ThirdPartyFiles, evaluate: PluginEvaluator): LoadedPlugin {
  const file = `${files.origin}/plugin.json`;
  let json: unknown;
  try {
    json = JSON.parse(files.manifestText);
  } catch (e) {
    throw new PluginError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  const manifest = validateManifest(json, file);
  checkApiVersion(manifest);
  if (!manifest.main) throw new PluginError(`${file}: a third-party plugin needs "main" (its JavaScript entry)`);
  const entryFile = `${files.origin}/${manifest.main}`;
  const api = createPluginApi();
  let exports: { createModule?: unknown; examples?: unknown };
  try {
    exports = evaluate(files.code, entryFile, { "@siglab/plugin-api": api, inversify: { ContainerModule: api["ContainerModule"] } }) as typeof exports;
  } catch (e) {
    throw new PluginError(`plugin '${manifest.id}' (${entryFile}) threw while loading: ${(e as Error).message}`);
  }
  const createModule = exports?.createModule;
  if (typeof createModule !== "function") throw new PluginError(`plugin '${manifest.id}' (${entryFile}) does not export createModule(options, api)`);
  const examples = Array.isArray(exports.examples) ? (exports.examples as ExampleWorkload[]).filter((e) => e && typeof e.id === "string" && typeof e.source === "string") : [];
  return {
    manifest,
    builtin: false,
    origin: files.origin,
    examples,
    module(options: Record<string, ParamValue>): ContainerModule {
      const m = (createModule as (o: Record<string, ParamValue>, a: unknown) => unknown)(options, api);
      if (!m || typeof (m as ContainerModule).load !== "function") throw new PluginError(`plugin '${manifest.id}': createModule did not return a ContainerModule`);
      return m as ContainerModule;
    },
  };
}
