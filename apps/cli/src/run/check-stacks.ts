/**
 * The variant stacks of a command, checked before any run starts (and before any run header is
 * printed): every preset and plugin id exists (with "did you mean"), every option is one the
 * plugin declares and has a value it accepts, no two plugins of a stack conflict. The runs would
 * find the same problems, but one run at a time under a run header each.
 */
import { checkConflicts, resolveOptions, type PluginManifest, type VariantSpec } from "@siglab/core";
import { formatVariants } from "@siglab/core/bundle";
import { UsageError } from "../catalog.js";
import { allPresets, listPlugins } from "../plugins/catalog.js";
import { didYouMean } from "../suggest.js";

const needDirs = (dirs: readonly string[], what: string): string => (dirs.length ? "" : `; ${what} need --plugin-dir`);

/** The stack a --preset names (by id or name). */
export function presetStack(name: string, dirs: string[]): VariantSpec[] {
  const { presets } = allPresets(dirs);
  const p = presets.find((x) => x.id === name || x.name === name);
  if (!p) throw new UsageError(`unknown preset '${name}' (${didYouMean(name, presets.map((x) => ({ id: x.id, aliases: [x.name] })))}presets: ${presets.map((x) => x.id).join(", ")}${needDirs(dirs, "presets of third-party plugins")})`);
  return p.stack;
}

/** Checks every stack; returns the manifests of the plugins they use (by id). */
export function checkStacks(stacks: readonly VariantSpec[][], dirs: string[]): Map<string, PluginManifest> {
  const { plugins, refusals } = listPlugins(dirs);
  const byId = new Map(plugins.map((p) => [p.manifest.id, p.manifest]));
  const used = new Map<string, PluginManifest>();
  for (const stack of stacks) {
    const manifests = stack.map((v) => {
      const m = byId.get(v.id);
      if (!m) {
        const refused = refusals.find((r) => r.id === v.id);
        if (refused) throw new UsageError(`--variant ${v.id}: the plugin is refused: ${refused.reason}`);
        throw new UsageError(`unknown plugin '${v.id}' (${didYouMean(v.id, [...byId.values()].map((x) => ({ id: x.id, aliases: [x.displayName] })))}plugins: ${[...byId.keys()].join(", ")}${needDirs(dirs, "third-party plugins")})`);
      }
      const declared = Object.keys(m.options ?? {});
      for (const key of Object.keys(v.options ?? {})) {
        if (!declared.includes(key)) throw new UsageError(`--variant ${formatVariants([v])}: plugin '${v.id}' has no option '${key}' (${didYouMean(key, declared)}options: ${declared.join(", ") || "none"})`);
      }
      try {
        resolveOptions(m, v.options ?? {});
      } catch (e) {
        throw new UsageError(`--variant ${formatVariants([v])}: ${(e as Error).message}`);
      }
      used.set(m.id, m);
      return m;
    });
    try {
      checkConflicts(manifests);
    } catch (e) {
      throw new UsageError(`variant stack ${formatVariants(stack)}: ${(e as Error).message}`);
    }
  }
  return used;
}
