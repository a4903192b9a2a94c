/**
 * The CLI's words for a variant that changed nothing in a run (core's idleVariants: none of the
 * kernel paths the plugin contributes or changes ran), with the plugin's reason and remedy when its
 * manifest gives them ("noEffect"). Text output only: a run's JSON is its result, unchanged.
 */
import { idleVariants, type VariantEffectManifest } from "@siglab/core/common";
import type { RunResult } from "@siglab/core";
import { listPlugins } from "../plugins/catalog.js";
import { oneLine } from "../terminal.js";

/** The manifests of the built-in plugins and those of `pluginDirs`, by id. */
export function manifestLookup(pluginDirs: string[]): (id: string) => VariantEffectManifest | undefined {
  const byId = new Map(listPlugins(pluginDirs).plugins.map((p) => [p.manifest.id, p.manifest as VariantEffectManifest]));
  return (id) => byId.get(id);
}

/** "   notice: variant sa-nofp had no effect in this run: … (no handler asked for SA_NOFP; set forceAll=true …)" lines. */
export function variantNoticeLines(r: RunResult, manifestOf: (id: string) => VariantEffectManifest | undefined): string[] {
  return idleVariants(r, manifestOf).map((v) => `   notice: ${oneLine(v.message)}`);
}
