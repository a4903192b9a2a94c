/**
 * @siglab/plugin-api — what a SigLab plugin programs against: the extension points it implements,
 * the kernel objects and functions it may use (named after Linux's), the tokens it binds, the
 * manifest's shape, and a few pure helpers. SigLab's core implements it; the built-in plugins use
 * nothing else. A third-party plugin's `require("@siglab/plugin-api")` returns this module's values
 * (the same object is passed to `createModule(options, api)`).
 */
export * from "./values.js";
export type { OpClassInfo, SmpOpClass, MemOpClass } from "./op-classes.js";
export type * from "./profile-types.js";
export type { OpClass, OpLine, PathDef, PathTransform, CorePhase } from "./paths.js";
export type { SyscallName } from "./nr.js";
export type { StateKey, StateHolder } from "./state.js";
export type { Token, ExtensionPointName } from "./tokens.js";
export type { BindingTo, ModuleLoadOptions, ContainerModuleConstructor } from "./container.js";
export type * from "./machine.js";
export type * from "./signals.js";
export type * from "./kernel.js";
export type * from "./threads.js";
export type * from "./extension-points.js";
export type * from "./manifest.js";
export type * from "./results.js";
export type { HarnessOptions, RunWorkload } from "./harness-types.js";

import type * as values from "./values.js";
import type { ContainerModule } from "./container.js";
import type { ExampleWorkload } from "./extension-points.js";
import type { PluginOptions } from "./manifest.js";

/** What `require("@siglab/plugin-api")` returns (also passed to createModule): the API's values. */
export type PluginApi = typeof values;

/** The signature of a plugin's `createModule` export. */
export type CreateModule = (options: PluginOptions, api: PluginApi) => ContainerModule;

/** What a plugin's entry exports (a built-in plugin's module, a third-party plugin's main). */
export interface PluginModule<M = unknown> {
  /** plugin.json (the host validates it) */
  readonly manifest: M;
  readonly createModule: CreateModule;
  /** example workloads it ships (a third-party plugin may also use its examples/ folder) */
  readonly examples?: readonly ExampleWorkload[];
}
