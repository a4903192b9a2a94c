/**
 * A plugin's module as the host loads it: the exports of its entry (the manifest, createModule,
 * example workloads) and the API object createModule receives.
 */
import type { ContainerModule } from "./container.js";
import type { PluginOptions } from "./manifest.js";
import type { VariantSpec } from "./results.js";
import type * as values from "./values.js";

/**
 * What `require("@siglab/plugin-api")` returns (also passed to createModule): the API's values.
 * @category Plugin module
 */
export type PluginApi = typeof values;

/**
 * The signature of a plugin's `createModule` export: called once per run that has the plugin in
 * its stack, with the plugin's validated options (defaults filled in) and the API's values;
 * returns the module that binds the plugin's extension points.
 * @category Plugin module
 */
export type CreateModule = (options: PluginOptions, api: PluginApi) => ContainerModule;

/**
 * A workload shipped with a plugin (shown in `siglab list` and the app's example list). A
 * third-party plugin ships them as .ts files in its examples/ folder.
 * @category Plugin module
 */
export interface ExampleWorkload {
  /** The example's id: what `siglab run <id>` names (unique among all examples). */
  id: string;
  /** A line saying what it shows. */
  title: string;
  /** Its file name, e.g. "getpid_cache.ts" (errors point at it). */
  file: string;
  /** the workload's TypeScript source */
  source: string;
  /** plugins this example needs to show its point (e.g. sa_nofp_hazard -> sa-nofp) */
  suggestedVariants?: VariantSpec[];
  /** API 2.2: the CPU the example is made for, when the suggested stack needs one (e.g. long mode); mhz 0 or absent: its default clock */
  suggestedCpu?: {
    /** The CPU profile's id. */
    id: string;
    /** Its clock (0 or absent: the profile's default). */
    mhz?: number;
  };
}

/**
 * What a plugin's entry exports (a built-in plugin's module, a third-party plugin's main).
 * @category Plugin module
 */
export interface PluginModule<M = unknown> {
  /** plugin.json (the host validates it) */
  readonly manifest: M;
  /** Makes the plugin's module for one run (see CreateModule). */
  readonly createModule: CreateModule;
  /** example workloads it ships (a third-party plugin may also use its examples/ folder) */
  readonly examples?: readonly ExampleWorkload[];
}
