/** The CPU profile types: the file a profile is written as, and the profile resolved for one clock. */
import type { MachineOpClass, OpClass, SmpOpClass } from "./op-classes.js";

/**
 * How a number in a profile is known (every number cites its source or says what it was fitted to).
 * @category CPU profiles
 */
export type Provenance =
  /** read in a source (cite the key from docs/sources, e.g. "IL P4 Northwood 2.41 GHz"). */
  | "sourced"
  /** arithmetic on sourced numbers (say which). */
  | "derived"
  /** set by `siglab calibrate` against figures in calibration/figures.json (name them in fittedTo). */
  | "fitted"
  /** no source: a reasoned estimate (say the reasoning). */
  | "estimated";

/**
 * The cost of one op class in a profile, with where the number comes from.
 * @category CPU profiles
 */
export interface CostEntry {
  /** Core clock cycles per occurrence of the op (per its unit: an instruction, an event, a line). */
  cycles: number;
  /** How the number is known. */
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

/**
 * An estimate defined from another op's cost of the same profile: cycles(op) × factor + plus.
 * @category CPU profiles
 */
export interface RelativeCost {
  /** The op whose cost this one follows. */
  op: OpClass;
  /** Default 1. */
  factor?: number;
  /** Default 0. */
  plus?: number;
}

/**
 * A number of a profile's geometry with its provenance.
 * @category CPU profiles
 */
export interface SourcedNumber {
  /** The number (in the unit its field names). */
  value: number;
  /** How it is known. */
  kind: Provenance;
  /** Source key + short reference, or the reasoning for an estimate. */
  source: string;
  /** Set by the loader: the ancestor profile this entry was inherited from (not written by hand). */
  inheritedFrom?: string;
}

/**
 * The CPUID feature flags the simulated kernel and plugins act on.
 * @category CPU profiles
 */
export interface CpuFeatures {
  /** fxsave/fxrstor available: the kernel saves FPU state with them and frames carry the FXSR layout. */
  fxsr: boolean;
  /** SYSENTER/SYSEXIT usable (the sysenter plugin refuses a CPU without it). */
  sep: boolean;
  /** SSE: XMM registers, MXCSR. */
  sse: boolean;
  /** SSE2. */
  sse2: boolean;
  /** AVX: the YMM upper halves are part of the FPU state. */
  avx: boolean;
  /** AVX-512: ZMM upper halves and opmask registers. */
  avx512: boolean;
  /** xsave/xrstor. */
  xsave: boolean;
  /** xsaveopt (skips unmodified state). */
  xsaveopt: boolean;
  /** xsaves/xrstors (compacted, supervisor state). */
  xsaves: boolean;
  /** Process-context identifiers: CR3 loads may keep other address spaces' TLB entries. */
  pcid: boolean;
  /** Global pages: kernel TLB entries survive CR3 loads. */
  pge: boolean;
  /** SYSCALL/SYSRET usable (AMD legacy-mode SYSCALL on K7; x86-64 long mode on modern CPUs). */
  syscall?: boolean;
  /** Long mode (x86-64). */
  lm?: boolean;
}

/**
 * The clocks a profile may run at.
 * @category CPU profiles
 */
export interface ClockRange {
  /** The clock a run gets when it names none (MHz). */
  defaultMhz: number;
  /** The lowest clock accepted (MHz). */
  minMhz: number;
  /** The highest clock accepted (MHz). */
  maxMhz: number;
  /** Clocks the UI offers; any MHz in [minMhz, maxMhz] is accepted. */
  presets: number[];
}

/**
 * A profile as stored on disk (after inheritance is applied): what a CpuProfileContribution returns.
 * @category CPU profiles
 */
export interface CpuProfileFile {
  /** Runnable ids match /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/; abstract ones may start with "_". */
  id: string;
  /** Its name as the UI shows it, e.g. "Pentium 4 (Northwood)". */
  name: string;
  /** "Intel", "AMD", ... */
  vendor: string;
  /** What the CPU is and what the profile is for, in a sentence or two. */
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
  /** The clocks it runs at. */
  clock: ClockRange;
  /** Its feature flags. */
  features: CpuFeatures;
  /** Cache and TLB sizes, register counts: what the executor's per-line and per-entry ops use. */
  geometry: {
    /** Bytes per cache line (the unit of the "line" ops). */
    cacheLineBytes: SourcedNumber;
    /** First-level data TLB entries (4 KB pages). */
    dtlbEntries: SourcedNumber;
    /** L1 data cache, KB. */
    l1dKB: SourcedNumber;
    /** L2 cache, KB. */
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
    /**
     * API 2.4: 1 when an entry through the IDT (int n, an exception, a hardware interrupt) empties
     * the L1 instruction cache (the P4's trace cache, as TN observed); SYSENTER does not go through
     * the IDT. Default 0.
     */
    l1iClearedByInterrupt?: SourcedNumber;
  };
  /**
   * every op class; the SMP ones (API 2.2) may be left out: the profile then runs one CPU only; the
   * memory hierarchy's (API 2.3) may be left out: its runs then model no caches
   */
  costs: Record<OpClass, CostEntry> & Partial<Record<SmpOpClass, CostEntry>> & Partial<Record<MachineOpClass, CostEntry>>;
}

/**
 * A profile's CPUID family and model.
 * @category CPU profiles
 */
export interface CpuIdInfo {
  /** The CPUID family (6 for P6, 15 for the Pentium 4, ...). */
  family: number;
  /** The CPUID model, where variants check it. */
  model?: number;
  /** Where the numbers come from. */
  source: string;
}

/**
 * A profile file as written (before inheritance): only `id` is required; an inheriting or
 * abstract profile gives just the fields it overrides (deep merge, `costs` per op). Each field
 * means what it means in CpuProfileFile.
 * @category CPU profiles
 */
export interface CpuProfileSource {
  /** As CpuProfileFile.id. */
  id: string;
  /** As CpuProfileFile.name. */
  name?: string;
  /** As CpuProfileFile.vendor. */
  vendor?: string;
  /** As CpuProfileFile.description. */
  description?: string;
  /** The parent profile whose fields this one overrides. */
  inherits?: string;
  /** Shared defaults only: cannot be run, only inherited. */
  abstract?: boolean;
  /** Set by the loader (not written by hand). */
  inheritedFrom?: string[];
  /** As CpuProfileFile.cpuid. */
  cpuid?: CpuIdInfo;
  /** As CpuProfileFile.featureNotes. */
  featureNotes?: Partial<Record<keyof CpuFeatures, string>>;
  /** As CpuProfileFile.notes. */
  notes?: string[];
  /** The clock fields it overrides. */
  clock?: Partial<ClockRange>;
  /** The feature flags it overrides. */
  features?: Partial<CpuFeatures>;
  /** The geometry fields it overrides. */
  geometry?: Partial<CpuProfileFile["geometry"]>;
  /** The op costs it overrides (per op). */
  costs?: Partial<Record<OpClass, CostEntry>>;
}

/**
 * API 2.3: the shape of one cache level.
 * @category CPU profiles
 */
export interface CacheShape {
  /** Capacity in bytes. */
  bytes: number;
  /** Associativity (1 = direct mapped). */
  ways: number;
  /** Line (fill unit) in bytes. */
  lineBytes: number;
}

/**
 * API 2.3: a CPU's caches as the core's cache model keeps them (one set per CPU).
 * @category CPU profiles
 */
export interface CacheGeometry {
  /** The L1 instruction cache (the P4: an instruction-cache equivalent of its trace cache). */
  l1i: CacheShape;
  /** The L1 data cache. */
  l1d: CacheShape;
  /** The unified second level. */
  l2: CacheShape;
  /** The L2 holds only what L1 does not (the K7). */
  l2Exclusive: boolean;
  /** A store that misses L1D allocates the line (false: the Pentium). */
  l1dWriteAllocate: boolean;
  /** API 2.4: an entry through the IDT empties the L1I (the P4's trace cache). Absent: false. */
  l1iClearedByInterrupt?: boolean;
}

/**
 * A profile resolved for one clock: what the simulator consumes (k.profile).
 * @category CPU profiles
 */
export interface ResolvedProfile {
  /** The profile's id. */
  id: string;
  /** Its display name. */
  name: string;
  /** Its vendor. */
  vendor: string;
  /** The clock of this run, MHz (cycles per microsecond). */
  mhz: number;
  /** Its feature flags. */
  features: CpuFeatures;
  /** Bytes per cache line. */
  cacheLineBytes: number;
  /** First-level data TLB entries. */
  dtlbEntries: number;
  /** L1 data cache, KB. */
  l1dKB: number;
  /** L2 cache, KB. */
  l2KB: number;
  /** XMM registers visible (8 on i386, 16 in 64-bit mode). */
  xmmRegs: number;
  /** Bytes of the XSAVE area for the enabled components (512 with FXSR only, 108 with fsave only). */
  xsaveBytes: number;
  /** cycles per op class (the SMP ones, API 2.2, and the memory hierarchy's, API 2.3: NaN when the profile leaves them out) */
  costs: Record<OpClass, number> & Partial<Record<SmpOpClass, number>> & Partial<Record<MachineOpClass, number>>;
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
