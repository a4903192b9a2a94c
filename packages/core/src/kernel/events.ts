/**
 * Kernel events the invariant checkers and plugins subscribe to (no Linux 2.4 counterpart; the
 * nearest is the tracepoints of later kernels, include/trace/events/).
 */
import type { KernelEventMap } from "@siglab/plugin-api";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import type { Task } from "./task.js";

/**
 * The event map is the plugin API's (events carry the plugin API's Task and SignalFrame, which
 * are the core's objects; core subscribers that need more cast at their handler's entry).
 */
export type { KernelEventMap } from "@siglab/plugin-api";

/** The same events with the core's own types (for core subscribers such as the checkers). */
export interface OwnEventMap {
  tick: [task: Task];
  "signal.deliver": [task: Task, frame: SignalFrameK];
  "signal.interrupt": [task: Task, frame: SignalFrameK];
  "signal.return": [task: Task, frame: SignalFrameK];
  "signal.dequeue": [task: Task, sig: number];
  "signal.queued": [task: Task, sig: number, queued: boolean];
  "switch.out": [task: Task];
  "switch.in": [task: Task];
  "return.user": [task: Task, intoHandler: boolean];
  "user.store": [task: Task, addr: number];
  "run.end": [];
  "task.exit": [task: Task, code: number];
}

type Handler<A extends unknown[]> = (...args: A) => void;
type Arg<T extends unknown[], I extends number> = I extends keyof T ? T[I] : undefined;

type Listener = (a?: unknown, b?: unknown, c?: unknown) => void;

/**
 * The listeners of each event of the map, one array per event in a fixed-shape object: the hot
 * emits (a few per system call and per delivery) are property loads, not string-keyed Map lookups.
 */
class Listeners {
  tick: Listener[] = [];
  "signal.deliver": Listener[] = [];
  "signal.interrupt": Listener[] = [];
  "signal.return": Listener[] = [];
  "signal.dequeue": Listener[] = [];
  "signal.queued": Listener[] = [];
  "switch.out": Listener[] = [];
  "switch.in": Listener[] = [];
  "return.user": Listener[] = [];
  "user.store": Listener[] = [];
  "run.end": Listener[] = [];
  "task.exit": Listener[] = [];
}

/** The map's event names in a fixed order: `EV` numbers them for the core's own emits. */
const EVENT_NAMES = ["tick", "signal.deliver", "signal.interrupt", "signal.return", "signal.dequeue", "signal.queued", "switch.out", "switch.in", "return.user", "user.store", "run.end", "task.exit"] as const satisfies readonly (keyof OwnEventMap)[];

/** An event's number (EV), typed by its name so `fire` checks its arguments as `emit` does. */
export type EventId<K extends keyof OwnEventMap> = number & { readonly __event: K };

type EventIds = { readonly [I in keyof typeof EVENT_NAMES & `${number}` as (typeof EVENT_NAMES)[I]]: EventId<(typeof EVENT_NAMES)[I]> };

/**
 * The events by number, for the core's emits on hot paths (`k.events.fire(EV["switch.out"], t)`):
 * an element load instead of a load by a name that differs from call site to call site.
 */
export const EV: EventIds = Object.freeze(Object.fromEntries(EVENT_NAMES.map((n, i) => [n, i]))) as unknown as EventIds;

/**
 * When a guarded return.user listener (onOwnGuarded) may act, for the core checkers'
 * (findings/checkers.ts): the transparency checker's registers that sigreturn restored, and the
 * delayed-work checker's signal or reschedule left pending on a return that is not into a handler
 * and not already being timed. A guarded listener must act on nothing else.
 */
function returnWork(t: Task, intoHandler: boolean): boolean {
  return t.sigreturnRegsPending || (!intoHandler && (t.sigpending || t.needResched) && t.delayedSince < 0);
}

export class KernelEvents {
  private readonly lists = new Listeners();
  /** the same arrays as `lists`', by EV number */
  private readonly byId: Listener[][] = EVENT_NAMES.map((n) => this.lists[n]);
  /** names outside the map (a plugin may emit and hear its own); inherited names never reach `lists` */
  private readonly other = new Map<string, Listener[]>();

  /** The listeners of `ev`: an own array of `lists` (every name of the map), else `other`'s. */
  private listeners(ev: string, create: boolean): Listener[] | undefined {
    if (Object.hasOwn(this.lists, ev)) return (this.lists as unknown as Record<string, Listener[]>)[ev];
    let hs = this.other.get(ev);
    if (!hs && create) this.other.set(ev, (hs = []));
    return hs;
  }

  /** return.user listeners registered without a guard (onOwnGuarded): plugins' */
  private unguardedReturns = 0;

  on<K extends keyof KernelEventMap>(ev: K, h: Handler<KernelEventMap[K]>): void {
    const name = String(ev);
    if (name === "return.user") this.unguardedReturns++;
    this.listeners(name, true)!.push(h as unknown as Listener);
  }

  /**
   * A core checker's return.user listener that acts only when `returnWork` holds (the emit is
   * skipped, with no call, on a return where no listener can act: most system calls).
   */
  onOwnGuarded(ev: "return.user", h: Handler<OwnEventMap["return.user"]>): void {
    // the kernel reaches plugins: another name (toString...) is an ordinary listener, never a throw
    if (ev !== "return.user") return this.on(ev, h as never);
    this.lists[ev].push(h as unknown as Listener);
  }

  /** return.user (`fire`), unless every listener is guarded and `returnWork` is false. */
  fireReturn(t: Task, intoHandler: boolean): void {
    const hs = this.lists["return.user"];
    if (hs.length === 0 || (this.unguardedReturns === 0 && !returnWork(t, intoHandler))) return;
    for (let i = 0; i < hs.length; i++) hs[i]!(t, intoHandler);
  }

  /** `on` for core subscribers: the payloads are the core's own objects (they always are). */
  onOwn<K extends keyof OwnEventMap>(ev: K, h: Handler<OwnEventMap[K]>): void {
    this.on(ev, h as unknown as Handler<KernelEventMap[K]>);
  }

  has(ev: keyof KernelEventMap): boolean {
    const hs = (this.lists as unknown as Record<string, Listener[] | undefined>)[ev];
    // an inherited name (toString, __proto__) is no array: it goes the slow way, as any other name
    return Array.isArray(hs) ? hs.length > 0 : (this.listeners(String(ev), false)?.length ?? 0) > 0;
  }

  /** `emit` for the core's own call sites: event `id` of EV. */
  fire<K extends keyof OwnEventMap>(id: EventId<K>, a?: Arg<OwnEventMap[K], 0>, b?: Arg<OwnEventMap[K], 1>, c?: Arg<OwnEventMap[K], 2>): void {
    const hs = this.byId[id]!;
    for (let i = 0; i < hs.length; i++) hs[i]!(a, b, c);
  }

  /** `has` for the core's own call sites. */
  hasListeners(id: EventId<keyof OwnEventMap>): boolean {
    return this.byId[id]!.length > 0;
  }

  /** Every event has at most three arguments, passed positionally: no rest/spread arrays on the hot path. */
  emit<K extends keyof KernelEventMap>(ev: K, a?: Arg<KernelEventMap[K], 0>, b?: Arg<KernelEventMap[K], 1>, c?: Arg<KernelEventMap[K], 2>): void {
    let hs = (this.lists as unknown as Record<string, Listener[] | undefined>)[ev];
    if (!Array.isArray(hs)) hs = this.listeners(String(ev), false);
    if (!hs) return;
    for (let i = 0; i < hs.length; i++) hs[i]!(a, b, c);
  }
}
