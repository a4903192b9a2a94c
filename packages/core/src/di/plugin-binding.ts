/**
 * Manifests enforced at bind time: the container a plugin's module receives binds only what the
 * manifest declares — `bind` for a point in `contributes` (not a single-valued one), `rebind` for
 * a single-valued point in `replaces` — and nothing else of inversify's options (unbind,
 * activation hooks) is there. Every value a plugin binds is recorded with its owner, so clashes
 * between plugins (a syscall number, a libc id) name both.
 */
import { ContainerModule, type ContainerModuleLoadOptions } from "inversify";
import { SERVICES, SINGLE_VALUED, TOKENS, type ExtensionPointName } from "@siglab/plugin-api";
import { PluginError } from "../plugin-api/loaded-plugin.js";
import type { PluginManifest } from "../plugin-api/manifest.js";
import { CORE_NR_NAME, NR_NAME } from "../kernel/syscall-nr.js";

const NAME_OF = new Map<symbol, ExtensionPointName>(Object.entries(TOKENS).map(([name, tok]) => [tok as symbol, name as ExtensionPointName]));

/** Which plugin bound a value (values the core bound have none). */
export type Owners = WeakMap<object, string>;

function describeToken(token: unknown): string {
  return NAME_OF.get(token as symbol) ?? (typeof token === "symbol" ? token.description ?? "a symbol" : String(token));
}

/** Records the owner of what a binding produces (constant now, dynamic values as they are made). */
function recording(syntax: { toConstantValue(v: unknown): unknown; toDynamicValue(f: (ctx: unknown) => unknown): unknown }, id: string, owners: Owners) {
  const note = (v: unknown) => {
    if (v && (typeof v === "object" || typeof v === "function")) owners.set(v as object, id);
    return v;
  };
  return {
    toConstantValue: (v: unknown) => syntax.toConstantValue(note(v)),
    toDynamicValue: (make: (ctx: unknown) => unknown) => syntax.toDynamicValue((ctx) => note(make(ctx))),
  };
}

export function guardedModule(manifest: PluginManifest, module: ContainerModule, owners: Owners): ContainerModule {
  const id = manifest.id;
  const contributes = new Set(manifest.contributes);
  const replaces = new Set(manifest.replaces ?? []);
  const refuse = (what: string): never => {
    throw new PluginError(`plugin '${id}' ${what}`);
  };
  return new ContainerModule((opts: ContainerModuleLoadOptions) => {
    const point = (token: unknown, verb: string): ExtensionPointName => {
      const name = NAME_OF.get(token as symbol);
      if (!name) refuse(`${verb}s ${describeToken(token)}, which is not an extension point of the plugin API`);
      if (!contributes.has(name!)) refuse(`${verb}s ${name} but its manifest does not list it in "contributes"`);
      return name!;
    };
    const guarded = {
      bind: (token: unknown) => {
        const name = point(token, "bind");
        if (SINGLE_VALUED.includes(name)) refuse(`binds the single-valued point ${name}: rebind it and list it in "replaces"`);
        return recording(opts.bind(token as symbol), id, owners);
      },
      rebind: (token: unknown) => {
        const name = point(token, "rebind");
        if (!SINGLE_VALUED.includes(name)) refuse(`rebinds ${name}, which is multi-valued (bind adds to it; nothing of the core's may be replaced)`);
        if (!replaces.has(name)) refuse(`rebinds ${name} but its manifest does not list it in "replaces"`);
        return recording(opts.rebind(token as symbol), id, owners);
      },
      isBound: (token: unknown) => opts.isBound(token as symbol),
    };
    for (const name of ["unbind", "unbindAsync", "rebindAsync", "onActivation", "onDeactivation"]) {
      Object.defineProperty(guarded, name, { get: () => refuse(`uses ${name}, which is not part of the plugin API`) });
    }
    const result: unknown = (module as unknown as { load(o: unknown): unknown }).load(guarded);
    // an arrow callback that returns its last bind(...) is fine; only a promise means "load me asynchronously"
    if (typeof (result as { then?: unknown } | null)?.then === "function") refuse("returned a promise from its ContainerModule callback: plugin modules load synchronously");
  });
}

/** Services (e.g. the user-space mask) are provided by at most one plugin per stack. */
export function checkServiceOwners(stack: PluginManifest[]): void {
  for (const svc of SERVICES) {
    const who = stack.filter((m) => m.contributes.includes(svc)).map((m) => m.id);
    if (who.length > 1) throw new PluginError(`plugins '${who[0]}' and '${who[1]}' conflict: both provide the ${svc} service`);
  }
}

/** Contributions with the same key from two owners (a syscall number, a libc id) are refused. */
export function checkUnique<T extends object>(items: T[], key: (t: T) => string | number, what: string, owners: Owners): void {
  const seen = new Map<string | number, T>();
  for (const it of items) {
    const k = key(it);
    const prev = seen.get(k);
    if (prev) {
      const a = owners.get(prev) ?? "the core", b = owners.get(it) ?? "the core";
      throw new PluginError(`${a === "the core" ? "the core" : `plugin '${a}'`} and ${b === "the core" ? "the core" : `plugin '${b}'`} both define ${what} ${k}`);
    }
    seen.set(k, it);
  }
}

/**
 * A plugin adds a system call in a slot the core leaves to sys_ni_syscall: one that binds a number
 * the core implements (getpid) would be heard only by t.syscall(nr) and never by the core's own
 * call, so it is refused, naming the plugin and the core's system call.
 */
export function checkSyscallSlots(items: readonly { nr: number }[], owners: Owners): void {
  for (const it of items) {
    const plugin = owners.get(it);
    const nr = it.nr;
    const core = Object.hasOwn(NR_NAME, nr) ? NR_NAME[nr] : Object.hasOwn(CORE_NR_NAME, nr) ? CORE_NR_NAME[nr] : undefined;
    if (plugin === undefined || core === undefined) continue;
    throw new PluginError(`plugin '${plugin}' binds system call number ${nr}, which the core implements (${core}): a SyscallContribution takes a slot the core leaves unused (to change what ${core} costs, transform its path)`);
  }
}
