/**
 * The caches of one CPU: set-associative L1 instruction and data caches and a unified L2, tagged by
 * physical line address, as the profile's geometry gives them (size, ways, line length).
 *
 * Residency, not timing: the model answers "which of these lines are no longer where they were",
 * and the kernel charges each line it must bring back at the latency (or, for a copy, the
 * bandwidth) of the level it comes from. Deterministic: no random replacement and no clock.
 *
 * Replacement is FIFO per set (the CPUs of the era used pseudo-LRU: a documented simplification).
 * With FIFO a hit changes no state, which is what makes the model cheap: a region that was wholly
 * resident when last touched, with no line filled into that cache since, is still wholly resident,
 * and touching it again is one compare (`Region.seen*` against `SetAssocCache.changes`).
 */

/** One cache level's shape. */
export interface CacheShape {
  /** capacity in bytes */
  bytes: number;
  /** associativity (1 = direct mapped) */
  ways: number;
  /** line length in bytes (a power of two) */
  lineBytes: number;
}

import { hot } from "./typed-arrays.js";

const EMPTY = -1;

/** What remembers the L1I's fetches between IDT flushes (trace-epochs.ts's TraceEpochs). */
export interface FetchMemo {
  /** an epoch is replaying: fetches must go through fetch() */
  readonly active: boolean;
  /** the L1I is emptied */
  flush(): void;
  /** lines `key`'s (a path's codeId) fetch of `code` brought in (fromL2/fromMemory set), or -1: fetch as usual */
  fetch(key: number, code: readonly Region[]): number;
  /**
   * `key`'s fetch again when the epoch took it from here last time and L2 cannot answer otherwise
   * (unchanged since, nothing came from memory): the lines it brings in, all from L2 (fromL2 and
   * fromMemory are not set). -1: no such shortcut, call fetch.
   */
  replay(key: number): number;
  readonly fromL2: number;
  readonly fromMemory: number;
}

/** A cache's contents at one moment (SetAssocCache.snapshot). */
export interface CacheState {
  readonly tags: Int32Array;
  readonly victim: Uint8Array;
  readonly empties: number;
}

export class SetAssocCache {
  readonly sets: number;
  readonly ways: number;
  readonly lineShift: number;
  /** tags[set * ways + way] = line number (physical address >> lineShift), or EMPTY */
  private readonly tags: Int32Array;
  /** the FIFO victim pointer of each set */
  private readonly victim: Uint8Array;
  /** bumped whenever a line enters or leaves the cache: a region's resident-since stamp compares to it */
  changes = 0;
  /** lines filled (counted for the run's counters) */
  fills = 0;
  /** empty ways (fill looks for one only while there are any: in a warm cache, after a remove()) */
  private empties: number;

  /**
   * `stampBase`: where `changes` starts. Each CPU's caches start at another base (cpu × 2^40), so
   * a region's resident-since stamp taken on one CPU never matches another CPU's counter.
   */
  constructor(readonly shape: CacheShape, stampBase = 0) {
    this.changes = stampBase;
    const lines = Math.floor(shape.bytes / shape.lineBytes);
    this.ways = Math.max(1, Math.min(shape.ways, lines));
    this.sets = Math.max(1, Math.floor(lines / this.ways));
    if (!isPow2(shape.lineBytes) || !isPow2(this.sets)) throw new Error(`cache of ${shape.bytes} B, ${shape.ways}-way, ${shape.lineBytes}-B lines: lines and sets must be powers of two`);
    if (this.ways > 255) throw new Error(`cache of ${shape.ways} ways: at most 255`);
    this.lineShift = Math.log2(shape.lineBytes);
    this.tags = hot(new Int32Array(this.sets * this.ways).fill(EMPTY));
    this.empties = this.sets * this.ways;
    this.victim = hot(new Uint8Array(this.sets));
  }

  /** Is line `line` (a line number in this cache's line size) present? */
  has(line: number): boolean {
    const base = (line & (this.sets - 1)) * this.ways;
    for (let w = 0; w < this.ways; w++) if (this.tags[base + w] === line) return true;
    return false;
  }

