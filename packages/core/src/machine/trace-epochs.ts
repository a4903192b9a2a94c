/**
 * The P4's trace cache, emptied by every entry through the IDT (geometry.l1iClearedByInterrupt),
 * without walking the same lines again after every system call. After a flush the L1I's contents
 * depend only on which paths fetched their code since, in which order; so the fetches of an epoch
 * (flush to flush) form a tree: a node is the L1I after one sequence of fetches, an edge one more
 * path's fetch with the lines it brought in. The first time an edge is taken it is simulated
 * (machine/cache.ts, from the node's saved contents); later it replays: the same L1 misses, with
 * where each line comes from decided again by L2 unless L2 is unchanged since and missed nothing.
 * The results are those of walking the cache every time, to the line (test/trace-epochs.test.ts).
 * Only the executor's code fetches read the L1I, so its tags may stay stale while an epoch replays.
 */
import type { CacheState, FetchMemo, MemoryHierarchy, Region } from "./cache.js";

interface Edge {
  readonly child: EpochNode;
  /** the L2 line of each line this fetch brought into L1I, in order */
  readonly lines: Int32Array;
  fromL2: number;
  fromMemory: number;
  /** L2's `changes` after this edge was last taken */
  l2After: number;
}

class EpochNode {
  /** the next fetch, by the fetching path */
  readonly next = new Map<object, Edge>();
  /** the last edge taken from here (a loop takes the same one again: one compare instead of a lookup) */
  lastKey: object | null = null;
  lastEdge: Edge | null = null;
  constructor(readonly state: CacheState) {}
}

/** Nodes kept per CPU (each holds a copy of the L1I's tags): past this an epoch runs uncached. */
const MAX_NODES = 4096;

export class TraceEpochs implements FetchMemo {
  private readonly root: EpochNode;
  /** where the current epoch is; null: the L1I's own tags are current (no epoch, or one past the memo) */
  private cur: EpochNode | null = null;
  private nodes = 1;
  /** lines of the last fetch from L2 / from memory */
  fromL2 = 0;
  fromMemory = 0;

  constructor(private readonly m: MemoryHierarchy) {
    // an exclusive L2 (the K7's) moves lines on every L1 miss: a replay of L1 misses alone would be wrong
    if (m.shape.l2Exclusive) throw new Error("TraceEpochs: the caches have an exclusive L2; fetch by walking them");
    m.l1i.clear();
    this.root = new EpochNode(m.l1i.snapshot());
  }

  /** An entry through the IDT: the L1I is empty. Its stamp moves on, so nothing counts as resident. */
  flush(): void {
    this.cur = this.root;
    this.m.l1i.changes++; // the tags stay as they were: nothing reads them until a fetch restores a node
  }

  /** Is an epoch replaying (fetches must come here)? */
  get active(): boolean {
    return this.cur !== null;
  }

  /**
   * Fetch `code` for `key` (a compiled path) in the current epoch: lines brought in (fromL2 and
   * fromMemory set), or -1 when the memo is full (the L1I's tags are then current again and the
   * caller fetches as usual).
   */
  fetch(key: object, code: readonly Region[]): number {
    const cur = this.cur!;
    const m = this.m;
    const l2 = m.l2;
    let e = cur.lastKey === key ? cur.lastEdge! : cur.next.get(key);
    if (e === undefined) {
      m.l1i.restore(cur.state);
      if (this.nodes >= MAX_NODES) {
        this.cur = null;
        return -1;
      }
      const lines: number[] = [];
      m.missedLines = lines;
      let fromL2 = 0, fromMemory = 0;
      for (let i = 0; i < code.length; i++) {
        if (m.touchCode(code[i]!) === 0) continue;
        fromL2 += m.fromL2;
        fromMemory += m.fromMemory;
      }
      m.missedLines = null;
      e = { child: new EpochNode(m.l1i.snapshot()), lines: Int32Array.from(lines), fromL2, fromMemory, l2After: l2 === null ? 0 : l2.changes };
      cur.next.set(key, e);
      this.nodes++;
    } else if (l2 === null) {
      e.fromMemory = e.lines.length;
    } else if (l2.changes !== e.l2After || e.fromMemory !== 0) {
      // the same lines miss L1; whether L2 still holds each is L2's to say now
      let fromL2 = 0, fromMemory = 0;
      for (let i = 0; i < e.lines.length; i++) {
        const line = e.lines[i]!;
        if (l2.has(line)) fromL2++;
        else {
          fromMemory++;
          l2.fill(line);
        }
      }
      e.fromL2 = fromL2;
      e.fromMemory = fromMemory;
      e.l2After = l2.changes;
    }
    cur.lastKey = key;
    cur.lastEdge = e;
    this.cur = e.child;
    this.fromL2 = e.fromL2;
    this.fromMemory = e.fromMemory;
    return e.fromL2 + e.fromMemory;
  }
}
