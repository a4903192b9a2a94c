/**
 * Named loops: the timed sections a workload marks with t.loopBegin / t.loopEnd, kept in its run
 * result with their cycles per phase and their iteration count, so per-iteration figures divide
 * each loop by its own count (lmbench times a measured loop and an overhead loop and reports
 * their difference per iteration).
 */

/** Distinct loop names in one run (the output budget; a bundle's results hold at most as many). */
export const LOOP_LIMIT = 100;

/** One named loop of a run (all the sections the workload timed under that name, added up). */
export interface LoopStat {
  /** The name the workload gave it (t.loopBegin(name)). */
  name: string;
  /** The iterations it counts (the sum of the counts its sections ended with): what per-iteration figures divide by. */
  count: number;
  /** Simulated cycles from begin to end, over all its sections (the TSC's difference). */
  cycles: number;
  /** Those cycles by phase (on an SMP machine: summed over every CPU). */
  phases: Record<string, number>;
  /** The loop whose per-iteration figure this loop's figure subtracts (lmbench's overhead loop), if any. */
  overhead?: string;
}

/** A per-iteration figure: cycles in all and by phase. */
export interface LoopFigure {
  cycles: number;
  phases: Record<string, number>;
}

/** A loop's cycles divided by its own count. */
export function perIteration(loop: LoopStat): LoopFigure {
  const phases: Record<string, number> = {};
  for (const [p, c] of Object.entries(loop.phases)) phases[p] = c / loop.count;
  return { cycles: loop.cycles / loop.count, phases };
}

/**
 * The figure a loop stands for: its per-iteration cycles less its overhead loop's figure (itself
 * net of its own overhead), phase by phase. A loop without an overhead is its per-iteration figure.
 * An overhead that names no loop of `loops`, or a chain that comes back to a loop, ends there.
 */
export function netPerIteration(loops: readonly LoopStat[], name: string): LoopFigure | undefined {
  const byName = new Map(loops.map((l) => [l.name, l]));
  const seen = new Set<string>();
  const net = (n: string): LoopFigure | undefined => {
    const loop = byName.get(n);
    if (!loop || seen.has(n)) return undefined;
    seen.add(n);
    const own = perIteration(loop);
    const less = loop.overhead === undefined ? undefined : net(loop.overhead);
    if (!less) return own;
    const phases: Record<string, number> = { ...own.phases };
    for (const [p, c] of Object.entries(less.phases)) phases[p] = (phases[p] ?? 0) - c;
    return { cycles: own.cycles - less.cycles, phases };
  };
  return net(name);
}
