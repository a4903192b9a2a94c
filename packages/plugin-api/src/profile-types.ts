import type { MemOpClass, OpClass, SmpOpClass } from "./op-classes.js";

/** How a number in a profile is known. */
export type Provenance =
  /** read in a source (cite the key from docs/sources, e.g. "IL P4 Northwood 2.41 GHz"). */
  | "sourced"
  /** arithmetic on sourced numbers (say which). */
  | "derived"
  /** set by `siglab calibrate` against figures in calibration/figures.json (name them in fittedTo). */
  | "fitted"
  /** no source: a reasoned estimate (say the reasoning). */
  | "estimated";

export interface CostEntry {
  cycles: number;
  kind: Provenance;
  /** Source key + short reference, or the reasoning for an estimate. */
  source: string;
  /** For kind "fitted": the calibration figure ids this value was fitted to. */
  fittedTo?: string[];
  /**
   * The CPU lacks the instruction (e.g. `fxsave` without FXSR). `cycles` is then 0 and the
   * executor must not charge it: a path that needs it is a modelling error or a #UD.
   */
  unavailable?: boolean;
  /**
   * This estimate is defined relative to another op of the same resolved profile:
   * cycles = cycles(op) × factor + plus. The loader recomputes `cycles` after inheritance, so
   * estimates tied to a fitted value follow it when calibration rewrites that value.
   */
  relativeTo?: RelativeCost;
  /**
   * API 2.2: a cost fixed in time rather than in cycles (bus- or memory-bound: an IPI, a cache line
   * from another CPU): the run's cycles are ns × MHz / 1000; `cycles` shows it at the default clock.
   */
  ns?: number;
  /** Set by the loader: the ancestor profile this entry was inherited from (not written by hand). */
  inheritedFrom?: string;
}

export interface RelativeCost {
  op: OpClass;
  /** Default 1. */
  factor?: number;
  /** Default 0. */
  plus?: number;
}

export interface SourcedNumber {
  value: number;
  kind: Provenance;
  source: string;
  /** Set by the loader: the ancestor profile this entry was inherited from (not written by hand). */
  inheritedFrom?: string;
}

export interface CpuFeatures {
  fxsr: boolean;
  sep: boolean;
  sse: boolean;
  sse2: boolean;
  avx: boolean;
  avx512: boolean;
  xsave: boolean;
  xsaveopt: boolean;
  xsaves: boolean;
  pcid: boolean;
  pge: boolean;
  /** SYSCALL/SYSRET usable (AMD legacy-mode SYSCALL on K7; x86-64 long mode on modern CPUs). */
  syscall?: boolean;
  /** Long mode (x86-64). */
  lm?: boolean;
}

export interface ClockRange {
  defaultMhz: number;
  minMhz: number;
  maxMhz: number;
  /** Clocks the UI offers; any MHz in [minMhz, maxMhz] is accepted. */
  presets: number[];
}

