/**
 * The part of inversify a plugin's module uses: `new ContainerModule(({ bind, rebind }) => ...)`.
 * The host hands the module options that refuse any point the manifest does not declare.
 */
import { ContainerModule as InversifyContainerModule } from "inversify";
import type { Token } from "./tokens.js";

/**
 * What `bind(token)` / `rebind(token)` return: say what the point is bound to.
 * @category Extension points
 */
export interface BindingTo<T> {
  /** one value for every run (it must hold no per-run state) */
  toConstantValue(value: T): unknown;
  /** a fresh value per run: use it for objects that keep per-run state (checkers) */
  toDynamicValue(make: (context: unknown) => T): unknown;
}

/**
 * What a plugin's module callback receives: bind and rebind, restricted to the points its manifest
 * declares (anything else is refused with the plugin's id and the point), and isBound. Inversify's
 * other options (unbind, activation hooks) are not part of the plugin API and are refused.
 * @category Extension points
 */
export interface ModuleLoadOptions {
  /** add a contribution to a multi-valued point (declared in the manifest's `contributes`) */
  bind<T>(token: Token<T>): BindingTo<T>;
  /** replace a single-valued point (declared in `contributes` and `replaces`) */
  rebind<T>(token: Token<T>): BindingTo<T>;
  /** Whether the point has a binding already (the core's, or a plugin's lower in the stack). */
  isBound(token: Token<unknown>): boolean;
}

/**
 * A plugin's module: what `createModule(options, api)` returns, made with
 * `new ContainerModule(({ bind, rebind }) => { ... })`. The callback runs once per run, when the
 * run's container is assembled, and must bind synchronously (a returned promise is refused).
 * @category Extension points
 */
export interface ContainerModule {
  /** Inversify's id of the module (unique per module object). */
  readonly id: number;
}

/**
 * The constructor of ContainerModule: `new ContainerModule(load)` with the callback that binds.
 * @category Extension points
 */
export interface ContainerModuleConstructor {
  /** A module whose `load` callback binds the plugin's extension points. */
  new (load: (options: ModuleLoadOptions) => void): ContainerModule;
}

/**
 * Inversify's ContainerModule, typed with the plugin API's options: `new ContainerModule(({ bind,
 * rebind }) => ...)`.
 * @category Extension points
 */
export const ContainerModule: ContainerModuleConstructor = InversifyContainerModule as unknown as ContainerModuleConstructor;
