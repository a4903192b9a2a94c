/** plugin.json: what a plugin declares about itself (plain data). */
import type { ParamValue } from "./results.js";
import type { ExtensionPointName } from "./tokens.js";

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

/** A named variant stack (shown by `siglab list`, used with `--preset`); in plugin.json's "presets". */
export interface Preset {
  /** e.g. "linux-2.5.53" */
  id: string;
  /** e.g. "Linux 2.5.53 + SYSENTER" */
  name: string;
  description: string;
  stack: { id: string; options?: Record<string, string | number | boolean> }[];
}
