/**
 * compareResults: are two result lists identical, value for value (the simulator is deterministic,
 * so a re-run must match bit for bit)? Differences name the run and the value's path, with arrays
 * of named things (metrics, paths) keyed by name so a report reads "metrics[signal round trip].value".
 */
import type { RunResult } from "../common/index.js";

export interface ResultDifference {
  /** Run index (0-based); -1 for the lists themselves (different lengths). */
  run: number;
  path: string;
  expected: unknown;
  actual: unknown;
}

export interface Comparison {
  identical: boolean;
  differences: ResultDifference[];
  /** True when more differences exist than were listed. */
  truncated: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function namedKeys(arr: unknown[]): string[] | undefined {
  const names = arr.map((x) => (isObject(x) && typeof x.name === "string" ? x.name : undefined));
  if (names.some((n) => n === undefined) || new Set(names).size !== names.length) return undefined;
  return names as string[];
}

function join(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

function diff(a: unknown, b: unknown, path: string, out: (path: string, a: unknown, b: unknown) => boolean): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    const ka = namedKeys(a);
    const kb = namedKeys(b);
    if (ka && kb) {
      const mb = new Map(kb.map((k, i) => [k, b[i]]));
      const ma = new Map(ka.map((k, i) => [k, a[i]]));
      for (const [k, v] of ma) if (!diff(v, mb.get(k), `${path}[${k}]`, out)) return false;
      for (const [k, v] of mb) if (!ma.has(k) && !out(`${path}[${k}]`, undefined, v)) return false;
      if (ka.join("\u0000") !== kb.join("\u0000") && ka.length === kb.length && ka.every((k) => mb.has(k))) {
        return out(`${path} (order)`, ka, kb);
      }
      return true;
    }
    if (a.length !== b.length && !out(`${path}.length`, a.length, b.length)) return false;
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (!diff(a[i], b[i], `${path}[${i}]`, out)) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a)) if (!diff(a[k], b[k], join(path, k), out)) return false;
    for (const k of Object.keys(b)) if (!(k in a) && b[k] !== undefined && !out(join(path, k), undefined, b[k])) return false;
    return true;
  }
  if (a === undefined && b === undefined) return true;
  return out(path, a, b);
}

export function compareResults(expected: RunResult[], actual: RunResult[], opts: { maxDifferences?: number } = {}): Comparison {
  const max = opts.maxDifferences ?? 200;
  const differences: ResultDifference[] = [];
  let truncated = false;
  let run = -1;
  const record = (path: string, e: unknown, a: unknown): boolean => {
    if (differences.length >= max) {
      truncated = true;
      return false;
    }
    differences.push({ run, path, expected: e, actual: a });
    return true;
  };
  if (expected.length !== actual.length) record("length", expected.length, actual.length);
  for (let i = 0; i < Math.min(expected.length, actual.length) && !truncated; i++) {
    run = i;
    diff(expected[i], actual[i], "", record);
  }
  return { identical: differences.length === 0, differences, truncated };
}
