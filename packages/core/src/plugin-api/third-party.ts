/**
 * Third-party plugins: plugin.json + a CommonJS entry (main) exporting
 * `createModule(options, api) => ContainerModule` and optionally `examples`. The sandbox evaluates
 * the code in a compartment (host/sandbox.ts); this module only checks and wraps what comes back.
 */
import type { ContainerModule } from "inversify";
import type { ParamValue } from "../common/experiment.js";
import type { CreateModule, PluginModule } from "@siglab/plugin-api";
import type { PluginSource } from "../host/protocol.js";
import type { ExampleWorkload } from "./extension-points.js";
import { createPluginApi } from "./host-api.js";
import { checkApiVersion, PluginError, type LoadedPlugin } from "./loaded-plugin.js";
import { PLUGIN_API_VERSION, type PluginManifest } from "./manifest.js";
import { validateManifest } from "./manifest-schema.js";

/** Evaluates the plugin's file `entry` (relative to its folder) in the sandbox; returns its exports. */
export type PluginEvaluator = (entry: string) => unknown;

export function loadThirdPartyPlugin(src: PluginSource, evaluate: PluginEvaluator, api: object = createPluginApi()): LoadedPlugin {
  const file = `${src.origin}/plugin.json`;
  const manifest = validateManifest(src.manifest, file);
  checkApiVersion(manifest);
  if (!manifest.main) throw new PluginError(`${file}: a third-party plugin needs "main" (its JavaScript entry)`);
  const main = manifest.main.replace(/^(\.\/)+/, "");
  const entryFile = `${src.origin}/${main}`;
  if (typeof src.files[main] !== "string") throw new PluginError(`${entryFile}: the plugin's main file is missing (build the plugin first)`);
  let exports: { createModule?: unknown; examples?: unknown };
  try {
    exports = evaluate(main) as typeof exports;
  } catch (e) {
    throw new PluginError(`plugin '${manifest.id}' (${entryFile}) threw while loading: ${(e as Error)?.message ?? String(e)}`);
  }
  if (typeof exports?.createModule !== "function") throw new PluginError(`plugin '${manifest.id}' (${entryFile}) does not export createModule(options, api)`);
  return fromPluginModule({ manifest: src.manifest, createModule: exports.createModule as CreateModule, examples: exports.examples as ExampleWorkload[] }, { origin: src.origin, builtin: false, file, api });
}

/**
 * A plugin's exports (manifest, createModule, examples) as the runner uses it: the one path for
 * built-in and third-party plugins alike.
 */
export function fromPluginModule(mod: PluginModule, o: { origin: string; builtin: boolean; file?: string; api?: object }): LoadedPlugin {
  const manifest = validateManifest(mod.manifest, o.file ?? `${o.origin}/plugin.json`);
  checkApiVersion(manifest);
  const api = o.api ?? createPluginApi();
  const examples = Array.isArray(mod.examples) ? mod.examples.filter((e) => e && typeof e.id === "string" && typeof e.source === "string") : [];
  return {
    manifest,
    builtin: o.builtin,
    origin: o.origin,
    examples,
    module(options: Record<string, ParamValue>): ContainerModule {
      const m = mod.createModule(Object.freeze({ ...options }), api as never) as unknown;
      if (!m || typeof (m as ContainerModule).load !== "function") throw new PluginError(`plugin '${manifest.id}': createModule did not return a ContainerModule`);
      return m as ContainerModule;
    },
  };
}

/**
 * Stands in for a refused plugin whose id is known: a run that names it fails with the refusal
 * (as a plugin error) instead of "unknown plugin"; runs that do not name it are unaffected. With
 * a valid manifest its options are checked as usual; without one, any option passes so that the
 * refusal is what is reported.
 */
export function refusedPluginStandIn(src: PluginSource): LoadedPlugin {
  let manifest: PluginManifest;
  try {
    manifest = validateManifest(src.manifest, `${src.origin}/plugin.json`);
  } catch {
    const anyOption = new Proxy({}, { get: (_t, k) => (typeof k === "string" ? { type: "string", default: "", description: "" } : undefined) });
    manifest = { id: src.id, version: "0.0.0", apiVersion: PLUGIN_API_VERSION, displayName: src.id, description: `refused: ${src.refused}`, options: anyOption, contributes: [] };
  }
  return {
    manifest,
    builtin: false,
    origin: src.origin,
    module() {
      throw new PluginError(`refused: ${src.refused}`);
    },
  };
}
