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
 *
 * A path runs this once per fetch after every IDT entry (~46 times per NGPT yield), so the tree
 * lives in typed arrays indexed by node, not in objects: a replay reads a few adjacent numbers.
 * Every node but the root is the child of exactly one edge, so an edge is numbered as its child.
 */
import type { CacheState, FetchMemo, MemoryHierarchy, Region } from "./cache.js";
import { hot } from "./typed-arrays.js";

/** Nodes kept per CPU (each holds a copy of the L1I's tags): past this an epoch runs uncached. */
const MAX_NODES = 4096;
/** A node's children are scanned; past this many they are also indexed by a Map. */
const SCAN_CHILDREN = 8;
const ROOT = 0;
const NONE = -1;

/** A typed array of the hot loop (typed-arrays.ts: stores stay fast in a locked-down realm). */
function ints(n: number, fill: number): Int32Array {
  return hot(new Int32Array(n).fill(fill));
}

export class TraceEpochs implements FetchMemo {
  /** where the current epoch is; NONE: the L1I's own tags are current (no epoch, or one past the memo) */
  private cur = NONE;
  private nodes = 1;
  /** per node: the L1I's contents there */
  private readonly state: CacheState[] = [];
  /** per node: its first child, the child taken last (a loop takes the same one again), the next sibling */
  private firstChild = ints(64, NONE);
  private lastChild = ints(64, NONE);
  private sibling = ints(64, NONE);
  /** per node but the root, of the edge into it: the fetching path's key, lines from L2 / memory, L2's `changes` after it was last taken */
  private key = ints(64, NONE);
  private fromL2Of = ints(64, 0);
  private fromMemoryOf = ints(64, 0);
  private l2AfterOf = hot(new Float64Array(64));
  /** per node but the root: the L2 line of each line the edge into it brought into L1I, in order */
  private readonly lines: Int32Array[] = [new Int32Array(0)];
  /** per node with many children: child by key */
  private readonly byKey = new Map<number, Map<number, number>>();
  /** lines of the last fetch from L2 / from memory */
  fromL2 = 0;
  fromMemory = 0;

  constructor(private readonly m: MemoryHierarchy) {
    // an exclusive L2 (the K7's) moves lines on every L1 miss: a replay of L1 misses alone would be wrong
    if (m.shape.l2Exclusive) throw new Error("TraceEpochs: the caches have an exclusive L2; fetch by walking them");
    m.l1i.clear();
    this.state.push(m.l1i.snapshot());
  }

  /** An entry through the IDT: the L1I is empty. Its stamp moves on, so nothing counts as resident. */
  flush(): void {
    this.cur = ROOT;
    this.m.l1i.changes++; // the tags stay as they were: nothing reads them until a fetch restores a node
  }

  /** Is an epoch replaying (fetches must come here)? */
  get active(): boolean {
    return this.cur !== NONE;
  }

  /** FetchMemo.replay: the executor's per-path shortcut (a loop of system calls takes it almost always). */
  replay(key: number): number {
    const cur = this.cur;
    if (cur === NONE) return -1;
    let c = this.lastChild[cur]!;
    if (c === NONE || this.key[c] !== key) {
      c = this.child(cur, key);
      if (c === NONE) return -1;
    }
    const l2 = this.m.l2;
    if (this.fromMemoryOf[c] !== 0 || (l2 !== null && l2.changes !== this.l2AfterOf[c])) return -1;
    this.lastChild[cur] = c;
    this.cur = c;
    return this.fromL2Of[c]!;
  }

  /**
   * Fetch `code` for `key` (a compiled path's codeId) in the current epoch: lines brought in
   * (fromL2 and fromMemory set), or -1 when the memo is full (the L1I's tags are then current
   * again and the caller fetches as usual).
   */
  fetch(key: number, code: readonly Region[]): number {
    const cur = this.cur;
    const m = this.m;
    const l2 = m.l2;
    let c = this.lastChild[cur]!;
    if (c === NONE || this.key[c] !== key) c = this.child(cur, key);
    if (c === NONE) {
      m.l1i.restore(this.state[cur]!);
      if (this.nodes >= MAX_NODES) {
        this.cur = NONE;
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
      c = this.addChild(cur, key, m.l1i.snapshot(), Int32Array.from(lines));
      this.fromL2Of[c] = fromL2;
      this.fromMemoryOf[c] = fromMemory;
      this.l2AfterOf[c] = l2 === null ? 0 : l2.changes;
    } else if (l2 === null) {
      this.fromMemoryOf[c] = this.lines[c]!.length;
    } else if (l2.changes !== this.l2AfterOf[c] || this.fromMemoryOf[c] !== 0) {
      // the same lines miss L1; whether L2 still holds each is L2's to say now
      const lines = this.lines[c]!;
      let fromL2 = 0, fromMemory = 0;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        if (l2.has(line)) fromL2++;
        else {
          fromMemory++;
          l2.fill(line);
        }
      }
      this.fromL2Of[c] = fromL2;
      this.fromMemoryOf[c] = fromMemory;
      this.l2AfterOf[c] = l2.changes;
    }
    this.lastChild[cur] = c;
    this.cur = c;
    this.fromL2 = this.fromL2Of[c]!;
    this.fromMemory = this.fromMemoryOf[c]!;
    return this.fromL2 + this.fromMemory;
  }

  /** The child of `node` reached by `key`'s fetch, or NONE. */
  private child(node: number, key: number): number {
    const index = this.byKey.get(node);
    if (index !== undefined) return index.get(key) ?? NONE;
    for (let c = this.firstChild[node]!; c !== NONE; c = this.sibling[c]!) if (this.key[c] === key) return c;
    return NONE;
  }

  private addChild(node: number, key: number, state: CacheState, lines: Int32Array): number {
    const c = this.nodes++;
    if (c === this.key.length) this.grow();
    this.state.push(state);
    this.lines.push(lines);
    this.key[c] = key;
    // prepended: the scan order does not matter, a key has one child per node
    this.sibling[c] = this.firstChild[node]!;
    this.firstChild[node] = c;
    let n = 0;
    for (let s = c; s !== NONE; s = this.sibling[s]!) n++;
    if (n > SCAN_CHILDREN) {
      const index = this.byKey.get(node) ?? new Map<number, number>();
      for (let s = c; s !== NONE; s = this.sibling[s]!) index.set(this.key[s]!, s);
      this.byKey.set(node, index);
    }
    return c;
  }

  private grow(): void {
    const n = Math.min(this.key.length * 2, MAX_NODES);
    const int = (a: Int32Array, fill: number) => {
      const b = ints(n, fill);
      b.set(a);
      return b;
    };
    this.firstChild = int(this.firstChild, NONE);
    this.lastChild = int(this.lastChild, NONE);
    this.sibling = int(this.sibling, NONE);
    this.key = int(this.key, NONE);
    this.fromL2Of = int(this.fromL2Of, 0);
    this.fromMemoryOf = int(this.fromMemoryOf, 0);
    const l2After = hot(new Float64Array(n));
    l2After.set(this.l2AfterOf);
    this.l2AfterOf = l2After;
  }
}
