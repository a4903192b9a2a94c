/** Experiment bundles: format v1 read/write, migrations, result comparison and summaries. */
export { BundleError, type BundleErrorCode } from "./errors.js";
export { DEFAULT_LIMITS, resolveLimits, type BundleLimits } from "./limits.js";
export { BUNDLE_MAX_TOTAL_SECONDS, BUNDLE_SECONDS_PER_RUN, bundleTotalSeconds } from "./budget.js";
export {
  FORMAT_VERSION,
  ENTRY,
  type AvailablePlugin,
  type Bundle,
  type BundleInput,
  type BundleManifest,
  type BundlePluginInput,
  type BundlePluginRef,
} from "./format.js";
export { writeBundle, writeBundleWithInfo } from "./write.js";
export { readBundle, checkBuiltinPlugins, type ReadBundleOptions } from "./read.js";
export { migrateBundle, detectFormatVersion, MIGRATIONS, type Migration, type MigrationOutcome, type BundleFiles } from "./migrate.js";
export { compareResults, type Comparison, type ResultDifference } from "./compare.js";
export { summarizeMarkdown } from "./summary.js";
export { sha256Hex, hashFileSet } from "./hash.js";
export { unsafeEntryReason } from "./paths.js";
export { embeddedPluginSources } from "./embedded.js";
export { cpuLabel, formatParams, formatVariants, runLabel } from "./labels.js";
export { PUBLISHED_SCHEMAS, ManifestSchema, ExperimentFileSchema, PluginsFileSchema, ShardFileSchema } from "./schema.js";
export { shardIndices, shardInfo, formatRunNumbers, type ShardInfo } from "./shard.js";
export { mergeBundles, type MergePart, type MergeOptions } from "./merge.js";
