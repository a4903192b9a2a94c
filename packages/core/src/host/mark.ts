/**
 * Whose code is running: a run in a worker thread (the harness's runInWorker, the Node host's
 * sandbox) marks, in memory another thread can read while the worker is stuck, which plugin code
 * it is in — a hook of a value the plugin bound (an extension point's method, a generator it
 * returned, until that yields), a handler it gave k.events.on, its createModule and its module's
 * callback. When the run overruns its host-time
 * budget, the parent names the plugin and the hook from the mark; no mark: the workload (or the
 * simulator) was running. The wrappers call the plugin's functions with their own `this` and
 * arguments and return what they return: the simulation does not change.
 */
import type { ModuleLoadOptions, PluginApi, PluginModule, Token } from "@siglab/plugin-api";

/** The mark: a label number, set while plugin code runs (0: none), and the labels' texts. */
export interface Mark {
  /** Sets `label` as the running code's; returns the label it replaces (to restore on the way out). */
  enter(label: number): number;
  /** Restores the label `enter` returned. */
  leave(previous: number): void;
  /** The number of the label `text` (made and announced to the parent on first use). */
  label(text: string): number;
}

const KERNELS_SEEN = new WeakSet<object>();

/** The plugin code running now, by plugin id (for handlers registered while it runs). */
let runningPlugin: string | null = null;

function isIterator(x: unknown): x is Iterator<unknown> & Iterable<unknown> {
  return typeof x === "object" && x !== null && typeof (x as { next?: unknown }).next === "function" && typeof (x as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

/** Plugin code's functions, marked while they run. */
class Marker {
  constructor(
    private readonly mark: Mark,
    private readonly plugin: string,
  ) {}

  /** `f` marked with `what` while it runs (and while a generator it returns runs). */
  fn<F extends (...args: never[]) => unknown>(f: F, what: string, self?: object): F {
    const m = this;
    const label = this.mark.label(`plugin '${this.plugin}' (${what})`);
    return function (this: unknown, ...args: unknown[]) {
      for (const a of args) m.watchEvents(a);
      const r = m.run(label, () => (f as unknown as (...a: unknown[]) => unknown).apply(self ?? this, args));
      return isIterator(r) ? m.iterator(r, label) : r;
    } as unknown as F;
  }

  run<T>(label: number, body: () => T): T {
    const previous = this.mark.enter(label), previousPlugin = runningPlugin;
    runningPlugin = this.plugin;
    try {
      return body();
    } finally {
      runningPlugin = previousPlugin;
      this.mark.leave(previous);
    }
  }

  /** A generator the plugin returned: marked in each step it runs. */
  iterator<T>(g: Iterator<T> & Iterable<T>, label: number): Iterator<T> & Iterable<T> {
    const m = this;
    const it: Iterator<T> & Iterable<T> = {
      next: (v?: unknown) => m.run(label, () => g.next(v as never)),
      return: (v?: unknown) => m.run(label, () => (g.return ? g.return(v as never) : { done: true, value: v as T })),
      throw: (e?: unknown) =>
        m.run(label, () => {
          if (g.throw) return g.throw(e);
          throw e;
        }),
      [Symbol.iterator]: () => it,
    };
    return it;
  }

  /**
   * A value the plugin bound, with its functions marked: an object of the same members (its
   * methods, accessors and fields forwarded to the value itself, so private fields and `this`
   * work as before).
   */
  value<T>(v: T, point: string): T {
    if (typeof v !== "object" || v === null) return v;
    const target = v as object;
    const facade: Record<PropertyKey, unknown> = {};
    const seen = new Set<PropertyKey>();
    for (let o: object | null = target; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
      for (const key of Reflect.ownKeys(o)) {
        if (key === "constructor" || seen.has(key)) continue;
        seen.add(key);
        const d = Object.getOwnPropertyDescriptor(o, key)!;
        if (typeof d.value === "function") Object.defineProperty(facade, key, { value: this.fn(d.value as (...a: never[]) => unknown, `${point}.${String(key)}`, target), enumerable: d.enumerable ?? false });
        else Object.defineProperty(facade, key, { get: () => Reflect.get(target, key), set: (x: unknown) => Reflect.set(target, key, x), enumerable: d.enumerable ?? false });
      }
    }
    return facade as T;
  }

  /**
   * The kernel's event bus, the first time plugin code is handed the kernel: a handler registered
   * while a plugin's code runs is marked as that plugin's.
   */
  watchEvents(a: unknown): void {
    const events = (a as { events?: { on?: unknown } } | null)?.events;
    if (typeof a !== "object" || a === null || typeof events?.on !== "function" || KERNELS_SEEN.has(a)) return;
    KERNELS_SEEN.add(a);
    const on = events.on as (ev: string, h: (...args: unknown[]) => void) => void;
    const mark = this.mark;
    try {
      Object.defineProperty(events, "on", {
        configurable: true,
        writable: true,
        value(this: unknown, ev: string, h: (...args: unknown[]) => void) {
          const plugin = runningPlugin;
          return on.call(this, ev, plugin && typeof h === "function" ? new Marker(mark, plugin).fn(h, `its handler of event '${ev}'`) : h);
        },
      });
    } catch {
      // a hardened bus: handlers stay unmarked (an overrun in one is then blamed on the workload or simulator)
    }
  }
}

/**
 * `p` with its code marked: createModule, the module's callback, and every value it binds (their
 * methods named after the extension point: "Scheduler.pick_next_task").
 */
export function markedPlugin(p: PluginModule, mark: Mark, api: PluginApi): PluginModule {
  const id = String((p.manifest as { id?: unknown } | null)?.id ?? "?");
  const m = new Marker(mark, id);
  const pointOf = new Map<symbol, string>(Object.entries(api.TOKENS).map(([name, token]) => [token as symbol, name]));
  const point = (token: Token<unknown>) => pointOf.get(token) ?? String(token.description ?? "a token");
  const syntax = <T>(s: { toConstantValue(v: T): unknown; toDynamicValue(f: (c: unknown) => T): unknown }, where: string) => ({
    toConstantValue: (v: T) => s.toConstantValue(m.value(v, where)),
    toDynamicValue: (make: (c: unknown) => T) => s.toDynamicValue((c) => m.value(make(c), where)),
  });
  const options = (o: ModuleLoadOptions): ModuleLoadOptions =>
    // the host's options, with bind and rebind marking what they bind (anything else, refusals included, is the host's)
    new Proxy(o, {
      get(target, key) {
        if (key === "bind") return (t: Token<unknown>) => syntax(target.bind(t), point(t));
        if (key === "rebind") return (t: Token<unknown>) => syntax(target.rebind(t), point(t));
        return Reflect.get(target, key, target);
      },
    });
  return {
    ...p,
    manifest: p.manifest,
    createModule: m.fn((opts, a) => {
      const module = p.createModule(opts, a) as unknown as { id: number; load?: (o: ModuleLoadOptions) => unknown };
      if (!module || typeof module.load !== "function") return module as never;
      const load = m.fn((o: ModuleLoadOptions) => module.load!(options(o)), "its ContainerModule callback");
      return { id: module.id, load } as never;
    }, "createModule"),
  };
}
