/**
 * The signal frame as a handler's code sees it (api/siglab.d.ts SignalFrame): a view over the
 * kernel's frame (arch/i386/sigframe.ts) whose writes are checked, so that sigreturn honours a
 * handler's edits and never reads a workload object. Part of the façades (facade.ts).
 */
import type { FrameFpStateK, FrameSigContextK } from "../arch/i386/sigcontext.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import { num, numList } from "./sanitize.js";

const SC_FIELDS = ["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp", "eip", "eflags", "trapno", "err", "cr2", "oldmask"] as const;

/**
 * The signal frame as a handler sees it (api/siglab.d.ts SignalFrame). Reads go to the kernel's
 * frame; writes are checked (numbers only) and stored there, so sigreturn honours the edits and
 * never reads a workload object.
 */
export class FrameView {
  readonly #f: SignalFrameK;
  #sc: object | undefined;
  #fpReal: FrameFpStateK | null = null;
  #fp: object | null = null;
  constructor(f: SignalFrameK) {
    this.#f = f;
    Object.seal(this);
  }
  get kind(): "sigframe" | "rt_sigframe" {
    return this.#f.kind;
  }
  get address(): number {
    return this.#f.address;
  }
  get size(): number {
    return this.#f.size;
  }
  get sigcontext(): object {
    return (this.#sc ??= sigcontextView(this.#f.sigcontext));
  }
  /** null when the kernel saved no FP state; reading it is a user access to the frame's FP area */
  get fpstate(): object | null {
    const real = this.#f.fpstate;
    if (real !== this.#fpReal) {
      this.#fpReal = real;
      this.#fp = real ? fpstateView(real) : null;
    }
    return this.#fp;
  }
  get sigmask(): number[] {
    return [...this.#f.sigmask];
  }
  set sigmask(v: unknown) {
    this.#f.sigmask = numList(v, "frame.sigmask", 64);
  }
}

function sigcontextView(sc: FrameSigContextK): object {
  const view = {};
  for (const k of SC_FIELDS) {
    Object.defineProperty(view, k, {
      enumerable: true,
      get: () => sc[k],
      set: (v: unknown) => {
        sc[k] = num(v, `frame.sigcontext.${k}`);
      },
    });
  }
  return Object.freeze(view);
}

/** A number[] view over `arr` that accepts only numbers (no new indices, no length change). */
function numberArrayView(arr: number[], what: string): number[] {
  return new Proxy(arr, {
    set(target, key, v) {
      const i = typeof key === "string" ? Number(key) : NaN;
      if (!(Number.isInteger(i) && i >= 0 && i < target.length)) throw new TypeError(`${what}: only elements 0..${target.length - 1} can be written`);
      target[i] = num(v, `${what}[${i}]`);
      return true;
    },
    defineProperty() {
      throw new TypeError(`${what}: cannot define properties`);
    },
    deleteProperty() {
      throw new TypeError(`${what}: cannot delete elements`);
    },
    setPrototypeOf() {
      return false;
    },
    preventExtensions() {
      return false;
    },
  });
}

function fpstateView(fp: FrameFpStateK): object {
  const view = {};
  for (const k of ["cw", "sw", "tag", "magic", "mxcsr"] as const) {
    if (k === "mxcsr" && fp.mxcsr === undefined) continue;
    Object.defineProperty(view, k, {
      enumerable: true,
      get: () => fp[k],
      set: (v: unknown) => {
        fp[k] = num(v, `frame.fpstate.${k}`);
      },
    });
  }
  Object.defineProperty(view, "st", { enumerable: true, value: numberArrayView(fp.st, "frame.fpstate.st") });
  if (fp.xmm) {
    const lanes = fp.xmm.map((lane, i) => numberArrayView(lane, `frame.fpstate.xmm[${i}]`));
    Object.defineProperty(view, "xmm", { enumerable: true, value: Object.freeze(lanes) });
  }
  return Object.freeze(view);
}
