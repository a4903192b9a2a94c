/**
 * The allocation meter's counting side, in the sandbox worker (see meter-transform.ts for why a
 * browser needs one). Every module core's sandbox evaluates gets the meter as a parameter foreign
 * source cannot name; code evaluated at run time inside a compartment (eval, Function, a
 * compartment of its own) is refused, so every line of foreign code that runs went through the instrumentation. The
 * total is per request (a run or an inspection: reset when a request arrives); over the budget
 * the meter tells the renderer at once, which terminates this worker (a synchronous loop cannot
 * be stopped from inside), and throws on every later call meanwhile.
 */
import { METER_GLOBAL, METER_MESSAGE, type MeterOverMessage } from "./meter-protocol.js";

/** Counted per metered expression: the growth `push`, `set` or a closure's context hide. */
const CALL_BYTES = 16;
const STRING_HEADER = 16;
const ARRAY_HEADER = 32;
const SLOT_BYTES = 8;
const ENTRY_BYTES = 48;
/** Arrays at least this long are remembered, so growth is counted and a second sighting is not. */
const TRACKED_LENGTH = 64;
/** Arrays at least this long have elements a builtin may have made (JSON.parse, split): sampled. */
const SAMPLED_LENGTH = 256;
const SAMPLES = 8;

export interface AllocationMeter {
  /** what instrumented code calls: counts `value` (and `bytes` for the allocation itself), returns it */
  readonly meter: <T>(value: T, bytes?: number) => T;
  /** starts a new request's count */
  reset(): void;
  /** bytes counted since the last reset */
  readonly allocated: number;
}

function elementBytes(v: unknown): number {
  if (typeof v === "string") return STRING_HEADER + v.length;
  if (Array.isArray(v)) return ARRAY_HEADER + SLOT_BYTES * v.length;
  return v !== null && typeof v === "object" ? 64 : 0;
}

export function createAllocationMeter(limitMb: number, onOver: (m: MeterOverMessage) => void): AllocationMeter {
  const limit = limitMb * 1024 * 1024;
  let total = 0;
  let over = false;
  let arrays = new WeakMap<object, number>();
  let collections = new WeakMap<object, number>();
  let buffers = new WeakSet<object>();
  const overMessage = (): string => `memory budget exceeded: the workload's code allocated about ${Math.round(total / 1048576).toLocaleString("en-US")} MiB (counted by the app's allocation meter: a browser cannot measure a worker's heap), the limit is ${limitMb.toLocaleString("en-US")} MiB`;

  const objectBytes = (v: object): number => {
    if (Array.isArray(v)) {
      const len = v.length;
      if (len < TRACKED_LENGTH) return ARRAY_HEADER + SLOT_BYTES * len;
      const before = arrays.get(v);
      arrays.set(v, len);
      if (before !== undefined) return len > before ? SLOT_BYTES * (len - before) : 0;
      let n = ARRAY_HEADER + SLOT_BYTES * len;
      if (len >= SAMPLED_LENGTH) {
        let sample = 0;
        for (let i = 0; i < SAMPLES; i++) sample += elementBytes(v[Math.floor((i * (len - 1)) / (SAMPLES - 1))]);
        n += (sample / SAMPLES) * len;
      }
      return n;
    }
    if (ArrayBuffer.isView(v)) return bufferBytes(v.buffer);
    if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && v instanceof SharedArrayBuffer)) return bufferBytes(v);
    if (v instanceof Map || v instanceof Set) {
      const size = v.size;
      const before = collections.get(v) ?? 0;
      collections.set(v, size);
      return size > before ? ENTRY_BYTES * (size - before) : 0;
    }
    return 0;
  };
  const bufferBytes = (b: ArrayBufferLike): number => {
    if (buffers.has(b)) return 0;
    buffers.add(b);
    return b.byteLength;
  };

  const meter = <T>(value: T, bytes?: number): T => {
    if (over) throw new RangeError(overMessage());
    let n = CALL_BYTES + (typeof bytes === "number" && bytes > 0 ? bytes : 0);
    if (typeof value === "string") n += STRING_HEADER + value.length;
    else if (value !== null && typeof value === "object") n += objectBytes(value);
    total += n;
    if (total > limit) {
      over = true;
      onOver({ type: METER_MESSAGE, allocatedMb: Math.round(total / 1048576), limitMb });
      throw new RangeError(overMessage());
    }
    return value;
  };
  return {
    meter,
    reset() {
      total = 0;
      over = false;
      arrays = new WeakMap();
      collections = new WeakMap();
      buffers = new WeakSet();
    },
    get allocated() {
      return total;
    },
  };
}

interface CompartmentLike {
  globalThis: object;
  evaluate(source: string, options?: unknown): unknown;
}
type CompartmentCtor = new (options: Record<string, unknown>) => CompartmentLike;

const RUNTIME_CODE_REFUSED = "code made at run time (eval, Function) does not run in the app's sandbox: its allocations could not be counted";

/**
 * Replaces the realm's Compartment (after lockdown, before the sandbox makes any) with one whose
 * compartments have the meter as a global and refuse code made at run time. Only source the host
 * itself evaluates (`compartment.evaluate`, i.e. the instrumented module text) is let through.
 */
export function installMeteredCompartments(meter: AllocationMeter["meter"]): void {
  const g = globalThis as unknown as { Compartment?: CompartmentCtor; harden<T>(x: T): T };
  const found = g.Compartment;
  if (!found || typeof g.harden !== "function") throw new Error("installMeteredCompartments: lockdown() must run first");
  const Original: CompartmentCtor = found;
  let hostEvaluating = 0;
  const refuseRuntimeCode = (source: string): string => {
    if (hostEvaluating > 0) return source;
    throw new SyntaxError(RUNTIME_CODE_REFUSED);
  };
  const hardenedMeter = g.harden(meter);
  const noCompartments = g.harden(function Compartment(): never {
    throw new TypeError("workload and plugin code cannot make compartments in the app's sandbox");
  });
  const fixed = (o: object, name: string, value: unknown): void => {
    Object.defineProperty(o, name, { value, writable: false, enumerable: false, configurable: false });
  };
  function MeteredCompartment(options: Record<string, unknown>): CompartmentLike {
    if (!options || typeof options !== "object" || options["__options__"] !== true) throw new TypeError("internal: the sandbox makes compartments with an options object");
    const transforms = Array.isArray(options["transforms"]) ? (options["transforms"] as unknown[]) : [];
    const c = new Original({ ...options, transforms: [...transforms, refuseRuntimeCode] });
    fixed(c.globalThis, "Compartment", noCompartments);
    const evaluate = c.evaluate.bind(c);
    // The host evaluates one expression per module (its CommonJS wrapper). The meter reaches it as
    // a parameter around that expression, not as a global: the compartment's globals stay what
    // core's sandbox gives (the security corpus lists them), and foreign code cannot name it.
    fixed(c, "evaluate", (source: string, opts?: unknown) => {
      hostEvaluating++;
      try {
        return (evaluate(`(function (${METER_GLOBAL}) { return ${source}\n})`, opts) as (m: unknown) => unknown)(hardenedMeter);
      } finally {
        hostEvaluating--;
      }
    });
    return c;
  }
  g.Compartment = MeteredCompartment as unknown as CompartmentCtor;
}
