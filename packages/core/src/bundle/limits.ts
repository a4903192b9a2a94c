/** Size limits for reading a bundle: checked against declared sizes and against inflated bytes. */

export interface BundleLimits {
  /** Size of the bundle file itself. */
  maxBundleBytes: number;
  /** Number of zip entries (directories included). */
  maxEntries: number;
  /** Uncompressed bytes of one entry. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxBundleBytes: 64 * MiB,
  maxEntries: 2000,
  maxEntryBytes: 32 * MiB,
  maxTotalBytes: 128 * MiB,
});

export function resolveLimits(partial?: Partial<BundleLimits>): BundleLimits {
  return { ...DEFAULT_LIMITS, ...(partial ?? {}) };
}
