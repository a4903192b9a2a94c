/**
 * A plugin's module as the host loads it: the exports of its entry (the manifest, createModule,
 * example workloads) and the API object createModule receives.
 */
import type { ContainerModule } from "./container.js";
import type { PluginOptions } from "./manifest.js";
import type * as values from "./values.js";

/** What `require("@siglab/plugin-api")` returns (also passed to createModule): the API's values. */
export type PluginApi = typeof values;

/** The signature of a plugin's `createModule` export. */
export type CreateModule = (options: PluginOptions, api: PluginApi) => ContainerModule;

/**
 * A workload shipped with a plugin (shown in `siglab list` and the app's example list). A
 * third-party plugin ships them as .ts files in its examples/ folder.
 */
export interface ExampleWorkload {
  id: string;
  title: string;
  file: string;
  /** the workload's TypeScript source */
  source: string;
  /** plugins this example needs to show its point (e.g. sa_nofp_hazard -> sa-nofp) */
  suggestedVariants?: { id: string; options?: Record<string, string | number | boolean> }[];
  /** API 2.2: the CPU the example is made for, when the suggested stack needs one (e.g. long mode); mhz 0 or absent: its default clock */
  suggestedCpu?: { id: string; mhz?: number };
}

/** What a plugin's entry exports (a built-in plugin's module, a third-party plugin's main). */
export interface PluginModule<M = unknown> {
  /** plugin.json (the host validates it) */
  readonly manifest: M;
  readonly createModule: CreateModule;
  /** example workloads it ships (a third-party plugin may also use its examples/ folder) */
  readonly examples?: readonly ExampleWorkload[];
}
