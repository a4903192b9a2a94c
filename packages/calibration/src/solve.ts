/**
 * A deterministic 1-D root finder for one group scale. The simulated figure is close to linear in
 * a cost but not exactly (timer ticks fall elsewhere when a path gets longer), and the costs are
 * rounded to whole cycles, so: bracket at the bounds, Illinois false position inside the bracket,
 * bisection when a step would not change the rounded costs, and the best point ever evaluated wins.
 */

export interface SolvePoint {
  s: number;
  /** signed error of the simulated figure (simulated − measured) */
  f: number;
}

export type SolveResult =
  | { status: "solved"; best: SolvePoint; points: SolvePoint[] }
  | { status: "unreachable"; lo: SolvePoint; hi: SolvePoint; points: SolvePoint[] };

export interface SolveOptions {
  lo: number;
  hi: number;
  /** |f| at or below this ends the search */
  tolerance: number;
  /** the rounded costs at s: two scales with the same key are the same candidate profile */
  key: (s: number) => string;
  maxEvaluations?: number;
}

/** `fn` may be asynchronous (a simulation in the execution host): evaluations run one at a time. */
export async function solveScale(fn: (s: number) => number | Promise<number>, o: SolveOptions): Promise<SolveResult> {
  const cache = new Map<string, SolvePoint>();
  const points: SolvePoint[] = [];
  const max = o.maxEvaluations ?? 40;
  const at = async (s: number): Promise<SolvePoint> => {
    const k = o.key(s);
    const hit = cache.get(k);
    if (hit) return hit;
    const p = { s, f: await fn(s) };
    cache.set(k, p);
    points.push(p);
    return p;
  };
  const best = (): SolvePoint => points.reduce((b, p) => (Math.abs(p.f) < Math.abs(b.f) ? p : b));

  let a = await at(o.lo);
  let b = await at(o.hi);
  if (Math.sign(a.f) === Math.sign(b.f) && a.f !== 0 && b.f !== 0) return { status: "unreachable", lo: a, hi: b, points };
  let side = 0; // Illinois: which end was kept last time
  let fa = a.f;
  let fb = b.f;
  while (points.length < max && Math.abs(best().f) > o.tolerance) {
    let s = b.s - (fb * (b.s - a.s)) / (fb - fa);
    if (!(s > a.s && s < b.s) && !(s < a.s && s > b.s)) s = (a.s + b.s) / 2;
    const ka = o.key(a.s);
    const kb = o.key(b.s);
    if (o.key(s) === ka || o.key(s) === kb) {
      s = (a.s + b.s) / 2; // the step is below the rounding: bisect instead
      if (o.key(s) === ka || o.key(s) === kb) break; // adjacent candidates: nothing left between them
    }
    const c = await at(s);
    if (c.f === 0) break;
    if (Math.sign(c.f) === Math.sign(fb)) {
      b = c;
      fb = c.f;
      if (side === -1) fa /= 2;
      side = -1;
    } else {
      a = c;
      fa = c.f;
      if (side === 1) fb /= 2;
      side = 1;
    }
  }
  return { status: "solved", best: best(), points };
}
