/**
 * The one place the desktop app imports the simulator's runtime values (tests may vi.mock it).
 */
import type { LoadedPlugin } from "@siglab/core";

export { runWorkload, EXAMPLES, createSiglabModule, type RunEnvironment, type LoadedPlugin } from "@siglab/core";
export { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";

/**
 * Built-in plugins (sa-nofp, sysenter, ...). Empty until the built-in plugin packages land
 * (issue 4); the app lists, configures and runs whatever this array holds.
 */
export const BUILTIN_PLUGINS: LoadedPlugin[] = [];
