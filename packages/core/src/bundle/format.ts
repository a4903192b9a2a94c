/** Bundle format v1: entry names, the in-memory Bundle, and what writeBundle takes. */
import type { ExperimentConfig, RunResult } from "../common/index.js";
import type { CpuProfileFile } from "@siglab/cpu-profiles";
import type { BundleManifest, BundlePluginRef } from "./schema.js";
import type { ShardInfo } from "./shard.js";

export type { BundleManifest, BundlePluginRef } from "./schema.js";
export type { CpuProfileFile };

/** The newest format this code reads and the one it writes. */
export const FORMAT_VERSION = 1;

export const ENTRY = {
  manifest: "manifest.json",
  experiment: "experiment.json",
  plugins: "plugins.json",
  results: "results.json",
  summary: "summary.md",
  /** only in a part written with --shard i/n (which runs results.json holds) */
  shard: "shard.json",
} as const;

export const workloadEntry = (id: string): string => `workloads/${id}.ts`;
export const profileEntry = (id: string): string => `profiles/${id}.json`;
export const pluginPrefix = (id: string): string => `plugins/${id}/`;
export const CHART_ENTRY = /^charts\/[A-Za-z0-9][A-Za-z0-9._@+~-]*\.(svg|png)$/;

/** An opened bundle (always at FORMAT_VERSION: older ones are migrated on read). */
export interface Bundle {
  fileName: string;
  manifest: BundleManifest;
  /** The experiment with the workload source filled in from its entry. */
  experiment: ExperimentConfig;
  profiles: CpuProfileFile[];
  plugins: BundlePluginRef[];
  /** Code of embedded plugins: plugin id → path inside the plugin folder → bytes. */
  embeddedPlugins: Record<string, Record<string, Uint8Array>>;
  results: RunResult[];
  summary: string;
  /** charts/<name> → bytes */
  charts: Record<string, Uint8Array>;
  /** Set when the file was in an older format and was migrated while reading. */
  migratedFrom?: number;
  /** Things the user should know that do not stop the bundle from opening. */
  warnings: string[];
  /**
   * Set when the bundle is one part of a sharded experiment (--shard i/n): results holds only the
   * runs shard.runs names, in that order. `bundle merge` joins the parts.
   */
  shard?: ShardInfo;
}

export type BundlePluginInput =
  | { source: "builtin"; id: string; version: string; hash?: string; apiVersion?: string; displayName?: string }
  | {
      source: "embedded";
      id: string;
      version: string;
      apiVersion?: string;
      displayName?: string;
      /** The plugin folder's files (plugin.json and its JS), path relative to the folder. */
      files: Record<string, Uint8Array | string>;
    };

export interface BundleInput {
  experiment: ExperimentConfig;
  /** The exact profiles the runs used, one per distinct CPU id of the experiment. */
  profiles: CpuProfileFile[];
  /** Every plugin a variant stack names. */
  plugins: BundlePluginInput[];
  results: RunResult[];
  appVersion: string;
  /** ISO time; pass it for byte-identical output (default: now). */
  createdAt?: string;
  /** Default: summarizeMarkdown(results, experiment). */
  summary?: string;
  /** file name under charts/ (.svg or .png) → content */
  charts?: Record<string, Uint8Array | string>;
  /** Write a part of a sharded experiment: results are the runs of slice index of count (shardIndices). */
  shard?: { index: number; count: number };
}

/** What readers know about the built-in plugins of this SigLab. */
export interface AvailablePlugin {
  id: string;
  version: string;
  hash?: string;
}
