/**
 * @siglab/core/cache: the content-addressed cache (Node only) that the CLI and the app's node side
 * share: the user's cache folder, verified entries in a bounded store, run keys and stored results.
 */
export { userCacheDir } from "./folder.js";
export { sha256Hex, encodeEntry, decodeEntry } from "./entry.js";
export { canonicalJson } from "./canonical.js";
export { CacheStore, type CacheStoreInfo, type CacheStoreOptions } from "./store.js";
export { runKey, RUN_KEY_FORMAT, type RunKeyInput } from "./run-key.js";
export { simulatorVersion } from "./simulator-version.js";
export { openRunCache, RunCache, DEFAULT_RESULT_CACHE_MB, type CachedRunResult } from "./run-cache.js";
