/** Kernel events the invariant checkers and plugins subscribe to. */
import type { KernelEventMap } from "@siglab/plugin-api";
import type { SignalFrameK, Task } from "./task.js";

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
}

type Handler<A extends unknown[]> = (...args: A) => void;
type Arg<T extends unknown[], I extends number> = I extends keyof T ? T[I] : undefined;

export class KernelEvents {
  private readonly handlers = new Map<keyof KernelEventMap, ((...args: never[]) => void)[]>();

  on<K extends keyof KernelEventMap>(ev: K, h: Handler<KernelEventMap[K]>): void {
    let hs = this.handlers.get(ev);
    if (!hs) this.handlers.set(ev, (hs = []));
    hs.push(h as unknown as (...args: never[]) => void);
  }

  /** `on` for core subscribers: the payloads are the core's own objects (they always are). */
  onOwn<K extends keyof OwnEventMap>(ev: K, h: Handler<OwnEventMap[K]>): void {
    this.on(ev, h as unknown as Handler<KernelEventMap[K]>);
  }

  has(ev: keyof KernelEventMap): boolean {
    return (this.handlers.get(ev)?.length ?? 0) > 0;
  }

  /** Every event has at most three arguments, passed positionally: no rest/spread arrays on the hot path. */
  emit<K extends keyof KernelEventMap>(ev: K, a?: Arg<KernelEventMap[K], 0>, b?: Arg<KernelEventMap[K], 1>, c?: Arg<KernelEventMap[K], 2>): void {
    const hs = this.handlers.get(ev) as ((a?: unknown, b?: unknown, c?: unknown) => void)[] | undefined;
    if (!hs) return;
    for (let i = 0; i < hs.length; i++) hs[i]!(a, b, c);
  }
}
