import type { OpClass, SmpOpClass } from "./op-classes.js";

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
  };
  /** every op class; the SMP ones (API 2.2) may be left out: the profile then runs one CPU only */
  costs: Record<OpClass, CostEntry> & Partial<Record<SmpOpClass, CostEntry>>;
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
  /** cycles per op class */
  /** cycles per op class (the SMP ones, API 2.2: NaN when the profile leaves them out) */
  costs: Record<OpClass, number> & Partial<Record<SmpOpClass, number>>;
  /** The full file (for provenance display and bundles). */
  file: CpuProfileFile;
  /** Ops the CPU lacks (cost entries marked `unavailable`); their cost is 0 and must not be charged. */
  unavailableOps?: OpClass[];
}
