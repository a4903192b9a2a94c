/** The profile file and resolved profile types are part of the plugin API (plugins contribute profiles). */
export type { Provenance, CostEntry, RelativeCost, SourcedNumber, CpuFeatures, ClockRange, CpuProfileFile, CpuIdInfo, CpuProfileSource, ResolvedProfile, CacheGeometry, CacheShape } from "@siglab/plugin-api";
