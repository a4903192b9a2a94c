/**
 * The part of inversify a plugin's module uses: `new ContainerModule(({ bind, rebind }) => ...)`.
 * The host hands the module options that refuse any point the manifest does not declare.
 */
import { ContainerModule as InversifyContainerModule } from "inversify";
import type { Token } from "./tokens.js";

export interface BindingTo<T> {
  /** one value for every run (it must hold no per-run state) */
  toConstantValue(value: T): unknown;
  /** a fresh value per run: use it for objects that keep per-run state (checkers) */
  toDynamicValue(make: (context: unknown) => T): unknown;
}

export interface ModuleLoadOptions {
  /** add a contribution to a multi-valued point (declared in the manifest's `contributes`) */
  bind<T>(token: Token<T>): BindingTo<T>;
  /** replace a single-valued point (declared in `contributes` and `replaces`) */
  rebind<T>(token: Token<T>): BindingTo<T>;
  isBound(token: Token<unknown>): boolean;
}

/** A plugin's module: what `createModule(options, api)` returns. */
export interface ContainerModule {
  readonly id: number;
}

export interface ContainerModuleConstructor {
  new (load: (options: ModuleLoadOptions) => void): ContainerModule;
}

export const ContainerModule: ContainerModuleConstructor = InversifyContainerModule as unknown as ContainerModuleConstructor;
