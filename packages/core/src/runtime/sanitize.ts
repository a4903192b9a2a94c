/**
 * Argument checks at the workload boundary. Everything a workload passes to the Thread API is
 * read and copied here, while the workload itself is running (user mode), so kernel code never
 * holds a workload object whose getters, proxies or valueOf could run foreign code in the middle
 * of a kernel path. Text a workload hands over ends up in results that terminals show: strings
 * with control characters are refused, thrown messages are escaped to one line.
 */
import { escapeControls, hasControls } from "../common/safe-text.js";

/** A plain number argument; anything else (a string, an object with valueOf) is refused. */
export function num(x: unknown, what: string): number {
  if (typeof x !== "number") throw new TypeError(`${what}: expected a number, got ${describe(x)}`);
  return x;
}

/** An optional number argument. */
export function optNum(x: unknown, what: string): number | undefined {
  return x === undefined ? undefined : num(x, what);
}

/** A list of numbers, copied (at most `max` entries). */
export function numList(x: unknown, what: string, max = 4096): number[] {
  if (!Array.isArray(x)) throw new TypeError(`${what}: expected an array of numbers, got ${describe(x)}`);
  const n = x.length;
  if (!(n <= max)) throw new RangeError(`${what}: at most ${max} entries, got ${n}`);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(num(x[i], `${what}[${i}]`));
  return out;
}

/** A string argument: at most `max` characters, without control, bidirectional or separator characters. */
export function str(x: unknown, what: string, max = 4096): string {
  if (typeof x !== "string") throw new TypeError(`${what}: expected a string, got ${describe(x)}`);
  if (x.length > max) throw new RangeError(`${what}: at most ${max} characters`);
  if (hasControls(x)) throw new TypeError(`${what}: control characters are not allowed, got ${describe(x)}`);
  return x;
}

export function fn<T extends (...a: never[]) => unknown>(x: unknown, what: string): T {
  if (typeof x !== "function") throw new TypeError(`${what}: expected a function, got ${describe(x)}`);
  return x as T;
}

const MAX_DEPTH = 8;
const MAX_ITEMS = 65_536;

/**
 * A copy of `x` made of numbers, strings, booleans, null, arrays and plain records only (syscall
 * arguments a plugin's handler receives). Bounded in depth and size. With `same`, an object passed
 * again maps to the same copy, refreshed in place: the kernel identifies a structure by its user
 * address (e.g. the iocb io_cancel names), and this keeps that identity.
 */
export function plainData(x: unknown, what: string, same?: WeakMap<object, object>): unknown {
  let items = 0;
  const copy = (v: unknown, depth: number): unknown => {
    if (++items > MAX_ITEMS) throw new RangeError(`${what}: more than ${MAX_ITEMS} values`);
    if (v === null || typeof v === "number" || typeof v === "string" || typeof v === "boolean" || v === undefined) return v;
    if (depth >= MAX_DEPTH) throw new RangeError(`${what}: nested deeper than ${MAX_DEPTH} levels`);
    if (typeof v !== "object") throw new TypeError(`${what}: only numbers, strings, booleans, arrays and plain objects can be passed, got ${describe(v)}`);
    const prev = same?.get(v);
    if (Array.isArray(v)) {
      const out = Array.isArray(prev) ? (prev as unknown[]) : [];
      const n = v.length;
      const items: unknown[] = [];
      for (let i = 0; i < n; i++) items.push(copy(v[i], depth + 1));
      out.length = 0;
      out.push(...items);
      same?.set(v, out);
      return out;
    }
    const out = prev && !Array.isArray(prev) ? (prev as Record<string, unknown>) : {};
    const fresh: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      if (key === "__proto__") continue;
      fresh[key] = copy((v as Record<string, unknown>)[key], depth + 1);
    }
    for (const key of Object.keys(out)) delete out[key];
    Object.assign(out, fresh);
    same?.set(v, out);
    return out;
  };
  return copy(x, 0);
}

/** A short description of a value for messages, without calling into it. */
export function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  switch (typeof x) {
    case "string":
      return escapeControls(JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}...` : x));
    case "number":
    case "boolean":
    case "bigint":
    case "undefined":
      return String(x);
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    default:
      return "an object";
  }
}

/**
 * The message of a thrown value, for an error report: read without calling into the value where
 * possible (no toString/valueOf), bounded, on one line (control characters escaped), and never
 * throwing itself.
 */
export function thrownMessage(e: unknown, max = 1000): string {
  let m: string;
  try {
    if (typeof e === "object" && e !== null) {
      const d = Object.getOwnPropertyDescriptor(e, "message");
      m = d && typeof d.value === "string" ? d.value : `threw ${describe(e)}`;
    } else m = typeof e === "string" ? e : `threw ${describe(e)}`;
  } catch {
    m = "threw a value that could not be read";
  }
  return escapeControls(m.length > max ? `${m.slice(0, max)}...` : m);
}
