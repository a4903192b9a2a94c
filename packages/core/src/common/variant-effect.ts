/**
 * Whether each variant of a run changed anything, read off the run itself: a plugin changes a run
 * only through the kernel paths it contributes or changes (RunResult.paths' `origin`), so a variant
 * none of whose paths ran in a run had no effect on it — SA_NOFP with no handler that asked for it,
 * SYSENTER with no system call. Nothing here runs anything or changes a result; the CLI's text and
 * the app's banner say it, with the plugin's own reason and remedy when its manifest gives one.
 */
import type { ParamValue, RunResult } from "@siglab/plugin-api";

/** A plugin's own words for a run it did not change (plugin.json's optional "noEffect"). */
export interface NoEffectHint {
  reason: string;
  remedy?: string;
  /** option values that make the variant apply (the app offers them as a switch) */
  options?: Record<string, ParamValue>;
}

/** What this needs of a plugin's manifest. */
export interface VariantEffectManifest {
  id: string;
  options: Readonly<Record<string, { type: string; default: ParamValue; description: string }>>;
  noEffect?: NoEffectHint;
}

/** A variant of a run that had no effect on it, and what could make it apply. */
export interface IdleVariant {
  id: string;
  /** its place in the run's stack (0: the bottom) */
  position: number;
  /** "variant sa-nofp had no effect in this run: …" */
  message: string;
  reason?: string;
  remedy?: string;
  /** option values that would make it apply: the plugin's hint's, else its boolean options that are off */
  switches: { name: string; value: ParamValue; description: string }[];
}

/** How many times the kernel paths plugin `id` contributes or changes ran in a run. */
export function pathRunsOf(r: Pick<RunResult, "paths">, id: string): number {
  return r.paths.reduce((n, p) => (p.origin === id ? n + p.count : n), 0);
}

const isOn = (v: ParamValue | undefined): boolean => v === true || v === "true";

/** The variants of `r` none of whose kernel paths ran (none for a failed run: it stopped early). */
export function idleVariants(r: Pick<RunResult, "paths" | "variants" | "error">, manifestOf: (id: string) => VariantEffectManifest | undefined = () => undefined): IdleVariant[] {
  if (r.error) return [];
  const out: IdleVariant[] = [];
  r.variants.forEach((v, position) => {
    if (pathRunsOf(r, v.id) > 0) return;
    const m = manifestOf(v.id);
    const hint = m?.noEffect;
    const switches = hint?.options
      ? Object.entries(hint.options).filter(([name, value]) => v.options?.[name] !== value && String(v.options?.[name]) !== String(value)).map(([name, value]) => ({ name, value, description: m?.options[name]?.description ?? "" }))
      : Object.entries(m?.options ?? {}).filter(([name, spec]) => spec.type === "boolean" && !isOn(v.options?.[name] ?? spec.default)).map(([name, spec]) => ({ name, value: true as ParamValue, description: spec.description }));
    const head = `variant ${v.id} had no effect in this run: none of the kernel paths it contributes or changes ran`;
    const tail = hint
      ? `${hint.reason}${hint.remedy ? `; ${hint.remedy}` : ""}`
      : switches.length ? `its switches that are off: ${switches.map((s) => `${s.name} (${s.description})`).join(", ")}` : "";
    out.push({ id: v.id, position, message: tail ? `${head} (${tail})` : head, ...(hint ? { reason: hint.reason, ...(hint.remedy ? { remedy: hint.remedy } : {}) } : {}), switches });
  });
  return out;
}
