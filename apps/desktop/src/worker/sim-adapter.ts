/**
 * The built-in catalog's runtime values (examples, profiles, plugins, presets) for the host side
 * (src/node/catalog.ts; tests may vi.mock it). The simulation itself runs only in core's execution
 * host (sim.worker.ts); nothing here evaluates workload or plugin code.
 */
export { EXAMPLES } from "@siglab/core";
export { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
export { BUILTIN_PLUGINS, PRESETS, type Preset } from "@siglab/builtin-plugins";
