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

  emit<K extends keyof KernelEventMap>(ev: K, ...args: KernelEventMap[K]): void {
    const hs = this.handlers.get(ev) as Handler<KernelEventMap[K]>[] | undefined;
    if (hs) for (const h of hs) h(...args);
  }
}