  /** Brings `line` in (it must not be present); returns the line it evicted, or -1. */
  fill(line: number): number {
    const set = line & (this.sets - 1);
    const base = set * this.ways;
    // a fresh set fills its ways in order through the FIFO pointer; a way remove() emptied is taken first
    let w = this.victim[set]!;
    if (this.empties > 0) {
      for (let i = 0; i < this.ways; i++) {
        if (this.tags[base + i] === EMPTY) {
          w = i;
          break;
        }
      }
    }
    const old = this.tags[base + w]!;
    if (old === EMPTY) this.empties--;
    this.tags[base + w] = line;
    this.victim[set] = (w + 1) % this.ways;
    this.changes++;
    this.fills++;
    return old;
  }

  /** Drops `line` if present (an exclusive L2 handing it to L1, or another CPU's write). */
  remove(line: number): boolean {
    const base = (line & (this.sets - 1)) * this.ways;
    for (let w = 0; w < this.ways; w++) {
      if (this.tags[base + w] === line) {
        this.tags[base + w] = EMPTY;
        this.empties++;
        this.changes++;
        return true;
      }
    }
    return false;
  }

  /** A copy of the contents (tags, FIFO pointers), for restore(). */
  snapshot(): CacheState {
    return { tags: this.tags.slice(), victim: this.victim.slice(), empties: this.empties };
  }

  /** Contents as snapshot() saw them; `changes` moves on (no region's stamp matches the restored state). */
  restore(s: CacheState): void {
    this.tags.set(s.tags);
    this.victim.set(s.victim);
    this.empties = s.empties;
    this.changes++;
  }

  /** Everything goes (wbinvd; a fresh CPU). */
  clear(): void {
    this.tags.fill(EMPTY);
    this.victim.fill(0);
    this.empties = this.sets * this.ways;
    this.changes++;
  }
}

function isPow2(n: number): boolean {
  return n > 0 && Number.isInteger(n) && (n & (n - 1)) === 0;
}

/**
 * A contiguous range of physical memory the kernel or a program touches as a unit (a task's hot
 * task_struct lines, a path's code, a signal frame). It remembers when it was last found wholly
 * resident, per cache, so a hot region costs one compare.
 */
export class Region {
  /** SetAssocCache.changes of L1D / L1I when this region was last found wholly resident there (-1: never; stamps of different CPUs never collide) */
  seenD = -1;
  seenI = -1;
  constructor(
    /** physical start address */
    readonly base: number,
    /** length in bytes (> 0) */
    readonly bytes: number,
    /** what it is, for the path inspector and tests */
    readonly name: string,
  ) {}
}

/** The shapes and policies of one CPU's caches (from the profile's geometry). */
export interface HierarchyShape {
  l1d: CacheShape;
  /** the instruction cache, or an instruction-cache equivalent of the P4's trace cache */
  l1i: CacheShape;
  /** the unified second level; absent on a CPU without one (the model then goes to memory) */
  l2?: CacheShape;
  /** the L2 holds only what L1 does not (the K7's exclusive L2): an L1 victim moves to L2, an L2 hit moves up */
  l2Exclusive?: boolean;
  /** stores that miss L1D allocate the line (P6, P4, K7); the Pentium's L1D does not allocate on a write miss */
  l1dWriteAllocate: boolean;
}

/** Where the lines of the last touch came from (fields, not an object: the touch is on hot paths). */
export class MemoryHierarchy {
  readonly l1d: SetAssocCache;
  readonly l1i: SetAssocCache;
  readonly l2: SetAssocCache | null;
  /** lines of the last touch that came from L2 / from memory */
  fromL2 = 0;
  fromMemory = 0;
  /** when set, walk() records here the L2 line of every line it brings into L1 (trace-epochs.ts) */
  missedLines: number[] | null = null;
  /** the L1I's memo of fetch sequences after an IDT flush (the P4's trace cache; null elsewhere) */
  epochs: FetchMemo | null = null;

