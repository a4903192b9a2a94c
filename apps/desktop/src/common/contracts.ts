/**
 * The contracts owned by other packages, imported in one place so a moved file is fixed once.
 * Types only: nothing here pulls simulator code into the main process or the renderer thread.
 */
export type {
  CpuRef,
  ExperimentConfig,
  ParamValue,
  RunBudget,
  RunSpec,
  VariantSpec,
  WorkloadRef,
} from "@siglab/core/common";
export type {
  Finding,
  Metric,
  PathOpStat,
  PathStat,
  RunError,
  RunProgress,
  RunResult,
  TimelineEvent,
} from "@siglab/core/common";
export type { PluginManifest, PluginOptionSpec } from "@siglab/core/plugin-api";
export type { CpuProfileFile } from "@siglab/cpu-profiles";
