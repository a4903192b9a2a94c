/** plugin.json: what a plugin declares about itself (plain data). */
import type { ParamValue, VariantSpec } from "./results.js";
import type { ExtensionPointName } from "./tokens.js";

/**
 * One option of a plugin (plugin.json's "options"): its type, default and what it does. Users set
 * it as `--variant id:name=value`; the host checks the value against this spec before
 * createModule sees it.
 * @category Manifest
 */
export interface PluginOptionSpec {
  /** The value's type ("enum": one of `values`). */
  type: "boolean" | "number" | "string" | "enum";
  /** The value when the user gives none. */
  default: ParamValue;
  /** What the option changes, for `siglab plugins info` and the app. */
  description: string;
  /** for enum */
  values?: string[];
  /** for number */
  min?: number;
  /** For a number: the highest value accepted. */
  max?: number;
  /** For a number: its unit, e.g. "us" or "cycles". */
  unit?: string;
}

/**
 * plugin.json: what a plugin declares about itself. The host checks it before any plugin code
 * runs, and enforces `contributes` and `replaces` when the plugin's module binds.
 * @category Manifest
 */
export interface PluginManifest {
  /** The plugin's id: lower-case letters, digits and '-' (at most 64); what `--variant` names. */
  id: string;
  /** The plugin's version, SemVer ("1.2.0"); bundles record it. Raise it with every change. */
  version: string;
  /** plugin-API version targeted ("major.minor"); another major, or a newer minor, is refused */
  apiVersion: string;
  /** Its name as lists show it. */
  displayName: string;
  /** What the variant changes, in a sentence or two. */
  description: string;
  /** Its options by name (empty: none). */
  options: Record<string, PluginOptionSpec>;
  /** every extension point the plugin binds */
  contributes: ExtensionPointName[];
  /** the single-valued points it replaces (two plugins replacing the same one conflict) */
  replaces?: ExtensionPointName[];
  /** the JavaScript entry (third-party plugins), relative to the plugin folder, e.g. "dist/index.cjs" */
  main?: string;
  /** named variant stacks this plugin offers (shown by `siglab list`, used with `--preset`) */
  presets?: Preset[];
  /**
   * Why a run may not be changed by this variant, and what makes it apply (API 2.4). A variant none
   * of whose kernel paths ran in a run had no effect on it (`PathStat.origin` says whose a path is);
   * the CLI and the app then say so, with these words, and the app offers `options` as a switch.
   */
  noEffect?: NoEffectHint;
}

/**
 * A plugin's words for a run it did not change; in plugin.json's "noEffect" (API 2.4).
 * @category Manifest
 */
export interface NoEffectHint {
  /** Why, in a clause ("no handler asked for SA_NOFP"). */
  reason: string;
  /** What to do about it, in a clause ("set forceAll=true to apply it to every handler"). */
  remedy?: string;
  /** The option values that make the variant apply (e.g. `{ "forceAll": true }`): the app's switch. */
  options?: Record<string, ParamValue>;
}

/**
 * Option values after validation against the manifest (defaults filled in): what createModule gets.
 * @category Manifest
 */
export type PluginOptions = Readonly<Record<string, ParamValue>>;

/**
 * A named variant stack (shown by `siglab list`, used with `--preset`); in plugin.json's "presets".
 * @category Manifest
 */
export interface Preset {
  /** e.g. "linux-2.5.53" */
  id: string;
  /** e.g. "Linux 2.5.53 + SYSENTER" */
  name: string;
  /** What the stack stands for (a kernel release, a what-if). */
  description: string;
  /** The plugins of the stack, bottom first, with their options. */
  stack: VariantSpec[];
}
