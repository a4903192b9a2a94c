import type { OpClass } from "./op-classes.js";

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
}

export interface SourcedNumber {
  value: number;
  kind: Provenance;
  source: string;
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
  id: string;
  name: string;
  vendor: string;
  description: string;
  /** Optional parent profile id whose fields this one overrides (deep merge; costs per op). */
  inherits?: string;
  clock: ClockRange;
  features: CpuFeatures;
  geometry: {
    cacheLineBytes: SourcedNumber;
    dtlbEntries: SourcedNumber;
    l1dKB: SourcedNumber;
    l2KB: SourcedNumber;
    /** Number of XMM registers architecturally visible (8 on i386, 16 in 64-bit mode). */
    xmmRegs: SourcedNumber;
    /** Bytes of the XSAVE area for the enabled components (512 when only FXSR). */
    xsaveBytes: SourcedNumber;
  };
  costs: Record<OpClass, CostEntry>;
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
  costs: Record<OpClass, number>;
  /** The full file (for provenance display and bundles). */
  file: CpuProfileFile;
}
