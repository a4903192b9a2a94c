/**
 * What third-party plugin code receives as `require("@siglab/plugin-api")` (and as createModule's
 * `api`): the plugin API package itself — the same module the built-in plugins import.
 */
import * as pluginApi from "@siglab/plugin-api";

export type PluginApi = typeof pluginApi;

export function createPluginApi(): PluginApi {
  return pluginApi;
}
