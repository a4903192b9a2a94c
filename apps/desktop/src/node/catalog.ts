/** The built-in examples, CPU profiles and plugin manifests, as plain data for the host API. */
import type { CpuProfileFile, PluginManifest } from "../common/contracts.js";
import type { ExampleEntry, PresetEntry } from "../common/host-api.js";
import { BUILTIN_PLUGINS, BUILTIN_PROFILE_FILES, EXAMPLES, PRESETS } from "../worker/sim-adapter.js";

export interface BuiltinCatalog {
  examples: ExampleEntry[];
  profiles: CpuProfileFile[];
  plugins: PluginManifest[];
  presets: PresetEntry[];
}

export function builtinCatalog(): BuiltinCatalog {
  return {
    // Core examples first, then those contributed by built-in plugins.
    examples: [...EXAMPLES, ...BUILTIN_PLUGINS.flatMap((p) => p.examples ?? [])].map((e) => ({
      id: e.id,
      title: e.title,
      file: e.file,
      source: e.source,
      ...(e.suggestedVariants?.length ? { suggestedVariants: e.suggestedVariants } : {}),
    })),
    profiles: [...BUILTIN_PROFILE_FILES],
    plugins: BUILTIN_PLUGINS.map((p) => p.manifest),
    presets: PRESETS.map((p) => ({ id: p.id, name: p.name, description: p.description, stack: p.stack.map((v) => ({ ...v })) })),
  };
}
