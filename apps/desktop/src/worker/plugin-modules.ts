/** The bare modules a third-party plugin may import inside the sandbox. */
import * as inversify from "inversify";
import * as manifest from "@siglab/core/plugin-api/manifest.js";
import type { ModuleTable } from "./sandbox.js";

export function pluginModuleTable(): ModuleTable {
  const pluginApi = { ...manifest };
  return {
    inversify,
    "@siglab/core": pluginApi,
    "@siglab/core/plugin-api": pluginApi,
  };
}
