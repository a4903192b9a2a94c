/** The manifest's shape and the API version are the plugin API's (@siglab/plugin-api). */
export { PLUGIN_API_VERSION, type PluginManifest, type PluginOptionSpec } from "@siglab/plugin-api";