/** A profile as stored on disk (after inheritance is applied). */
export interface CpuProfileFile {
  /** Runnable ids match /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/; abstract ones may start with "_". */
  id: string;
  name: string;
  vendor: string;
  description: string;
  /** Optional parent profile id whose fields this one overrides (deep merge; costs per op). */
  inherits?: string;
  /** Shared defaults (e.g. a family file): may be partial, cannot be run, only inherited. */
  abstract?: boolean;
  /** Set by the loader on resolved profiles: the ancestors whose fields were merged, nearest first. */
  inheritedFrom?: string[];
  /** CPUID family/model, for variants that check a model (e.g. Linux refusing SEP on early P6). */
  cpuid?: CpuIdInfo;
  /** Why a feature flag has the value it has, when that is not obvious. */
  featureNotes?: Partial<Record<keyof CpuFeatures, string>>;
  /** Free-form remarks on the profile as a whole (shown by the UI). */
  notes?: string[];
  clock: ClockRange;
  features: CpuFeatures;
  geometry: {
    cacheLineBytes: SourcedNumber;
    dtlbEntries: SourcedNumber;
    l1dKB: SourcedNumber;
    l2KB: SourcedNumber;
    /** Number of XMM registers architecturally visible (8 on i386, 16 in 64-bit mode). */
    xmmRegs: SourcedNumber;
    /** Bytes of the XSAVE area for the enabled components (512 when only FXSR, 108 with FSAVE only). */
    xsaveBytes: SourcedNumber;
    /** Second-level data TLB entries (4 KB pages), where the CPU has one and a source gives it. */
    l2dtlbEntries?: SourcedNumber;
    /**
     * API 2.3, the cache model (all of l1iKB, l1iWays, l1dWays, l2Ways and the MEM op costs, or the
     * profile's runs model no caches): the L1 instruction cache's size in KB (the P4: an
     * instruction-cache equivalent of its trace cache).
     */
    l1iKB?: SourcedNumber;
    /** API 2.3: L1 instruction cache associativity. */
    l1iWays?: SourcedNumber;
    /** API 2.3: L1 data cache associativity. */
    l1dWays?: SourcedNumber;
    /** API 2.3: L2 associativity. */
    l2Ways?: SourcedNumber;
    /** API 2.3: the L2's line (fill unit) in bytes when it differs from cacheLineBytes (the P4's 128-byte sectors). */
    l2LineBytes?: SourcedNumber;
    /** API 2.3: 1 when a store that misses L1D allocates the line (P6, P4, K7), 0 when it does not (the Pentium). Default 1. */
    l1dWriteAllocate?: SourcedNumber;
    /** API 2.3: 1 when the L2 holds only what L1 does not (the K7). Default 0. */
    l2Exclusive?: SourcedNumber;
  };
  /**
   * every op class; the SMP ones (API 2.2) may be left out: the profile then runs one CPU only; the
   * memory hierarchy's (API 2.3) may be left out: its runs then model no caches
   */
  costs: Record<OpClass, CostEntry> & Partial<Record<SmpOpClass, CostEntry>> & Partial<Record<MemOpClass, CostEntry>>;
}

export interface CpuIdInfo {
  family: number;
  model?: number;
  /** Where the numbers come from. */
  source: string;
}

/**
 * A profile file as written (before inheritance): only `id` is required; an inheriting or
 * abstract profile gives just the fields it overrides (deep merge, `costs` per op).
 */
export interface CpuProfileSource {
  id: string;
  name?: string;
  vendor?: string;
  description?: string;
  inherits?: string;
  abstract?: boolean;
  inheritedFrom?: string[];
  cpuid?: CpuIdInfo;
  featureNotes?: Partial<Record<keyof CpuFeatures, string>>;
  notes?: string[];
  clock?: Partial<ClockRange>;
  features?: Partial<CpuFeatures>;
  geometry?: Partial<CpuProfileFile["geometry"]>;
  costs?: Partial<Record<OpClass, CostEntry>>;
}

/** API 2.3: one cache level's shape. */
export interface CacheShape {
  /** capacity in bytes */
  bytes: number;
  /** associativity (1 = direct mapped) */
  ways: number;
  /** line (fill unit) in bytes */
  lineBytes: number;
}

/** API 2.3: a CPU's caches as the cache model keeps them. */
export interface CacheGeometry {
  l1i: CacheShape;
  l1d: CacheShape;
  /** the unified second level */
  l2: CacheShape;
  /** the L2 holds only what L1 does not (the K7) */
  l2Exclusive: boolean;
  /** a store that misses L1D allocates the line (false: the Pentium) */
  l1dWriteAllocate: boolean;
}

/** A profile resolved for one clock: what the simulator consumes. */
export interface ResolvedProfile {
  id: string;
  name: string;
  vendor: string;
  mhz: number;
  features: CpuFeatures;
  cacheLineBytes: number;
  dtlbEntries: number;
  l1dKB: number;
  l2KB: number;
  xmmRegs: number;
  xsaveBytes: number;
  /** cycles per op class (the SMP ones, API 2.2, and the memory hierarchy's, API 2.3: NaN when the profile leaves them out) */
  costs: Record<OpClass, number> & Partial<Record<SmpOpClass, number>> & Partial<Record<MemOpClass, number>>;
  /**
   * API 2.3: the caches the model keeps for each CPU (machine/cache.ts), or undefined when the
   * profile gives no cache geometry or no memory-hierarchy costs (then every access hits L1).
   */
  caches?: CacheGeometry;
  /** The full file (for provenance display and bundles). */
  file: CpuProfileFile;
  /** Ops the CPU lacks (cost entries marked `unavailable`); their cost is 0 and must not be charged. */
  unavailableOps?: OpClass[];
}
