/**
 * The banner over the results when a variant changed nothing in a run (core's idleVariants: none of
 * the kernel paths the plugin contributes or changes ran), one line per variant with the runs it
 * concerns, the plugin's reason and remedy, and a button that turns on the options that make it
 * apply (the manifest's noEffect.options, else its boolean options that are off) and runs again.
 */
import { idleVariants, type IdleVariant, type VariantEffectManifest } from "@siglab/core/common";
import type { ParamValue, RunResult } from "../../common/contracts.js";
import { h } from "../ui/dom.js";

export function variantNotices(results: readonly RunResult[], manifestOf: (id: string) => VariantEffectManifest | undefined, apply?: (id: string, options: Record<string, ParamValue>) => void): HTMLElement | null {
  const byVariant = new Map<string, { idle: IdleVariant; runs: number }>();
  for (const r of results) {
    for (const v of idleVariants(r, manifestOf)) {
      const seen = byVariant.get(v.id);
      byVariant.set(v.id, { idle: seen?.idle ?? v, runs: (seen?.runs ?? 0) + 1 });
    }
  }
  if (byVariant.size === 0) return null;
  const withVariant = (id: string): number => results.filter((r) => !r.error && r.variants.some((v) => v.id === id)).length;
  return h("div.variant-notices", { role: "status" }, [...byVariant.values()].map(({ idle, runs }) => {
    const of = withVariant(idle.id);
    const where = of <= 1 ? " in this run" : runs === of ? ` in all ${of} runs with it` : ` in ${runs} of the ${of} runs with it`;
    const why = idle.reason ? ` (${idle.reason}${idle.remedy ? `; ${idle.remedy}` : ""})` : "";
    const options = Object.fromEntries(idle.switches.map((s) => [s.name, s.value]));
    const label = idle.switches.map((s) => `${s.name}=${String(s.value)}`).join(", ");
    return h("div.variant-notice", { "data-variant": idle.id, "data-runs": String(runs) },
      h("span", null, h("strong", null, `${idle.id} had no effect`), `${where}: none of the kernel paths it contributes or changes ran${why}.`),
      apply && idle.switches.length
        ? h("button.small", { "data-apply-switch": idle.id, title: idle.switches.map((s) => `${s.name}: ${s.description}`).join("\n"), onclick: () => apply(idle.id, options) }, `Set ${label} and run again`)
        : null);
  }));
}
