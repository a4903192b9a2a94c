/**
 * @siglab/core/plugin-api: what the host checks of a plugin without loading the simulator: the API
 * version it implements, the manifest's types, option resolution and stack conflicts. Loading and
 * validating plugins (fromPluginModule, validateManifest) is the root entry's.
 */
export * from "./manifest.js";
export * from "./loaded-plugin.js";