  /** `cpu`: which CPU's caches these are (their resident-since stamps never collide with another's) */
  constructor(readonly shape: HierarchyShape, cpu = 0) {
    // CPU 0's stamps start at a small integer, not at 0 * 2^40 (a heap number): V8 then keeps
    // `changes` and the regions' stamps as small integers on a UP machine (loads on every path run)
    const base = cpu === 0 ? 0 : cpu * 2 ** 40;
    this.l1d = new SetAssocCache(shape.l1d, base);
    this.l1i = new SetAssocCache(shape.l1i, base);
    this.l2 = shape.l2 ? new SetAssocCache(shape.l2, base) : null;
  }

  /**
   * Data access to `r` (reads, or writes that allocate). Sets fromL2/fromMemory to the lines that
   * missed L1D and came from L2 or from memory; returns their sum.
   */
  touchData(r: Region, write = false): number {
    const l1 = this.l1d;
    if (r.seenD === l1.changes) {
      this.fromL2 = this.fromMemory = 0;
      return 0;
    }
    if (write && !this.shape.l1dWriteAllocate) {
      // a write miss goes around L1 (write buffers): only lines already present are written there
      this.fromL2 = this.fromMemory = 0;
      return 0;
    }
    const n = this.walk(l1, r);
    r.seenD = this.resident(l1, r) ? l1.changes : -1;
    return n;
  }


  /** Instruction fetch of `r` (a path's code). Same accounting as touchData. */
  touchCode(r: Region): number {
    const l1 = this.l1i;
    if (r.seenI === l1.changes) {
      this.fromL2 = this.fromMemory = 0;
      return 0;
    }
    const n = this.walk(l1, r);
    r.seenI = this.resident(l1, r) ? l1.changes : -1;
    return n;
  }

  /** How many of r's lines L1D does not hold (no state change: a write that does not allocate). */
  linesMissing(r: Region): number {
    const c = this.l1d;
    let n = 0;
    const first = r.base >>> c.lineShift, last = (r.base + r.bytes - 1) >>> c.lineShift;
    for (let line = first; line <= last; line++) if (!c.has(line)) n++;
    return n;
  }

  /** Another CPU wrote these lines: this CPU's copies are invalid (MESI). */
  invalidate(r: Region): void {
    for (const c of [this.l1d, this.l1i, this.l2]) {
      if (!c) continue;
      const first = r.base >>> c.lineShift, last = (r.base + r.bytes - 1) >>> c.lineShift;
      for (let line = first; line <= last; line++) c.remove(line);
    }
  }

  private walk(l1: SetAssocCache, r: Region): number {
    let fromL2 = 0, fromMem = 0;
    const first = r.base >>> l1.lineShift, last = (r.base + r.bytes - 1) >>> l1.lineShift;
    const l2 = this.l2;
    for (let line = first; line <= last; line++) {
      if (l1.has(line)) continue;
      const victim = l1.fill(line);
      if (!l2) {
        fromMem++;
        if (this.missedLines !== null) this.missedLines.push(line);
        continue;
      }
      // L2 lines may be longer than L1's (never shorter among the shipped CPUs)
      const l2line = (line << l1.lineShift) >>> l2.lineShift;
      if (this.missedLines !== null) this.missedLines.push(l2line);
      if (this.shape.l2Exclusive) {
        if (l2.remove(l2line)) fromL2++;
        else fromMem++;
        if (victim >= 0) {
          const v2 = (victim << l1.lineShift) >>> l2.lineShift;
          if (!l2.has(v2)) l2.fill(v2);
        }
      } else if (l2.has(l2line)) fromL2++;
      else {
        fromMem++;
        l2.fill(l2line);
      }
    }
    this.fromL2 = fromL2;
    this.fromMemory = fromMem;
    return fromL2 + fromMem;
  }

  /** Are all of r's lines in `c` now? (only a region of more lines than sets can have evicted itself) */
  private resident(c: SetAssocCache, r: Region): boolean {
    const first = r.base >>> c.lineShift, last = (r.base + r.bytes - 1) >>> c.lineShift;
    if (last - first < c.sets) return true;
    for (let line = first; line <= last; line++) if (!c.has(line)) return false;
    return true;
  }
}
