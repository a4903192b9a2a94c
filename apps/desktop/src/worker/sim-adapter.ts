/**
 * The one place the desktop app imports the simulator's runtime values. Swapping the fake for the
 * real @siglab/core happens here only (and tests may vi.mock this module).
 */
export {
  BUILTIN_PLUGINS,
  BUILTIN_PROFILE_FILES,
  EXAMPLES,
  createSiglabModule,
  runWorkload,
} from "./fake-core.js";
export type { LoadedPlugin, RunEnvironment } from "./fake-core.js";
