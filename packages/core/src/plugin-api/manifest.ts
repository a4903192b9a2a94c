/** Plugin manifest: what a plugin declares about itself (plain data, JSON in plugin.json). */
import type { ParamValue } from "../common/experiment.js";

/** The plugin-API version this build of SigLab implements (semver major.minor). */
export const PLUGIN_API_VERSION = "1.0";

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
  /** plugin-API version targeted, e.g. "1.0"; a different major is refused */
  apiVersion: string;
  displayName: string;
  description: string;
  options: Record<string, PluginOptionSpec>;
  /** Extension points contributed to (see plugin-api/tokens.ts), e.g. ["EntryMechanism", "SyscallContribution"] */
  contributes: string[];
  /** Extension points this plugin replaces exclusively; two plugins replacing the same one conflict. */
  replaces?: string[];
  /** Entry module path relative to the plugin folder (third-party plugins), e.g. "dist/index.js" */
  main?: string;
}
