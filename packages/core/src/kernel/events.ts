/** Kernel events the invariant checkers and plugins subscribe to. */
import type { Task, SignalFrameK } from "./task.js";

export interface KernelEventMap {
  tick: [task: Task];
  /** a frame was built and the handler is about to run (before any FPU save) */
  "signal.deliver": [task: Task, frame: SignalFrameK];
  /** state at interruption, before setup_frame touches anything */
  "signal.interrupt": [task: Task, frame: SignalFrameK];
  /** sigreturn finished restoring the interrupted context */
  "signal.return": [task: Task, frame: SignalFrameK];
  /** about to dequeue `sig` for delivery (blocked check) */
  "signal.dequeue": [task: Task, sig: number];
  "signal.queued": [task: Task, sig: number, queued: boolean];
  "switch.out": [task: Task];
  "switch.in": [task: Task];
  /** returning to user mode; `intoHandler` when entering a freshly built signal frame */
  "return.user": [task: Task, intoHandler: boolean];
  /** a user-mode store completed (observers only; the kernel is not involved) */
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
