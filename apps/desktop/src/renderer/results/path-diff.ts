/**
 * Path diff: the same kernel path in two runs (two variant stacks, or two CPUs), op by op. The op
 * lists are aligned on (function, op class) with a longest common subsequence, so an op a variant
 * removes or adds shows as one row with a blank side; the delta is B − A in cycles per execution.
 * Pure functions (no DOM).
 */
import type { PathOpStat, PathStat, RunResult } from "../../common/contracts.js";

export interface OpRow {
  a: PathOpStat | null;
  b: PathOpStat | null;
  /** cycles of B's op minus A's (a missing side counts 0) */
  delta: number;
  kind: "same" | "changed" | "removed" | "added";
}

export interface FnRow {
  fn: string;
  a: number;
  b: number;
  delta: number;
}

export interface PathDiff {
  name: string;
  a: PathStat | null;
  b: PathStat | null;
  rows: OpRow[];
  fns: FnRow[];
  /** cycles of one execution, each side */
  perExecA: number;
  perExecB: number;
}

export interface PathSummaryRow {
  name: string;
  phase: string;
  a: PathStat | null;
  b: PathStat | null;
  perExecA: number;
  perExecB: number;
  /** total cycles B − A (count × per-execution, as charged) */
  totalDelta: number;
}

const keyOf = (o: PathOpStat): string => `${o.fn}\u0000${o.op}`;
const perExec = (p: PathStat | null): number => (p ? p.ops.reduce((s, o) => s + o.cycles, 0) : 0);

/** Aligns two op lists (longest common subsequence on function + op class). */
export function alignOps(a: PathOpStat[], b: PathOpStat[]): OpRow[] {
  const n = a.length;
  const m = b.length;
  // Kernel paths are at most a few hundred op lines: an O(n·m) table is fine.
  const L: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      L[i]![j] = keyOf(a[i]!) === keyOf(b[j]!) ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
    }
  }
  const rows: OpRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && keyOf(a[i]!) === keyOf(b[j]!)) {
      const d = b[j]!.cycles - a[i]!.cycles;
      rows.push({ a: a[i]!, b: b[j]!, delta: d, kind: d === 0 && a[i]!.repeat === b[j]!.repeat ? "same" : "changed" });
      i++;
      j++;
    } else if (j < m && (i >= n || L[i]![j + 1]! >= L[i + 1]![j]!)) {
      rows.push({ a: null, b: b[j]!, delta: b[j]!.cycles, kind: "added" });
      j++;
    } else {
      rows.push({ a: a[i]!, b: null, delta: -a[i]!.cycles, kind: "removed" });
      i++;
    }
  }
  return rows;
}

/** Cycles per execution by Linux function, each side, in the order functions first appear. */
export function fnDeltas(rows: OpRow[]): FnRow[] {
  const out = new Map<string, FnRow>();
  for (const r of rows) {
    for (const [side, op] of [["a", r.a], ["b", r.b]] as const) {
      if (!op) continue;
      const row = out.get(op.fn) ?? { fn: op.fn, a: 0, b: 0, delta: 0 };
      row[side] += op.cycles;
      row.delta = row.b - row.a;
      out.set(op.fn, row);
    }
  }
  return [...out.values()];
}

/**
 * Diffs path `name` of A against path `nameB` of B (default: the same name). A variant often runs
 * its own version of a path under a new name ("save_i387" → "save_i387.nofp", "system_call" →
 * "sysenter_entry"): counterpart() finds it.
 */
export function diffPath(a: RunResult, b: RunResult, name: string, nameB: string = name): PathDiff {
  const pa = a.paths.find((p) => p.name === name) ?? null;
  const pb = b.paths.find((p) => p.name === nameB) ?? null;
  const rows = alignOps(pa?.ops ?? [], pb?.ops ?? []);
  return { name, a: pa, b: pb, rows, fns: fnDeltas(rows), perExecA: perExec(pa), perExecB: perExec(pb) };
}

/**
 * The path of `other` to compare with path `name` of `from`: the same name when `other` ran it,
 * else a renamed version that `from` did not run ("save_i387" ↔ "save_i387.nofp"), preferring the
 * same phase; null when there is none.
 */
export function counterpart(name: string, from: RunResult, other: RunResult): string | null {
  if (other.paths.some((p) => p.name === name)) return name;
  const phase = from.paths.find((p) => p.name === name)?.phase;
  const fromNames = new Set(from.paths.map((p) => p.name));
  const candidates = other.paths.filter((p) => !fromNames.has(p.name) && (p.name.startsWith(`${name}.`) || name.startsWith(`${p.name}.`)));
  candidates.sort((x, y) => Number(y.phase === phase) - Number(x.phase === phase) || x.name.length - y.name.length || x.name.localeCompare(y.name));
  return candidates[0]?.name ?? null;
}

/** Every path of either run, with its per-execution cycles on each side, the largest change of the run's cycles first. */
export function pathSummary(a: RunResult, b: RunResult): PathSummaryRow[] {
  const names = [...new Set([...a.paths.map((p) => p.name), ...b.paths.map((p) => p.name)])];
  return names
    .map((name) => {
      const pa = a.paths.find((p) => p.name === name) ?? null;
      const pb = b.paths.find((p) => p.name === name) ?? null;
      return { name, phase: (pa ?? pb)!.phase, a: pa, b: pb, perExecA: perExec(pa), perExecB: perExec(pb), totalDelta: (pb?.cycles ?? 0) - (pa?.cycles ?? 0) };
    })
    .sort((x, y) => Math.abs(y.totalDelta) - Math.abs(x.totalDelta) || Math.abs(y.perExecB - y.perExecA) - Math.abs(x.perExecB - x.perExecA) || x.name.localeCompare(y.name));
}

/**
 * The two runs a diff opens on: the first pair with the same CPU and different stacks (the usual
 * question: what does this variant change), else the first pair with different CPUs, else 0 and 1.
 */
export function defaultPair(results: RunResult[]): [number, number] | null {
  if (results.length < 2) return null;
  const cpu = (r: RunResult): string => `${r.cpu.id}@${r.cpu.mhz}`;
  const stack = (r: RunResult): string => JSON.stringify(r.variants);
  for (let i = 0; i < results.length; i++) {
    for (let j = i + 1; j < results.length; j++) {
      if (cpu(results[i]!) === cpu(results[j]!) && stack(results[i]!) !== stack(results[j]!)) return [i, j];
    }
  }
  return [0, 1];
}
