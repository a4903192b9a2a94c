/**
 * The one place the desktop app imports the simulator's runtime values (tests may vi.mock it).
 */
export { runWorkload, EXAMPLES, createSiglabModule, type RunEnvironment, type LoadedPlugin } from "@siglab/core";
export { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
export { BUILTIN_PLUGINS, PRESETS, type Preset } from "@siglab/builtin-plugins";
