/**
 * Phases: every simulated cycle is charged to exactly one. Plugins may add phases; the index is
 * stable within a run so the executor can use an array.
 */
// the API's list (its order is the results' order); this version's phases, the machine's included
import { CORE_PHASES } from "@siglab/plugin-api";

export { CORE_PHASES };

export type CorePhase = (typeof CORE_PHASES)[number];

export class PhaseTable {
  readonly names: string[] = [...CORE_PHASES];
  private readonly index = new Map<string, number>(this.names.map((n, i) => [n, i]));

  id(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(name);
      this.index.set(name, i);
    }
    return i;
  }
}
