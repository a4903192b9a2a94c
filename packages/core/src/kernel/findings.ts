/**
 * (No Linux counterpart: the simulator's record of what checkers found.) A run's findings, with
 * repeats of the same kind, task, register and signal folded into one that counts them.
 */
import type { Finding } from "../common/results.js";

/** a run keeps at most this many distinct findings (the rest are counted as findings.dropped) */
const MAX_FINDINGS = 200;

export class FindingLog {
  readonly list: Finding[] = [];
  private readonly index = new Map<string, Finding>();

  /** Record `f` seen at `cycle`; false when the log is full and `f` was dropped. */
  add(f: Finding, cycle: number): boolean {
    const ev = f.evidence;
    const key = `${f.kind}|${String(ev["task"] ?? "")}|${String(ev["register"] ?? "")}|${String(ev["signal"] ?? "")}`;
    const prev = this.index.get(key);
    if (prev) {
      prev.evidence["occurrences"] = ((prev.evidence["occurrences"] as number) ?? 1) + 1;
      prev.evidence["lastCycle"] = cycle;
      return true;
    }
    if (this.list.length >= MAX_FINDINGS) return false;
    f.evidence["occurrences"] = 1;
    this.index.set(key, f);
    this.list.push(f);
    return true;
  }
}
