/**
 * @siglab/plugin-api — what a SigLab plugin programs against: the extension points it implements,
 * the kernel objects and functions it may use (named after Linux's), the tokens it binds, the
 * manifest's shape, and a few pure helpers. SigLab's core implements it; the built-in plugins use
 * nothing else. A third-party plugin's `require("@siglab/plugin-api")` returns this module's values
 * (the same object is passed to `createModule(options, api)`).
 */
export * from "./values.js";
export type { OpClassInfo, SmpOpClass, MachineOpClass } from "./op-classes.js";
export type * from "./profile-types.js";
export type { OpClass, OpLine, PathDef, PathTransform, CorePhase } from "./paths.js";
export type { SyscallName } from "./nr.js";
export type { StateKey, StateHolder } from "./state.js";
export type { Token, ExtensionPointName } from "./tokens.js";
export type { BindingTo, ModuleLoadOptions, ContainerModuleConstructor } from "./container.js";
export type * from "./machine.js";
export type * from "./signals.js";
export type * from "./model.js";
export type * from "./extension-points.js";
export type * from "./manifest.js";
export type * from "./results.js";
export type * from "./plugin-module.js";
export type { HarnessOptions, RunWorkload } from "./harness-types.js";
