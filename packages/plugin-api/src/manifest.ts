/** plugin.json: what a plugin declares about itself (plain data). */
import type { Preset } from "./extension-points.js";
import type { ExtensionPointName } from "./tokens.js";

export type ParamValue = number | string | boolean;

export interface PluginOptionSpec {
  type: "boolean" | "number" | "string" | "enum";
  default: ParamValue;
  description: string;
  /** for enum */
  values?: string[];
  /** for number */
  min?: number;
  max?: number;
  unit?: string;
}

export interface PluginManifest {
  id: string;
  version: string;
  /** plugin-API version targeted ("major.minor"); another major, or a newer minor, is refused */
  apiVersion: string;
  displayName: string;
  description: string;
  options: Record<string, PluginOptionSpec>;
  /** every extension point the plugin binds */
  contributes: ExtensionPointName[];
  /** the single-valued points it replaces (two plugins replacing the same one conflict) */
  replaces?: ExtensionPointName[];
  /** the JavaScript entry (third-party plugins), relative to the plugin folder, e.g. "dist/index.cjs" */
  main?: string;
  /** named variant stacks this plugin offers (shown by `siglab list`, used with `--preset`) */
  presets?: Preset[];
}

/** Option values after validation against the manifest (defaults filled in). */
export type PluginOptions = Readonly<Record<string, ParamValue>>;
